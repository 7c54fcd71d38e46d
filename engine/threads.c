/* threads.c: concurrent copies of a test, measured in rounds (see
 * threads.h).  The calling thread coordinates: it decides after each
 * round whether to stop, with the rule of harness.c, and the workers learn
 * it at the next barrier. */
#define _GNU_SOURCE
#include "engine/threads.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/guard.h"
#include "engine/stats.h"
#include "engine/syscall_clock.h"
#include "engine/verify.h"
#include "model/test_marks.h"
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif
#ifdef __FreeBSD__
#include <pthread_np.h>
#endif

#define MAX_ROUNDS 4096
/* Calibration stops doubling here: 2^40, or where unsigned long would
 * overflow (it has 32 bits on Windows). */
#define MAX_CALIBRATE_REPS \
  (ULONG_MAX / 2 + 1ull < (1ull << 40) ? ULONG_MAX / 2 + 1ull : 1ull << 40)

struct worker
{
  struct shared *sh;
  unsigned index;
  void *state;
  unsigned long reps;
  double start, finish;         /* this round's sample, monotonic seconds */
  double cpu;                   /* CPU seconds over all rounds */
  struct counter_span counter;  /* its samples on the CPU's counter */
  int pinned;                   /* 1: runs on its own CPU only */
  pthread_t thread;
};

struct shared
{
  const struct bench_test *t;
  const struct bench_ops *ops;
  const struct harness_config *cfg;
  pthread_mutex_t lock;         /* guards go, until the workers start */
  pthread_cond_t cond;
  int go;                       /* 1: start, -1: give up (a thread failed) */
  pthread_barrier_t barrier;
  int done;                     /* written by the coordinator between rounds */
};

unsigned
threads_usable_cpus (void)
{
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof set, &set) == 0 && CPU_COUNT (&set) > 0)
    return (unsigned) CPU_COUNT (&set);
#endif
#ifdef _WIN32
  DWORD n = GetActiveProcessorCount (ALL_PROCESSOR_GROUPS);
#else
  long n = sysconf (_SC_NPROCESSORS_ONLN);
#endif
  return n > 0 ? (unsigned) n : 1;
}

/* Pins the calling thread to the INDEX-th CPU it may use (modulo their
 * number): 1 if that worked, 0 where it failed or the OS has no way.
 * FreeBSD has the same calls as Linux since 13.1. */
#if defined(__linux__) || defined(__FreeBSD__)
static int
pin (unsigned index)
{
  cpu_set_t allowed, one;
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0 || CPU_COUNT (&allowed) == 0)
    return 0;
  unsigned want = index % (unsigned) CPU_COUNT (&allowed);
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed) && want-- == 0)
      {
        CPU_ZERO (&one);
        CPU_SET (cpu, &one);
        return pthread_setaffinity_np (pthread_self (), sizeof one, &one) == 0;
      }
  return 0;
}
#elif defined(_WIN32)
/* Within the process's processor group: at most 64 CPUs (32 on 32-bit). */
static int
pin (unsigned index)
{
  DWORD_PTR allowed, system;
  if (!GetProcessAffinityMask (GetCurrentProcess (), &allowed, &system) || allowed == 0)
    return 0;
  unsigned count = 0;
  for (DWORD_PTR m = allowed; m; m &= m - 1)
    count++;
  unsigned want = index % count;
  for (unsigned cpu = 0; cpu < 8 * sizeof allowed; cpu++)
    if ((allowed >> cpu & 1) && want-- == 0)
      return SetThreadAffinityMask (GetCurrentThread (), (DWORD_PTR) 1 << cpu) != 0;
  return 0;
}
#else
static int
pin (unsigned index)
{
  (void) index;
  return 0;
}
#endif

/* Repetitions for one sample of about cfg->sample_time, found by
 * doubling; these runs also warm the copy. */
