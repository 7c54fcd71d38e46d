/* unit-rng-sanity.c: the random generators' sanity test (rng_sanity.h)
 * rejects broken output and accepts good output, and the hardware
 * instructions (rng_hw.h) are either usable or absent with a reason.
 * Prints PASS/FAIL/SKIP lines for tests/run-tests.sh. */
#include <stdio.h>
#include <string.h>
#include "engine/operand.h"
#include "suites/rng_hw.h"
#include "suites/rng_sanity.h"
#include "tests/check.h"

#define LEN 4096

static int
passes (const unsigned char *buf, size_t len)
{
  char why[160];
  return rng_sanity (buf, len, why, sizeof why) == 0;
}

static void
test_sanity (void)
{
  unsigned char buf[LEN];
  char why[160];
  struct gb_rng r;
  gb_rng_init (&r, "unit-rng-sanity", 0);
  for (size_t i = 0; i < LEN; i++)
    buf[i] = (unsigned char) (gb_rng_next (&r) >> 56);
  check (passes (buf, LEN), "SplitMix64 output passes");
  check (!passes (buf, RNG_SANITY_BYTES - 1), "too short a block is refused");
  memset (buf, 0, LEN);
  check (rng_sanity (buf, LEN, why, sizeof why) != 0 && strstr (why, "monobit"),
         "all zeros fail the monobit test");
  memset (buf, 0x55, LEN);
  check (rng_sanity (buf, LEN, why, sizeof why) != 0 && strstr (why, "runs test"),
         "alternating bits fail the runs test");
  gb_rng_init (&r, "unit-rng-sanity", 0);
  for (size_t i = 0; i < LEN; i++)
    buf[i] = (unsigned char) (gb_rng_next (&r) >> 56);
  memset (buf + 100, 0xff, 4);
  check (rng_sanity (buf, LEN, why, sizeof why) != 0 && strstr (why, "long-run"),
         "32 equal bits fail the long-run test");
}

static void
test_hw (enum rng_hw which, const char *name)
{
  char why[160] = "";
  unsigned char buf[LEN];
  if (!rng_hw_available (which, why, sizeof why))
    {
      printf ("SKIP: %s output (%s)\n", name, why);
      check (why[0] != '\0', "%s absent: a reason is given", name);
      return;
    }
  /* A good generator fails the sanity test about once in 1400 blocks
   * (rng_sanity.h): one of two blocks must pass. */
  int ok = 0;
  for (int attempt = 0; attempt < 2 && !ok; attempt++)
    {
      if (rng_hw_fill (which, buf, LEN) != 0)
        snprintf (why, sizeof why, "the instruction reported an error");
      else
        ok = rng_sanity (buf, LEN, why, sizeof why) == 0;
      if (!ok)
        printf ("# %s block %d: %s\n", name, attempt + 1, why);
    }
  check (ok, "%s fills a block that passes the sanity test", name);
  check (rng_hw_fill (which, buf, 13) == 0, "%s fills an odd length", name);
}

int
main (void)
{
  test_sanity ();
  test_hw (RNG_HW_RDRAND, "RDRAND");
  test_hw (RNG_HW_RDSEED, "RDSEED");
  test_hw (RNG_HW_RNDR, "RNDR");
  return check_exit_status ();
}
