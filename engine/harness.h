/* harness.h: timing one test honestly.
 *
 * A measurement calibrates a repetition count so that one sample lasts
 * about SAMPLE_TIME (long compared with the clock's resolution, short
 * compared with the noise regimes of a virtual machine), then takes
 * samples until the fastest ones agree (see stats.h) or the budget is
 * spent.  A test scored by the mean of its samples (GMPbench's estimator,
 * harness_use_cpu_mean) waits for no agreement: it takes samples for a
 * fixed MEAN_TIME, as GMPbench times for a fixed ten seconds.  Each sample is timed with the monotonic clock; the thread's CPU
 * time is recorded alongside so that a run in which the process lost the
 * CPU (stolen time, other load) is flagged, and each clock reading is
 * bracketed by readings of the CPU's counter (counter.h), which
 * clock_check.h judges the clock by.  Only ops->run is inside the timed
 * region.
 *
 * The samples can be taken in visits (harness_start, harness_visit,
 * harness_finish) so that a caller can interleave many tests: on a shared
 * machine the slow periods last seconds, longer than one test's budget, and
 * a test measured in one go can fall wholly inside one (runner.h).  Each
 * visit opens with one untimed repetition, which brings the test's operands
 * back into the caches the other tests used meanwhile.
 */
#ifndef GB_HARNESS_H
#define GB_HARNESS_H

#include <signal.h>
#include "engine/bench.h"
#include "engine/counter.h"

struct harness_config
{
  double min_time;              /* seconds of samples before stopping early */
  double max_time;              /* budget: stop after this many seconds */
  double sample_time;           /* target length of one sample */
  unsigned min_samples;         /* before stopping early */
  unsigned budget_min_samples;  /* at the budget, stop only with this many... */
  double overrun;               /* ...or once overrun * max_time is spent */
  unsigned hard_min_samples;    /* even past that */
  unsigned agree;               /* fastest samples that must agree... */
  double tolerance;             /* ...within this relative tolerance */
  double mean_time;             /* seconds of samples of a test scored by
                                   their mean (at least hard_min_samples) */
  unsigned mean_min_visits;     /* and at least this many visits */
  unsigned visits;              /* the budget is spread over this many visits */
  unsigned min_visits;          /* before stopping early */
  double (*clock) (void);       /* seconds, monotonic: gb_wall_seconds, or a
                                   test's own clock that its operations move */
  int emulated;                 /* the run is under an emulator: fresh.h's
                                   bounds on time are not applied */
};

/* The defaults for a budget of TIME_PER_TEST seconds per test. */
void harness_default_config (struct harness_config *cfg, double time_per_test);

/* Flags of a measurement. */
#define MEAS_NOISY        1u    /* spread above 2% */
#define MEAS_CPU_DIVERGED 2u    /* CPU time below 90% of wall time */
#define MEAS_UNPINNED     4u    /* threads.h: a copy could not be pinned */

struct measurement
{
  double ops_per_sec;           /* what scores are made of: 1 / seconds_per_op */
  double seconds_per_op;        /* the fast-sample estimate (stats.h), or
                                 * GMPbench's after harness_use_cpu_mean */
  double fast_ops_per_sec;      /* the fast-sample estimate, always */
  double spread;                /* relative, see stats.h */
  double median_ops_per_sec;    /* over all samples, for reference */
  unsigned samples;
  unsigned long reps_per_sample;
  double wall_seconds;          /* total timed wall time */
  double cpu_seconds;           /* total CPU time over the same samples */
  double kernel_seconds;        /* the kernel's part of it (page faults) */
  struct counter_span counter;  /* the samples on the clock and the CPU's
                                   counter (clock_check.h) */
  int converged;
  unsigned flags;
};

/* A measurement in progress. */
struct harness_run
{
  const struct harness_config *cfg;
  const struct bench_ops *ops;
  void *state;
  double *times;                /* seconds per operation, one per sample */
  double *sorted;               /* scratch for the stopping rule */
  unsigned n;
  unsigned visits;
  unsigned long reps;           /* repetitions per sample */
  double wall, cpu, kernel;     /* timed seconds so far */
  struct counter_span counter;  /* the same samples on the CPU's counter */
  int by_mean;                  /* stops at cfg->mean_time */
  int converged;
  int done;                     /* converged, or the budget is spent */
};

/* Calibrates; the calibration runs are not counted.  BY_MEAN: the test
 * will be scored by its samples' mean (harness_use_cpu_mean). */
void harness_start (struct harness_run *h, const struct harness_config *cfg,
                    const struct bench_ops *ops, void *state, int by_mean);
/* Takes samples for about cfg->max_time / cfg->visits seconds, or until
 * the measurement is done.  Returns h->done, or -1 if *STOP became
 * non-zero (the measurement is then incomplete and must not be reported;
 * harness_finish still frees it). */
int harness_visit (struct harness_run *h, volatile sig_atomic_t *stop);
/* The estimate, into M; frees H's storage. */
void harness_finish (struct harness_run *h, struct measurement *m);

/* Makes GMPbench's estimator M's figure: the operations of all samples
 * over their user CPU time (their CPU time less its kernel part), a mean,
 * as GMPbench 0.2 counts (docs/scoring.md);
 * the fast-sample estimate stays in fast_ops_per_sec.  Where the thread
 * CPU clock is coarse (gb_thread_cpu_coarse: Windows), the samples' wall
 * time stands in for their CPU time.  Nothing changes if no time was
 * recorded. */
void harness_use_cpu_mean (struct measurement *m);

/* All visits in a row.  Returns 0, or -1 if *STOP became non-zero. */
int harness_measure (const struct harness_config *cfg, const struct bench_ops *ops,
                     void *state, int by_mean, struct measurement *m,
                     volatile sig_atomic_t *stop);

#endif
