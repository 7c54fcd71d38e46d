/* check.h: independent checks of big-number results, and their digests.
 *
 * Checks never reuse the operation being checked: a product is checked
 * modulo word-sized primes, a quotient by multiplying back, a gcd by the
 * Bezout identity.  The digest of a result is the SHA-256 of its canonical
 * bytes (sign, length, big-endian magnitude), the same on every platform.
 */
#ifndef GB_CHECK_H
#define GB_CHECK_H

#include <gmp.h>
#include "common/util.h"

/* Whether C == A * B, checked modulo several 32-bit primes. */
int check_product (const mpz_t a, const mpz_t b, const mpz_t c);

/* Whether Q = trunc(A / B), that is A = Q*B + R with 0 <= |R| < |B| and R
 * of the sign of A. */
int check_tdiv_q (const mpz_t a, const mpz_t b, const mpz_t q);

/* Whether G = gcd(A, B), given cofactors S, T with G = S*A + T*B. */
int check_gcd_bezout (const mpz_t a, const mpz_t b, const mpz_t g,
                      const mpz_t s, const mpz_t t);

void digest_mpz (struct gb_sha256 *h, const mpz_t z);

/* Feeds the gcd G of A and B into H with its witness: the quotients A/G
 * and B/G, and S mod B/G, where S is a cofactor of A (G = S*A + T*B), that
 * is the inverse of A/G modulo B/G.  The gcd of random operands is nearly
 * always 1 or another small number, the same for every size; with its
 * witness the digest depends on the operands and on the gcd computation,
 * and it is the same for every cofactor S a correct library can return.
 * The caller has checked G = S*A + T*B with G > 0 dividing A and B. */
void digest_gcd_witness (struct gb_sha256 *h, const mpz_t a, const mpz_t b, const mpz_t g,
                         const mpz_t s);

#endif
