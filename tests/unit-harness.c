/* unit-harness.c: the harness on an operation whose cost is set, not
 * measured: it moves the test's own clock (the harness's clock here) by a
 * cost that cycles through levels 1.0, 1.1, ... 1.9 times a base, call by
 * call, as a test does on a host whose speed moves.  Nothing depends on
 * how fast this machine is or on what else it is doing.  The estimate is the fast level, the median
 * is reported apart, the test is flagged noisy, and it stops within its
 * hard cap on time; a test scored by its mean stops at its fixed time,
 * or after its minimum of visits when one operation outlasts a visit. */
#include <stdlib.h>
#include "engine/harness.h"
#include "tests/check.h"

#define BASE_SECONDS 20e-6      /* one repetition at level 1.0 */

static double base_seconds = BASE_SECONDS;

struct levels
{
  unsigned calls;
};

static double now;              /* seconds on the test's clock */

static double
clock_now (void)
{
  return now;
}

static void *
levels_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) t;
  (void) stream;
  (void) err;
  return gb_xcalloc (1, sizeof (struct levels));
}

static void
levels_run (void *state, unsigned long reps)
{
  struct levels *s = state;
  double level = 1 + 0.1 * (s->calls++ % 10);
  now += base_seconds * level * (double) reps;
}

static int
levels_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  (void) state;
  (void) digest;
  (void) err;
  return 0;
}

static void
levels_teardown (void *state)
{
  free (state);
}

static const struct bench_ops levels_ops = {
  levels_setup, levels_run, levels_check, levels_teardown
};

int
main (void)
{
  static volatile sig_atomic_t stop;
  struct harness_config cfg;
  struct measurement m;
  struct bench_error err = { BENCH_OK, "" };

  harness_default_config (&cfg, 0.3);
  cfg.clock = clock_now;
  void *state = levels_setup (NULL, 0, &err);
  check (harness_measure (&cfg, &levels_ops, state, 0, &m, &stop) == 0, "the measurement completes");
  levels_teardown (state);

  check (m.spread > 0.02 && (m.flags & MEAS_NOISY),
         "levels 10%% apart: spread %.1f%%, flagged noisy", 100 * m.spread);
  check (m.wall_seconds < cfg.overrun * cfg.max_time,
         "it stops within %g times its budget (%.2f s of samples, budget %.2f s)",
         cfg.overrun, m.wall_seconds, cfg.max_time);
  check (m.seconds_per_op > 0.95 * BASE_SECONDS && m.seconds_per_op < 1.05 * BASE_SECONDS,
         "the estimate is the fast level: %.2f us per operation (level 1.0: %.2f us)",
         m.seconds_per_op * 1e6, BASE_SECONDS * 1e6);
  check (m.median_ops_per_sec < 0.8 * m.ops_per_sec,
         "the median over all samples is reported apart: %.3g ops/s against %.3g",
         m.median_ops_per_sec, m.ops_per_sec);

  state = levels_setup (NULL, 0, &err);
  check (harness_measure (&cfg, &levels_ops, state, 1, &m, &stop) == 0,
         "a measurement for a mean completes");
  levels_teardown (state);
  check (m.wall_seconds >= cfg.mean_time && m.wall_seconds < cfg.mean_time + 2 * cfg.sample_time,
         "scored by its mean, it stops at its fixed time whatever its samples say "
         "(%.3f s of samples, mean_time %.3f s)", m.wall_seconds, cfg.mean_time);

  base_seconds = cfg.max_time;
  cfg.mean_min_visits = 12;
  state = levels_setup (NULL, 0, &err);
  check (harness_measure (&cfg, &levels_ops, state, 1, &m, &stop) == 0,
         "a measurement for a mean of slow operations completes");
  levels_teardown (state);
  check (m.samples >= cfg.mean_min_visits,
         "an operation longer than its mean_time still gets its %u visits (%u samples)",
         cfg.mean_min_visits, m.samples);
  return check_exit_status ();
}
