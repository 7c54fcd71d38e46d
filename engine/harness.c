/* harness.c: calibrated, repeated timing of one test (see harness.h). */
#include "engine/harness.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/stats.h"
#include "engine/syscall_clock.h"
#include "model/test_marks.h"

#define MAX_SAMPLES 4096

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
  cfg->budget_min_samples = 12;
  cfg->overrun = 4;
  cfg->hard_min_samples = 3;
  cfg->mean_time = time_per_test / 2;
  cfg->mean_min_visits = 0;
  cfg->agree = 5;
  cfg->tolerance = 0.01;
  cfg->visits = 12;
  cfg->min_visits = 6;
  cfg->clock = gb_wall_seconds;
  cfg->emulated = 0;
}

static double
time_reps (const struct harness_config *cfg, const struct bench_ops *ops, void *state,
           unsigned long reps)
{
  double t0 = cfg->clock ();
  ops->run (state, reps);
  return cfg->clock () - t0;
}

/* Calibration stops doubling here: 2^40 where unsigned long has 64 bits,
 * 2^31 where it has 32 (64-bit Windows). */
#define MAX_CALIBRATION_REPS (ULONG_MAX >> (sizeof (unsigned long) > 4 ? 24 : 1))

/* Repetitions per sample: double until a sample lasts at least a quarter
 * of the target, timed twice at the step that reached it (the shorter
 * kept, doubling on when that falls short), then scale to the target.
 * Once, a preemption in a step of a few microseconds passed for the
 * quarter, and the samples came out 300 times shorter than the target
 * (93 repetitions of a 33 ns division, at a load average of 24 on 2
 * cores), too short for the CPU clocks read around them.  These runs also
 * warm caches and the allocator; none of them is counted. */
static unsigned long
calibrate (const struct harness_config *cfg, const struct bench_ops *ops, void *state)
{
  unsigned long reps = 1;
  double t = time_reps (cfg, ops, state, reps);
  while (reps < MAX_CALIBRATION_REPS)
    {
      if (t >= cfg->sample_time / 4)
        t = fmin (t, time_reps (cfg, ops, state, reps));
      if (t >= cfg->sample_time / 4)
        break;
      reps *= 2;
      t = time_reps (cfg, ops, state, reps);
    }
  double per_op = t / reps;
  double want = per_op > 0 ? ceil (cfg->sample_time / per_op) : 1;
  return want < 1 ? 1 : (unsigned long) want;
}

void
harness_start (struct harness_run *h, const struct harness_config *cfg,
               const struct bench_ops *ops, void *state, int by_mean)
{
  h->cfg = cfg;
  h->by_mean = by_mean;
  h->ops = ops;
  h->state = state;
  h->times = gb_xmalloc (MAX_SAMPLES * sizeof *h->times);
  h->sorted = gb_xmalloc (MAX_SAMPLES * sizeof *h->sorted);
  h->n = 0;
  h->visits = 0;
  h->reps = calibrate (cfg, ops, state);
  h->wall = h->cpu = h->kernel = 0;
  memset (&h->counter, 0, sizeof h->counter);
  h->converged = 0;
  h->done = 0;
}

/* Whether the fastest samples so far agree (stats.h). */
static int
agree (struct harness_run *h)
{
  const struct harness_config *cfg = h->cfg;
  memcpy (h->sorted, h->times, h->n * sizeof *h->sorted);
  stats_sort (h->sorted, h->n);
  return stats_converged (h->sorted, h->n, cfg->agree, cfg->tolerance);
}

/* Whether the samples so far are enough: the stopping rule.  A mean
 * improves with the time it covers, not with agreement, so a test scored
 * by its mean stops at a fixed time (its agreement is still reported). */
