/* openssl_rsa.c: RSA signing and verification through OpenSSL's EVP API,
 * done the way `openssl speed rsaN` does it, the `openssl.rsa` tests.
 *
 * The key is GMPbench's deterministic key of the size (key_cache.h),
 * imported with EVP_PKEY_fromdata, so OpenSSL and GMP sign with the very
 * same numbers.  As in `openssl speed`: EVP_PKEY_sign of a 36-byte input
 * with PKCS #1 v1.5 padding and blinding on (OpenSSL's default), and
 * EVP_PKEY_verify with e = 65537, the context created and warmed by one
 * operation in setup.  The timed loop cycles through RSA_MESSAGES inputs;
 * check computes the ones it did not reach, so the digest does not depend
 * on the repetition count.
 *
 * Checks, with GMP: a signature s must satisfy s^e mod n = EM, the
 * PKCS #1 encoding of the input (pkcs1.h).  Verification runs on
 * signatures made by GMP and must accept every one, and reject a message
 * that differs in one bit. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/key_cache.h"
#include "engine/operand.h"
#include "suites/run_loop.h"
#include "suites/openssl_pkey.h"
#include "suites/pkcs1.h"
#include "suites/programs.h"
#include "suites/verdict.h"

#define RSA_MESSAGES 16
#define RSA_INPUT 36            /* bytes signed, as `openssl speed` */

/* The programs of this file: signing, verifying. */
static const char *const ossl_rsa_programs[] = { "openssl.rsa.sign", "openssl.rsa.verify" };

struct ossl_rsa_state
{
  const struct rsa_key *key;
  EVP_PKEY *pkey;
  EVP_PKEY_CTX *ctx;
  size_t k;                     /* modulus length in bytes */
  unsigned char msg[RSA_MESSAGES][RSA_INPUT];
  unsigned char *sig[RSA_MESSAGES];
  int good[RSA_MESSAGES];       /* the last verification accepted */
  int done[RSA_MESSAGES];
  unsigned next;
  int verify;
  int failed;                   /* an EVP call returned an error */
};

/* K as an OpenSSL key pair, or NULL. */
static EVP_PKEY *
rsa_pkey (const struct rsa_key *k)
{
  static const char *const names[] = {
    OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
    OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
    OSSL_PKEY_PARAM_RSA_COEFFICIENT1
  };
  mpz_srcptr values[] = { k->n, k->e, k->d, k->p, k->q, k->dp, k->dq, k->q_inv_p };
  return openssl_pkey_from ("RSA", NULL, EVP_PKEY_KEYPAIR, (int) GB_ARRAY_SIZE (names), names,
                            values);
}

static int
sign_one (struct ossl_rsa_state *s, unsigned j)
{
  size_t len = s->k;
  return EVP_PKEY_sign (s->ctx, s->sig[j], &len, s->msg[j], RSA_INPUT) > 0 && len == s->k;
}

static int
verify_one (struct ossl_rsa_state *s, unsigned j)
{
  return EVP_PKEY_verify (s->ctx, s->sig[j], s->k, s->msg[j], RSA_INPUT) == 1;
}

/* GMP's signature of message J, into S->sig[J]. */
static void
gmp_sign (struct ossl_rsa_state *s, unsigned j)
{
  mpz_t sig;
  mpz_init (sig);
  pkcs1_sign_gmp (sig, s->key, NULL, 0, s->msg[j], RSA_INPUT);
  pkcs1_i2osp (s->sig[j], s->k, sig);
  mpz_clear (sig);
}

static void ossl_rsa_teardown (void *state);

/* Key, context (initialised for signing or verifying, PKCS #1 v1.5
 * padding) and messages; one operation warms the context. */
