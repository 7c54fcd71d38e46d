/* mirror.c: GMP's operand draws, shared with other libraries (see
 * mirror.h).  The compatible tests draw theirs here; for the ext tests any
 * change to a GMP test's setup must be made here too; tests/t0410-openssl.sh
 * notices a divergence because the digests of a GMP test and its mirror
 * then differ. */
#include "engine/guard.h"

#include "engine/mirror.h"
#include "engine/operand.h"

void
mirror_gmpbench_operands (unsigned stream, long a, long b, mpz_t x, mpz_t y)
{
  gmp_randstate_t rs;
  gb_gmpbench_randinit (rs, stream);
  mpz_inits (x, y, NULL);
  mpz_urandomb (x, rs, (unsigned long) a);
  if (b == 0)
    mpz_set (y, x);
  else
    mpz_urandomb (y, rs, (unsigned long) b);
  gmp_randclear (rs);
}

void
mirror_invert (const char *name, unsigned stream, long bits, mpz_t x, mpz_t m)
{
  struct gb_rng r;
  mpz_t g;
  gb_rng_init (&r, name, stream);
  mpz_inits (x, m, g, NULL);
  gb_rng_mpz (m, &r, (unsigned long) bits);
  mpz_setbit (m, 0);
  unsigned long draws = 0;
  do
    {
      guard_step (&draws, 1000, "mpz_gcd", "1000 random operands were none prime to the modulus");
      gb_rng_mpz_below (x, &r, m);
      mpz_gcd (g, x, m);
    }
  while (mpz_cmp_ui (g, 1) != 0);
  mpz_clear (g);
}

void
mirror_powm (const char *name, unsigned stream, long bits, mpz_t x, mpz_t e, mpz_t m)
{
  struct gb_rng r;
  gb_rng_init (&r, name, stream);
  mpz_inits (x, e, m, NULL);
  gb_rng_mpz (m, &r, (unsigned long) bits);
  mpz_setbit (m, 0);
  gb_rng_mpz_below (x, &r, m);
  gb_rng_mpz (e, &r, (unsigned long) bits);
}
