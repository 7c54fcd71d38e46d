/* gcrypt_mpi.c: libgcrypt's own big-number code, the `gcrypt.ext` tests.
 *
 *   gcrypt.ext.mulm.N  gcry_mpi_mulm, against GMP's ext.mulm.N
 *                      (mpz_mul + mpz_mod)
 *   gcrypt.ext.powm.N  gcry_mpi_powm, against GMP's ext.powm.N
 *
 * As openssl_bn.c does for OpenSSL, each test draws exactly the operands
 * of its GMP counterpart (mirror.h; ext.mulm.N draws as ext.powm.N does,
 * under its own name), converts them once in setup, and check converts
 * the result back, compares it with GMP's own computation and digests it,
 * so the digest equals the GMP test's.  Both libgcrypt calls return
 * nothing: they abort the process on allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "suites/gcrypt_convert.h"
#include "engine/mirror.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "suites/verdict.h"

struct mpi_state
{
  int powm;                     /* 1: powm, 0: mulm */
  mpz_t x, y, m;                /* GMP's operands: y is the exponent for powm */
  gcry_mpi_t gx, gy, gm, gr;
};

static void mpi_teardown (void *state);

static void *
mpi_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  char name[64];
  if (gcrypt_init (err) != 0)
    return NULL;
  struct mpi_state *s = gb_xcalloc (1, sizeof *s);
  s->powm = strstr (t->name, ".powm.") != NULL;
  snprintf (name, sizeof name, "ext.%s.%ld", s->powm ? "powm" : "mulm", t->a);
  mirror_powm (name, stream, t->a, s->x, s->y, s->m);
  s->gx = gcrypt_mpi_from_mpz (s->x);
  s->gy = gcrypt_mpi_from_mpz (s->y);
  s->gm = gcrypt_mpi_from_mpz (s->m);
  s->gr = gcry_mpi_new ((unsigned) t->a);
  if (!s->gx || !s->gy || !s->gm || !s->gr)
    return verdict_setup_failed (err, mpi_teardown, s,
                                 "libgcrypt could not take the %ld-bit operands", t->a);
  return s;
}

RUN_LOOP (mulm_run, struct mpi_state, gcry_mpi_mulm (s->gr, s->gx, s->gy, s->gm))
RUN_LOOP (powm_run, struct mpi_state, gcry_mpi_powm (s->gr, s->gx, s->gy, s->gm))

static int
mpi_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct mpi_state *s = state;
  mpz_t got, want;
  mpz_inits (got, want, NULL);
  if (s->powm)
    mpz_powm (want, s->x, s->y, s->m);
  else
    {
      mpz_mul (want, s->x, s->y);
      mpz_mod (want, want, s->m);
    }
  int ok = gcrypt_mpi_to_mpz (got, s->gr) == 0 && mpz_cmp (got, want) == 0;
  int rc = verdict_mpz (ok, got, digest, err, "libgcrypt's %s differs from GMP's",
                        s->powm ? "gcry_mpi_powm" : "gcry_mpi_mulm");
  mpz_clears (got, want, NULL);
  return rc;
}

static void
mpi_teardown (void *state)
{
  struct mpi_state *s = state;
  mpz_clears (s->x, s->y, s->m, NULL);
  gcry_mpi_release (s->gx);
  gcry_mpi_release (s->gy);
  gcry_mpi_release (s->gm);
  gcry_mpi_release (s->gr);
  free (s);
}

const struct bench_ops gcrypt_mulm_ops = { mpi_setup, mulm_run, mpi_check, mpi_teardown };
const struct bench_ops gcrypt_powm_ops = { mpi_setup, powm_run, mpi_check, mpi_teardown };
