/* clock_check.c: the counter's rate before and after the run, and each
 * test's clock seconds against its counter ticks (see clock_check.h).
 *
 * A rate is the counter's ticks between two stamps CLOCK_CHECK_RATE_SECONDS
 * apart over the reference clock's seconds between them.  A stamp reads
 * the counter, the clock, the counter again, and takes the counter's
 * midpoint; of STAMP_TRIES stamps the one with the closest counter
 * readings is kept, so that a preemption between the readings does not
 * move the rate (on the development machine a system call takes 2.3 us:
 * against the 0.1 s interval, 2e-5 at worst; the rates before and after
 * agree within 1e-6). */
#include "engine/clock_check.h"

#include <math.h>
#include <stdint.h>
#include "common/util.h"
#include "engine/counter.h"
#include "engine/syscall_clock.h"

#define STAMP_TRIES 5
/* A clock that does not advance must not hold the run forever: the rate
 * is taken after this many stamps whatever the clock says (a stamp takes
 * 12 us by system call here, 0.4 us through the C library's clock). */
#define MAX_RATE_STAMPS (1ul << 20)

struct stamp
{
  uint64_t ticks;
  double seconds;
};

/* The reference clock: the kernel's by system call when RAW (NaN, which
 * fails the check, should the call fail after it worked once), else the C
 * library's. */
static double
reference_seconds (int raw)
{
  double s;
  if (!raw)
    return gb_wall_seconds ();
  return syscall_clock_seconds (&s) == 0 ? s : NAN;
}

static struct stamp
stamp (int raw)
{
  struct stamp best = { 0, 0 };
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < STAMP_TRIES; i++)
    {
      uint64_t before = counter_read ();
      double seconds = reference_seconds (raw);
      uint64_t after = counter_read ();
      if (after - before < best_gap)
        {
          best_gap = after - before;
          best.ticks = before + (after - before) / 2;
          best.seconds = seconds;
        }
    }
  return best;
}

/* Counter ticks per second of the reference clock; 0 when the clock did
 * not advance, NaN when it could not be read. */
static double
measure_rate (int raw)
{
  struct stamp first = stamp (raw), last;
  unsigned long n = 0;
  do
    last = stamp (raw);
  while (!(last.seconds - first.seconds >= CLOCK_CHECK_RATE_SECONDS) && ++n < MAX_RATE_STAMPS);
  double seconds = last.seconds - first.seconds;
  return isnan (seconds) ? NAN : seconds > 0 ? (double) (last.ticks - first.ticks) / seconds : 0;
}

void
clock_check_start (struct clock_check *c)
{
  double probe;
  c->skipped = NULL;
  c->source = counter_source (&c->skipped);
  c->by_syscall = syscall_clock_seconds (&probe) == 0;
  c->rate_before = c->rate_after = 0;
  c->stated_hz = c->source ? counter_stated_hz () : 0;
  c->deviation_min = c->deviation_max = c->deviation = 0;
  c->tests = 0;
  if (c->source)
    c->rate_before = measure_rate (c->by_syscall);
}

double
clock_check_deviation (const struct counter_span *span, double rate)
{
  double least = span->ticks_min / rate, most = span->ticks_max / rate;
  if (span->seconds < least)
    return span->seconds / least - 1;
  if (span->seconds > most)
    return span->seconds / most - 1;
  return 0;
}

/* Whether M's clock seconds agree with the counter, the deviation
 * recorded in C; a measurement without ticks has nothing to judge. */
static int
test_agrees (struct clock_check *c, const struct measurement *m)
{
  if (m->counter.ticks_max <= 0)
    return 1;
  double deviation = clock_check_deviation (&m->counter, c->rate_before);
  if (c->tests == 0 || deviation < c->deviation_min)
    c->deviation_min = deviation;
  if (c->tests == 0 || deviation > c->deviation_max)
    c->deviation_max = deviation;
  c->tests++;
  c->deviation = deviation;
  return fabs (deviation) <= CLOCK_CHECK_TEST_MARGIN;
}

/* The first test of R[0..N) measured and out of agreement, or NULL. */
static const char *
first_disagreeing (struct clock_check *c, const struct test_result *r, size_t n)
{
  for (size_t i = 0; r && i < n; i++)
    if (r[i].outcome == BENCH_OK && !test_agrees (c, &r[i].m))
      return r[i].test->name;
  return NULL;
}

const char *
clock_check_finish (struct clock_check *c, const struct test_result *r,
                    const struct test_result *threaded, size_t n)
{
  if (!c->source)
    return NULL;
  c->rate_after = measure_rate (c->by_syscall);
  if (!(c->rate_before > 0 && isfinite (c->rate_before)))
    return "the run";
  const char *test = first_disagreeing (c, r, n);
  if (!test)
    test = first_disagreeing (c, threaded, n);
  if (test)
    return test;
  if (!(fabs (c->rate_after / c->rate_before - 1) <= CLOCK_CHECK_RATE_MARGIN))
    return "the run";
  return NULL;
}
