/* unit-clock-check.c: the clock checked against the CPU's counter
 * (engine/clock_check.h).  The counter advances and its rate is measured
 * twice alike; the kernel's clock asked by system call reads what the C
 * library's does; the harness brackets its real samples with the counter,
 * whose bounds hold the clock's seconds; and the verdicts on measurements
 * made up with known deviations follow the margin: a clock that reads
 * less than the counter's lower bound, or more than its upper bound, by
 * more than CLOCK_CHECK_TEST_MARGIN names its test (single-threaded
 * results first, then --threads ones), and rates before and after that
 * differ by more than CLOCK_CHECK_RATE_MARGIN name the run.  Where there
 * is no counter the checks that need one are skipped.  PASS/FAIL/SKIP
 * lines for tests/run-tests.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "engine/clock_check.h"
#include "engine/counter.h"
#include "engine/harness.h"
#include "engine/syscall_clock.h"
#include "tests/check.h"

/* An operation of about a microsecond that the compiler cannot drop. */
static void *
spin_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) t, (void) stream, (void) err;
  return gb_xcalloc (1, sizeof (unsigned long));
}

static void
spin_run (void *state, unsigned long reps)
{
  volatile unsigned long *x = state;
  for (unsigned long i = 0; i < reps * 300; i++)
    *x += i;
}

static int
spin_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  (void) state, (void) digest, (void) err;
  return 0;
}

static void
spin_teardown (void *state)
{
  free (state);
}

static const struct bench_ops spin_ops = { spin_setup, spin_run, spin_check, spin_teardown };

static const struct bench_test tests[] = {
  { "made.up.first", "none", 0, 0, 0 },
  { "made.up.second", "none", 0, 0, 0 },
};

/* A measured result of TEST whose counter at RATE ticks a second bounds
 * its samples between 0.5 and 0.6 s, and whose clock read 0.55 s; a
 * DEVIATION below 0 moves the clock that far below the lower bound, one
 * above 0 that far above the upper bound. */
static struct test_result
made_up (const struct bench_test *test, double rate, double deviation)
{
  struct test_result r;
  memset (&r, 0, sizeof r);
  r.test = test;
  r.outcome = BENCH_OK;
  r.m.counter.ticks_min = rate * 0.5;
  r.m.counter.ticks_max = rate * 0.6;
  r.m.counter.seconds = deviation < 0 ? 0.5 * (1 + deviation)
    : deviation > 0 ? 0.6 * (1 + deviation) : 0.55;
  return r;
}

/* The verdict on one single-threaded result deviating by DEVIATION (the
 * rates before and after being the same). */
static const char *
verdict (const struct clock_check *start, double deviation)
{
  struct clock_check c = *start;
  struct test_result r[2] = { made_up (&tests[0], c.rate_before, 0),
    made_up (&tests[1], c.rate_before, deviation)
  };
  return clock_check_finish (&c, r, NULL, 2);
}

static void
check_verdicts (const struct clock_check *start)
{
  double margin = CLOCK_CHECK_TEST_MARGIN;
  check (verdict (start, 0) == NULL, "a clock within the counter's bounds passes");
  check (verdict (start, -0.9 * margin) == NULL && verdict (start, 0.9 * margin) == NULL,
         "within %.1f%% of them it passes", 100 * margin);
  const char *v = verdict (start, -0.5);
  check (v && strcmp (v, "made.up.second") == 0,
         "a clock at half speed names its test (%s)", v ? v : "nothing");
  v = verdict (start, -1.2 * margin);
  check (v && strcmp (v, "made.up.second") == 0,
         "just past the margin below the lower bound it names its test");
  v = verdict (start, 1.2 * margin);
  check (v && strcmp (v, "made.up.second") == 0,
         "just past the margin above the upper bound it names its test");

  struct clock_check c = *start;
  struct test_result r[2] = { made_up (&tests[0], c.rate_before, 0),
    made_up (&tests[1], c.rate_before, 0)
  };
  struct test_result threaded[2] = { made_up (&tests[0], c.rate_before, -0.5),
    made_up (&tests[1], c.rate_before, 0)
  };
  v = clock_check_finish (&c, r, threaded, 2);
  check (v && strcmp (v, "made.up.first") == 0 && c.tests == 3,
         "a --threads result is judged after the single-threaded ones");

  c = *start;
  r[1].outcome = BENCH_SKIPPED;
  r[1].m.counter.seconds = 0.1;
  memset (&r[0].m.counter, 0, sizeof r[0].m.counter);
  check (clock_check_finish (&c, r, NULL, 2) == NULL && c.tests == 0,
         "skipped tests and measurements without ticks are not judged");

  c = *start;
  c.rate_before *= 1 + 2 * CLOCK_CHECK_RATE_MARGIN;
  v = clock_check_finish (&c, NULL, NULL, 0);
  check (v && strcmp (v, "the run") == 0,
         "rates before and after %.0f%% apart name the run", 200 * CLOCK_CHECK_RATE_MARGIN);
  c = *start;
  c.rate_before = 0;
  v = clock_check_finish (&c, NULL, NULL, 0);
  check (v && strcmp (v, "the run") == 0, "a rate that could not be measured names the run");
}

/* The harness's ticks against its clock seconds, real samples. */
static void
check_harness (const struct clock_check *c)
{
  static volatile sig_atomic_t stop;
  struct harness_config cfg;
  struct measurement m;
  struct bench_error err = { BENCH_OK, "" };
  harness_default_config (&cfg, 0.1);
  void *state = spin_setup (NULL, 0, &err);
  check (harness_measure (&cfg, &spin_ops, state, 0, &m, &stop) == 0,
         "a real measurement completes");
  spin_teardown (state);
  double least = m.counter.ticks_min / c->rate_before;
  double most = m.counter.ticks_max / c->rate_before;
  check (m.counter.seconds == m.wall_seconds && least > 0
         && fabs (clock_check_deviation (&m.counter, c->rate_before)) < 1e-4,
         "the harness brackets its samples with the counter: %.6f s on the clock, "
         "between %.6f and %.6f s on the counter", m.counter.seconds, least, most);
}

int
main (void)
{
  const char *why = NULL;
  const char *source = counter_source (&why);
  double kernel;

  if (syscall_clock_seconds (&kernel) == 0)
    check (fabs (kernel - gb_wall_seconds ()) < 0.01,
           "the kernel's clock by system call reads the C library's");
  else
    printf ("SKIP: no clock by system call in this build\n");
  if (!source)
    {
      printf ("SKIP: no counter here (%s)\n", why);
      return check_exit_status ();
    }
  uint64_t first = counter_read ();
  check (counter_read () > first, "the counter (%s) advances", source);

  struct clock_check c;
  clock_check_start (&c);
  check (c.source && !c.skipped && c.rate_before > 1e6,
         "its rate is measured before the tests: %.3f MHz", c.rate_before / 1e6);
  struct clock_check again = c;
  const char *v = clock_check_finish (&again, NULL, NULL, 0);
  check (v == NULL && fabs (again.rate_after / again.rate_before - 1) < 1e-3,
         "and again after them, alike: %.3f MHz", again.rate_after / 1e6);
  check_verdicts (&c);
  check_harness (&c);
  return check_exit_status ();
}
