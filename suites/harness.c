/* harness.c: calibrated, repeated timing of one test (see harness.h). */
#include "suites/harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "suites/stats.h"

#define MAX_SAMPLES 4096
#define NOISY_SPREAD 0.02       /* spread above which a test is noisy */
#define CPU_DIVERGED_RATIO 0.90

void
bench_fail (struct bench_error *err, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
  err->outcome = BENCH_FAILED;
}

void
bench_skip (struct bench_error *err, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
  err->outcome = BENCH_SKIPPED;
}

void
harness_default_config (struct harness_config *cfg, double time_per_test)
{
  cfg->max_time = time_per_test;
  cfg->min_time = time_per_test / 3;
  cfg->sample_time = time_per_test >= 0.5 ? 0.01 : 0.004;
  cfg->min_samples = 10;
  cfg->hard_min_samples = 3;
  cfg->agree = 5;
  cfg->tolerance = 0.01;
}

static double
time_reps (const struct bench_ops *ops, void *state, unsigned long reps)
{
  double t0 = gb_wall_seconds ();
  ops->run (state, reps);
  return gb_wall_seconds () - t0;
}

/* Repetitions per sample: double until a sample lasts at least a quarter
 * of the target, then scale to the target.  These runs also warm caches
 * and the allocator; none of them is counted. */
static unsigned long
calibrate (const struct harness_config *cfg, const struct bench_ops *ops, void *state)
{
  unsigned long reps = 1;
  double t = time_reps (ops, state, reps);
  while (t < cfg->sample_time / 4 && reps < (1ul << 40))
    {
      reps *= 2;
      t = time_reps (ops, state, reps);
    }
  double per_op = t / reps;
  double want = per_op > 0 ? ceil (cfg->sample_time / per_op) : 1;
  return want < 1 ? 1 : (unsigned long) want;
}

int
harness_measure (const struct harness_config *cfg, const struct bench_ops *ops,
                 void *state, struct measurement *m,
                 volatile sig_atomic_t *stop)
{
  double *times = gb_xmalloc (MAX_SAMPLES * sizeof *times);
  double *sorted = gb_xmalloc (MAX_SAMPLES * sizeof *sorted);
  unsigned long reps = calibrate (cfg, ops, state);
  unsigned n = 0;
  double wall = 0, cpu = 0;
  int converged = 0;

  while (n < MAX_SAMPLES && !*stop)
    {
      double c0 = gb_thread_cpu_seconds ();
      double t0 = gb_wall_seconds ();
      ops->run (state, reps);
      double t1 = gb_wall_seconds ();
      double c1 = gb_thread_cpu_seconds ();
      times[n++] = (t1 - t0) / reps;
      wall += t1 - t0;
      cpu += c1 - c0;

      if (n >= cfg->min_samples && wall >= cfg->min_time)
        {
          for (unsigned i = 0; i < n; i++)
            sorted[i] = times[i];
          stats_sort (sorted, n);
          converged = stats_converged (sorted, n, cfg->agree, cfg->tolerance);
          if (converged)
            break;
        }
      if (wall >= cfg->max_time && n >= cfg->hard_min_samples)
        break;
    }

  int interrupted = *stop != 0;
  struct stats_estimate e;
  stats_estimate (times, n, &e);
  m->seconds_per_op = e.time;
  m->ops_per_sec = e.time > 0 ? 1 / e.time : 0;
  m->spread = e.spread;
  m->median_ops_per_sec = e.median > 0 ? 1 / e.median : 0;
  m->samples = n;
  m->reps_per_sample = reps;
  m->wall_seconds = wall;
  m->cpu_seconds = cpu;
  m->converged = converged;
  m->flags = 0;
  if (e.spread > NOISY_SPREAD)
    m->flags |= MEAS_NOISY;
  if (wall > 0 && cpu < CPU_DIVERGED_RATIO * wall)
    m->flags |= MEAS_CPU_DIVERGED;
  free (times);
  free (sorted);
  return interrupted ? -1 : 0;
}
