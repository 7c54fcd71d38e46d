/* openssl_dh_dsa.c: finite-field Diffie-Hellman and DSA through OpenSSL's
 * EVP API, the `openssl.dh` and `openssl.dsa` tests, on the key material
 * GMP's ext.dh and ext.dsa tests use (dl_key.h), imported with
 * EVP_PKEY_fromdata:
 *
 *   openssl.dh.derive.BITS   EVP_PKEY_derive in the named group ffdheBITS,
 *                            padded to the size of p; the secret must equal
 *                            GMP's pub^y mod p, and so does the digest
 *   openssl.dsa.sign.L       EVP_PKEY_sign of a 32-byte digest (OpenSSL
 *                            draws its own nonces); every signature is
 *                            verified with GMP (dsa_math.h); the nonces
 *                            make the signatures random, so the digest
 *                            covers the public key and the messages
 *   openssl.dsa.verify.L     EVP_PKEY_verify of GMP's signatures; all must be
 *                            accepted and one for another digest rejected
 *
 * Contexts are created and warmed by one operation in setup.  DSA tests
 * cycle through DSA_MESSAGES digests, and check fills in the ones the
 * timed loop did not reach. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <openssl/core_names.h>
#include <openssl/dsa.h>
#include <openssl/evp.h>
#include "engine/bench.h"
#include "engine/bn_convert.h"
#include "engine/check.h"
#include "suites/run_loop.h"
#include "suites/dsa_math.h"
#include "engine/key_cache.h"
#include "suites/openssl_pkey.h"
#include "suites/programs.h"
#include "suites/verdict.h"

#define DSA_MESSAGES 16

struct dh_state
{
  struct dh_key key;
  EVP_PKEY *ours, *peer;
  EVP_PKEY_CTX *ctx;
  unsigned char *secret;
  size_t len;
  int failed;                   /* EVP_PKEY_derive returned an error */
};

static int
derive_one (struct dh_state *s)
{
  size_t len = s->len;
  return EVP_PKEY_derive (s->ctx, s->secret, &len) > 0 && len == s->len;
}

static void dh_teardown (void *state);

static void *
dh_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  static const char *const priv_names[] = { OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PKEY_PARAM_PUB_KEY };
  static const char *const pub_names[] = { OSSL_PKEY_PARAM_PUB_KEY };
  struct dh_state *s = gb_xcalloc (1, sizeof *s);
  char group[16];
  if (dh_key_generate (&s->key, (unsigned long) t->a, stream) != 0)
    {
      bench_skip (err, "this OpenSSL does not provide the group ffdhe%ld", t->a);
      dh_teardown (s);
      return NULL;
    }
  snprintf (group, sizeof group, "ffdhe%ld", t->a);
  s->len = (size_t) t->a / 8;
  s->secret = gb_xmalloc (s->len);
  mpz_srcptr priv[] = { s->key.x, s->key.pub }, pub[] = { s->key.peer };
  s->ours = openssl_pkey_from ("DH", group, EVP_PKEY_KEYPAIR, 2, priv_names, priv);
  s->peer = openssl_pkey_from ("DH", group, EVP_PKEY_PUBLIC_KEY, 1, pub_names, pub);
  s->ctx = s->ours && s->peer ? EVP_PKEY_CTX_new_from_pkey (NULL, s->ours, NULL) : NULL;
  if (!s->ctx || EVP_PKEY_derive_init (s->ctx) <= 0 || EVP_PKEY_derive_set_peer (s->ctx, s->peer) <= 0
      || EVP_PKEY_CTX_set_dh_pad (s->ctx, 1) <= 0 || !derive_one (s))
    return verdict_setup_failed (err, dh_teardown, s, "OpenSSL refused the ffdhe%ld keys or could "
                                 "not derive with them", t->a);
  return s;
}

RUN_LOOP (dh_run, struct dh_state, s->failed |= !derive_one (s))

static int
dh_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct dh_state *s = state;
  mpz_t got, want;
  if (s->failed)
    {
      bench_fail (err, "EVP_PKEY_derive returned an error");
      return -1;
    }
  mpz_inits (got, want, NULL);
  mpz_import (got, s->len, 1, 1, 1, 0, s->secret);
  mpz_powm (want, s->key.pub, s->key.y, s->key.p);
  int rc = verdict_mpz (mpz_cmp (got, want) == 0, got, digest, err,
                        "OpenSSL's shared secret differs from GMP's pub^y mod p");
  mpz_clears (got, want, NULL);
  return rc;
}

