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
#include "suites/gcrypt_convert.h"
#include "engine/key_cache.h"
#include "engine/operand.h"
#include "suites/pkcs1.h"
#include "suites/programs.h"

#define RSA_MESSAGES 16
#define SHA256_BYTES 32

enum gcrypt_mode { SIGN, SIGN_NOBLIND, VERIFY };

struct gcrypt_state
{
  const struct rsa_key *key;
  gcry_sexp_t skey, pkey;
  unsigned char dig[RSA_MESSAGES][SHA256_BYTES];
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
  struct rsa_scratch scratch;
  mpz_t sig;
  mpz_init (sig);
  rsa_scratch_init (&scratch, s->key->bits);
  pkcs1_encode (sig, s->key->bits, pkcs1_sha256_prefix, sizeof pkcs1_sha256_prefix,
                s->dig[j], SHA256_BYTES);
  rsa_sign_crt (sig, sig, s->key, &scratch, 0);
  gcry_mpi_t m = gcrypt_mpi_from_mpz (sig);
  int ok = m && gcry_sexp_build (&s->sig[j], NULL, "(sig-val (rsa (s %m)))", m) == 0;
  gcry_mpi_release (m);
  rsa_scratch_clear (&scratch);
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
gcrypt_setup_mode (const struct bench_test *t, unsigned stream, enum gcrypt_mode mode,
                   struct bench_error *err)
{
  const char *fmt = mode == SIGN_NOBLIND
    ? "(data (flags pkcs1 no-blinding) (hash sha256 %b))" : "(data (flags pkcs1) (hash sha256 %b))";
  if (gcrypt_init () != 0)
    {
      bench_skip (err, "the libgcrypt library is older than its headers (%s)", GCRYPT_VERSION);
      return NULL;
    }
  struct gcrypt_state *s = gb_xcalloc (1, sizeof *s);
  struct gb_rng r;
  int ok;
  s->key = key_cache_rsa ((unsigned long) t->a);
  s->mode = mode;
  gb_rng_init (&r, "rsa-sha256-digests", stream);
  ok = build_keys (s) == 0;
  for (unsigned j = 0; j < RSA_MESSAGES && ok; j++)
    {
      for (int i = 0; i < SHA256_BYTES; i++)
        s->dig[j][i] = (unsigned char) gb_rng_next (&r);
      ok = gcry_sexp_build (&s->data[j], NULL, fmt, SHA256_BYTES, s->dig[j]) == 0
        && (mode != VERIFY || gmp_signature (s, j) == 0);
    }
  if (ok)
    one (s, 0);
  if (!ok || !s->good[0])
    {
      bench_fail (err, "libgcrypt refused the %ld-bit RSA key or could not %s with it",
                  t->a, mode == VERIFY ? "verify" : "sign");
      gcrypt_teardown (s);
      return NULL;
    }
  return s;
}

static void *
sign_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  return gcrypt_setup_mode (t, stream, SIGN, err);
}

static void *
sign_noblind_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  return gcrypt_setup_mode (t, stream, SIGN_NOBLIND, err);
}

static void *
verify_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  return gcrypt_setup_mode (t, stream, VERIFY, err);
}

static void
gcrypt_run (void *state, unsigned long reps)
{
  struct gcrypt_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    {
      unsigned j = s->next;
      one (s, j);
      s->done[j] = 1;
      s->next = (j + 1) % RSA_MESSAGES;
    }
}

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
  mpz_t em, back;
  if (signature_value (s, j, sig) != 0)
    return 0;
  mpz_inits (em, back, NULL);
  pkcs1_encode (em, s->key->bits, pkcs1_sha256_prefix, sizeof pkcs1_sha256_prefix,
                s->dig[j], SHA256_BYTES);
  mpz_powm (back, sig, s->key->e, s->key->n);
  int ok = mpz_cmp (back, em) == 0;
  mpz_clears (em, back, NULL);
  return ok;
}

static int
rejects_forgery (struct gcrypt_state *s)
{
  gcry_sexp_t other;
  unsigned char dig[SHA256_BYTES];
  memcpy (dig, s->dig[0], sizeof dig);
  dig[0] ^= 1;
  if (gcry_sexp_build (&other, NULL, "(data (flags pkcs1) (hash sha256 %b))", SHA256_BYTES, dig) != 0)
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
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    if (!s->done[j])
      one (s, j);
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

const struct bench_ops gcrypt_rsa_sign_ops = {
  sign_setup, gcrypt_run, gcrypt_check, gcrypt_teardown
};
const struct bench_ops gcrypt_rsa_sign_noblind_ops = {
  sign_noblind_setup, gcrypt_run, gcrypt_check, gcrypt_teardown
};
const struct bench_ops gcrypt_rsa_verify_ops = {
  verify_setup, gcrypt_run, gcrypt_check, gcrypt_teardown
};
