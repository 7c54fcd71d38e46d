/* openssl_bn.c: GMPbench's base operations and the ext number theory
 * through OpenSSL's BIGNUM, the `openssl.base` and `openssl.ext` tests.
 *
 * Each test mirrors a GMP test of the same name (openssl.X <-> gmpbench.X
 * for base, ext.X for ext): the same operands (mirror.h), converted once
 * in setup, and the same result, which check converts back and compares
 * with GMP's own computation, so the digest equals the GMP test's.
 *
 *   multiply  BN_sqr for one size, BN_mul for two
 *   divide    BN_div, quotient only (truncating, like mpz_tdiv_q)
 *   gcd       BN_gcd; the digest adds the gcd's witness (check.h), as
 *             GMP's does, computed with GMP's cofactor outside the clock
 *   invert    BN_mod_inverse
 *   powm      BN_mod_exp; powm-sec BN_mod_exp_mont_consttime
 *
 * OpenSSL has no extended gcd, and its quadratic division and gcd make
 * the largest GMPbench sizes impractical; those are left out or kept for
 * full runs (docs/comparisons.md lists them, with timings).  A BN call that fails (out of memory) is remembered by the
 * timed loop and reported by check. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <openssl/bn.h>
#include "engine/bench.h"
#include "engine/bn_convert.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/verdict.h"
#include "suites/run_loop.h"

enum bn_op { OP_SQR, OP_MUL, OP_DIV, OP_GCD, OP_INV, OP_EXP, OP_EXP_SEC };

struct bn_state
{
  enum bn_op op;
  mpz_t x, y, m;                /* GMP's operands: m is only for powm */
  BIGNUM *bx, *by, *bm, *br;
  BN_CTX *ctx;
  int failed;                   /* a BN call returned an error */
};

/* Which operation test T performs, from its name. */
static enum bn_op
op_of (const struct bench_test *t)
{
  if (strstr (t->name, ".multiply."))
    return t->b ? OP_MUL : OP_SQR;
  if (strstr (t->name, ".divide."))
    return OP_DIV;
  if (strstr (t->name, ".gcd."))
    return OP_GCD;
  if (strstr (t->name, ".invert."))
    return OP_INV;
  return strstr (t->name, ".powm-sec.") ? OP_EXP_SEC : OP_EXP;
}

/* The GMP operands of T: openssl.base.X draws as gmpbench.base.X, the ext
 * tests as their ext counterparts. */
static void
draw_operands (const struct bench_test *t, unsigned stream, struct bn_state *s)
{
  char name[96];
  switch (s->op)
    {
    case OP_SQR:
    case OP_MUL:
    case OP_DIV:
    case OP_GCD:
      mirror_gmpbench_operands (stream, t->a, t->b, s->x, s->y);
      mpz_init (s->m);
      break;
    case OP_INV:
      snprintf (name, sizeof name, "ext.invert.%ld", t->a);
      mirror_invert (name, stream, t->a, s->x, s->y);
      mpz_init (s->m);
      break;
    case OP_EXP:
    case OP_EXP_SEC:
      snprintf (name, sizeof name, "ext.powm.%ld", t->a);
      mirror_powm (name, stream, t->a, s->x, s->y, s->m);
      break;
    }
}

static void bn_teardown (void *state);

/* Makes the result R hold the bits of T's largest result, written once,
 * then zero: BN_mul and the others grow their result on demand, so its
 * storage would otherwise be made, and its pages first touched, by the
 * first timed operation of a new copy (engine/fresh.h; setup makes the
 * result storage, engine/bench.h). */
static int
presize (BIGNUM *r, const struct bench_test *t, enum bn_op op)
{
  long bits = (op == OP_SQR ? 2 * t->a : op == OP_MUL ? t->a + t->b : t->a) + 64;
  if (bits > INT_MAX || !BN_set_bit (r, (int) bits - 1))
    return 0;
  BN_zero (r);
  return 1;
}

static void *
bn_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct bn_state *s = gb_xcalloc (1, sizeof *s);
  s->op = op_of (t);
  draw_operands (t, stream, s);
  s->bx = bn_from_mpz (s->x);
  s->by = bn_from_mpz (s->y);
  s->bm = bn_from_mpz (s->m);
  s->br = BN_new ();
  s->ctx = BN_CTX_new ();
  if (!s->bx || !s->by || !s->bm || !s->br || !s->ctx || !presize (s->br, t, s->op))
    return verdict_setup_failed (err, bn_teardown, s, "OpenSSL could not allocate the operands");
  return s;
}

