/* rsa_key.c: deterministic RSA keys and GMPbench's CRT signing (see
 * rsa_key.h). */
#include "engine/rsa_key.h"

#include <stdio.h>
#include "common/util.h"
#include "engine/guard.h"
#include "engine/operand.h"

/* The two primes of the key of BITS bits. */
static void
find_primes (mpz_t p, mpz_t q, unsigned long bits)
{
  const char *phex, *qhex;
  char name[64];
  struct gb_rng r;

  if (rsa_key_table_lookup (bits, &phex, &qhex))
    {
      mpz_set_str (p, phex, 16);
      mpz_set_str (q, qhex, 16);
      return;
    }
  snprintf (name, sizeof name, "rsa-key.%lu", bits);
  gb_rng_init (&r, name, 0);
  unsigned long tries = 0;
  do
    {
      guard_step (&tries, 100, "mpz_cmp", "the prime search gave p = q 100 times");
      gb_rng_prime (p, &r, bits / 2, RSA_PUBLIC_EXPONENT);
      gb_rng_prime (q, &r, bits - bits / 2, RSA_PUBLIC_EXPONENT);
    }
  while (mpz_cmp (p, q) == 0);
}

void
rsa_key_generate (struct rsa_key *k, unsigned long bits)
{
  mpz_t pm1, qm1, phi;

  k->bits = bits;
  mpz_inits (k->n, k->e, k->d, k->p, k->q, k->dp, k->dq, k->p_inv_q, k->q_inv_p, NULL);
  mpz_inits (pm1, qm1, phi, NULL);
  mpz_set_ui (k->e, RSA_PUBLIC_EXPONENT);
  find_primes (k->p, k->q, bits);
  /* PKCS #1 and OpenSSL keep p > q. */
  if (mpz_cmp (k->p, k->q) < 0)
    mpz_swap (k->p, k->q);
  mpz_mul (k->n, k->p, k->q);
  mpz_sub_ui (pm1, k->p, 1);
  mpz_sub_ui (qm1, k->q, 1);
  mpz_lcm (phi, pm1, qm1);
  mpz_invert (k->d, k->e, phi);
  mpz_mod (k->dp, k->d, pm1);
  mpz_mod (k->dq, k->d, qm1);
  mpz_invert (k->p_inv_q, k->p, k->q);
  mpz_invert (k->q_inv_p, k->q, k->p);
  mpz_clears (pm1, qm1, phi, NULL);
}

void
rsa_key_clear (struct rsa_key *k)
{
  mpz_clears (k->n, k->e, k->d, k->p, k->q, k->dp, k->dq, k->p_inv_q, k->q_inv_p, NULL);
}

void
rsa_scratch_init (struct rsa_scratch *s, unsigned long bits)
{
  mpz_init2 (s->pr, bits + 64);
  mpz_init2 (s->qr, bits + 64);
  mpz_init2 (s->t, 2 * bits + 64);
  mpz_init2 (s->o, bits + 64);
}

void
rsa_scratch_clear (struct rsa_scratch *s)
{
  mpz_clears (s->pr, s->qr, s->t, s->o, NULL);
}

void
rsa_sign_crt (mpz_t sig, const mpz_t msg, const struct rsa_key *k,
              struct rsa_scratch *s, int sec)
{
  if (sec)
    {
      mpz_powm_sec (s->pr, msg, k->dp, k->p);
      mpz_powm_sec (s->qr, msg, k->dq, k->q);
    }
  else
    {
      mpz_powm (s->pr, msg, k->dp, k->p);
      mpz_powm (s->qr, msg, k->dq, k->q);
    }
  mpz_sub (s->o, s->qr, s->pr);
  mpz_mul (s->t, s->o, k->p_inv_q);
  mpz_mod (s->o, s->t, k->q);
  mpz_mul (s->t, s->o, k->p);
  mpz_add (sig, s->pr, s->t);
  mpz_mod (sig, sig, k->n);
}

void
rsa_keygen_digest (struct gb_sha256 *digest, unsigned long bits)
{
  char text[80];
  int n = snprintf (text, sizeof text, "rsa keygen: %lu bits, e = %lu, sign+verify round trip",
                    bits, RSA_PUBLIC_EXPONENT);
  gb_sha256_update (digest, text, (size_t) n);
}
