/* openssl_keygen.c: RSA key generation with OpenSSL, the
 * `openssl.rsa.keygen` tests: EVP_PKEY_generate on a context prepared
 * outside the timed loop (EVP_PKEY_keygen_init, the size, OpenSSL's
 * default e = 65537), each operation making and freeing a key as
 * `openssl genpkey` does.
 *
 * The key is random, so the digest covers only what every correct
 * generator shares (as gmp_keygen.c): the size, e, and a passed round
 * trip.  Check verifies the last key's size and e, then signs a 36-byte
 * input with PKCS #1 v1.5 padding and verifies the signature. */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>
#include "engine/bench.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "engine/rsa_key.h"
#include "suites/verdict.h"

struct keygen_state
{
  unsigned long bits;
  EVP_PKEY_CTX *ctx;
  EVP_PKEY *pkey;
  int failed;                   /* EVP_PKEY_generate returned an error */
};

static void keygen_teardown (void *state);

static void *
keygen_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct keygen_state *s = gb_xcalloc (1, sizeof *s);
  (void) stream;
  s->bits = (unsigned long) t->a;
  s->ctx = EVP_PKEY_CTX_new_from_name (NULL, "RSA", NULL);
  if (!s->ctx || EVP_PKEY_keygen_init (s->ctx) <= 0
      || EVP_PKEY_CTX_set_rsa_keygen_bits (s->ctx, (int) t->a) <= 0)
    return verdict_setup_failed (err, keygen_teardown, s,
                                 "OpenSSL could not prepare %ld-bit RSA key generation", t->a);
  return s;
}

static void
generate (struct keygen_state *s)
{
  EVP_PKEY_free (s->pkey);
  s->pkey = NULL;
  s->failed |= EVP_PKEY_generate (s->ctx, &s->pkey) <= 0;
}

RUN_LOOP (keygen_run, struct keygen_state, generate (s))

/* Whether PKEY signs an input and verifies the signature. */
static int
round_trip (EVP_PKEY *pkey)
{
  unsigned char in[36] = "gmpbench rsa keygen round trip", sig[2048];
  size_t len = sizeof sig;
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey (NULL, pkey, NULL);
  int ok = c && EVP_PKEY_sign_init (c) > 0
    && EVP_PKEY_CTX_set_rsa_padding (c, RSA_PKCS1_PADDING) > 0
    && EVP_PKEY_sign (c, sig, &len, in, sizeof in) > 0
    && EVP_PKEY_verify_init (c) > 0
    && EVP_PKEY_CTX_set_rsa_padding (c, RSA_PKCS1_PADDING) > 0
    && EVP_PKEY_verify (c, sig, len, in, sizeof in) == 1;
  EVP_PKEY_CTX_free (c);
  return ok;
}

/* Whether the public exponent of PKEY is RSA_PUBLIC_EXPONENT. */
static int
has_exponent (EVP_PKEY *pkey)
{
  BIGNUM *e = NULL;
  int ok = EVP_PKEY_get_bn_param (pkey, OSSL_PKEY_PARAM_RSA_E, &e) > 0
    && BN_is_word (e, RSA_PUBLIC_EXPONENT);
  BN_free (e);
  return ok;
}

static int
keygen_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct keygen_state *s = state;
  if (!s->pkey && !s->failed)
    generate (s);
  int ok = !s->failed && s->pkey && EVP_PKEY_get_bits (s->pkey) == (int) s->bits
    && has_exponent (s->pkey) && round_trip (s->pkey);
  return verdict_rsa_keygen (ok, "OpenSSL", s->bits, digest, err);
}

static void
keygen_teardown (void *state)
{
  struct keygen_state *s = state;
  EVP_PKEY_free (s->pkey);
  EVP_PKEY_CTX_free (s->ctx);
  free (s);
}

const struct bench_ops openssl_rsa_keygen_ops = {
  keygen_setup, keygen_run, keygen_check, keygen_teardown
};
