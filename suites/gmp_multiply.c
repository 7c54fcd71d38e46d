/* gmp_multiply.c: GMPbench's multiply program, mpz_mul.
 *
 * One size means a squaring (mpz_mul with both operands the same number,
 * which GMP detects and computes as a square); two sizes a product of an
 * A-bit and a B-bit number.  The operands are GMPbench's (operand.h), so
 * "A bits" means up to A bits, as mpz_urandomb draws them.  Checked modulo
 * word-sized primes. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/verdict.h"

struct multiply_state
{
  mpz_t x, y, z;
  int square;
};

static void *
multiply_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct multiply_state *s = gb_xmalloc (sizeof *s);
  mirror_gmpbench_operands (stream, t->a, t->b, s->x, s->y);
  s->square = t->b == 0;
  mpz_init2 (s->z, t->a + (s->square ? t->a : t->b) + 64);
  return s;
}

static void
multiply_run (void *state, unsigned long reps)
{
  struct multiply_state *s = state;
  if (s->square)
    for (unsigned long i = 0; i < reps; i++)
      mpz_mul (s->z, s->x, s->x);
  else
    for (unsigned long i = 0; i < reps; i++)
      mpz_mul (s->z, s->x, s->y);
}

static int
multiply_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct multiply_state *s = state;
  return verdict_mpz (check_product (s->x, s->y, s->z), s->z, digest, err,
                      "mpz_mul gave a wrong product (checked modulo word-sized primes)");
}

static void
multiply_teardown (void *state)
{
  struct multiply_state *s = state;
  mpz_clears (s->x, s->y, s->z, NULL);
  free (s);
}

const struct bench_ops gmp_multiply_ops = {
  multiply_setup, multiply_run, multiply_check, multiply_teardown
};
