/* unit-operand.c: the operand generators give fixed, known bits.  These
 * vectors pin the sequences: if they change, every reference digest
 * changes, and results stop comparing across versions.  GMPbench's
 * generator must also be exactly gmp_randinit_default, which GMPbench
 * uses, or the compatible tests would not measure GMPbench's numbers. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "engine/operand.h"
#include "tests/check.h"

int
main (void)
{
  struct gb_rng r;
  gb_rng_init (&r, "gmpbench.base.multiply.128", 0);
  uint64_t first = gb_rng_next (&r);
  uint64_t second = gb_rng_next (&r);
  check (first == UINT64_C (0xc15222c15b99654a), "first word of the multiply.128 stream is %016llx",
         (unsigned long long) first);
  check (second == UINT64_C (0xc1df5b059c0fb289), "second word is %016llx", (unsigned long long) second);

  struct gb_rng a, b;
  gb_rng_init (&a, "x", 0);
  gb_rng_init (&b, "x", 1);
  check (gb_rng_next (&a) != gb_rng_next (&b), "streams 0 and 1 differ");

  mpz_t z;
  mpz_init (z);
  gb_rng_init (&r, "gmpbench.base.multiply.128", 0);
  gb_rng_mpz (z, &r, 100);
  check (mpz_sizeinbase (z, 2) == 100, "gb_rng_mpz(100) has exactly 100 bits");
  char *hex = mpz_get_str (NULL, 16, z);
  check (strcmp (hex, "d9c0fb289c15222c15b99654a") == 0, "the 100-bit operand is %s", hex);
  free (hex);

  gmp_randstate_t ours, theirs;
  mpz_t y;
  mpz_init (y);
  gb_gmpbench_randinit (ours, 0);
  gmp_randinit_default (theirs);
  mpz_urandomb (z, ours, 128);
  mpz_urandomb (y, theirs, 128);
  hex = mpz_get_str (NULL, 16, z);
  check (strcmp (hex, "7647f3c382902d2f58d2754b39bca874") == 0,
         "GMPbench's first 128-bit operand is %s", hex);
  free (hex);
  check (mpz_cmp (z, y) == 0, "stream 0 is gmp_randinit_default's sequence");
  gmp_randclear (ours);
  gb_gmpbench_randinit (ours, 1);
  mpz_urandomb (z, ours, 100);
  hex = mpz_get_str (NULL, 16, z);
  check (strcmp (hex, "75da0d7d2c6edf0ce8277b93b") == 0, "stream 1's first 100-bit operand is %s", hex);
  free (hex);
  gmp_randclear (ours);
  gmp_randclear (theirs);
  mpz_clear (y);

  gb_rng_init (&r, "primes", 0);
  gb_rng_prime (z, &r, 256, 65537);
  check (mpz_sizeinbase (z, 2) == 256 && mpz_probab_prime_p (z, 30) > 0,
         "gb_rng_prime(256) is a 256-bit prime");
  mpz_t n;
  mpz_init_set_ui (n, 1000);
  gb_rng_init (&r, "below", 0);
  int in_range = 1;
  for (int i = 0; i < 1000; i++)
    {
      gb_rng_mpz_below (z, &r, n);
      in_range &= mpz_cmp (z, n) < 0 && mpz_sgn (z) >= 0;
    }
  check (in_range, "gb_rng_mpz_below stays in [0, n)");
  mpz_clears (z, n, NULL);
  return check_exit_status ();
}
