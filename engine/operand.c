/* operand.c: GMPbench's operand generator and SplitMix64 operands (see
 * operand.h for the design). */
#include "engine/operand.h"

#include <stdlib.h>
#include "common/util.h"
#include "engine/guard.h"

void
gb_gmpbench_randinit (gmp_randstate_t rs, unsigned stream)
{
  gmp_randinit_mt (rs);
  if (stream != 0)
    gmp_randseed_ui (rs, stream);
}

static uint64_t
fnv1a64 (const char *s, uint64_t h)
{
  for (; *s; s++)
    {
      h ^= (unsigned char) *s;
      h *= UINT64_C (0x100000001b3);
    }
  return h;
}

void
gb_rng_init (struct gb_rng *r, const char *name, unsigned stream)
{
  uint64_t h = fnv1a64 (GB_OPERAND_SEED, UINT64_C (0xcbf29ce484222325));
  h = fnv1a64 ("/", h);
  h = fnv1a64 (name, h);
  r->state = h ^ (UINT64_C (0x9e3779b97f4a7c15) * (uint64_t) stream);
}

uint64_t
gb_rng_next (struct gb_rng *r)
{
  uint64_t z = (r->state += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Up to BITS random bits, least significant word first. */
static void
random_bits (mpz_t z, struct gb_rng *r, unsigned long bits)
{
  size_t nwords = (bits + 63) / 64;
  uint64_t *w = gb_xmalloc (nwords * sizeof *w);
  for (size_t i = 0; i < nwords; i++)
    w[i] = gb_rng_next (r);
  if (bits % 64)
    w[nwords - 1] &= (UINT64_C (1) << (bits % 64)) - 1;
  mpz_import (z, nwords, -1, sizeof *w, 0, 0, w);
  free (w);
}

void
gb_rng_mpz (mpz_t z, struct gb_rng *r, unsigned long bits)
{
  if (bits == 0)
    {
      mpz_set_ui (z, 0);
      return;
    }
  random_bits (z, r, bits);
  mpz_setbit (z, bits - 1);
}

void
gb_rng_mpz_below (mpz_t z, struct gb_rng *r, const mpz_t n)
{
  unsigned long draws = 0;
  size_t limbs = mpz_size (n);
  if (mpz_sgn (n) <= 0)
    guard_fail ("the GMP arithmetic that made a bound",
                "a random number below %s was asked for", mpz_sgn (n) ? "a negative bound" : "0");
  if (mpz_getlimbn (n, limbs - 1) == 0)
    guard_fail ("the GMP arithmetic that made a bound",
                "the bound of a random number is malformed (its top limb is 0)");
  unsigned long bits = mpz_sizeinbase (n, 2);
  /* Each draw is below n with probability over 1/2. */
  do
    {
      guard_step (&draws, 1000, "mpz_cmp", "1000 random draws never fell below the bound");
      random_bits (z, r, bits);
    }
  while (mpz_cmp (z, n) >= 0);
}

void
gb_rng_prime (mpz_t p, struct gb_rng *r, unsigned long bits, unsigned long e)
{
  mpz_t pm1;
  unsigned long starts = 0;
  mpz_init (pm1);
  for (;;)
    {
      /* Restarts happen when p - 1 shares a factor with e (1 in e): 100 in
       * a row mean the library is wrong. */
      guard_step (&starts, 100, "mpz_probab_prime_p",
                  "100 prime searches in a row gave no prime of the right form");
      gb_rng_mpz (p, r, bits);
      mpz_setbit (p, bits - 2);
      mpz_setbit (p, 0);
      /* Walk up over odd numbers; restart if we leave the bit size.  The
       * walk finds a prime after about 0.35 * bits odd candidates; one of
       * 20 * bits has probability below e^-50. */
      unsigned long candidates = 0;
      while (mpz_probab_prime_p (p, 30) == 0)
        {
          guard_step (&candidates, 20 * bits, "mpz_probab_prime_p",
                      "no prime among 20 odd candidates per bit of the prime sought");
          mpz_add_ui (p, p, 2);
        }
      if (mpz_sizeinbase (p, 2) != bits)
        continue;
      mpz_sub_ui (pm1, p, 1);
      if (e == 0 || mpz_gcd_ui (NULL, pm1, e) == 1)
        break;
    }
  mpz_clear (pm1);
}