static unsigned long
calibrate (const struct worker *w)
{
  const struct bench_ops *ops = w->sh->ops;
  double target = w->sh->cfg->sample_time;
  unsigned long reps = 1;
  for (;;)
    {
      double t0 = w->sh->cfg->clock ();
      ops->run (w->state, reps);
      double t = w->sh->cfg->clock () - t0;
      if (t >= target / 4 || reps >= MAX_CALIBRATE_REPS)
        {
          double want = t > 0 ? ceil (target * reps / t) : 1;
          return want < 1 ? 1 : (unsigned long) want;
        }
      reps *= 2;
    }
}

/* Waits until every thread exists: 1 to start, 0 to give up. */
static int
wait_for_go (struct shared *sh)
{
  pthread_mutex_lock (&sh->lock);
  while (sh->go == 0)
    pthread_cond_wait (&sh->cond, &sh->lock);
  int go = sh->go > 0;
  pthread_mutex_unlock (&sh->lock);
  return go;
}

static void
set_go (struct shared *sh, int go)
{
  pthread_mutex_lock (&sh->lock);
  sh->go = go;
  pthread_cond_broadcast (&sh->cond);
  pthread_mutex_unlock (&sh->lock);
}

static void *
worker_main (void *arg)
{
  struct worker *w = arg;
  struct shared *sh = w->sh;
  if (!wait_for_go (sh))
    return NULL;
  w->pinned = pin (w->index);
  w->reps = calibrate (w);
  pthread_barrier_wait (&sh->barrier);
  for (;;)
    {
      pthread_barrier_wait (&sh->barrier);
      if (sh->done)
        break;
      double c0 = thread_cpu_seconds ();
      struct counter_stamp s0, s1;
      w->start = counter_stamp (sh->cfg->clock, &s0);
      sh->ops->run (w->state, w->reps);
      w->finish = counter_stamp (sh->cfg->clock, &s1);
      counter_span_add (&w->counter, &s0, &s1, w->finish - w->start);
      w->cpu += thread_cpu_seconds () - c0;
      pthread_barrier_wait (&sh->barrier);
    }
  return NULL;
}

/* Whether to stop after N rounds totalling WALL seconds, the rule of
 * harness_measure; *CONVERGED tells whether the rounds agreed. */
static int
enough (const struct harness_config *cfg, const double *times, unsigned n,
        double wall, int *converged)
{
  double sorted[MAX_ROUNDS];
  if (n >= cfg->min_samples && wall >= cfg->min_time)
    {
      memcpy (sorted, times, n * sizeof *sorted);
      stats_sort (sorted, n);
      *converged = stats_converged (sorted, n, cfg->agree, cfg->tolerance);
      if (*converged)
        return 1;
    }
  return n >= MAX_ROUNDS || (wall >= cfg->max_time && n >= cfg->hard_min_samples);
}

/* A round's length: from the first copy's start, the round's common
 * start, to the last copy's finish.  Copies that did not overlap count
 * as one after the other, never as concurrent. */
static double
round_span (const struct worker *w, unsigned n)
{
  double start = w[0].start, finish = w[0].finish;
  for (unsigned i = 1; i < n; i++)
    {
      start = fmin (start, w[i].start);
      finish = fmax (finish, w[i].finish);
    }
  return finish - start;
}

/* Operations of all copies in a round. */
static double
round_reps (const struct worker *w, unsigned n)
{
  double reps = 0;
  for (unsigned i = 0; i < n; i++)
    reps += (double) w[i].reps;
  return reps;
}

