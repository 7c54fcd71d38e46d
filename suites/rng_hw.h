/* rng_hw.h: the CPUs' random number instructions, RDRAND and RDSEED on
 * x86 and RNDR on 64-bit Arm, behind a presence check.
 *
 * Each instruction may fail (the carry flag clear on x86, the Z flag set
 * on Arm) when the hardware cannot keep up; a real caller retries, and so
 * does rng_hw_fill: RDRAND and RNDR a few times per word, as Intel and Arm
 * recommend, RDSEED (which waits for fresh entropy and runs at a fraction
 * of RDRAND's rate) with a pause between tries, many more times.  The
 * retries are part of what is measured. */
#ifndef GB_RNG_HW_H
#define GB_RNG_HW_H

#include <stddef.h>

enum rng_hw { RNG_HW_RDRAND, RNG_HW_RDSEED, RNG_HW_RNDR };

/* 1 if this CPU has the instruction (and the OS lets us use it);
 * otherwise 0 with the reason in WHY. */
int rng_hw_available (enum rng_hw which, char *why, size_t whylen);

/* Fills BUF with LEN bytes; -1 if the instruction still failed after all
 * retries.  Only call when rng_hw_available said yes. */
int rng_hw_fill (enum rng_hw which, unsigned char *buf, size_t len);

#endif
