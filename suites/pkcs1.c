/* pkcs1.c: the PKCS #1 v1.5 encoding as a number (see pkcs1.h). */
#include "suites/pkcs1.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

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