/* The coordinator's side of the rounds; fills M.  -1 if interrupted. */
static int
coordinate (struct shared *sh, struct worker *w, unsigned n, struct measurement *m,
            volatile sig_atomic_t *stop)
{
  double *times = gb_xmalloc (MAX_ROUNDS * sizeof *times);
  unsigned rounds = 0;
  double wall = 0, cpu = 0;
  int converged = 0;

  pthread_barrier_wait (&sh->barrier);
  for (;;)
    {
      pthread_barrier_wait (&sh->barrier);
      pthread_barrier_wait (&sh->barrier);
      double span = round_span (w, n);
      times[rounds++] = span / round_reps (w, n);
      wall += span;
      if (*stop || enough (sh->cfg, times, rounds, wall, &converged))
        break;
    }
  sh->done = 1;
  pthread_barrier_wait (&sh->barrier);

  struct stats_estimate e;
  stats_estimate (times, rounds, sh->cfg->agree, sh->cfg->tolerance, &e);
  memset (m, 0, sizeof *m);
  for (unsigned i = 0; i < n; i++)
    {
      cpu += w[i].cpu / n;
      m->counter.seconds += w[i].counter.seconds;
      m->counter.ticks_min += w[i].counter.ticks_min;
      m->counter.ticks_max += w[i].counter.ticks_max;
    }
  m->seconds_per_op = e.time;
  m->ops_per_sec = e.time > 0 ? 1 / e.time : 0;
  m->fast_ops_per_sec = m->ops_per_sec;
  m->spread = e.spread;
  m->median_ops_per_sec = e.median > 0 ? 1 / e.median : 0;
  m->samples = rounds;
  m->reps_per_sample = w[0].reps;
  m->wall_seconds = wall;
  m->cpu_seconds = cpu;
  m->converged = converged;
  if (e.spread > TEST_NOISY_SPREAD)
    m->flags |= MEAS_NOISY;
  if (wall > 0 && cpu < TEST_CPU_DIVERGED_RATIO * wall)
    m->flags |= MEAS_CPU_DIVERGED;
  for (unsigned i = 0; i < n; i++)
    if (!w[i].pinned)
      m->flags |= MEAS_UNPINNED;
  free (times);
  return *stop ? -1 : 0;
}

/* Checks every copy, in thread order, into one digest; 0, or -1 with the
 * first failure in R. */
static int
check_copies (const struct bench_ops *ops, struct worker *w, unsigned n, struct test_result *r)
{
  struct gb_sha256 h;
  unsigned char md[32];
  int bad = 0;
  gb_sha256_init (&h);
  for (unsigned i = 0; i < n && !bad; i++)
    {
      struct bench_error err = { BENCH_OK, "" };
      bad = ops->check (w[i].state, &h, &err) != 0;
      if (bad)
        snprintf (r->message, sizeof r->message, "thread %u: %.200s", i,
                  err.message[0] ? err.message : "wrong result");
    }
  gb_sha256_final (&h, md);
  gb_hex (md, 32, r->digest);
  return bad ? -1 : 0;
}

/* Checks every copy's repetitions one by one, untimed (verify.h), for as
 * long as the copies were timed together; a runner_status, with the first
 * failure in R. */
static int
verify_copies (const struct bench_ops *ops, const struct harness_config *cfg,
               struct worker *w, unsigned n, struct test_result *r,
               volatile sig_atomic_t *stop)
{
  for (unsigned i = 0; i < n; i++)
    {
      struct bench_error err = { BENCH_OK, "" };
      struct gb_sha256 h;
      unsigned char md[32];
      gb_sha256_init (&h);
      int bad = ops->check (w[i].state, &h, &err) != 0;
      gb_sha256_final (&h, md);
      enum verify_status v = bad ? VERIFY_WRONG
        : !verify_applies (r->test) ? VERIFY_OK
        : verify_repetitions (ops, w[i].state, md, r->m.wall_seconds, cfg->clock, stop, &err);
      if (v == VERIFY_INTERRUPTED)
        return RUNNER_INTERRUPTED;
      if (v != VERIFY_OK)
        {
          r->outcome = BENCH_FAILED;
          snprintf (r->message, sizeof r->message, "thread %u: %.200s", i,
                    err.message[0] ? err.message : "wrong result");
          return RUNNER_FAILED;
        }
    }
  return RUNNER_OK;
}

/* Sets up N copies with streams 1..N; how many were made.  On failure R
 * says why. */
