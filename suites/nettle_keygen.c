/* nettle_keygen.c: RSA key generation with Nettle, the
 * `nettle.rsa.keygen` tests: rsa_generate_keypair with e = 65537 fixed
 * by the caller, its random function fed from the test's operand stream
 * (operand.h), each operation making a new key from the next draws.
 * Nettle finds its primes with GMP (mpz_probab_prime_p after its own
 * sieve), so this shows its choices on GMP's arithmetic.
 *
 * As for the other key generators (gmp_keygen.c), the digest covers only
 * what every correct generator shares: the size, e, and a passed round
 * trip.  Check verifies the last key's size, then signs a SHA-256 digest
 * (rsa_sha256_sign_digest) and verifies it (rsa_sha256_verify_digest). */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include <nettle/rsa.h>
#include "engine/bench.h"
#include "engine/operand.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "engine/rsa_key.h"
#include "suites/verdict.h"

struct keygen_state
{
  unsigned long bits;
  struct gb_rng rng;
  struct rsa_public_key pub;
  struct rsa_private_key priv;
  int have_key;
  int failed;                   /* rsa_generate_keypair returned 0 */
};

static void
random_bytes (void *ctx, size_t len, uint8_t *dst)
{
  struct gb_rng *r = ctx;
  for (size_t i = 0; i < len; i++)
    dst[i] = (uint8_t) gb_rng_next (r);
}

static void *
keygen_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  struct keygen_state *s = gb_xcalloc (1, sizeof *s);
  (void) err;
  s->bits = (unsigned long) t->a;
  gb_rng_init (&s->rng, t->name, stream);
  rsa_public_key_init (&s->pub);
  rsa_private_key_init (&s->priv);
  return s;
}

static void
generate (struct keygen_state *s)
{
  mpz_set_ui (s->pub.e, RSA_PUBLIC_EXPONENT);
  s->failed |= !rsa_generate_keypair (&s->pub, &s->priv, &s->rng, random_bytes, NULL, NULL,
                                      s->bits, 0);
  s->have_key = 1;
}

RUN_LOOP (keygen_run, struct keygen_state, generate (s))

/* Whether the key pair of S signs a digest and verifies the signature. */
static int
round_trip (struct keygen_state *s)
{
  static const uint8_t dig[32] = "gmpbench rsa keygen round trip";
  mpz_t sig;
  mpz_init (sig);
  int ok = rsa_sha256_sign_digest (&s->priv, dig, sig)
    && rsa_sha256_verify_digest (&s->pub, dig, sig);
  mpz_clear (sig);
  return ok;
}

static int
keygen_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct keygen_state *s = state;
  if (!s->have_key)
    generate (s);
  int ok = !s->failed && mpz_sizeinbase (s->pub.n, 2) == s->bits
    && mpz_cmp_ui (s->pub.e, RSA_PUBLIC_EXPONENT) == 0 && round_trip (s);
  return verdict_rsa_keygen (ok, "Nettle", s->bits, digest, err);
}

static void
keygen_teardown (void *state)
{
  struct keygen_state *s = state;
  rsa_public_key_clear (&s->pub);
  rsa_private_key_clear (&s->priv);
  free (s);
}

const struct bench_ops nettle_rsa_keygen_ops = {
  keygen_setup, keygen_run, keygen_check, keygen_teardown
};
