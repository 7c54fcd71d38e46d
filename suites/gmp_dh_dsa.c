/* gmp_dh_dsa.c: GMP's finite-field Diffie-Hellman and DSA, the GMP side of
 * OpenSSL's openssl.dh and openssl.dsa tests, on the same key material
 * (dl_key.h):
 *
 *   ext.dh.derive[-sec].BITS   the shared secret peer^x mod p in the RFC 7919
 *                              group ffdheBITS, with mpz_powm (mpz_powm_sec);
 *                              checked against pub^y, the peer's view
 *   ext.dsa.sign[-sec].L       DSA signing (dsa_math.h) with deterministic
 *                              nonces; every signature verified
 *   ext.dsa.verify.L           verification of GMP's signatures; all must be
 *                              accepted and a changed digest rejected
 *
 * DSA tests cycle through DSA_MESSAGES digests as the RSA tests do, and
 * check fills in the ones the timed loop did not reach. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "suites/run_loop.h"
#include "suites/dsa_math.h"
#include "engine/key_cache.h"
#include "suites/programs.h"
#include "suites/verdict.h"

#define DSA_MESSAGES 16

struct dh_state
{
  struct dh_key key;
  mpz_t secret;
};

static void *
dh_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct dh_state *s = gb_xmalloc (sizeof *s);
  if (dh_key_generate (&s->key, (unsigned long) t->a, stream) != 0)
    {
      bench_skip (err, "this OpenSSL does not provide the group ffdhe%ld", t->a);
      dh_key_clear (&s->key);
      free (s);
      return NULL;
    }
  mpz_init2 (s->secret, (mp_bitcnt_t) t->a + 64);
  return s;
}

RUN_LOOP (dh_run, struct dh_state, mpz_powm (s->secret, s->key.peer, s->key.x, s->key.p))
RUN_LOOP (dh_sec_run, struct dh_state, mpz_powm_sec (s->secret, s->key.peer, s->key.x, s->key.p))

static int
dh_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct dh_state *s = state;
  mpz_t want;
  mpz_init (want);
  mpz_powm (want, s->key.pub, s->key.y, s->key.p);
  int ok = mpz_cmp (want, s->secret) == 0;
  mpz_clear (want);
  return verdict_mpz (ok, s->secret, digest, err,
                      "the shared secret differs from the peer's (pub^y mod p)");
}

static void
dh_teardown (void *state)
{
  struct dh_state *s = state;
  dh_key_clear (&s->key);
  mpz_clear (s->secret);
  free (s);
}

enum dsa_mode { DSA_SIGN, DSA_SIGN_SEC, DSA_VERIFY };

/* The DSA programs of this file, by mode. */
static const char *const dsa_programs[] = {
  [DSA_SIGN] = "gmp.dsa.sign", [DSA_SIGN_SEC] = "gmp.dsa.sign-sec", [DSA_VERIFY] = "gmp.dsa.verify"
};

struct dsa_state
{
  const struct dsa_key *key;
  struct dsa_scratch sc;
  unsigned char dig[DSA_MESSAGES][DSA_DIGEST];
  mpz_t h[DSA_MESSAGES], nonce[DSA_MESSAGES], r[DSA_MESSAGES], s[DSA_MESSAGES];
  int good[DSA_MESSAGES];
  int done[DSA_MESSAGES];
  unsigned next;
  enum dsa_mode mode;
};

/* N, the size of q, for an L-bit p. */
static unsigned long
dsa_n (long L)
{
  return L <= 1024 ? 160 : 256;
}

static void *
dsa_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  int mode = program_variant (t, dsa_programs, GB_ARRAY_SIZE (dsa_programs), err);
  if (mode < 0)
    return NULL;
  struct dsa_state *s = gb_xcalloc (1, sizeof *s);
  s->key = key_cache_dsa ((unsigned long) t->a, dsa_n (t->a), stream);
  s->mode = (enum dsa_mode) mode;
  dsa_scratch_init (&s->sc, s->key);
  dsa_test_inputs (s->key, stream, DSA_MESSAGES, s->dig, s->nonce);
  for (int j = 0; j < DSA_MESSAGES; j++)
    {
      mpz_inits (s->h[j], s->r[j], s->s[j], NULL);
      dsa_hash_value (s->h[j], s->dig[j], s->key);
      if (mode == DSA_VERIFY)
        dsa_sign_gmp (s->r[j], s->s[j], s->key, s->h[j], s->nonce[j], &s->sc, 0);
    }
  return s;
}

/* The operation of S on message J. */
static void
dsa_one (struct dsa_state *s, unsigned j)
{
  if (s->mode == DSA_VERIFY)
    s->good[j] = dsa_verify_gmp (s->key, s->h[j], s->r[j], s->s[j], &s->sc);
  else
    dsa_sign_gmp (s->r[j], s->s[j], s->key, s->h[j], s->nonce[j], &s->sc,
                  s->mode == DSA_SIGN_SEC);
}

RUN_CYCLE (dsa_run, struct dsa_state, dsa_one, DSA_MESSAGES)

/* Whether verification rejects signature 0 for another digest. */
static int
rejects_forgery (struct dsa_state *s)
{
  mpz_t h;
  mpz_init (h);
  mpz_add_ui (h, s->h[0], 1);
  int accepted = dsa_verify_gmp (s->key, h, s->r[0], s->s[0], &s->sc);
  mpz_clear (h);
  return !accepted;
}

static int
dsa_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct dsa_state *s = state;
  RUN_CYCLE_REST (s, dsa_one, DSA_MESSAGES);
  for (unsigned j = 0; j < DSA_MESSAGES; j++)
    {
      int ok = s->mode == DSA_VERIFY ? s->good[j]
        : dsa_verify_gmp (s->key, s->h[j], s->r[j], s->s[j], &s->sc);
      if (!ok)
        {
          bench_fail (err, s->mode == DSA_VERIFY ? "DSA verification rejected valid signature %u"
                      : "DSA signature %u does not verify", j);
          return -1;
        }
    }
  if (!rejects_forgery (s))
    {
      bench_fail (err, "DSA verification accepted a signature of another digest");
      return -1;
    }
  for (unsigned j = 0; j < DSA_MESSAGES; j++)
    {
      digest_mpz (digest, s->r[j]);
      digest_mpz (digest, s->s[j]);
    }
  return 0;
}

static void
dsa_teardown (void *state)
{
  struct dsa_state *s = state;
  for (int j = 0; j < DSA_MESSAGES; j++)
    mpz_clears (s->h[j], s->nonce[j], s->r[j], s->s[j], NULL);
  dsa_scratch_clear (&s->sc);
  free (s);
}

const struct bench_ops gmp_dh_ops = { dh_setup, dh_run, dh_check, dh_teardown };
const struct bench_ops gmp_dh_sec_ops = { dh_setup, dh_sec_run, dh_check, dh_teardown };
/* The bench_ops of the three DSA programs (programs.def). */
const struct bench_ops gmp_dsa_ops = { dsa_setup, dsa_run, dsa_check, dsa_teardown };