static void
dh_teardown (void *state)
{
  struct dh_state *s = state;
  EVP_PKEY_CTX_free (s->ctx);
  EVP_PKEY_free (s->ours);
  EVP_PKEY_free (s->peer);
  dh_key_clear (&s->key);
  free (s->secret);
  free (s);
}

struct dsa_state
{
  const struct dsa_key *key;
  struct dsa_scratch sc;
  EVP_PKEY *pkey;
  EVP_PKEY_CTX *ctx;
  unsigned char dig[DSA_MESSAGES][DSA_DIGEST];
  mpz_t h[DSA_MESSAGES], nonce[DSA_MESSAGES];
  unsigned char *sig[DSA_MESSAGES];     /* DER, room for EVP_PKEY_get_size */
  size_t siglen[DSA_MESSAGES], max;
  int good[DSA_MESSAGES];
  int done[DSA_MESSAGES];
  unsigned next;
  int verify;
  int failed;                   /* EVP_PKEY_sign returned an error */
};

static int
dsa_sign_one (struct dsa_state *s, unsigned j)
{
  s->siglen[j] = s->max;
  return EVP_PKEY_sign (s->ctx, s->sig[j], &s->siglen[j], s->dig[j], DSA_DIGEST) > 0;
}

static int
dsa_verify_one (struct dsa_state *s, unsigned j)
{
  return EVP_PKEY_verify (s->ctx, s->sig[j], s->siglen[j], s->dig[j], DSA_DIGEST) == 1;
}

/* Signature J as (R, S); 0 if it does not parse. */
static int
dsa_sig_decode (const struct dsa_state *s, unsigned j, mpz_t r, mpz_t sv)
{
  const unsigned char *p = s->sig[j];
  const BIGNUM *br, *bs;
  DSA_SIG *sig = d2i_DSA_SIG (NULL, &p, (long) s->siglen[j]);
  if (!sig)
    return 0;
  DSA_SIG_get0 (sig, &br, &bs);
  bn_to_mpz (r, br);
  bn_to_mpz (sv, bs);
  DSA_SIG_free (sig);
  return 1;
}

/* GMP's signature of digest J, DER-encoded into S->sig[J]; 0 on failure. */
static int
dsa_sig_from_gmp (struct dsa_state *s, unsigned j)
{
  mpz_t r, sv;
  mpz_inits (r, sv, NULL);
  dsa_sign_gmp (r, sv, s->key, s->h[j], s->nonce[j], &s->sc, 0);
  DSA_SIG *sig = DSA_SIG_new ();
  BIGNUM *br = bn_from_mpz (r), *bs = bn_from_mpz (sv);
  unsigned char *p = s->sig[j];
  int ok = sig && br && bs && DSA_SIG_set0 (sig, br, bs);
  if (ok)
    br = bs = NULL;             /* owned by SIG now */
  int len = ok ? i2d_DSA_SIG (sig, NULL) : -1;
  ok = len > 0 && (size_t) len <= s->max && i2d_DSA_SIG (sig, &p) == len;
  s->siglen[j] = ok ? (size_t) len : 0;
  BN_free (br);
  BN_free (bs);
  DSA_SIG_free (sig);
  mpz_clears (r, sv, NULL);
  return ok;
}

static void dsa_teardown (void *state);

