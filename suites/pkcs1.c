/* pkcs1.c: the PKCS #1 v1.5 encoding as a number, and GMP's signatures
 * and checks with it (see pkcs1.h). */
#include "suites/pkcs1.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "engine/operand.h"

const unsigned char pkcs1_sha256_prefix[19] = {
  0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
  0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20
};

void
pkcs1_encode (mpz_t em, unsigned long bits,
              const unsigned char *prefix, size_t prefix_len,
              const unsigned char *data, size_t len)
{
  size_t k = (bits + 7) / 8;
  unsigned char *buf = gb_xmalloc (k);
  size_t pad = k - 3 - prefix_len - len;
  buf[0] = 0x00;
  buf[1] = 0x01;
  memset (buf + 2, 0xff, pad);
  buf[2 + pad] = 0x00;
  if (prefix_len)
    memcpy (buf + 3 + pad, prefix, prefix_len);
  memcpy (buf + 3 + pad + prefix_len, data, len);
  mpz_import (em, k, 1, 1, 1, 0, buf);
  free (buf);
}

void
pkcs1_i2osp (unsigned char *out, size_t k, const mpz_t z)
{
  size_t n = (mpz_sizeinbase (z, 2) + 7) / 8, written = 0;
  memset (out, 0, k);
  if (mpz_sgn (z) != 0)
    mpz_export (out + (k - n), &written, 1, 1, 1, 0, z);
}

void
pkcs1_sign_gmp (mpz_t sig, const struct rsa_key *k,
                const unsigned char *prefix, size_t prefix_len,
                const unsigned char *data, size_t len)
{
  struct rsa_scratch scratch;
  mpz_t em;
  mpz_init (em);
  rsa_scratch_init (&scratch, k->bits);
  pkcs1_encode (em, k->bits, prefix, prefix_len, data, len);
  rsa_sign_crt (sig, em, k, &scratch, 0);
  rsa_scratch_clear (&scratch);
  mpz_clear (em);
}

int
pkcs1_signature_valid (const mpz_t sig, const struct rsa_key *k,
                       const unsigned char *prefix, size_t prefix_len,
                       const unsigned char *data, size_t len)
{
  mpz_t em, back;
  mpz_inits (em, back, NULL);
  pkcs1_encode (em, k->bits, prefix, prefix_len, data, len);
  mpz_powm (back, sig, k->e, k->n);
  int ok = mpz_cmp (back, em) == 0;
  mpz_clears (em, back, NULL);
  return ok;
}

void
pkcs1_test_digests (unsigned char dig[][PKCS1_SHA256_BYTES], unsigned n, unsigned stream)
{
  struct gb_rng r;
  gb_rng_init (&r, "rsa-sha256-digests", stream);
  for (unsigned j = 0; j < n; j++)
    for (unsigned i = 0; i < PKCS1_SHA256_BYTES; i++)
      dig[j][i] = (unsigned char) gb_rng_next (&r);
}
