/* gcrypt_rsa.c: RSA with libgcrypt's own big-number code, the
 * `gcrypt.rsa` tests, on GMPbench's keys (key_cache.h):
 *
 *   gcrypt.rsa.sign.N          gcry_pk_sign, PKCS #1 v1.5 of a SHA-256
 *                              digest, blinding on (libgcrypt's default)
 *   gcrypt.rsa.sign-noblind.N  the same with the no-blinding flag
 *   gcrypt.rsa.verify.N        gcry_pk_verify, e = 65537
 *
 * libgcrypt wants p < q and u = p^-1 mod q, the opposite of PKCS #1's
 * order, so the primes are passed swapped.  The s-expressions of the key
 * and of each input are built in setup; the timed loop signs (or
 * verifies) and releases the result, as any caller must.  Checks as for
 * Nettle: s^e mod n = EM computed with GMP; verification of GMP's
 * signatures must accept them all and reject another digest. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "suites/run_loop.h"
#include "suites/gcrypt_convert.h"
#include "engine/key_cache.h"
#include "suites/pkcs1.h"
#include "suites/programs.h"
#include "suites/verdict.h"

#define RSA_MESSAGES 16

enum gcrypt_mode { SIGN, SIGN_NOBLIND, VERIFY };

/* The programs of this file, by mode. */
static const char *const gcrypt_programs[] = {
  [SIGN] = "gcrypt.rsa.sign", [SIGN_NOBLIND] = "gcrypt.rsa.sign-noblind",
  [VERIFY] = "gcrypt.rsa.verify"
};

struct gcrypt_state
{
  const struct rsa_key *key;
  gcry_sexp_t skey, pkey;
  unsigned char dig[RSA_MESSAGES][PKCS1_SHA256_BYTES];
  gcry_sexp_t data[RSA_MESSAGES];
  gcry_sexp_t sig[RSA_MESSAGES];        /* signing: the latest result */
  int good[RSA_MESSAGES];
  int done[RSA_MESSAGES];
  unsigned next;
  enum gcrypt_mode mode;
};

/* The key pair as s-expressions; 0 or -1. */
static int
build_keys (struct gcrypt_state *s)
{
  const struct rsa_key *k = s->key;
  gcry_mpi_t m[6] = {
    gcrypt_mpi_from_mpz (k->n), gcrypt_mpi_from_mpz (k->e), gcrypt_mpi_from_mpz (k->d),
    gcrypt_mpi_from_mpz (k->q), gcrypt_mpi_from_mpz (k->p), gcrypt_mpi_from_mpz (k->q_inv_p)
  };
  int ok = 1;
  for (int i = 0; i < 6; i++)
    ok &= m[i] != NULL;
  ok = ok
    && gcry_sexp_build (&s->skey, NULL, "(private-key (rsa (n %m) (e %m) (d %m) (p %m) (q %m) (u %m)))",
                        m[0], m[1], m[2], m[3], m[4], m[5]) == 0
    && gcry_sexp_build (&s->pkey, NULL, "(public-key (rsa (n %m) (e %m)))", m[0], m[1]) == 0;
  for (int i = 0; i < 6; i++)
    gcry_mpi_release (m[i]);
  return ok ? 0 : -1;
}

/* GMP's signature of digest J as a sig-val s-expression; 0 or -1. */
static int
gmp_signature (struct gcrypt_state *s, unsigned j)
{
  mpz_t sig;
  mpz_init (sig);
  pkcs1_sign_gmp (sig, s->key, pkcs1_sha256_prefix, sizeof pkcs1_sha256_prefix,
                  s->dig[j], PKCS1_SHA256_BYTES);
  gcry_mpi_t m = gcrypt_mpi_from_mpz (sig);
  int ok = m && gcry_sexp_build (&s->sig[j], NULL, "(sig-val (rsa (s %m)))", m) == 0;
  gcry_mpi_release (m);
  mpz_clear (sig);
  return ok ? 0 : -1;
}

static void
one (struct gcrypt_state *s, unsigned j)
{
  if (s->mode == VERIFY)
    s->good[j] = gcry_pk_verify (s->sig[j], s->data[j], s->pkey) == 0;
  else
    {
      gcry_sexp_release (s->sig[j]);
      s->good[j] = gcry_pk_sign (&s->sig[j], s->data[j], s->skey) == 0;
      if (!s->good[j])
        s->sig[j] = NULL;
    }
}

static void gcrypt_teardown (void *state);

