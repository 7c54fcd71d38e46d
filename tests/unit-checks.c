/* unit-checks.c: every correctness check catches a deliberately wrong
 * result, every test's check accepts its right one, and a program whose
 * code serves several refuses a test of a program it does not run. */
#include <string.h>
#include <gmp.h>
#include "engine/check.h"
#include "engine/runner.h"
#include "model/registry.h"
#include "tests/check.h"
#include "suites/programs.h"

/* The digest of the gcd of A and B with its witness, S a cofactor of A. */
static void
witness_digest (unsigned char md[32], const mpz_t a, const mpz_t b, const mpz_t g,
                const mpz_t s)
{
  struct gb_sha256 h;
  gb_sha256_init (&h);
  digest_gcd_witness (&h, a, b, g, s);
  gb_sha256_final (&h, md);
}

/* The gcd's witness depends on the operands, not only on the gcd, and not
 * on which cofactor a right library returns. */
static void
gcd_witness (const mpz_t a, const mpz_t b)
{
  mpz_t g, s, q, a2;
  unsigned char d1[32], d2[32];
  mpz_inits (g, s, q, a2, NULL);
  mpz_gcdext (g, s, NULL, a, b);
  witness_digest (d1, a, b, g, s);
  mpz_divexact (q, b, g);
  mpz_add (s, s, q);
  witness_digest (d2, a, b, g, s);
  check (memcmp (d1, d2, 32) == 0,
         "the gcd's witness is the same for the cofactors S and S + B/G");
  mpz_add (a2, a, b);
  mpz_gcdext (q, s, NULL, a2, b);
  witness_digest (d2, a2, b, q, s);
  check (mpz_cmp (q, g) == 0 && memcmp (d1, d2, 32) != 0,
         "operands with the same gcd have another digest with the witness");
  mpz_clears (g, s, q, a2, NULL);
}

/* The setup that the variants of a file share (program_variant) fails a
 * test row naming a program it does not run, and names the program. */
static void
unknown_variant (const char *test)
{
  const struct bench_test *real = registry_find (test);
  if (!real)
    {
      check (0, "%s is in the registry", test);
      return;
    }
  struct bench_test wrong = *real;
  struct bench_error err = { 0 };
  wrong.program = "unit.nonesuch";
  void *state = program_ops (real)->setup (&wrong, 0, &err);
  check (!state && err.outcome == BENCH_FAILED && strstr (err.message, "unit.nonesuch"),
         "the setup of %s's program refuses another program's row (%s)", test, err.message);
}

int
main (void)
{
  mpz_t a, b, c, q, g, s, t;
  mpz_inits (a, b, c, q, g, s, t, NULL);
  mpz_set_str (a, "123456789012345678901234567890123456789", 10);
  mpz_set_str (b, "98765432109876543210987654321", 10);

  mpz_mul (c, a, b);
  check (check_product (a, b, c), "a right product passes");
  mpz_add_ui (c, c, 1);
  check (!check_product (a, b, c), "a product off by one is caught");
  mpz_sub_ui (c, c, 1);
  mpz_setbit (c, 3000);
  check (!check_product (a, b, c), "a product with a stray high bit is caught");

  mpz_tdiv_q (q, a, b);
  check (check_tdiv_q (a, b, q), "a right quotient passes");
  mpz_add_ui (q, q, 1);
  check (!check_tdiv_q (a, b, q), "a quotient off by one is caught");

  mpz_gcdext (g, s, t, a, b);
  check (check_gcd_bezout (a, b, g, s, t), "a right gcd with its cofactors passes");
  mpz_mul_ui (g, g, 3);
  check (!check_gcd_bezout (a, b, g, s, t), "a wrong gcd is caught");
  gcd_witness (a, b);

  /* A wrong digest source: different numbers give different digests, the
   * same number the same digest. */
  struct gb_sha256 h1, h2;
  unsigned char d1[32], d2[32];
  gb_sha256_init (&h1);
  gb_sha256_init (&h2);
  digest_mpz (&h1, a);
  digest_mpz (&h2, b);
  gb_sha256_final (&h1, d1);
  gb_sha256_final (&h2, d2);
  check (memcmp (d1, d2, 32) != 0, "different numbers have different digests");
  mpz_clears (a, b, c, q, g, s, t, NULL);

  /* Each fast test's own check passes on its own result (one repetition). */
  volatile sig_atomic_t never = 0;
  const char *names[] = {
    "gmpbench.base.multiply.512,512", "gmpbench.base.divide.8192,4096",
    "gmpbench.base.gcd.512,512", "gmpbench.base.gcdext.512,512",
    "gmpbench.app.rsa.512", "gmpbench.app.pi.10000", "ext.rsa.verify.512",
    "ext.rsa.sign-sec.512", "ext.sqrt.8192", "ext.root.8192,3", "ext.invert.512",
    "ext.fac.10000", "ext.prime.random.512", "ext.prime.prime.512",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      const struct bench_test *bt = registry_find (names[i]);
      struct test_result r;
      if (!bt)
        {
          check (0, "%s is in the registry", names[i]);
          continue;
        }
      runner_run_test (bt, program_ops (bt), NULL, 0, &r, &never);
      check (r.outcome == BENCH_OK && strlen (r.digest) == 64,
             "%s checks its own result (%s)", names[i], r.message);
    }
  unknown_variant ("ext.powm.512");
  unknown_variant ("ext.dsa.verify.1024");
  unknown_variant ("openssl.rsa.sign.512");
  return check_exit_status ();
}
