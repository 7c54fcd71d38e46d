/* rsa_key.h: deterministic RSA key material shared by every library's RSA
 * test, so that GMP, OpenSSL and the others sign with the very same keys.
 * The key of a size depends only on the size: the copies of a --threads
 * run share it and differ in their messages.  Keys of 7680 and 15360 bits
 * come from a fixed table (rsa_key_table.c), since finding their primes
 * takes tens of seconds. */
#ifndef GB_RSA_KEY_H
#define GB_RSA_KEY_H

#include <gmp.h>

#define RSA_PUBLIC_EXPONENT 65537ul

struct rsa_key
{
  unsigned long bits;
  mpz_t n, e, d, p, q;
  mpz_t dp, dq;                 /* d mod (p-1), d mod (q-1) */
  mpz_t p_inv_q;                /* p^-1 mod q, GMPbench's CRT constant */
  mpz_t q_inv_p;                /* q^-1 mod p, PKCS #1's qInv */
};

void rsa_key_generate (struct rsa_key *k, unsigned long bits);

/* The primes of the fixed key of BITS bits, in hex: 1 if the table has
 * that size, else 0. */
int rsa_key_table_lookup (unsigned long bits, const char **p, const char **q);
void rsa_key_clear (struct rsa_key *k);

/* What a key generation test adds to its digest once its key of BITS bits
 * has passed the checks: the same text for every library, so that they
 * all share one reference digest per size. */
struct gb_sha256;
void rsa_keygen_digest (struct gb_sha256 *digest, unsigned long bits);

/* Signing with the Chinese remainder theorem exactly as GMPbench's rsa
 * program does it, with the temporaries supplied by the caller so that the
 * timed loop allocates nothing.  SEC selects mpz_powm_sec. */
struct rsa_scratch
{
  mpz_t pr, qr, t, o;
};
void rsa_scratch_init (struct rsa_scratch *s, unsigned long bits);
void rsa_scratch_clear (struct rsa_scratch *s);
void rsa_sign_crt (mpz_t sig, const mpz_t msg, const struct rsa_key *k,
                   struct rsa_scratch *s, int sec);

#endif
