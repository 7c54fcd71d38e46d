/* dl_key.c: Diffie-Hellman and DSA key material (see dl_key.h). */
#include "engine/dl_key.h"

#include <stdio.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include "engine/bn_convert.h"
#include "engine/guard.h"
#include "engine/operand.h"

static const struct
{
  unsigned long bits, exponent_bits;
} ffdhe_groups[] = {
  { 2048, 225 }, { 3072, 275 }, { 4096, 325 }, { 6144, 375 }, { 8192, 400 },
};

/* The prime of ffdheBITS, from OpenSSL; 0 or -1. */
static int
ffdhe_prime (mpz_t p, unsigned long bits)
{
  char name[16];
  EVP_PKEY *params = NULL;
  BIGNUM *bp = NULL;
  snprintf (name, sizeof name, "ffdhe%lu", bits);
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name (NULL, "DH", NULL);
  OSSL_PARAM set[] = {
    OSSL_PARAM_construct_utf8_string (OSSL_PKEY_PARAM_GROUP_NAME, name, 0),
    OSSL_PARAM_construct_end ()
  };
  int ok = ctx && EVP_PKEY_paramgen_init (ctx) > 0 && EVP_PKEY_CTX_set_params (ctx, set) > 0
    && EVP_PKEY_paramgen (ctx, &params) > 0
    && EVP_PKEY_get_bn_param (params, OSSL_PKEY_PARAM_FFC_P, &bp) > 0;
  if (ok)
    bn_to_mpz (p, bp);
  BN_free (bp);
  EVP_PKEY_free (params);
  EVP_PKEY_CTX_free (ctx);
  return ok ? 0 : -1;
}

int
dh_key_generate (struct dh_key *k, unsigned long bits, unsigned stream)
{
  char name[32];
  struct gb_rng r;
  unsigned long xbits = 0;
  for (size_t i = 0; i < sizeof ffdhe_groups / sizeof ffdhe_groups[0]; i++)
    if (ffdhe_groups[i].bits == bits)
      xbits = ffdhe_groups[i].exponent_bits;
  mpz_inits (k->p, k->g, k->x, k->pub, k->y, k->peer, NULL);
  k->bits = bits;
  if (xbits == 0 || ffdhe_prime (k->p, bits) != 0)
    return -1;
  mpz_set_ui (k->g, 2);
  snprintf (name, sizeof name, "dh-key.%lu", bits);
  gb_rng_init (&r, name, stream);
  gb_rng_mpz (k->x, &r, xbits);
  gb_rng_mpz (k->y, &r, xbits);
  mpz_powm (k->pub, k->g, k->x, k->p);
  mpz_powm (k->peer, k->g, k->y, k->p);
  return 0;
}

void
dh_key_clear (struct dh_key *k)
{
  mpz_clears (k->p, k->g, k->x, k->pub, k->y, k->peer, NULL);
}

/* A prime p of L bits with p = 1 mod Q. */
static void
dsa_prime (mpz_t p, struct gb_rng *r, unsigned long L, const mpz_t q)
{
  mpz_t q2, rem;
  mpz_inits (q2, rem, NULL);
  mpz_mul_2exp (q2, q, 1);
  /* About L * ln 2 / 2 candidates p = 1 mod 2q before a prime. */
  unsigned long candidates = 0;
  do
    {
      guard_step (&candidates, 20 * L, "mpz_probab_prime_p",
                  "no prime p = 1 mod 2q among 20 candidates per bit");
      gb_rng_mpz (p, r, L);
      mpz_mod (rem, p, q2);
      mpz_sub (p, p, rem);
      mpz_add_ui (p, p, 1);
    }
  while (mpz_sizeinbase (p, 2) != L || !mpz_probab_prime_p (p, 30));
  mpz_clears (q2, rem, NULL);
}

void
dsa_key_generate (struct dsa_key *k, unsigned long L, unsigned long N, unsigned stream)
{
  char name[48];
  struct gb_rng r;
  mpz_t e, h;
  snprintf (name, sizeof name, "dsa-key.%lu,%lu", L, N);
  gb_rng_init (&r, name, stream);
  k->L = L;
  k->N = N;
  mpz_inits (k->p, k->q, k->g, k->x, k->y, e, h, NULL);
  gb_rng_prime (k->q, &r, N, 0);
  dsa_prime (k->p, &r, L, k->q);
  mpz_sub_ui (e, k->p, 1);
  mpz_divexact (e, e, k->q);
  unsigned long tries = 0;
  for (mpz_set_ui (h, 2);; mpz_add_ui (h, h, 1))
    {
      guard_step (&tries, 1000, "mpz_powm", "h^((p-1)/q) mod p was 1 for 1000 values of h");
      mpz_powm (k->g, h, e, k->p);
      if (mpz_cmp_ui (k->g, 1) != 0)
        break;
    }
  unsigned long draws = 0;
  do
    {
      guard_step (&draws, 1000, "mpz_sgn", "1000 random keys below q were all 0");
      gb_rng_mpz_below (k->x, &r, k->q);
    }
  while (mpz_sgn (k->x) == 0);
  mpz_powm (k->y, k->g, k->x, k->p);
  mpz_clears (e, h, NULL);
}

void
dsa_key_clear (struct dsa_key *k)
{
  mpz_clears (k->p, k->q, k->g, k->x, k->y, NULL);
}
