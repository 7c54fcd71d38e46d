/* check.c: independent result checks and canonical digests (see check.h). */
#include "engine/check.h"

#include <stdlib.h>

/* The largest primes below 2^32; unsigned long holds them on every ABI. */
static const unsigned long check_primes[] = {
  4294967291ul, 4294967279ul, 4294967231ul, 4294967197ul
};

int
check_product (const mpz_t a, const mpz_t b, const mpz_t c)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (check_primes); i++)
    {
      unsigned long p = check_primes[i];
      unsigned long long x = mpz_fdiv_ui (a, p), y = mpz_fdiv_ui (b, p);
      if ((x * y) % p != mpz_fdiv_ui (c, p))
        return 0;
    }
  return mpz_sgn (c) == mpz_sgn (a) * mpz_sgn (b)
    && mpz_sizeinbase (c, 2) + 1 >= mpz_sizeinbase (a, 2) + mpz_sizeinbase (b, 2) - 1
    && mpz_sizeinbase (c, 2) <= mpz_sizeinbase (a, 2) + mpz_sizeinbase (b, 2);
}

int
check_tdiv_q (const mpz_t a, const mpz_t b, const mpz_t q)
{
  mpz_t r;
  int ok;
  if (mpz_sgn (b) == 0)
    return 0;
  mpz_init (r);
  mpz_mul (r, q, b);
  mpz_sub (r, a, r);
  ok = mpz_cmpabs (r, b) < 0 && (mpz_sgn (r) == 0 || mpz_sgn (r) == mpz_sgn (a));
  mpz_clear (r);
  return ok;
}

int
check_gcd_bezout (const mpz_t a, const mpz_t b, const mpz_t g,
                  const mpz_t s, const mpz_t t)
{
  mpz_t x, y;
  int ok;
  if (mpz_sgn (g) <= 0)
    return 0;
  mpz_init (x);
  mpz_init (y);
  mpz_mul (x, s, a);
  mpz_mul (y, t, b);
  mpz_add (x, x, y);
  ok = mpz_cmp (x, g) == 0 && mpz_divisible_p (a, g) && mpz_divisible_p (b, g);
  mpz_clear (x);
  mpz_clear (y);
  return ok;
}

void
digest_mpz (struct gb_sha256 *h, const mpz_t z)
{
  size_t n = (mpz_sizeinbase (z, 2) + 7) / 8;
  unsigned char head[9];
  unsigned char *buf = gb_xmalloc (n);
  size_t written = 0;
  if (mpz_sgn (z) != 0)
    mpz_export (buf, &written, 1, 1, 1, 0, z);
  head[0] = mpz_sgn (z) < 0 ? '-' : '+';
  for (int i = 0; i < 8; i++)
    head[1 + i] = (unsigned char) ((uint64_t) written >> (56 - 8 * i));
  gb_sha256_update (h, head, sizeof head);
  gb_sha256_update (h, buf, written);
  free (buf);
}

void
digest_gcd_witness (struct gb_sha256 *h, const mpz_t a, const mpz_t b, const mpz_t g,
                    const mpz_t s)
{
  mpz_t qa, qb, u;
  mpz_inits (qa, qb, u, NULL);
  mpz_divexact (qa, a, g);
  mpz_divexact (qb, b, g);
  if (mpz_sgn (qb) != 0)
    mpz_mod (u, s, qb);
  else
    mpz_set (u, s);
  digest_mpz (h, g);
  digest_mpz (h, qa);
  digest_mpz (h, qb);
  digest_mpz (h, u);
  mpz_clears (qa, qb, u, NULL);
}