static void *
dsa_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  static const char *const programs[] = { "openssl.dsa.sign", "openssl.dsa.verify" };
  static const char *const names[] = {
    OSSL_PKEY_PARAM_FFC_P, OSSL_PKEY_PARAM_FFC_Q, OSSL_PKEY_PARAM_FFC_G,
    OSSL_PKEY_PARAM_PRIV_KEY, OSSL_PKEY_PARAM_PUB_KEY
  };
  int verify = program_variant (t, programs, GB_ARRAY_SIZE (programs), err);
  if (verify < 0)
    return NULL;
  struct dsa_state *s = gb_xcalloc (1, sizeof *s);
  s->key = key_cache_dsa ((unsigned long) t->a, t->a <= 1024 ? 160 : 256, stream);
  s->verify = verify;
  dsa_scratch_init (&s->sc, s->key);
  dsa_test_inputs (s->key, stream, DSA_MESSAGES, s->dig, s->nonce);
  for (int j = 0; j < DSA_MESSAGES; j++)
    {
      mpz_init (s->h[j]);
      dsa_hash_value (s->h[j], s->dig[j], s->key);
    }
  mpz_srcptr values[] = { s->key->p, s->key->q, s->key->g, s->key->x, s->key->y };
  s->pkey = openssl_pkey_from ("DSA", NULL, EVP_PKEY_KEYPAIR, 5, names, values);
  s->max = s->pkey ? (size_t) EVP_PKEY_get_size (s->pkey) : 0;
  for (int j = 0; j < DSA_MESSAGES; j++)
    s->sig[j] = gb_xmalloc (s->max ? s->max : 1);
  int ok = s->pkey && (s->ctx = EVP_PKEY_CTX_new_from_pkey (NULL, s->pkey, NULL)) != NULL
    && (verify ? EVP_PKEY_verify_init (s->ctx) : EVP_PKEY_sign_init (s->ctx)) > 0;
  for (unsigned j = 0; j < DSA_MESSAGES && ok && verify; j++)
    ok = dsa_sig_from_gmp (s, j);
  if (!ok || !(verify ? dsa_verify_one (s, 0) : dsa_sign_one (s, 0)))
    return verdict_setup_failed (err, dsa_teardown, s, "OpenSSL refused the DSA-%ld key or could "
                                 "not %s with it", t->a, verify ? "verify" : "sign");
  return s;
}

static void
dsa_one (struct dsa_state *s, unsigned j)
{
  if (s->verify)
    s->good[j] = dsa_verify_one (s, j);
  else
    s->failed |= !dsa_sign_one (s, j);
}

RUN_CYCLE (dsa_run, struct dsa_state, dsa_one, DSA_MESSAGES)

/* Whether GMP accepts OpenSSL's signature J; the verified (r, s) are
 * left in R, SV. */
static int
gmp_accepts (struct dsa_state *s, unsigned j, mpz_t r, mpz_t sv)
{
  return dsa_sig_decode (s, j, r, sv) && dsa_verify_gmp (s->key, s->h[j], r, sv, &s->sc);
}

/* Whether OpenSSL rejects signature 0 for another digest. */
static int
rejects_forgery (struct dsa_state *s)
{
  s->dig[0][0] ^= 1;
  int accepted = dsa_verify_one (s, 0);
  s->dig[0][0] ^= 1;
  return !accepted;
}

static int
dsa_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct dsa_state *s = state;
  mpz_t r, sv;
  int bad = -1;
  RUN_CYCLE_REST (s, dsa_one, DSA_MESSAGES);
  mpz_inits (r, sv, NULL);
  if (!s->verify)
    digest_mpz (digest, s->key->y);
  for (unsigned j = 0; j < DSA_MESSAGES && bad < 0; j++)
    if (s->verify ? !s->good[j] || !dsa_sig_decode (s, j, r, sv) : !gmp_accepts (s, j, r, sv))
      bad = (int) j;
    else if (s->verify)
      {
        digest_mpz (digest, r);
        digest_mpz (digest, sv);
      }
    else
      digest_mpz (digest, s->h[j]);
  mpz_clears (r, sv, NULL);
  if (s->failed)
    bench_fail (err, "EVP_PKEY_sign returned an error");
  else if (bad >= 0)
    bench_fail (err, s->verify ? "EVP_PKEY_verify rejected GMP's valid DSA signature %d"
                : "OpenSSL's DSA signature %d does not verify with GMP", bad);
  else if (s->verify && !rejects_forgery (s))
    bench_fail (err, "EVP_PKEY_verify accepted a DSA signature of another digest");
  else
    return 0;
  return -1;
}

static void
dsa_teardown (void *state)
{
  struct dsa_state *s = state;
  for (int j = 0; j < DSA_MESSAGES; j++)
    {
      mpz_clears (s->h[j], s->nonce[j], NULL);
      free (s->sig[j]);
    }
  dsa_scratch_clear (&s->sc);
  EVP_PKEY_CTX_free (s->ctx);
  EVP_PKEY_free (s->pkey);
  free (s);
}

const struct bench_ops openssl_dh_ops = { dh_setup, dh_run, dh_check, dh_teardown };
/* The bench_ops of both DSA programs (programs.def). */
const struct bench_ops openssl_dsa_ops = { dsa_setup, dsa_run, dsa_check, dsa_teardown };
