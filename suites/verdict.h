/* verdict.h: how a program's check ends (engine/bench.h), and how its
 * setup fails.  A result that passed goes into the digest and check
 * returns 0; one that did not fails the test with a message saying what
 * was wrong, and check returns -1.  Written once here so that no program
 * digests a result it found wrong or passes one without digesting it, and
 * no failed setup leaves what it made behind. */
#ifndef GB_VERDICT_H
#define GB_VERDICT_H

#include <gmp.h>
#include "engine/bench.h"

/* When OK, RESULT into DIGEST and 0; else the test failed in ERR with the
 * message FMT (printf-style), and -1. */
int verdict_mpz (int ok, const mpz_t result, struct gb_sha256 *digest, struct bench_error *err,
                 const char *fmt, ...) __attribute__ ((format (printf, 5, 6)));

/* The end of a setup that failed: the test failed in ERR with the message
 * FMT (printf-style), what STATE holds freed by the program's TEARDOWN, and
 * NULL, for setup to return. */
void *verdict_setup_failed (struct bench_error *err, void (*teardown) (void *state), void *state,
                            const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));

/* The same for a key generation test of every library but GMP, whose keys
 * are random: when OK (the last key has BITS bits and e = 65537, and signs
 * and verifies), what every correct generator shares (rsa_keygen_digest)
 * into DIGEST and 0; else LIBRARY's key named as wrong in ERR, and -1. */
int verdict_rsa_keygen (int ok, const char *library, unsigned long bits,
                        struct gb_sha256 *digest, struct bench_error *err);

#endif
