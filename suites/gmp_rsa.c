/* gmp_rsa.c: RSA with GMP.  GMPbench's rsa program (CRT signing with
 * mpz_powm at 512, 1024 and 2048 bits) is the compatible part; the
 * extensions sign at 3072 and 4096 bits, sign with the constant-time
 * mpz_powm_sec, and verify (e = 65537) at every size.
 *
 * Each test cycles through a fixed set of messages: the compatible tests
 * through 1024, as GMPbench does (with 16 or fewer, a 512-bit signature is
 * about 13% faster: the branch predictors learn the repeated inputs); the
 * ext tests through 16, and ext.rsa.sign.{512,1024,2048} are the
 * compatible tests' operation on those 16.  The keys are real (rsa_key.h),
 * where GMPbench's p and q need not be prime, which makes no measurable
 * difference but lets every signature be verified.
 *
 * The timed loop keeps only its latest result, as GMPbench does.  Check
 * verifies it against the public key by an independent route (signatures
 * raised to e must give back the message, verifications the message),
 * then computes and verifies the results for the first RSA_DIGESTED
 * messages outside the timed loop and digests those, so that the digest
 * does not depend on how many repetitions the harness chose. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/operand.h"
#include "engine/key_cache.h"
#include "engine/rsa_key.h"
#include "suites/programs.h"

#define RSA_DIGESTED 16

enum rsa_mode { RSA_SIGN, RSA_SIGN_SEC, RSA_VERIFY };

struct rsa_state
{
  const struct rsa_key *key;    /* shared, from the key cache */
  struct rsa_scratch scratch;
  unsigned nmsg;
  mpz_t *msg;                   /* NMSG messages below n */
  mpz_t *sig;                   /* verifying: their signatures */
  mpz_t out;                    /* the latest result of the timed loop */
  unsigned next, last;          /* the next message, the latest one done */
  int ran;                      /* whether OUT holds a result */
  enum rsa_mode mode;
};

static void *
rsa_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  static const char *const programs[] = {
    [RSA_SIGN] = "gmp.rsa.sign", [RSA_SIGN_SEC] = "gmp.rsa.sign-sec",
    [RSA_VERIFY] = "gmp.rsa.verify"
  };
  int mode = program_variant (t, programs, GB_ARRAY_SIZE (programs), err);
  if (mode < 0)
    return NULL;
  struct rsa_state *s = gb_xmalloc (sizeof *s);
  struct gb_rng r;
  s->key = key_cache_rsa (t->a);
  rsa_scratch_init (&s->scratch, t->a);
  s->nmsg = (unsigned) t->b;
  s->msg = gb_xmalloc (s->nmsg * sizeof *s->msg);
  s->sig = mode == RSA_VERIFY ? gb_xmalloc (s->nmsg * sizeof *s->sig) : NULL;
  gb_rng_init (&r, "rsa-messages", stream);
  for (unsigned i = 0; i < s->nmsg; i++)
    {
      mpz_init (s->msg[i]);
      gb_rng_mpz_below (s->msg[i], &r, s->key->n);
      if (s->sig)
        {
          mpz_init (s->sig[i]);
          rsa_sign_crt (s->sig[i], s->msg[i], s->key, &s->scratch, 0);
        }
    }
  mpz_init2 (s->out, t->a + 64);
  s->next = 0;
  s->last = 0;
  s->ran = 0;
  s->mode = (enum rsa_mode) mode;
  return s;
}

static void
rsa_sign_run (void *state, unsigned long reps)
{
  struct rsa_state *s = state;
  int sec = s->mode == RSA_SIGN_SEC;
  for (unsigned long i = 0; i < reps; i++)
    {
      unsigned j = s->next;
      rsa_sign_crt (s->out, s->msg[j], s->key, &s->scratch, sec);
      s->last = j;
      s->next = j + 1 == s->nmsg ? 0 : j + 1;
    }
  s->ran = 1;
}

static void
rsa_verify_run (void *state, unsigned long reps)
{
  struct rsa_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    {
      unsigned j = s->next;
      mpz_powm (s->out, s->sig[j], s->key->e, s->key->n);
      s->last = j;
      s->next = j + 1 == s->nmsg ? 0 : j + 1;
    }
  s->ran = 1;
}

/* Whether OUT is the right result for message J, by a route independent of
 * the timed one: a signature raised to e modulo n (no CRT) must give back
 * the message; a verification must equal it. */
static int
rsa_correct (const struct rsa_state *s, const mpz_t out, unsigned j, mpz_t scratch)
{
  if (s->mode == RSA_VERIFY)
    return mpz_cmp (out, s->msg[j]) == 0;
  mpz_powm_ui (scratch, out, RSA_PUBLIC_EXPONENT, s->key->n);
  return mpz_cmp (scratch, s->msg[j]) == 0;
}

static int
rsa_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct rsa_state *s = state;
  unsigned ndigested = s->nmsg < RSA_DIGESTED ? s->nmsg : RSA_DIGESTED;
  mpz_t out, scratch;
  int ok = !s->ran;
  mpz_inits (out, scratch, NULL);
  if (s->ran)
    ok = rsa_correct (s, s->out, s->last, scratch);
  for (unsigned j = 0; j < ndigested && ok; j++)
    {
      if (s->mode == RSA_VERIFY)
        mpz_powm (out, s->sig[j], s->key->e, s->key->n);
      else
        rsa_sign_crt (out, s->msg[j], s->key, &s->scratch, 0);
      ok = rsa_correct (s, out, j, scratch);
      if (ok)
        digest_mpz (digest, out);
    }
  mpz_clears (out, scratch, NULL);
  if (!ok)
    {
      bench_fail (err, s->mode == RSA_VERIFY
                  ? "RSA verification did not give back the message"
                  : "RSA signature does not verify (s^e mod n != message)");
      return -1;
    }
  return 0;
}

static void
rsa_teardown (void *state)
{
  struct rsa_state *s = state;
  for (unsigned i = 0; i < s->nmsg; i++)
    {
      mpz_clear (s->msg[i]);
      if (s->sig)
        mpz_clear (s->sig[i]);
    }
  free (s->msg);
  free (s->sig);
  mpz_clear (s->out);
  rsa_scratch_clear (&s->scratch);
  free (s);
}

/* Signing (both programs) and verifying (programs.def). */
const struct bench_ops gmp_rsa_sign_ops = { rsa_setup, rsa_sign_run, rsa_check, rsa_teardown };
const struct bench_ops gmp_rsa_verify_ops = { rsa_setup, rsa_verify_run, rsa_check, rsa_teardown };
