/* timers.c: does the way a loop is timed move its ops/s?  (issue 36: the
 * timer as a cause of the divide and rsa.512 gaps against GMPbench 0.2)
 *
 * One process, one test's timed loop (its program's run, as the harness
 * calls it), timed two ways in turn on the same operands, ROUNDS times:
 *
 *   gmpbench-style  samples of about the harness's sample length (10 ms),
 *                   each bracketed as harness_visit brackets them: the
 *                   thread's kernel time (getrusage RUSAGE_THREAD) and CPU
 *                   time (CLOCK_THREAD_CPUTIME_ID) read before and after;
 *                   ops/s = operations / (CPU time - kernel time), the
 *                   figure the scores use (docs/scoring.md);
 *   GMPbench-style  one loop of as many operations, read before and after
 *                   by getrusage (RUSAGE_SELF)'s user time in whole
 *                   milliseconds, as GMPbench's cputime () reads it.
 *
 * Both runs of a round also read CLOCK_MONOTONIC and
 * CLOCK_PROCESS_CPUTIME_ID around the whole of them, so that a difference
 * the two estimators report can be told from a difference in the work
 * (then the wall and process clocks differ too).  Prints each round's
 * ops/s by each way and their ratio, then the median ratio and the range.
 * Each round lasts about 2 x SECONDS (default 10, GMPbench's length).
 *
 * Build and run: make bench/timers && bench/timers TEST [SECONDS [ROUNDS]] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "bench/one-test.h"
#include "common/util.h"
#include "engine/bench.h"
#include "engine/harness.h"
#include "engine/stats.h"
#include "model/registry.h"
#include "suites/programs.h"

#define MAX_ROUNDS 101

/* What one way of timing read: operations, seconds by its own clock, and
 * wall and process CPU seconds around it. */
struct reading
{
  double ops, seconds, wall, process;
};

static double
process_cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* getrusage's user time of the process in whole milliseconds, as
 * GMPbench's cputime () returns it. */
static long
user_milliseconds (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000;
}

/* Repetitions for one sample of about SAMPLE seconds of thread CPU time. */
static unsigned long
calibrate (const struct bench_ops *ops, void *state, double sample)
{
  unsigned long reps = 1;
  for (;;)
    {
      double c0 = gb_thread_cpu_seconds ();
      ops->run (state, reps);
      double t = gb_thread_cpu_seconds () - c0;
      if (t >= sample / 4 || reps > (1ul << 40))
        return t > 0 ? (unsigned long) (reps * sample / t) + 1 : reps;
      reps *= 2;
    }
}

/* SAMPLES samples of REPS, timed as the harness times them. */
static struct reading
by_samples (const struct bench_ops *ops, void *state, unsigned long reps, unsigned long samples)
{
  struct reading r = { (double) reps * (double) samples, 0, 0, 0 };
  double cpu = 0, kernel = 0, w0 = gb_wall_seconds (), p0 = process_cpu_seconds ();
  ops->run (state, 1);
  for (unsigned long i = 0; i < samples; i++)
    {
      double k0 = gb_thread_kernel_seconds ();
      double c0 = gb_thread_cpu_seconds ();
      ops->run (state, reps);
      double c1 = gb_thread_cpu_seconds ();
      double k1 = gb_thread_kernel_seconds ();
      cpu += c1 - c0;
      kernel += k1 - k0;
    }
  r.seconds = cpu - (kernel < 0 ? 0 : kernel > cpu ? cpu : kernel);
  r.wall = gb_wall_seconds () - w0;
  r.process = process_cpu_seconds () - p0;
  return r;
}

/* One loop of OPS operations timed as GMPbench times it. */
static struct reading
by_loop (const struct bench_ops *ops, void *state, double n)
{
  struct reading r = { n, 0, 0, 0 };
  double w0 = gb_wall_seconds (), p0 = process_cpu_seconds ();
  ops->run (state, 1);
  long t0 = user_milliseconds ();
  ops->run (state, (unsigned long) n);
  r.seconds = (user_milliseconds () - t0) / 1000.0;
  r.wall = gb_wall_seconds () - w0;
  r.process = process_cpu_seconds () - p0;
  return r;
}

/* A positive number from ARG, else 0. */
static double
positive (const char *arg)
{
  char *end;
  errno = 0;
  double x = strtod (arg, &end);
  return errno == 0 && end != arg && *end == '\0' && x > 0 ? x : 0;
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc > 4)
    {
      fprintf (stderr, "usage: %s TEST [SECONDS [ROUNDS]]\n", argv[0]);
      return 2;
    }
  const struct bench_test *t = registry_find (argv[1]);
  const struct bench_ops *ops = t ? program_ops (t) : NULL;
  double seconds = argc > 2 ? positive (argv[2]) : 10;
  double rounds_arg = argc > 3 ? positive (argv[3]) : 5;
  if (ops == NULL || seconds == 0 || rounds_arg < 1 || rounds_arg > MAX_ROUNDS)
    {
      fprintf (stderr, "timers: %s: %s\n", argv[1], ops == NULL
               ? "no such test in this build (gmpbench list names them)"
               : "SECONDS must be positive and ROUNDS from 1 to 101");
      return 2;
    }
  unsigned rounds = (unsigned) rounds_arg;
  void *state = one_test_setup ("timers", t, ops);
  if (state == NULL)
    return 1;
  struct harness_config cfg;
  harness_default_config (&cfg, 2.0);
  unsigned long reps = calibrate (ops, state, cfg.sample_time);
  double per_op = cfg.sample_time / (double) reps;
  unsigned long samples = (unsigned long) (seconds / cfg.sample_time) + 1;
  double ratio[MAX_ROUNDS];
  printf ("%s: samples of %lu repetitions (%.1f ms), %lu samples a round, about %.1f s each way\n",
          t->name, reps, 1e3 * cfg.sample_time, samples, samples * reps * per_op);
  for (unsigned i = 0; i < rounds; i++)
    {
      /* Who goes first alternates from round to round. */
      struct reading s, l;
      if (i % 2 == 0)
        {
          s = by_samples (ops, state, reps, samples);
          l = by_loop (ops, state, s.ops);
        }
      else
        {
          l = by_loop (ops, state, (double) reps * (double) samples);
          s = by_samples (ops, state, reps, samples);
        }
      ratio[i] = (s.ops / s.seconds) / (l.ops / l.seconds);
      printf ("round %u: gmpbench-style %.6g ops/s (wall %.6g, process CPU %.6g), "
              "GMPbench-style %.6g ops/s (wall %.6g, process CPU %.6g), ratio %.4f\n",
              i + 1, s.ops / s.seconds, s.ops / s.wall, s.ops / s.process, l.ops / l.seconds,
              l.ops / l.wall, l.ops / l.process, ratio[i]);
    }
  stats_sort (ratio, rounds);
  printf ("median ratio gmpbench-style / GMPbench-style: %.4f (range %.4f to %.4f)\n",
          stats_median_sorted (ratio, rounds), ratio[0], ratio[rounds - 1]);
  return one_test_check ("timers", t, ops, state);
}
