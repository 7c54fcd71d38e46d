/* unit-compare-threads.c: the --threads engine (suites/threads.h) on real
 * tests with tiny budgets: aggregate ops/s and efficiency are reported,
 * every copy is checked into a deterministic digest, skips and
 * interruptions come back as runner statuses.  PASS/FAIL/SKIP lines for
 * tests/run-tests.sh. */
#include <stdio.h>
#include <string.h>
#include "suites/suites.h"
#include "suites/threads.h"

static int failures;

static void
expect (int ok, const char *what)
{
  printf ("%s: %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

int
main (void)
{
  struct harness_config cfg;
  struct test_result r1, r2;
  double eff1 = -1, eff2 = -1;
  volatile sig_atomic_t stop = 0;
  const struct bench_test *t = registry_find ("gmpbench.base.multiply.512,512");

  harness_default_config (&cfg, 0.05);
  expect (threads_usable_cpus () >= 1, "at least one usable CPU");
  expect (t != NULL, "the test exists");
  if (!t)
    return 1;

  int st = threads_measure (t, &cfg, 2, &r1, &eff1, &stop);
  expect (st == RUNNER_OK && r1.outcome == BENCH_OK && r1.m.ops_per_sec > 0 && r1.m.samples >= 3,
          "two threads: an aggregate measurement");
  printf ("  2 threads: %.6g ops/s, efficiency %.2f, %u rounds\n", r1.m.ops_per_sec, eff1,
          r1.m.samples);
  /* Loose bounds: the machine running the tests may be busy. */
  expect (eff1 > 0.05 && eff1 < 4, "efficiency is plausible");
  st = threads_measure (t, &cfg, 2, &r2, &eff2, &stop);
  expect (st == RUNNER_OK && strlen (r1.digest) == 64 && strcmp (r1.digest, r2.digest) == 0,
          "the digest over all copies does not depend on timing");
  st = threads_measure (t, &cfg, 3, &r2, &eff2, &stop);
  expect (st == RUNNER_OK && strcmp (r1.digest, r2.digest) != 0,
          "each copy has its own operands (3 copies, another digest)");

  const struct bench_test *absent = registry_find ("rng.rndr");
  st = threads_measure (absent, &cfg, 2, &r2, &eff2, &stop);
  if (r2.outcome == BENCH_SKIPPED)
    expect (st == RUNNER_OK && r2.message[0], "absent hardware is skipped with a reason");
  else
    printf ("SKIP: skipping absent hardware (this CPU has RNDR)\n");

  stop = 1;
  st = threads_measure (t, &cfg, 2, &r2, &eff2, &stop);
  expect (st == RUNNER_INTERRUPTED, "a stop request interrupts the measurement");
  return failures ? 1 : 0;
}