static unsigned
setup_copies (const struct shared *sh, struct worker *w, unsigned n, struct test_result *r)
{
  struct bench_error err = { BENCH_OK, "" };
  for (unsigned i = 0; i < n; i++)
    {
      w[i].index = i;
      guard_enter (sh->t->name);
      w[i].state = sh->ops->setup (sh->t, i + 1, &err);
      if (!w[i].state)
        {
          r->outcome = err.outcome == BENCH_SKIPPED ? BENCH_SKIPPED : BENCH_FAILED;
          snprintf (r->message, sizeof r->message, "%s",
                    err.message[0] ? err.message : "setup failed");
          return i;
        }
    }
  return n;
}

/* Starts N workers; how many started (all of them, or the coordinator
 * tells them to give up). */
static unsigned
start_workers (struct shared *sh, struct worker *w, unsigned n)
{
  unsigned started = 0;
  while (started < n && pthread_create (&w[started].thread, NULL, worker_main, &w[started]) == 0)
    started++;
  if (started == n)
    pthread_barrier_init (&sh->barrier, NULL, n + 1);
  set_go (sh, started == n ? 1 : -1);
  return started;
}

/* N copies of T (run by OPS) measured together into R; a runner_status. */
static int
run_copies (const struct bench_test *t, const struct bench_ops *ops,
            const struct harness_config *cfg, unsigned n, struct test_result *r,
            volatile sig_atomic_t *stop)
{
  struct shared sh;
  struct worker *w = gb_xcalloc (n, sizeof *w);
  int status = RUNNER_OK;

  memset (r, 0, sizeof *r);
  memset (&sh, 0, sizeof sh);
  r->test = t;
  sh.t = t;
  sh.ops = ops;
  sh.cfg = cfg;
  pthread_mutex_init (&sh.lock, NULL);
  pthread_cond_init (&sh.cond, NULL);
  for (unsigned i = 0; i < n; i++)
    w[i].sh = &sh;
  unsigned made = setup_copies (&sh, w, n, r);
  if (made < n)
    status = r->outcome == BENCH_SKIPPED ? RUNNER_OK : RUNNER_FAILED;
  else
    {
      unsigned started = start_workers (&sh, w, n);
      if (started == n && coordinate (&sh, w, n, &r->m, stop) != 0)
        status = RUNNER_INTERRUPTED;
      for (unsigned i = 0; i < started; i++)
        pthread_join (w[i].thread, NULL);
      if (started < n)
        {
          r->outcome = BENCH_FAILED;
          snprintf (r->message, sizeof r->message, "could not start thread %u of %u", started + 1, n);
          status = RUNNER_FAILED;
        }
      else
        pthread_barrier_destroy (&sh.barrier);
      if (status == RUNNER_OK && check_copies (ops, w, n, r) != 0)
        {
          r->outcome = BENCH_FAILED;
          status = RUNNER_FAILED;
        }
      if (status == RUNNER_OK)
        status = verify_copies (ops, cfg, w, n, r, stop);
    }
  for (unsigned i = 0; i < made; i++)
    ops->teardown (w[i].state);
  pthread_cond_destroy (&sh.cond);
  pthread_mutex_destroy (&sh.lock);
  free (w);
  return status;
}

int
threads_measure (const struct bench_test *t, const struct bench_ops *ops,
                 const struct harness_config *cfg, unsigned nthreads,
                 struct test_result *agg, double *efficiency, volatile sig_atomic_t *stop)
{
  struct test_result one;
  *efficiency = 0;
  int status = run_copies (t, ops, cfg, 1, &one, stop);
  if (status != RUNNER_OK || one.outcome != BENCH_OK)
    {
      *agg = one;
      return status;
    }
  status = run_copies (t, ops, cfg, nthreads, agg, stop);
  if (status == RUNNER_OK && agg->outcome == BENCH_OK && one.m.ops_per_sec > 0)
    *efficiency = agg->m.ops_per_sec / (nthreads * one.m.ops_per_sec);
  return status;
}
