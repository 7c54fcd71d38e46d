/* rng_sanity.c: FIPS 140-2 monobit, runs and long-run tests (see
 * rng_sanity.h).  Bits are read most significant first in each byte. */
#include "suites/rng_sanity.h"

#include <stdio.h>

#define NBITS (8 * RNG_SANITY_BYTES)
#define LONG_RUN 26

/* Allowed counts of runs of length 1..5 and 6 or more, for each bit. */
static const int run_bounds[6][2] = {
  { 2315, 2685 }, { 1114, 1386 }, { 527, 723 }, { 240, 384 }, { 103, 209 }, { 103, 209 }
};

static int
bit_at (const unsigned char *buf, size_t i)
{
  return (buf[i / 8] >> (7 - i % 8)) & 1;
}

static int
monobit (const unsigned char *buf, char *why, size_t whylen)
{
  int ones = 0;
  for (size_t i = 0; i < RNG_SANITY_BYTES; i++)
    ones += __builtin_popcount (buf[i]);
  if (ones > 9725 && ones < 10275)
    return 0;
  snprintf (why, whylen, "monobit test: %d ones in 20000 bits (9726..10274 expected)", ones);
  return -1;
}

static int
runs (const unsigned char *buf, char *why, size_t whylen)
{
  int count[2][6] = { { 0 } };
  size_t len = 1;
  for (size_t i = 1; i <= NBITS; i++)
    {
      if (i < NBITS && bit_at (buf, i) == bit_at (buf, i - 1))
        {
          len++;
          continue;
        }
      if (len >= LONG_RUN)
        {
          snprintf (why, whylen, "long-run test: a run of %zu equal bits", len);
          return -1;
        }
      count[bit_at (buf, i - 1)][len < 6 ? len - 1 : 5]++;
      len = 1;
    }
  for (int b = 0; b < 2; b++)
    for (int l = 0; l < 6; l++)
      if (count[b][l] < run_bounds[l][0] || count[b][l] > run_bounds[l][1])
        {
          snprintf (why, whylen, "runs test: %d runs of %s%d %d-bits (%d..%d expected)",
                    count[b][l], l == 5 ? ">=" : "", l + 1, b, run_bounds[l][0], run_bounds[l][1]);
          return -1;
        }
  return 0;
}

int
rng_sanity (const unsigned char *buf, size_t len, char *why, size_t whylen)
{
  if (len < RNG_SANITY_BYTES)
    {
      snprintf (why, whylen, "only %zu bytes to test, %d needed", len, RNG_SANITY_BYTES);
      return -1;
    }
  return monobit (buf, why, whylen) == 0 && runs (buf, why, whylen) == 0 ? 0 : -1;
}
