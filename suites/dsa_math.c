/* dsa_math.c: DSA with GMP (see dsa_math.h). */
#include "suites/dsa_math.h"

#include "engine/guard.h"
#include "engine/operand.h"

void
dsa_scratch_init (struct dsa_scratch *s, const struct dsa_key *k)
{
  mpz_init2 (s->t, 2 * k->L + 64);
  mpz_init2 (s->u, k->L + 64);
  mpz_init2 (s->w, k->L + 64);
}

void
dsa_scratch_clear (struct dsa_scratch *s)
{
  mpz_clears (s->t, s->u, s->w, NULL);
}

void
dsa_hash_value (mpz_t h, const unsigned char *digest, const struct dsa_key *k)
{
  size_t bytes = k->N / 8 < DSA_DIGEST ? k->N / 8 : DSA_DIGEST;
  mpz_import (h, bytes, 1, 1, 1, 0, digest);
}

void
dsa_sign_gmp (mpz_t r, mpz_t s, const struct dsa_key *k, const mpz_t h,
              const mpz_t nonce, struct dsa_scratch *sc, int sec)
{
  if (sec)
    {
      mpz_powm_sec (sc->u, k->g, nonce, k->p);
      mpz_sub_ui (sc->w, k->q, 2);
      mpz_powm_sec (sc->w, nonce, sc->w, k->q);
    }
  else
    {
      mpz_powm (sc->u, k->g, nonce, k->p);
      mpz_invert (sc->w, nonce, k->q);
    }
  mpz_mod (r, sc->u, k->q);
  mpz_mul (sc->t, k->x, r);
  mpz_add (sc->t, sc->t, h);
  mpz_mod (sc->t, sc->t, k->q);
  mpz_mul (sc->t, sc->t, sc->w);
  mpz_mod (s, sc->t, k->q);
}

int
dsa_verify_gmp (const struct dsa_key *k, const mpz_t h, const mpz_t r, const mpz_t s,
                struct dsa_scratch *sc)
{
  if (mpz_sgn (r) <= 0 || mpz_cmp (r, k->q) >= 0 || mpz_sgn (s) <= 0 || mpz_cmp (s, k->q) >= 0
      || !mpz_invert (sc->w, s, k->q))
    return 0;
  mpz_mul (sc->t, h, sc->w);
  mpz_mod (sc->u, sc->t, k->q);
  mpz_powm (sc->u, k->g, sc->u, k->p);
  mpz_mul (sc->t, r, sc->w);
  mpz_mod (sc->w, sc->t, k->q);
  mpz_powm (sc->w, k->y, sc->w, k->p);
  mpz_mul (sc->t, sc->u, sc->w);
  mpz_mod (sc->t, sc->t, k->p);
  mpz_mod (sc->t, sc->t, k->q);
  return mpz_cmp (sc->t, r) == 0;
}

void
dsa_test_inputs (const struct dsa_key *k, unsigned stream, int n,
                 unsigned char (*digests)[DSA_DIGEST], mpz_t *nonces)
{
  struct gb_rng r;
  gb_rng_init (&r, "dsa-inputs", stream);
  for (int j = 0; j < n; j++)
    {
      for (int i = 0; i < DSA_DIGEST; i++)
        digests[j][i] = (unsigned char) gb_rng_next (&r);
      mpz_init (nonces[j]);
      unsigned long draws = 0;
      do
        {
          guard_step (&draws, 1000, "mpz_sgn", "1000 random nonces below q were all 0");
          gb_rng_mpz_below (nonces[j], &r, k->q);
        }
      while (mpz_sgn (nonces[j]) == 0);
    }
}
