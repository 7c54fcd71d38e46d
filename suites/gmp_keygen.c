/* gmp_keygen.c: RSA key generation with GMP, the `ext.rsa.keygen` tests.
 *
 * What an application built on GMP does to make an RSA key: two random
 * primes of BITS/2 bits with their top two bits set and p-1 prime to
 * e = 65537 (gb_rng_prime: mpz_probab_prime_p over odd candidates), then
 * n = pq, d = e^-1 mod (p-1)(q-1) and the CRT values d mod p-1,
 * d mod q-1, q^-1 mod p.  Each operation makes a new key from the next
 * draws of the test's operand stream.
 *
 * The operand stream is fixed, so the keys are too: setup makes the
 * stream's first key once, outside the clock, checks it and keeps the
 * SHA-256 of all its numbers (p, q, n, e, d and the CRT values), which the
 * digest covers; the timed operations then make that key and the next
 * ones from the same stream, as before.  Check verifies the last key made:
 * n has BITS bits and is p*q, m^d^e = m mod n for a fixed m, and the CRT
 * values are inverses of e and q. */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/guard.h"
#include "engine/operand.h"
#include "engine/rsa_key.h"
#include "suites/programs.h"
#include "suites/verdict.h"
#include "suites/run_loop.h"

struct keygen_state
{
  unsigned long bits;
  struct gb_rng rng;
  mpz_t e, p, q, n, d, dp, dq, qinv, p1, q1, phi;
  int have_key;
  unsigned char first_key[32];  /* SHA-256 of the stream's first key */
};

static void
generate (struct keygen_state *s)
{
  gb_rng_prime (s->p, &s->rng, s->bits / 2, RSA_PUBLIC_EXPONENT);
  unsigned long tries = 0;
  do
    {
      guard_step (&tries, 100, "mpz_cmp", "the prime search gave p = q 100 times");
      gb_rng_prime (s->q, &s->rng, s->bits / 2, RSA_PUBLIC_EXPONENT);
    }
  while (mpz_cmp (s->p, s->q) == 0);
  mpz_mul (s->n, s->p, s->q);
  mpz_sub_ui (s->p1, s->p, 1);
  mpz_sub_ui (s->q1, s->q, 1);
  mpz_mul (s->phi, s->p1, s->q1);
  mpz_invert (s->d, s->e, s->phi);
  mpz_mod (s->dp, s->d, s->p1);
  mpz_mod (s->dq, s->d, s->q1);
  mpz_invert (s->qinv, s->q, s->p);
  s->have_key = 1;
}

RUN_LOOP (keygen_run, struct keygen_state, generate (s))

/* Whether X * Y = 1 mod M, with 0 <= X < M. */
static int
inverse_mod (const mpz_t x, const mpz_t y, const mpz_t m)
{
  mpz_t r;
  mpz_init (r);
  mpz_mul (r, x, y);
  mpz_mod (r, r, m);
  int ok = mpz_sgn (x) >= 0 && mpz_cmp (x, m) < 0 && mpz_cmp_ui (r, 1) == 0;
  mpz_clear (r);
  return ok;
}

/* Whether the key of S has its size, is p*q, signs and verifies, and has
 * the right CRT values: e*dp = 1 mod p-1, e*dq = 1 mod q-1, q*qinv = 1
 * mod p. */
static int
key_works (const struct keygen_state *s)
{
  mpz_t pq, m, sig, back;
  mpz_inits (pq, m, sig, back, NULL);
  mpz_mul (pq, s->p, s->q);
  mpz_set_ui (m, 0x5eed);
  mpz_powm (sig, m, s->d, s->n);
  mpz_powm (back, sig, s->e, s->n);
  int ok = mpz_sizeinbase (s->n, 2) == s->bits && mpz_cmp (pq, s->n) == 0
    && mpz_cmp (back, m) == 0 && inverse_mod (s->dp, s->e, s->p1)
    && inverse_mod (s->dq, s->e, s->q1) && inverse_mod (s->qinv, s->q, s->p);
  mpz_clears (pq, m, sig, back, NULL);
  return ok;
}

/* The SHA-256 of every number of the key in S, into MD. */
static void
key_fingerprint (const struct keygen_state *s, unsigned char md[32])
{
  struct gb_sha256 h;
  gb_sha256_init (&h);
  digest_mpz (&h, s->p);
  digest_mpz (&h, s->q);
  digest_mpz (&h, s->n);
  digest_mpz (&h, s->e);
  digest_mpz (&h, s->d);
  digest_mpz (&h, s->dp);
  digest_mpz (&h, s->dq);
  digest_mpz (&h, s->qinv);
  gb_sha256_final (&h, md);
}

static void keygen_teardown (void *state);

static void *
keygen_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct keygen_state *s = gb_xcalloc (1, sizeof *s);
  s->bits = (unsigned long) t->a;
  gb_rng_init (&s->rng, t->name, stream);
  mpz_inits (s->e, s->p, s->q, s->n, s->d, s->dp, s->dq, s->qinv, s->p1, s->q1, s->phi, NULL);
  mpz_set_ui (s->e, RSA_PUBLIC_EXPONENT);
  struct gb_rng start = s->rng;
  generate (s);
  if (!key_works (s))
    return verdict_setup_failed (err, keygen_teardown, s, "the first generated %lu-bit RSA key "
                                 "is wrong (size, p*q, sign+verify or CRT values)", s->bits);
  key_fingerprint (s, s->first_key);
  s->rng = start;
  s->have_key = 0;
  return s;
}

static int
keygen_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct keygen_state *s = state;
  if (!s->have_key)
    generate (s);
  if (!key_works (s))
    {
      bench_fail (err, "the generated %lu-bit RSA key is wrong (size, p*q, sign+verify or "
                  "CRT values)", s->bits);
      return -1;
    }
  gb_sha256_update (digest, s->first_key, sizeof s->first_key);
  return 0;
}

static void
keygen_teardown (void *state)
{
  struct keygen_state *s = state;
  mpz_clears (s->e, s->p, s->q, s->n, s->d, s->dp, s->dq, s->qinv, s->p1, s->q1, s->phi, NULL);
  free (s);
}

const struct bench_ops gmp_rsa_keygen_ops = {
  keygen_setup, keygen_run, keygen_check, keygen_teardown
};
