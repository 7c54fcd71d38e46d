/* gmp_gcd.c: GMPbench's gcd and gcdext programs on GMPbench's operands
 * (operand.h): mpz_gcd, and mpz_gcdext with one cofactor, as GMPbench
 * calls it (mpz_gcdext (g, s, NULL, a, b)).  The ext tree adds gcdext with
 * both cofactors (ext.gcdext.both), a different and slower operation.
 *
 * All are checked by the Bezout identity: G divides A and B, and
 * G = S*A + T*B, which proves G is the gcd.  The gcd test gets its
 * cofactors from mpz_gcdext outside the timed loop; the one-cofactor test
 * recovers T = (G - S*A) / B, which must divide exactly.
 *
 * The gcd of random operands is nearly always 1 or another small number,
 * so the gcd test's digest adds a witness computed outside the timed loop
 * (digest_gcd_witness: the quotients of the operands by G and the inverse
 * of one modulo the other); the gcdext tests' cofactors are witness
 * enough. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/run_loop.h"

struct gcd_state
{
  mpz_t x, y, g, s, t;
};

static void *
gcd_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct gcd_state *s = gb_xmalloc (sizeof *s);
  mirror_gmpbench_operands (stream, t->a, t->b, s->x, s->y);
  mpz_init2 (s->g, t->b + 64);
  mpz_init2 (s->s, t->b + 64);
  mpz_init2 (s->t, t->a + 64);
  return s;
}

RUN_LOOP (gcd_run, struct gcd_state, mpz_gcd (s->g, s->x, s->y))
RUN_LOOP (gcdext_run, struct gcd_state, mpz_gcdext (s->g, s->s, NULL, s->x, s->y))
RUN_LOOP (gcdext_both_run, struct gcd_state, mpz_gcdext (s->g, s->s, s->t, s->x, s->y))

static int
gcd_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct gcd_state *s = state;
  mpz_t g;
  mpz_init (g);
  mpz_gcdext (g, s->s, s->t, s->x, s->y);
  int ok = mpz_cmp (g, s->g) == 0 && check_gcd_bezout (s->x, s->y, s->g, s->s, s->t);
  mpz_clear (g);
  if (!ok)
    {
      bench_fail (err, "mpz_gcd gave a wrong gcd (Bezout identity fails)");
      return -1;
    }
  digest_gcd_witness (digest, s->x, s->y, s->g, s->s);
  return 0;
}

/* T = (G - S*A) / B when B divides it exactly (T = 0 when B is 0 and
 * G = S*A); 0 if it does not. */
static int
other_cofactor (mpz_t t, const mpz_t g, const mpz_t s, const mpz_t a, const mpz_t b)
{
  mpz_mul (t, s, a);
  mpz_sub (t, g, t);
  if (!mpz_divisible_p (t, b))
    return 0;
  if (mpz_sgn (b) != 0)
    mpz_divexact (t, t, b);
  return 1;
}

static int
gcdext_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct gcd_state *s = state;
  if (!other_cofactor (s->t, s->g, s->s, s->x, s->y)
      || !check_gcd_bezout (s->x, s->y, s->g, s->s, s->t))
    {
      bench_fail (err, "mpz_gcdext gave a wrong result (G = S*A + T*B, G | A, G | B fails)");
      return -1;
    }
  digest_mpz (digest, s->g);
  digest_mpz (digest, s->s);
  return 0;
}

static int
gcdext_both_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct gcd_state *s = state;
  if (!check_gcd_bezout (s->x, s->y, s->g, s->s, s->t))
    {
      bench_fail (err, "mpz_gcdext gave a wrong result (G = S*A + T*B, G | A, G | B fails)");
      return -1;
    }
  digest_mpz (digest, s->g);
  digest_mpz (digest, s->s);
  digest_mpz (digest, s->t);
  return 0;
}

static void
gcd_teardown (void *state)
{
  struct gcd_state *s = state;
  mpz_clears (s->x, s->y, s->g, s->s, s->t, NULL);
  free (s);
}

const struct bench_ops gmp_gcd_ops = { gcd_setup, gcd_run, gcd_check, gcd_teardown };
const struct bench_ops gmp_gcdext_ops = { gcd_setup, gcdext_run, gcdext_check, gcd_teardown };
const struct bench_ops gmp_gcdext_both_ops = {
  gcd_setup, gcdext_both_run, gcdext_both_check, gcd_teardown
};