static void *
ossl_rsa_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  int verify = program_variant (t, ossl_rsa_programs, GB_ARRAY_SIZE (ossl_rsa_programs), err);
  if (verify < 0)
    return NULL;
  struct ossl_rsa_state *s = gb_xcalloc (1, sizeof *s);
  struct gb_rng r;
  s->key = key_cache_rsa ((unsigned long) t->a);
  s->k = (s->key->bits + 7) / 8;
  s->verify = verify;
  gb_rng_init (&r, "rsa-pkcs1-messages", stream);
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    {
      for (unsigned i = 0; i < RSA_INPUT; i++)
        s->msg[j][i] = (unsigned char) gb_rng_next (&r);
      s->sig[j] = gb_xmalloc (s->k);
      if (verify)
        gmp_sign (s, j);
    }
  s->pkey = rsa_pkey (s->key);
  s->ctx = s->pkey ? EVP_PKEY_CTX_new_from_pkey (NULL, s->pkey, NULL) : NULL;
  int ok = s->ctx
    && (verify ? EVP_PKEY_verify_init (s->ctx) : EVP_PKEY_sign_init (s->ctx)) > 0
    && EVP_PKEY_CTX_set_rsa_padding (s->ctx, RSA_PKCS1_PADDING) > 0
    && (verify ? verify_one (s, 0) : sign_one (s, 0));
  if (!ok)
    return verdict_setup_failed (err, ossl_rsa_teardown, s, "OpenSSL refused the %ld-bit RSA key "
                                 "or could not %s with it", t->a, verify ? "verify" : "sign");
  return s;
}

/* The timed operations on message J: a signature's failure, a
 * verification's verdict kept for check. */
static void
sign_kept (struct ossl_rsa_state *s, unsigned j)
{
  s->failed |= !sign_one (s, j);
}

static void
verify_kept (struct ossl_rsa_state *s, unsigned j)
{
  s->good[j] = verify_one (s, j);
}

RUN_CYCLE (ossl_sign_run, struct ossl_rsa_state, sign_kept, RSA_MESSAGES)
RUN_CYCLE (ossl_verify_run, struct ossl_rsa_state, verify_kept, RSA_MESSAGES)

/* Whether signature J raised to e gives the PKCS #1 encoding of message J. */
static int
signature_valid (const struct ossl_rsa_state *s, unsigned j)
{
  mpz_t sig;
  mpz_init (sig);
  mpz_import (sig, s->k, 1, 1, 1, 0, s->sig[j]);
  int ok = pkcs1_signature_valid (sig, s->key, NULL, 0, s->msg[j], RSA_INPUT);
  mpz_clear (sig);
  return ok;
}

/* Whether OpenSSL rejects message 0 with one bit changed. */
static int
rejects_forgery (struct ossl_rsa_state *s)
{
  s->msg[0][RSA_INPUT - 1] ^= 1;
  int accepted = verify_one (s, 0);
  s->msg[0][RSA_INPUT - 1] ^= 1;
  return !accepted;
}

static int
ossl_rsa_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct ossl_rsa_state *s = state;
  RUN_CYCLE_REST (s, (s->verify ? verify_kept : sign_kept), RSA_MESSAGES);
  if (s->failed)
    {
      bench_fail (err, "EVP_PKEY_sign returned an error");
      return -1;
    }
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    if (s->verify ? !s->good[j] : !signature_valid (s, j))
      {
        bench_fail (err, s->verify ? "EVP_PKEY_verify rejected GMP's valid signature %u"
                    : "OpenSSL's signature %u does not verify (s^e mod n != EM)", j);
        return -1;
      }
  if (s->verify && !rejects_forgery (s))
    {
      bench_fail (err, "EVP_PKEY_verify accepted a signature of another message");
      return -1;
    }
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    gb_sha256_update (digest, s->sig[j], s->k);
  return 0;
}

static void
ossl_rsa_teardown (void *state)
{
  struct ossl_rsa_state *s = state;
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    free (s->sig[j]);
  EVP_PKEY_CTX_free (s->ctx);
  EVP_PKEY_free (s->pkey);
  free (s);
}

const struct bench_ops openssl_rsa_sign_ops = {
  ossl_rsa_setup, ossl_sign_run, ossl_rsa_check, ossl_rsa_teardown
};
const struct bench_ops openssl_rsa_verify_ops = {
  ossl_rsa_setup, ossl_verify_run, ossl_rsa_check, ossl_rsa_teardown
};
