/* dl_key.h: deterministic discrete-logarithm key material, shared by
 * GMP's and OpenSSL's Diffie-Hellman and DSA tests so that both compute
 * with the very same numbers.
 *
 * Diffie-Hellman uses the RFC 7919 groups ffdhe2048..ffdhe8192 (their
 * primes are read from OpenSSL, which knows them by name; g = 2) with
 * private exponents of the lengths RFC 7919 section 5.2 recommends and
 * OpenSSL uses: 225, 275, 325, 375 and 400 bits.
 *
 * DSA domain parameters (L-bit p, N-bit q, p = 1 mod q) are generated from
 * the operand stream: q prime, then p = k*q + 1 prime, then g = 2^((p-1)/q)
 * (or the next base giving g != 1).  They are not FIPS 186-4 verifiable
 * (there is no seed), which no library checks when importing them. */
#ifndef GB_DL_KEY_H
#define GB_DL_KEY_H

#include <gmp.h>

struct dh_key
{
  unsigned long bits;
  mpz_t p, g;
  mpz_t x, pub;                 /* our private exponent and g^x */
  mpz_t y, peer;                /* the peer's, and g^y */
};

/* 0, or -1 if OpenSSL does not know the group ffdheBITS. */
int dh_key_generate (struct dh_key *k, unsigned long bits, unsigned stream);
void dh_key_clear (struct dh_key *k);

struct dsa_key
{
  unsigned long L, N;
  mpz_t p, q, g, x, y;          /* y = g^x mod p */
};

void dsa_key_generate (struct dsa_key *k, unsigned long L, unsigned long N, unsigned stream);
void dsa_key_clear (struct dsa_key *k);

#endif
