/* gmp_pi_mpz.c: ext.pi.mpz, the first N decimal digits of pi by the
 * Chudnovsky series with plain binary splitting, all in integers: a
 * shorter and, at large N, faster program than GMPbench's (gmp_pi.c), which
 * was gmpbench's pi test before it measured GMPbench's own algorithm.
 *
 * The measured operation is the whole computation of floor(pi * 10^N) as
 * an integer: the binary splitting of the series, the square root of 10005
 * and the final division, carried with ten guard digits.  Converting the
 * digits to a string (for the check) is outside it, which compares them with
 * known digests (pi_digits.h).  The tests are listed in gmp_ext.c. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "suites/pi_digits.h"
#include "suites/programs.h"
#include "suites/run_loop.h"

#define GUARD_DIGITS 10
#define DIGITS_PER_TERM 14.181647462725477  /* log10(640320^3 / 1728) */

struct pi_state
{
  long digits;
  mpz_t pi;                     /* floor(pi * 10^digits) */
};

/* P, Q, T of the series terms [A, B). */
static void
split (mpz_t p, mpz_t q, mpz_t t, unsigned long a, unsigned long b)
{
  if (b - a == 1)
    {
      if (a == 0)
        {
          mpz_set_ui (p, 1);
          mpz_set_ui (q, 1);
        }
      else
        {
          mpz_set_ui (p, 6 * a - 5);
          mpz_mul_ui (p, p, 2 * a - 1);
          mpz_mul_ui (p, p, 6 * a - 1);
          /* Q = a^3 * 640320^3 / 24 = (26680 a)^3 * 576, in factors that
           * fit an unsigned long on every ABI. */
          mpz_set_ui (q, 26680ul * a);
          mpz_pow_ui (q, q, 3);
          mpz_mul_ui (q, q, 576);
        }
      mpz_set_ui (t, 545140134ul);
      mpz_mul_ui (t, t, a);
      mpz_add_ui (t, t, 13591409ul);
      mpz_mul (t, t, p);
      if (a & 1)
        mpz_neg (t, t);
      return;
    }
  unsigned long m = a + (b - a) / 2;
  mpz_t p2, q2, t2;
  mpz_inits (p2, q2, t2, NULL);
  split (p, q, t, a, m);
  split (p2, q2, t2, m, b);
  /* T = Q2*T1 + P1*T2, P = P1*P2, Q = Q1*Q2 */
  mpz_mul (t, t, q2);
  mpz_mul (t2, t2, p);
  mpz_add (t, t, t2);
  mpz_mul (p, p, p2);
  mpz_mul (q, q, q2);
  mpz_clears (p2, q2, t2, NULL);
}

static void
compute_pi (mpz_t result, long digits)
{
  unsigned long terms = (unsigned long) (digits / DIGITS_PER_TERM) + 2;
  unsigned long d = (unsigned long) digits + GUARD_DIGITS;
  mpz_t p, q, t, root, scale;
  mpz_inits (p, q, t, root, scale, NULL);

  split (p, q, t, 0, terms);
  /* pi = 426880 * sqrt(10005) * Q / T */
  mpz_ui_pow_ui (scale, 10, 2 * d);
  mpz_mul_ui (root, scale, 10005);
  mpz_sqrt (root, root);
  mpz_mul (root, root, q);
  mpz_mul_ui (root, root, 426880);
  mpz_tdiv_q (root, root, t);
  mpz_ui_pow_ui (scale, 10, GUARD_DIGITS);
  mpz_tdiv_q (result, root, scale);
  mpz_clears (p, q, t, root, scale, NULL);
}

static void *
pi_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) stream;
  (void) err;
  struct pi_state *s = gb_xmalloc (sizeof *s);
  s->digits = t->a;
  mpz_init (s->pi);
  return s;
}

RUN_LOOP (pi_run, struct pi_state, compute_pi (s->pi, s->digits))

static int
pi_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct pi_state *s = state;
  return pi_digits_check (s->pi, s->digits, digest, err);
}

static void
pi_teardown (void *state)
{
  struct pi_state *s = state;
  mpz_clear (s->pi);
  free (s);
}

const struct bench_ops gmp_pi_mpz_ops = { pi_setup, pi_run, pi_check, pi_teardown };
