/* clock_check.h: the run's clock checked against the CPU's counter
 * (counter.h), so that a library which slows the clocks the process
 * reads cannot inflate a score (docs/timing.md, "The clock checked
 * against the CPU's counter").
 *
 * clock_check_start measures the counter's rate before the first test:
 * its ticks per second of the kernel's monotonic clock over
 * CLOCK_CHECK_RATE_SECONDS, that clock asked by a system call of our own
 * where syscall_clock.h has one (no library can rewrite it), else through
 * the C library.  Every clock reading of a timed sample is bracketed by
 * counter readings (harness.c, threads.c: a measurement's counter span),
 * so the counter bounds each test's clock seconds from below (the ticks
 * between the readings nearest the timed work) and from above (the
 * outermost ones).  clock_check_finish measures the rate again after the
 * last test and judges:
 *
 *   - every test: its clock seconds must lie within the counter's bounds
 *     (at the rate before), give or take CLOCK_CHECK_TEST_MARGIN.  An
 *     honest clock lies between them whatever happened between the
 *     readings; a clock that reads less than the lower bound runs slow,
 *     one that reads more than the upper bound runs fast;
 *   - the run: the rates before and after agree within
 *     CLOCK_CHECK_RATE_MARGIN.
 *
 * Where there is no counter the check is skipped, and says why. */
#ifndef GB_CLOCK_CHECK_H
#define GB_CLOCK_CHECK_H

#include <stddef.h>
#include "engine/runner.h"

#define CLOCK_CHECK_RATE_SECONDS 0.1
#define CLOCK_CHECK_RATE_MARGIN 0.02
#define CLOCK_CHECK_TEST_MARGIN 0.01

struct clock_check
{
  const char *source;           /* the counter (counter.h); NULL: none */
  const char *skipped;          /* why nothing was checked; NULL: checked */
  int by_syscall;               /* the rates were timed by the kernel's
                                   clock asked by system call
                                   (syscall_clock.h), else by the C
                                   library's */
  double rate_before, rate_after;       /* counter ticks per second */
  double stated_hz;             /* counter_stated_hz, 0 when not stated */
  double deviation_min, deviation_max;  /* over the checked tests:
                                           clock_check_deviation */
  size_t tests;                 /* how many tests were checked */
  double deviation;             /* the deviation of the test that
                                   disagreed, after clock_check_finish */
};

/* How far the clock's seconds in SPAN lie outside the counter's bounds
 * at RATE ticks a second, relative: 0 within them, below the lower bound
 * negative (the clock's seconds over the bound's, less 1), above the upper
 * bound positive. */
double clock_check_deviation (const struct counter_span *span, double rate);

/* Measures the rate before the first test into C (or records why there
 * is no check). */
void clock_check_start (struct clock_check *c);

/* After the last test: measures the rate after, then judges the tests
 * measured in R[0..N) and, unless NULL, THREADED[0..N) (--threads), in
 * order.  NULL when the clock agrees with the counter (or nothing could
 * be checked), else the name of the first test that disagrees, or
 * "the run" when only the rates before and after disagree (or the rate
 * before could not be measured). */
const char *clock_check_finish (struct clock_check *c, const struct test_result *r,
                                const struct test_result *threaded, size_t n);

#endif
