/* dsa_math.h: DSA signing and verification with GMP (FIPS 186-4, 4.6 and
 * 4.7), used by GMP's DSA tests and, as the independent route, to check
 * OpenSSL's signatures and to make the signatures OpenSSL verifies.
 *
 *   sign    r = (g^k mod p) mod q,  s = k^-1 (H + x r) mod q
 *   verify  w = s^-1,  v = (g^(H w) y^(r w) mod p) mod q,  valid if v = r
 *
 * H is the leftmost min(N, 256) bits of a 32-byte digest, as OpenSSL
 * takes it.  The nonce k is the caller's, so GMP's signatures are
 * deterministic.  With SEC, the exponentiations use mpz_powm_sec and k^-1
 * is computed as k^(q-2) mod q, also with mpz_powm_sec. */
#ifndef GB_DSA_MATH_H
#define GB_DSA_MATH_H

#include <gmp.h>
#include "engine/dl_key.h"

#define DSA_DIGEST 32

/* Temporaries, so that the timed loops allocate nothing. */
struct dsa_scratch
{
  mpz_t t, u, w;
};

void dsa_scratch_init (struct dsa_scratch *s, const struct dsa_key *k);
void dsa_scratch_clear (struct dsa_scratch *s);

/* The inputs of a DSA test: N digests of DSA_DIGEST bytes and, for GMP's
 * signatures, N nonces in [1, q-1] (initialised here). */
void dsa_test_inputs (const struct dsa_key *k, unsigned stream, int n,
                      unsigned char (*digests)[DSA_DIGEST], mpz_t *nonces);

/* H from a DSA_DIGEST-byte digest. */
void dsa_hash_value (mpz_t h, const unsigned char *digest, const struct dsa_key *k);

void dsa_sign_gmp (mpz_t r, mpz_t s, const struct dsa_key *k, const mpz_t h,
                   const mpz_t nonce, struct dsa_scratch *sc, int sec);

/* 1 if (R, S) is a valid signature of H. */
int dsa_verify_gmp (const struct dsa_key *k, const mpz_t h, const mpz_t r, const mpz_t s,
                    struct dsa_scratch *sc);

#endif
