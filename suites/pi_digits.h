/* pi_digits.h: the check shared by the pi tests.
 *
 * Every pi test computes floor(pi * 10^N), whatever its algorithm, and
 * checks it the same way: N+1 decimal digits whose SHA-256 matches a digest
 * computed independently (by the Gauss-Legendre AGM iteration) for the
 * sizes the registry uses.
 */
#ifndef GB_PI_DIGITS_H
#define GB_PI_DIGITS_H

#include <gmp.h>
#include "engine/bench.h"

/* Checks that DIGITS is floor(pi * 10^N) and feeds its decimal digits into
 * DIGEST; 0, or -1 after bench_fail. */
int pi_digits_check (const mpz_t digits, long n, struct gb_sha256 *digest,
                     struct bench_error *err);

#endif
