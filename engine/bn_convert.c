/* bn_convert.c: GMP <-> BIGNUM through big-endian bytes (see bn_convert.h). */
#include "engine/bn_convert.h"

#include <stdlib.h>
#include "common/util.h"

BIGNUM *
bn_from_mpz (const mpz_t z)
{
  size_t len = (mpz_sizeinbase (z, 2) + 7) / 8, written = 0;
  unsigned char *buf = gb_xmalloc (len ? len : 1);
  if (mpz_sgn (z) != 0)
    mpz_export (buf, &written, 1, 1, 1, 0, z);
  BIGNUM *b = BN_bin2bn (buf, (int) written, NULL);
  free (buf);
  if (b && mpz_sgn (z) < 0)
    BN_set_negative (b, 1);
  return b;
}

void
bn_to_mpz (mpz_t z, const BIGNUM *b)
{
  int len = BN_num_bytes (b);
  unsigned char *buf = gb_xmalloc (len ? (size_t) len : 1);
  BN_bn2bin (b, buf);
  mpz_import (z, (size_t) len, 1, 1, 1, 0, buf);
  free (buf);
  if (BN_is_negative (b))
    mpz_neg (z, z);
}
