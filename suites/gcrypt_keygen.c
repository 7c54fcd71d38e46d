/* gcrypt_keygen.c: RSA key generation with libgcrypt, the
 * `gcrypt.rsa.keygen` tests: gcry_pk_genkey with the s-expression
 * (genkey (rsa (nbits N))), built outside the timed loop; libgcrypt's
 * default e = 65537 and its own random generator.
 *
 * The key is random, so the digest covers only what every correct
 * generator shares (as gmp_keygen.c): the size, e, and a passed round
 * trip.  Check verifies the last key's size and e, then signs a SHA-256
 * digest with PKCS #1 v1.5 (gcry_pk_sign) and verifies it (gcry_pk_verify). */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "suites/gcrypt_convert.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "engine/rsa_key.h"
#include "suites/verdict.h"

struct keygen_state
{
  unsigned long bits;
  gcry_sexp_t parms, key;
  int failed;                   /* gcry_pk_genkey returned an error */
};

static void *
keygen_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) stream;
  if (gcrypt_init (err) != 0)
    return NULL;
  struct keygen_state *s = gb_xcalloc (1, sizeof *s);
  s->bits = (unsigned long) t->a;
  if (gcry_sexp_build (&s->parms, NULL, "(genkey (rsa (nbits %d)))", (int) t->a) != 0)
    {
      bench_fail (err, "libgcrypt could not build the %ld-bit key parameters", t->a);
      free (s);
      return NULL;
    }
  return s;
}

static void
generate (struct keygen_state *s)
{
  gcry_sexp_release (s->key);
  s->key = NULL;
  s->failed |= gcry_pk_genkey (&s->key, s->parms) != 0;
}

RUN_LOOP (keygen_run, struct keygen_state, generate (s))

/* Whether the public key PUB has e = RSA_PUBLIC_EXPONENT. */
static int
has_exponent (gcry_sexp_t pub)
{
  gcry_sexp_t tok = gcry_sexp_find_token (pub, "e", 0);
  gcry_mpi_t m = tok ? gcry_sexp_nth_mpi (tok, 1, GCRYMPI_FMT_USG) : NULL;
  mpz_t e;
  mpz_init (e);
  int ok = m && gcrypt_mpi_to_mpz (e, m) == 0 && mpz_cmp_ui (e, RSA_PUBLIC_EXPONENT) == 0;
  mpz_clear (e);
  gcry_mpi_release (m);
  gcry_sexp_release (tok);
  return ok;
}

/* Whether the key pair KEY signs a digest and verifies the signature. */
static int
round_trip (gcry_sexp_t key)
{
  static const unsigned char dig[32] = "gmpbench rsa keygen round trip";
  gcry_sexp_t priv = gcry_sexp_find_token (key, "private-key", 0);
  gcry_sexp_t pub = gcry_sexp_find_token (key, "public-key", 0);
  gcry_sexp_t data = NULL, sig = NULL;
  int ok = priv && pub && has_exponent (pub)
    && gcry_sexp_build (&data, NULL, "(data (flags pkcs1) (hash sha256 %b))",
                        (int) sizeof dig, dig) == 0
    && gcry_pk_sign (&sig, data, priv) == 0
    && gcry_pk_verify (sig, data, pub) == 0;
  gcry_sexp_release (sig);
  gcry_sexp_release (data);
  gcry_sexp_release (pub);
  gcry_sexp_release (priv);
  return ok;
}

static int
keygen_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct keygen_state *s = state;
  if (!s->key && !s->failed)
    generate (s);
  int ok = !s->failed && s->key && gcry_pk_get_nbits (s->key) == s->bits && round_trip (s->key);
  return verdict_rsa_keygen (ok, "libgcrypt", s->bits, digest, err);
}

static void
keygen_teardown (void *state)
{
  struct keygen_state *s = state;
  gcry_sexp_release (s->key);
  gcry_sexp_release (s->parms);
  free (s);
}

const struct bench_ops gcrypt_rsa_keygen_ops = {
  keygen_setup, keygen_run, keygen_check, keygen_teardown
};
