/* gmp_rsa.c: RSA with GMP.  GMPbench's rsa program (CRT signing with
 * mpz_powm at 512, 1024 and 2048 bits) is the compatible part; the
 * extensions sign at 3072 and 4096 bits, sign with the constant-time
 * mpz_powm_sec, and verify (e = 65537) at every size.
 *
 * Each test cycles through a fixed set of messages, as GMPbench does, and
 * keeps every signature it computes; check verifies each one against the
 * public key by an independent route (signatures are raised to e and must
 * give back the message; verifications must give back the message), and
 * the digest covers all of them, so it does not depend on how many
 * repetitions the harness chose. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/operand.h"
#include "engine/key_cache.h"
#include "engine/rsa_key.h"
#include "suites/programs.h"

#define RSA_MESSAGES 16

enum rsa_mode { RSA_SIGN, RSA_SIGN_SEC, RSA_VERIFY };

struct rsa_state
{
  const struct rsa_key *key;    /* shared, from the key cache */
  struct rsa_scratch scratch;
  mpz_t msg[RSA_MESSAGES];
  mpz_t sig[RSA_MESSAGES];
  mpz_t out[RSA_MESSAGES];      /* what the timed loop computed */
  int done[RSA_MESSAGES];
  unsigned next;
  enum rsa_mode mode;
};

static void *
rsa_setup_mode (const struct bench_test *t, unsigned stream, enum rsa_mode mode)
{
  struct rsa_state *s = gb_xmalloc (sizeof *s);
  struct gb_rng r;
  s->key = key_cache_rsa (t->a);
  rsa_scratch_init (&s->scratch, t->a);
  gb_rng_init (&r, "rsa-messages", stream);
  for (int i = 0; i < RSA_MESSAGES; i++)
    {
      mpz_init (s->msg[i]);
      gb_rng_mpz_below (s->msg[i], &r, s->key->n);
      mpz_init (s->sig[i]);
      mpz_init2 (s->out[i], t->a + 64);
      s->done[i] = 0;
      if (mode == RSA_VERIFY)
        rsa_sign_crt (s->sig[i], s->msg[i], s->key, &s->scratch, 0);
    }
  s->next = 0;
  s->mode = mode;
  return s;
}

static void *
rsa_sign_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  return rsa_setup_mode (t, stream, RSA_SIGN);
}

static void *
rsa_sign_sec_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  return rsa_setup_mode (t, stream, RSA_SIGN_SEC);
}

static void *
rsa_verify_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  return rsa_setup_mode (t, stream, RSA_VERIFY);
}

static void
rsa_sign_run (void *state, unsigned long reps)
{
  struct rsa_state *s = state;
  int sec = s->mode == RSA_SIGN_SEC;
  for (unsigned long i = 0; i < reps; i++)
    {
      unsigned j = s->next;
      rsa_sign_crt (s->out[j], s->msg[j], s->key, &s->scratch, sec);
      s->done[j] = 1;
      s->next = (j + 1) % RSA_MESSAGES;
    }
}

static void
rsa_verify_run (void *state, unsigned long reps)
{
  struct rsa_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    {
      unsigned j = s->next;
      mpz_powm (s->out[j], s->sig[j], s->key->e, s->key->n);
      s->done[j] = 1;
      s->next = (j + 1) % RSA_MESSAGES;
    }
}

static int
rsa_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct rsa_state *s = state;
  mpz_t back;
  int ok = 1;

  /* Compute, outside the timed loop, any message the loop never reached,
   * so that the digest covers all of them whatever the repetition count. */
  for (int i = 0; i < RSA_MESSAGES; i++)
    if (!s->done[i])
      {
        if (s->mode == RSA_VERIFY)
          mpz_powm (s->out[i], s->sig[i], s->key->e, s->key->n);
        else
          rsa_sign_crt (s->out[i], s->msg[i], s->key, &s->scratch, 0);
      }
  mpz_init (back);
  for (int i = 0; i < RSA_MESSAGES && ok; i++)
    {
      if (s->mode == RSA_VERIFY)
        ok = mpz_cmp (s->out[i], s->msg[i]) == 0;
      else
        {
          /* Independent route: no CRT, the public exponent, modulo n. */
          mpz_powm_ui (back, s->out[i], RSA_PUBLIC_EXPONENT, s->key->n);
          ok = mpz_cmp (back, s->msg[i]) == 0;
        }
    }
  mpz_clear (back);
  if (!ok)
    {
      bench_fail (err, s->mode == RSA_VERIFY
                  ? "RSA verification did not give back the message"
                  : "RSA signature does not verify (s^e mod n != message)");
      return -1;
    }
  for (int i = 0; i < RSA_MESSAGES; i++)
    digest_mpz (digest, s->out[i]);
  return 0;
}

static void
rsa_teardown (void *state)
{
  struct rsa_state *s = state;
  for (int i = 0; i < RSA_MESSAGES; i++)
    mpz_clears (s->msg[i], s->sig[i], s->out[i], NULL);
  rsa_scratch_clear (&s->scratch);
  free (s);
}

const struct bench_ops gmp_rsa_sign_ops = { rsa_sign_setup, rsa_sign_run, rsa_check, rsa_teardown };
const struct bench_ops gmp_rsa_sign_sec_ops = {
  rsa_sign_sec_setup, rsa_sign_run, rsa_check, rsa_teardown
};
const struct bench_ops gmp_rsa_verify_ops = {
  rsa_verify_setup, rsa_verify_run, rsa_check, rsa_teardown
};