static void *
gcrypt_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  int mode = program_variant (t, gcrypt_programs, GB_ARRAY_SIZE (gcrypt_programs), err);
  if (mode < 0 || gcrypt_init (err) != 0)
    return NULL;
  const char *fmt = mode == SIGN_NOBLIND
    ? "(data (flags pkcs1 no-blinding) (hash sha256 %b))" : "(data (flags pkcs1) (hash sha256 %b))";
  struct gcrypt_state *s = gb_xcalloc (1, sizeof *s);
  s->key = key_cache_rsa ((unsigned long) t->a);
  s->mode = (enum gcrypt_mode) mode;
  pkcs1_test_digests (s->dig, RSA_MESSAGES, stream);
  int ok = build_keys (s) == 0;
  for (unsigned j = 0; j < RSA_MESSAGES && ok; j++)
    ok = gcry_sexp_build (&s->data[j], NULL, fmt, PKCS1_SHA256_BYTES, s->dig[j]) == 0
      && (mode != VERIFY || gmp_signature (s, j) == 0);
  if (ok)
    one (s, 0);
  if (!ok || !s->good[0])
    return verdict_setup_failed (err, gcrypt_teardown, s, "libgcrypt refused the %ld-bit RSA key "
                                 "or could not %s with it", t->a,
                                 mode == VERIFY ? "verify" : "sign");
  return s;
}

RUN_CYCLE (gcrypt_run, struct gcrypt_state, one, RSA_MESSAGES)

/* The s value of signature J into SIG; 0 or -1. */
static int
signature_value (const struct gcrypt_state *s, unsigned j, mpz_t sig)
{
  gcry_sexp_t tok = s->sig[j] ? gcry_sexp_find_token (s->sig[j], "s", 0) : NULL;
  gcry_mpi_t m = tok ? gcry_sexp_nth_mpi (tok, 1, GCRYMPI_FMT_USG) : NULL;
  int st = m ? gcrypt_mpi_to_mpz (sig, m) : -1;
  gcry_mpi_release (m);
  gcry_sexp_release (tok);
  return st;
}

/* Whether signature J is valid (s^e mod n = EM); s is left in SIG. */
static int
signature_valid (const struct gcrypt_state *s, unsigned j, mpz_t sig)
{
  return signature_value (s, j, sig) == 0
    && pkcs1_signature_valid (sig, s->key, pkcs1_sha256_prefix, sizeof pkcs1_sha256_prefix,
                              s->dig[j], PKCS1_SHA256_BYTES);
}

static int
rejects_forgery (struct gcrypt_state *s)
{
  gcry_sexp_t other;
  unsigned char dig[PKCS1_SHA256_BYTES];
  memcpy (dig, s->dig[0], sizeof dig);
  dig[0] ^= 1;
  if (gcry_sexp_build (&other, NULL, "(data (flags pkcs1) (hash sha256 %b))", PKCS1_SHA256_BYTES,
                       dig) != 0)
    return 0;
  int accepted = gcry_pk_verify (s->sig[0], other, s->pkey) == 0;
  gcry_sexp_release (other);
  return !accepted;
}

static int
gcrypt_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct gcrypt_state *s = state;
  mpz_t sig;
  int bad = -1;
  RUN_CYCLE_REST (s, one, RSA_MESSAGES);
  mpz_init (sig);
  for (unsigned j = 0; j < RSA_MESSAGES && bad < 0; j++)
    {
      if (!s->good[j] || !signature_valid (s, j, sig))
        bad = (int) j;
      else
        digest_mpz (digest, sig);
    }
  mpz_clear (sig);
  if (bad >= 0)
    bench_fail (err, s->mode == VERIFY ? "libgcrypt rejected GMP's valid signature %d"
                : "libgcrypt's signature %d is missing or does not verify (s^e mod n != EM)", bad);
  else if (s->mode == VERIFY && !rejects_forgery (s))
    bench_fail (err, "libgcrypt accepted a signature of another digest");
  else
    return 0;
  return -1;
}

static void
gcrypt_teardown (void *state)
{
  struct gcrypt_state *s = state;
  for (int j = 0; j < RSA_MESSAGES; j++)
    {
      gcry_sexp_release (s->data[j]);
      gcry_sexp_release (s->sig[j]);
    }
  gcry_sexp_release (s->skey);
  gcry_sexp_release (s->pkey);
  free (s);
}

/* The bench_ops of every program of this file (programs.def). */
const struct bench_ops gcrypt_rsa_ops = { gcrypt_setup, gcrypt_run, gcrypt_check, gcrypt_teardown };
