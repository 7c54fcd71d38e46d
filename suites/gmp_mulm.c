/* gmp_mulm.c: modular multiplication with GMP, the `ext.mulm` tests.
 *
 * GMP has no modular multiplication of its own; a caller multiplies and
 * reduces, mpz_mul then mpz_mod, and that pair is what libgcrypt's
 * gcry_mpi_mulm is compared with.  Operands are drawn as ext.powm.N draws
 * them (mirror_powm, under the name ext.mulm.N): an odd modulus M of N
 * bits, X < M, and Y of N bits.  Check recomputes the product with
 * mpz_mul and verifies it with check_product (word-sized primes), then
 * verifies the residue by an exact division: X*Y - R is a multiple of M
 * and 0 <= R < M. */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "suites/verdict.h"

struct mulm_state
{
  mpz_t x, y, m, t, r;
};

static void *
mulm_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct mulm_state *s = gb_xmalloc (sizeof *s);
  char name[64];
  (void) err;
  snprintf (name, sizeof name, "ext.mulm.%ld", t->a);
  mirror_powm (name, stream, t->a, s->x, s->y, s->m);
  mpz_init2 (s->t, 2 * (mp_bitcnt_t) t->a + 64);
  mpz_init2 (s->r, (mp_bitcnt_t) t->a + 64);
  return s;
}

RUN_LOOP (mulm_run, struct mulm_state, {
  mpz_mul (s->t, s->x, s->y);
  mpz_mod (s->r, s->t, s->m);
})

static int
mulm_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct mulm_state *s = state;
  mpz_t prod, diff;
  mpz_inits (prod, diff, NULL);
  mpz_mul (prod, s->x, s->y);
  mpz_sub (diff, prod, s->r);
  int ok = check_product (s->x, s->y, prod) && mpz_sgn (s->r) >= 0
    && mpz_cmp (s->r, s->m) < 0 && mpz_divisible_p (diff, s->m);
  mpz_clears (prod, diff, NULL);
  return verdict_mpz (ok, s->r, digest, err, "mpz_mul and mpz_mod gave a wrong residue");
}

static void
mulm_teardown (void *state)
{
  struct mulm_state *s = state;
  mpz_clears (s->x, s->y, s->m, s->t, s->r, NULL);
  free (s);
}

const struct bench_ops gmp_mulm_ops = { mulm_setup, mulm_run, mulm_check, mulm_teardown };
