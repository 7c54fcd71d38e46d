/* rng_sanity.h: a quick statistical sanity check of random bytes.
 *
 * Not a test of randomness, only of gross failure: a generator stuck at a
 * value, returning zeros on error, or badly biased.  The tests are the
 * monobit, runs and long-run tests of FIPS 140-2 (4.9.1) on the first
 * 20000 bits.  A good generator fails them about once in 1400 blocks
 * (mostly the long-run test: a run of 26 equal bits somewhere in 20000),
 * so callers judging a live generator retest on a second block before
 * calling it broken. */
#ifndef GB_RNG_SANITY_H
#define GB_RNG_SANITY_H

#include <stddef.h>

#define RNG_SANITY_BYTES 2500   /* 20000 bits */

/* 0 if the first RNG_SANITY_BYTES of BUF (LEN must be at least that)
 * pass; otherwise -1 with the failed test described in WHY. */
int rng_sanity (const unsigned char *buf, size_t len, char *why, size_t whylen);

#endif
