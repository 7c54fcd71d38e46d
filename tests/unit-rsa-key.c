/* unit-rsa-key.c: RSA key material.  The fixed keys of 7680 and 15360 bits
 * are primes of the form the generator makes, and every key is a working
 * RSA key (n = p*q, e*d = 1 modulo lcm(p-1, q-1), CRT constants right). */
#include <gmp.h>
#include "engine/key_cache.h"
#include "engine/rsa_key.h"
#include "tests/check.h"

static int
well_formed_prime (const mpz_t p, unsigned long bits)
{
  mpz_t pm1;
  mpz_init (pm1);
  mpz_sub_ui (pm1, p, 1);
  int ok = mpz_sizeinbase (p, 2) == bits && mpz_tstbit (p, bits - 2)
    && mpz_probab_prime_p (p, 10) > 0 && mpz_gcd_ui (NULL, pm1, RSA_PUBLIC_EXPONENT) == 1;
  mpz_clear (pm1);
  return ok;
}

static void
check_key (unsigned long bits)
{
  struct rsa_key k;
  mpz_t t, lcm, pm1, qm1;
  rsa_key_generate (&k, bits);
  mpz_inits (t, lcm, pm1, qm1, NULL);
  check (well_formed_prime (k.p, bits / 2) && well_formed_prime (k.q, bits - bits / 2),
         "%lu-bit key: p and q are primes of %lu bits with the top two bits set", bits, bits / 2);
  mpz_mul (t, k.p, k.q);
  check (mpz_cmp (t, k.n) == 0 && mpz_sizeinbase (k.n, 2) == bits && mpz_cmp (k.p, k.q) > 0,
         "%lu-bit key: n = p*q has %lu bits and p > q", bits, bits);
  mpz_sub_ui (pm1, k.p, 1);
  mpz_sub_ui (qm1, k.q, 1);
  mpz_lcm (lcm, pm1, qm1);
  mpz_mul (t, k.e, k.d);
  mpz_mod (t, t, lcm);
  check (mpz_cmp_ui (t, 1) == 0, "%lu-bit key: e*d = 1 mod lcm(p-1, q-1)", bits);
  mpz_mul (t, k.p, k.p_inv_q);
  mpz_mod (t, t, k.q);
  check (mpz_cmp_ui (t, 1) == 0, "%lu-bit key: p * p^-1 = 1 mod q", bits);
  mpz_clears (t, lcm, pm1, qm1, NULL);
  rsa_key_clear (&k);
}

int
main (void)
{
  check_key (512);
  check_key (2048);
  check_key (7680);
  check_key (15360);
  check (key_cache_rsa (1024) == key_cache_rsa (1024), "the key cache hands out one key per size");
  return check_exit_status ();
}
