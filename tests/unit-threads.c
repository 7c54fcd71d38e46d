/* unit-threads.c: the --threads engine (engine/threads.h) on real
 * tests with tiny budgets: aggregate ops/s and efficiency are reported,
 * every copy is checked into a deterministic digest, skips and
 * interruptions come back as runner statuses, copies are pinned on Linux,
 * and copies that cannot overlap are not counted as concurrent (a test
 * whose samples hold one lock).  PASS/FAIL/SKIP lines for
 * tests/run-tests.sh. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "engine/threads.h"
#include "suites/programs.h"

static int failures;

static void
expect (int ok, const char *what)
{
  printf ("%s: %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

/* A test whose copies never run at the same time: a sample holds one
 * lock for its whole length, so N copies do the work of one.  Its time is
 * a clock of its own that each operation moves by a millisecond, so the
 * efficiency found does not depend on the load of the machine running
 * the tests. */
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t serial_clock_lock = PTHREAD_MUTEX_INITIALIZER;
static double serial_now;

static double
serial_clock (void)
{
  pthread_mutex_lock (&serial_clock_lock);
  double now = serial_now;
  pthread_mutex_unlock (&serial_clock_lock);
  return now;
}

static void *
serial_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) t, (void) stream, (void) err;
  return gb_xcalloc (1, 1);
}

static void
serial_run (void *state, unsigned long reps)
{
  (void) state;
  pthread_mutex_lock (&serial_lock);
  for (unsigned long i = 0; i < reps; i++)
    {
      pthread_mutex_lock (&serial_clock_lock);
      serial_now += 0.001;
      pthread_mutex_unlock (&serial_clock_lock);
    }
  pthread_mutex_unlock (&serial_lock);
}

static int
serial_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  (void) state, (void) digest, (void) err;
  return 0;
}

static void
serial_teardown (void *state)
{
  free (state);
}

static const struct bench_ops serial_ops = {
  serial_setup, serial_run, serial_check, serial_teardown
};
static const struct bench_test serial_test = { "unit.serial", "unit.serial", 0, 0, 0 };

/* Two copies that take turns: one copy's throughput, efficiency 1/2
 * (each copy's rate counted from its own start would make it 3/4). */
static void
check_serialized (const struct harness_config *threads_cfg)
{
  struct harness_config cfg = *threads_cfg;
  struct test_result r;
  double eff = -1;
  volatile sig_atomic_t stop = 0;
  cfg.clock = serial_clock;
  int st = threads_measure (&serial_test, &serial_ops, &cfg, 2, &r, &eff, &stop);
  printf ("  2 copies taking turns: efficiency %.2f\n", eff);
  expect (st == RUNNER_OK && r.outcome == BENCH_OK && eff > 0.49 && eff < 0.51,
          "copies that never overlap are not counted as concurrent");
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

  int st = threads_measure (t, program_ops (t), &cfg, 2, &r1, &eff1, &stop);
  expect (st == RUNNER_OK && r1.outcome == BENCH_OK && r1.m.ops_per_sec > 0 && r1.m.samples >= 3,
          "two threads: an aggregate measurement");
  printf ("  2 threads: %.6g ops/s, efficiency %.2f, %u rounds\n", r1.m.ops_per_sec, eff1,
          r1.m.samples);
  /* Its size depends on how busy the machine running the tests is; the
   * serialized test below checks the arithmetic with a clock of its own. */
  expect (eff1 > 0 && isfinite (eff1), "efficiency is a positive number");
#ifdef __linux__
  expect (!(r1.m.flags & MEAS_UNPINNED), "every copy was pinned to a CPU");
#else
  printf ("SKIP: pinning (checked on Linux only)\n");
#endif
  check_serialized (&cfg);
  st = threads_measure (t, program_ops (t), &cfg, 2, &r2, &eff2, &stop);
  expect (st == RUNNER_OK && strlen (r1.digest) == 64 && strcmp (r1.digest, r2.digest) == 0,
          "the digest over all copies does not depend on timing");
  st = threads_measure (t, program_ops (t), &cfg, 3, &r2, &eff2, &stop);
  expect (st == RUNNER_OK && strcmp (r1.digest, r2.digest) != 0,
          "each copy has its own operands (3 copies, another digest)");

  const struct bench_test *absent = registry_find ("rng.rndr");
  st = threads_measure (absent, program_ops (absent), &cfg, 2, &r2, &eff2, &stop);
  if (r2.outcome == BENCH_SKIPPED)
    expect (st == RUNNER_OK && r2.message[0], "absent hardware is skipped with a reason");
  else
    printf ("SKIP: skipping absent hardware (this CPU has RNDR)\n");

  stop = 1;
  st = threads_measure (t, program_ops (t), &cfg, 2, &r2, &eff2, &stop);
  expect (st == RUNNER_INTERRUPTED, "a stop request interrupts the measurement");
  return failures ? 1 : 0;
}
