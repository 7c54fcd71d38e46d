/* gmp_powm.c: modular exponentiation with GMP, the `ext.powm` tests.
 *
 * GMPbench has no test of mpz_powm on its own, yet it is the operation
 * other libraries are most often compared on (OpenSSL's BN_mod_exp, and
 * beneath it every RSA and Diffie-Hellman).  Operands: an odd modulus of
 * BITS bits, a base below it and an exponent of BITS bits (mirror.h).
 * powm times mpz_powm, powm-sec the constant-time mpz_powm_sec; both draw
 * the same operands, so each is checked by recomputing the result with
 * the other function, whose code is separate. */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "suites/verdict.h"

struct powm_state
{
  mpz_t x, e, m, r;
  int sec;
};

static void *
powm_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  static const char *const programs[] = { "gmp.powm", "gmp.powm-sec" };
  int sec = program_variant (t, programs, GB_ARRAY_SIZE (programs), err);
  if (sec < 0)
    return NULL;
  struct powm_state *s = gb_xmalloc (sizeof *s);
  char name[64];
  snprintf (name, sizeof name, "ext.powm.%ld", t->a);
  mirror_powm (name, stream, t->a, s->x, s->e, s->m);
  mpz_init2 (s->r, (mp_bitcnt_t) t->a + 64);
  s->sec = sec;
  return s;
}

RUN_LOOP (powm_run, struct powm_state, mpz_powm (s->r, s->x, s->e, s->m))
RUN_LOOP (powm_sec_run, struct powm_state, mpz_powm_sec (s->r, s->x, s->e, s->m))

static int
powm_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct powm_state *s = state;
  mpz_t want;
  mpz_init (want);
  if (s->sec)
    mpz_powm (want, s->x, s->e, s->m);
  else
    mpz_powm_sec (want, s->x, s->e, s->m);
  int ok = mpz_cmp (want, s->r) == 0;
  mpz_clear (want);
  return verdict_mpz (ok, s->r, digest, err, "%s and %s disagree",
                      s->sec ? "mpz_powm_sec" : "mpz_powm", s->sec ? "mpz_powm" : "mpz_powm_sec");
}

static void
powm_teardown (void *state)
{
  struct powm_state *s = state;
  mpz_clears (s->x, s->e, s->m, s->r, NULL);
  free (s);
}

const struct bench_ops gmp_powm_ops = { powm_setup, powm_run, powm_check, powm_teardown };
const struct bench_ops gmp_powm_sec_ops = { powm_setup, powm_sec_run, powm_check, powm_teardown };
