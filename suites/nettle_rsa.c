/* nettle_rsa.c: RSA with Nettle's hogweed, the `nettle.rsa` tests.
 *
 * Nettle computes RSA on GMP's low-level functions (the side-channel
 * silent mpn_sec_powm for private keys), so this shows what a careful
 * wrapper around GMP costs and saves.  On GMPbench's keys (key_cache.h):
 *
 *   nettle.rsa.sign.N     rsa_sha256_sign_digest (no blinding)
 *   nettle.rsa.sign-tr.N  rsa_sha256_sign_digest_tr (blinded, and the
 *                         result checked against the public key, which is
 *                         what Nettle recommends)
 *   nettle.rsa.verify.N   rsa_sha256_verify_digest, e = 65537
 *
 * The inputs are RSA_MESSAGES SHA-256 digests, cycled as in the other RSA
 * tests.  Checks, with GMP: a signature s must satisfy s^e mod n = EM, the
 * PKCS #1 v1.5 encoding of the digest (pkcs1.h); verification runs on
 * GMP's signatures, must accept them all and reject another digest. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <nettle/rsa.h>
#include <nettle/version.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/key_cache.h"
#include "engine/operand.h"
#include "suites/run_loop.h"
#include "suites/pkcs1.h"
#include "suites/programs.h"
#include "suites/verdict.h"

#define RSA_MESSAGES 16

enum nettle_mode { SIGN, SIGN_TR, VERIFY };

/* The programs of this file, by mode. */
static const char *const nettle_programs[] = {
  [SIGN] = "nettle.rsa.sign", [SIGN_TR] = "nettle.rsa.sign-tr", [VERIFY] = "nettle.rsa.verify"
};

struct nettle_state
{
  const struct rsa_key *key;
  struct rsa_public_key pub;
  struct rsa_private_key priv;
  struct gb_rng blinding;       /* randomness for the _tr variant */
  unsigned char dig[RSA_MESSAGES][PKCS1_SHA256_BYTES];
  mpz_t sig[RSA_MESSAGES];
  int good[RSA_MESSAGES];       /* signing succeeded / verification accepted */
  int done[RSA_MESSAGES];
  unsigned next;
  enum nettle_mode mode;
};

static void
random_bytes (void *ctx, size_t len, uint8_t *dst)
{
  struct gb_rng *r = ctx;
  for (size_t i = 0; i < len; i++)
    dst[i] = (uint8_t) gb_rng_next (r);
}

/* Nettle's keys from K; 0 if Nettle accepts them. */
static int
import_key (struct nettle_state *s)
{
  rsa_public_key_init (&s->pub);
  rsa_private_key_init (&s->priv);
  mpz_set (s->pub.n, s->key->n);
  mpz_set (s->pub.e, s->key->e);
  mpz_set (s->priv.d, s->key->d);
  mpz_set (s->priv.p, s->key->p);
  mpz_set (s->priv.q, s->key->q);
  mpz_set (s->priv.a, s->key->dp);
  mpz_set (s->priv.b, s->key->dq);
  mpz_set (s->priv.c, s->key->q_inv_p);
  return rsa_public_key_prepare (&s->pub) && rsa_private_key_prepare (&s->priv) ? 0 : -1;
}

static void
one (struct nettle_state *s, unsigned j)
{
  switch (s->mode)
    {
    case SIGN:
      s->good[j] = rsa_sha256_sign_digest (&s->priv, s->dig[j], s->sig[j]);
      break;
    case SIGN_TR:
      s->good[j] = rsa_sha256_sign_digest_tr (&s->pub, &s->priv, &s->blinding, random_bytes,
                                              s->dig[j], s->sig[j]);
      break;
    case VERIFY:
      s->good[j] = rsa_sha256_verify_digest (&s->pub, s->dig[j], s->sig[j]);
      break;
    }
}

static void nettle_teardown (void *state);

static void *
nettle_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  int mode = program_variant (t, nettle_programs, GB_ARRAY_SIZE (nettle_programs), err);
  if (mode < 0)
    return NULL;
  struct nettle_state *s = gb_xcalloc (1, sizeof *s);
  s->key = key_cache_rsa ((unsigned long) t->a);
  s->mode = (enum nettle_mode) mode;
  pkcs1_test_digests (s->dig, RSA_MESSAGES, stream);
  gb_rng_init (&s->blinding, "nettle-blinding", stream);
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    {
      mpz_init2 (s->sig[j], (mp_bitcnt_t) t->a + 64);
      if (mode == VERIFY)
        pkcs1_sign_gmp (s->sig[j], s->key, pkcs1_sha256_prefix, sizeof pkcs1_sha256_prefix,
                        s->dig[j], PKCS1_SHA256_BYTES);
    }
  if (import_key (s) != 0)
    return verdict_setup_failed (err, nettle_teardown, s,
                                 "Nettle refused the %ld-bit RSA key", t->a);
  one (s, 0);
  return s;
}

RUN_CYCLE (nettle_run, struct nettle_state, one, RSA_MESSAGES)

/* Whether signature J raised to e gives EM. */
static int
signature_valid (const struct nettle_state *s, unsigned j)
{
  return pkcs1_signature_valid (s->sig[j], s->key, pkcs1_sha256_prefix,
                                sizeof pkcs1_sha256_prefix, s->dig[j], PKCS1_SHA256_BYTES);
}

static int
rejects_forgery (struct nettle_state *s)
{
  s->dig[0][0] ^= 1;
  int accepted = rsa_sha256_verify_digest (&s->pub, s->dig[0], s->sig[0]);
  s->dig[0][0] ^= 1;
  return !accepted;
}

static int
nettle_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct nettle_state *s = state;
  RUN_CYCLE_REST (s, one, RSA_MESSAGES);
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    if (!s->good[j] || (s->mode != VERIFY && !signature_valid (s, j)))
      {
        bench_fail (err, s->mode == VERIFY ? "Nettle rejected GMP's valid signature %u"
                    : "Nettle's signature %u is missing or does not verify (s^e mod n != EM)", j);
        return -1;
      }
  if (s->mode == VERIFY && !rejects_forgery (s))
    {
      bench_fail (err, "Nettle accepted a signature of another digest");
      return -1;
    }
  for (unsigned j = 0; j < RSA_MESSAGES; j++)
    digest_mpz (digest, s->sig[j]);
  return 0;
}

static void
nettle_teardown (void *state)
{
  struct nettle_state *s = state;
  for (int j = 0; j < RSA_MESSAGES; j++)
    mpz_clear (s->sig[j]);
  rsa_public_key_clear (&s->pub);
  rsa_private_key_clear (&s->priv);
  free (s);
}

/* The bench_ops of every program of this file (programs.def). */
const struct bench_ops nettle_rsa_ops = { nettle_setup, nettle_run, nettle_check, nettle_teardown };