static int
enough (struct harness_run *h)
{
  const struct harness_config *cfg = h->cfg;
  if (h->n >= MAX_SAMPLES)
    return 1;
  if (h->by_mean)
    {
      if (h->wall < cfg->mean_time || h->n < cfg->hard_min_samples
          || h->visits < cfg->mean_min_visits)
        return 0;
      h->converged = agree (h);
      return 1;
    }
  if (h->n >= cfg->min_samples && h->wall >= cfg->min_time && h->visits >= cfg->min_visits)
    {
      h->converged = agree (h);
      if (h->converged)
        return 1;
    }
  if (h->wall >= cfg->max_time && h->n >= cfg->budget_min_samples)
    return 1;
  return h->wall >= cfg->overrun * cfg->max_time && h->n >= cfg->hard_min_samples;
}

int
harness_visit (struct harness_run *h, volatile sig_atomic_t *stop)
{
  double visit_time = h->cfg->max_time / (h->cfg->visits ? h->cfg->visits : 1);
  double spent = 0;
  if (h->done)
    return 1;
  h->visits++;
  if (h->reps > 1)
    h->ops->run (h->state, 1);
  while (!*stop && !h->done && spent < visit_time)
    {
      double k0 = thread_kernel_seconds ();
      double c0 = thread_cpu_seconds ();
      struct counter_stamp s0, s1;
      double t0 = counter_stamp (h->cfg->clock, &s0);
      h->ops->run (h->state, h->reps);
      double t1 = counter_stamp (h->cfg->clock, &s1);
      double c1 = thread_cpu_seconds ();
      double k1 = thread_kernel_seconds ();
      h->times[h->n++] = (t1 - t0) / h->reps;
      spent += t1 - t0;
      h->wall += t1 - t0;
      h->cpu += c1 - c0;
      h->kernel += k1 - k0;
      counter_span_add (&h->counter, &s0, &s1, t1 - t0);
      h->done = enough (h);
    }
  return *stop ? -1 : h->done;
}

void
harness_finish (struct harness_run *h, struct measurement *m)
{
  struct stats_estimate e;
  stats_estimate (h->times, h->n, h->cfg->agree, h->cfg->tolerance, &e);
  m->seconds_per_op = e.time;
  m->ops_per_sec = e.time > 0 ? 1 / e.time : 0;
  m->fast_ops_per_sec = m->ops_per_sec;
  m->spread = e.spread;
  m->median_ops_per_sec = e.median > 0 ? 1 / e.median : 0;
  m->samples = h->n;
  m->reps_per_sample = h->reps;
  m->wall_seconds = h->wall;
  m->cpu_seconds = h->cpu;
  m->kernel_seconds = fmin (fmax (h->kernel, 0), h->cpu);
  m->counter = h->counter;
  m->converged = h->converged;
  m->flags = 0;
  if (e.spread > TEST_NOISY_SPREAD)
    m->flags |= MEAS_NOISY;
  if (h->wall > 0 && h->cpu < TEST_CPU_DIVERGED_RATIO * h->wall)
    m->flags |= MEAS_CPU_DIVERGED;
  free (h->times);
  free (h->sorted);
  h->times = h->sorted = NULL;
}

void
harness_use_cpu_mean (struct measurement *m)
{
  double seconds = gb_thread_cpu_coarse () ? m->wall_seconds
    : m->cpu_seconds - m->kernel_seconds;
  if (seconds <= 0 || m->samples == 0)
    return;
  m->seconds_per_op = seconds / ((double) m->samples * (double) m->reps_per_sample);
  m->ops_per_sec = 1 / m->seconds_per_op;
}

int
harness_measure (const struct harness_config *cfg, const struct bench_ops *ops,
                 void *state, int by_mean, struct measurement *m,
                 volatile sig_atomic_t *stop)
{
  struct harness_run h;
  int status = 0;
  harness_start (&h, cfg, ops, state, by_mean);
  while (status == 0)
    status = harness_visit (&h, stop);
  harness_finish (&h, m);
  return status < 0 ? -1 : 0;
}
