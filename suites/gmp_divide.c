/* gmp_divide.c: GMPbench's divide program, mpz_tdiv_q of an A-bit number
 * by a B-bit number, GMPbench's operands (operand.h: up to A and B bits, as
 * mpz_urandomb draws them).  Checked by multiplying back: A = Q*B + R with
 * 0 <= R < B. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "suites/verdict.h"

struct divide_state
{
  mpz_t x, y, q;
};

static void *
divide_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct divide_state *s = gb_xmalloc (sizeof *s);
  mirror_gmpbench_operands (stream, t->a, t->b, s->x, s->y);
  if (mpz_sgn (s->y) == 0)
    {
      bench_fail (err, "the divisor drawn for %s is zero", t->name);
      mpz_clears (s->x, s->y, NULL);
      free (s);
      return NULL;
    }
  mpz_init2 (s->q, t->a - t->b + 64);
  return s;
}

RUN_LOOP (divide_run, struct divide_state, mpz_tdiv_q (s->q, s->x, s->y))

static int
divide_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct divide_state *s = state;
  return verdict_mpz (check_tdiv_q (s->x, s->y, s->q), s->q, digest, err,
                      "mpz_tdiv_q gave a wrong quotient (Q*B + R = A with 0 <= R < B fails)");
}

static void
divide_teardown (void *state)
{
  struct divide_state *s = state;
  mpz_clears (s->x, s->y, s->q, NULL);
  free (s);
}

const struct bench_ops gmp_divide_ops = {
  divide_setup, divide_run, divide_check, divide_teardown
};