RUN_LOOP (sqr_run, struct bn_state, s->failed |= !BN_sqr (s->br, s->bx, s->ctx))
RUN_LOOP (mul_run, struct bn_state, s->failed |= !BN_mul (s->br, s->bx, s->by, s->ctx))
RUN_LOOP (div_run, struct bn_state, s->failed |= !BN_div (s->br, NULL, s->bx, s->by, s->ctx))
RUN_LOOP (gcd_run, struct bn_state, s->failed |= !BN_gcd (s->br, s->bx, s->by, s->ctx))
RUN_LOOP (inv_run, struct bn_state, s->failed |= !BN_mod_inverse (s->br, s->bx, s->by, s->ctx))
RUN_LOOP (exp_run, struct bn_state, s->failed |= !BN_mod_exp (s->br, s->bx, s->by, s->bm, s->ctx))
RUN_LOOP (exp_sec_run, struct bn_state,
          s->failed |= !BN_mod_exp_mont_consttime (s->br, s->bx, s->by, s->bm, s->ctx, NULL))

/* GMP's answer for the operation of S. */
static void
gmp_answer (mpz_t want, const struct bn_state *s)
{
  switch (s->op)
    {
    case OP_SQR:
    case OP_MUL: mpz_mul (want, s->x, s->y); break;
    case OP_DIV: mpz_tdiv_q (want, s->x, s->y); break;
    case OP_GCD: mpz_gcd (want, s->x, s->y); break;
    case OP_INV: mpz_invert (want, s->x, s->y); break;
    case OP_EXP:
    case OP_EXP_SEC: mpz_powm (want, s->x, s->y, s->m); break;
    }
}

/* Feeds OpenSSL's gcd G of S's operands into DIGEST with its witness
 * (check.h), the cofactor from GMP, as gmpbench.base.gcd does; 0 if G
 * fails the Bezout identity with GMP's cofactors. */
static int
digest_gcd (struct gb_sha256 *digest, const struct bn_state *s, const mpz_t g)
{
  mpz_t h, cs, ct;
  mpz_inits (h, cs, ct, NULL);
  mpz_gcdext (h, cs, ct, s->x, s->y);
  int ok = check_gcd_bezout (s->x, s->y, g, cs, ct);
  if (ok)
    digest_gcd_witness (digest, s->x, s->y, g, cs);
  mpz_clears (h, cs, ct, NULL);
  return ok;
}

static int
bn_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct bn_state *s = state;
  mpz_t got, want;
  if (s->failed)
    {
      bench_fail (err, "an OpenSSL BN call returned an error");
      return -1;
    }
  mpz_inits (got, want, NULL);
  bn_to_mpz (got, s->br);
  gmp_answer (want, s);
  int ok = mpz_cmp (got, want) == 0;
  if (ok && s->op == OP_GCD)
    ok = digest_gcd (digest, s, got);
  else if (ok)
    digest_mpz (digest, got);
  mpz_clears (got, want, NULL);
  if (!ok)
    bench_fail (err, "OpenSSL's result differs from GMP's");
  return ok ? 0 : -1;
}

static void
bn_teardown (void *state)
{
  struct bn_state *s = state;
  mpz_clears (s->x, s->y, s->m, NULL);
  BN_free (s->bx);
  BN_free (s->by);
  BN_free (s->bm);
  BN_free (s->br);
  BN_CTX_free (s->ctx);
  free (s);
}

const struct bench_ops openssl_square_ops = { bn_setup, sqr_run, bn_check, bn_teardown };
const struct bench_ops openssl_multiply_ops = { bn_setup, mul_run, bn_check, bn_teardown };
const struct bench_ops openssl_divide_ops = { bn_setup, div_run, bn_check, bn_teardown };
const struct bench_ops openssl_gcd_ops = { bn_setup, gcd_run, bn_check, bn_teardown };
const struct bench_ops openssl_invert_ops = { bn_setup, inv_run, bn_check, bn_teardown };
const struct bench_ops openssl_powm_ops = { bn_setup, exp_run, bn_check, bn_teardown };
const struct bench_ops openssl_powm_sec_ops = { bn_setup, exp_sec_run, bn_check, bn_teardown };
