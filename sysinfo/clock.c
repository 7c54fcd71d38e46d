/* clock.c: measuring the clock the core actually runs at.  A chain of
 * dependent register additions executes one add per cycle on every
 * current core design, so adds / seconds is the frequency.  The thread is
 * pinned to the CPU it is on (Linux, FreeBSD, Windows) so that the kernel
 * cannot move it half way, and a 30 ms warm-up lets the governor raise
 * the clock.  Then 25 trials of 2 ms each are timed by the wall clock and
 * by the thread's CPU time: a trial in which the thread was preempted
 * (CPU time below 97% of the wall time) would read as a slow clock and is
 * dropped.  Noise only ever slows a trial down, so the estimate is the
 * fastest result that at least three clean trials agree on within 5%:
 * the median of the clean trials within 3% of it.  Without such an
 * agreement, under emulation, or outside 50-10000 MHz the measurement is
 * marked invalid with a reason.  On x86 the timestamp counter is read
 * over the same trials, giving its rate as well.  The whole measurement
 * takes about 0.1 s. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/sysinfo.h"
#include "sysinfo/internal.h"
#include "common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__linux__)
#include <sched.h>
#elif defined(__FreeBSD__)
#include <sys/param.h>
#include <sys/cpuset.h>
#include <sched.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

#define ADDS_PER_ROUND 64
#define TRIALS 25
#define TRIAL_SECONDS 0.002
#define WARMUP_SECONDS 0.03
#define BUDGET_SECONDS 0.15     /* for the trials, however preempted */
#define MIN_CPU_RATIO 0.97      /* below: the trial was preempted */
#define AGREE 0.05              /* AGREE_MIN clean trials within this */
#define AGREE_MIN 3
#define CLUSTER 0.03            /* the trials the median is taken of */

/* Four dependent adds; the empty asm stops the compiler from folding
 * them into one multiplication. */
#define ADD4(x, y) \
  x += y; __asm__ ("" : "+r" (x)); x += y; __asm__ ("" : "+r" (x)); \
  x += y; __asm__ ("" : "+r" (x)); x += y; __asm__ ("" : "+r" (x))
#define ADD16(x, y) ADD4 (x, y); ADD4 (x, y); ADD4 (x, y); ADD4 (x, y)

static unsigned long
add_chain (unsigned long rounds, unsigned long y)
{
  unsigned long x = 0, i;

  for (i = 0; i < rounds; i++)
    {
      ADD16 (x, y);
      ADD16 (x, y);
      ADD16 (x, y);
      ADD16 (x, y);
    }
  return x;
}

/* The thread's CPU time in seconds, or -1 where it cannot time a 2 ms
 * trial (Windows counts it in scheduler ticks of 15.6 ms). */
static double
thread_cpu_seconds (void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(_WIN32)
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return ts.tv_sec + ts.tv_nsec * 1e-9;
#endif
  return -1;
}

static struct si_clock_trial
run (unsigned long rounds)
{
  struct si_clock_trial t;
  double c0 = thread_cpu_seconds (), w0 = gb_wall_seconds ();
  unsigned long long s0 = si_tsc_read ();
  volatile unsigned long sink = add_chain (rounds, 3);

  (void) sink;
  t.tsc = si_tsc_read () - s0;
  t.wall = gb_wall_seconds () - w0;
  t.cpu = c0 < 0 ? -1 : thread_cpu_seconds () - c0;
  t.mhz = t.wall > 0 ? rounds * (double) ADDS_PER_ROUND / t.wall / 1e6 : 0;
  return t;
}

/* Whether the thread ran for the whole trial. */
static int
clean (const struct si_clock_trial *t)
{
  return t->wall > 0 && (t->cpu < 0 || t->cpu >= MIN_CPU_RATIO * t->wall);
}

/* Rounds that take about SECONDS, found by doubling. */
static unsigned long
calibrate (double seconds)
{
  unsigned long rounds = 1000;
  struct si_clock_trial t = run (rounds);

  while (t.wall < seconds / 4 && rounds < (1UL << 30))
    {
      rounds *= 2;
      t = run (rounds);
    }
  if (t.wall > 0)
    rounds = (unsigned long) (rounds * (seconds / t.wall)) + 1;
  return rounds;
}

/* ---- pinning to the current CPU ------------------------------------- */

#if defined(__linux__)
typedef cpu_set_t cpu_mask;
#elif defined(__FreeBSD__)
typedef cpuset_t cpu_mask;
#elif defined(_WIN32)
typedef DWORD_PTR cpu_mask;
#else
typedef int cpu_mask;
#endif

/* Pins the thread to the CPU it runs on, keeping its mask in SAVED;
 * returns that CPU, or -1 when it is not pinned. */
static int
pin (cpu_mask *saved)
{
#if defined(__linux__) || defined(__FreeBSD__)
  cpu_mask one;
  int cpu = sched_getcpu ();

  if (cpu < 0 || cpu >= CPU_SETSIZE)
    return -1;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
#if defined(__linux__)
  if (sched_getaffinity (0, sizeof *saved, saved) != 0
      || sched_setaffinity (0, sizeof one, &one) != 0)
    return -1;
#else
  if (cpuset_getaffinity (CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof *saved, saved) != 0
      || cpuset_setaffinity (CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof one, &one) != 0)
    return -1;
#endif
  return cpu;
#elif defined(_WIN32)
  DWORD cpu = GetCurrentProcessorNumber ();

  *saved = 0;
  if (cpu >= 8 * sizeof (DWORD_PTR))
    return -1;
  *saved = SetThreadAffinityMask (GetCurrentThread (), (DWORD_PTR) 1 << cpu);
  return *saved != 0 ? (int) cpu : -1;
#else
  (void) saved;
  return -1;
#endif
}

static void
unpin (int cpu, const cpu_mask *saved)
{
  if (cpu < 0)
    return;
#if defined(__linux__)
  sched_setaffinity (0, sizeof *saved, saved);
#elif defined(__FreeBSD__)
  cpuset_setaffinity (CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof *saved, saved);
#elif defined(_WIN32)
  SetThreadAffinityMask (GetCurrentThread (), *saved);
#else
  (void) saved;
#endif
}

/* ---- the estimate --------------------------------------------------- */

static int
faster_first (const void *a, const void *b)
{
  const struct si_clock_trial *x = a, *y = b;

  return (x->mhz < y->mhz) - (x->mhz > y->mhz);
}

/* The first of the N trials T (fastest first) that AGREE_MIN - 1 slower
 * ones agree with within AGREE; -1 when there is none. */
static int
consistent_top (const struct si_clock_trial *t, int n)
{
  int i;

  for (i = 0; i + AGREE_MIN - 1 < n; i++)
    if (t[i + AGREE_MIN - 1].mhz >= t[i].mhz * (1 - AGREE))
      return i;
  return -1;
}

/* The clean trials first, fastest first; then the estimate of the
 * header comment. */
void
si_clock_estimate (struct si_clock_trial *t, int n, struct si_clock_estimate *e)
{
  int i, top, k = 0;
  const struct si_clock_trial *mid;

  e->trials = n;
  for (i = 0, e->clean = 0; i < n; i++)
    if (clean (&t[i]))
      t[e->clean++] = t[i];
  qsort (t, e->clean, sizeof *t, faster_first);
  top = consistent_top (t, e->clean);
  e->agreeing = 0;
  if (e->clean == 0)
    {
      e->mhz = e->spread = e->tsc_mhz = 0;
      e->reason = "every trial was preempted";
      return;
    }
  if (top < 0)
    top = 0;
  while (top + k < e->clean && t[top + k].mhz >= t[top].mhz * (1 - CLUSTER))
    k++;
  for (i = top; i < e->clean && t[i].mhz >= t[top].mhz * (1 - AGREE); i++)
    e->agreeing++;
  mid = &t[top + (k - 1) / 2];
  e->mhz = (mid->mhz + t[top + k / 2].mhz) / 2;
  e->spread = (t[top].mhz - t[top + k - 1].mhz) / t[top].mhz;
  e->tsc_mhz = mid->tsc / mid->wall / 1e6;
  e->reason = NULL;
  if (e->agreeing < AGREE_MIN)
    {
      snprintf (e->why, sizeof e->why, "fewer than %d of %d unpreempted trials agree within %.0f%%",
                AGREE_MIN, e->clean, AGREE * 100);
      e->reason = e->why;
    }
  else if (e->mhz <= 50 || e->mhz >= 10000)
    e->reason = "outside 50-10000 MHz";
}

/* Runs the trials into T (at most TRIALS, within BUDGET_SECONDS after the
 * warm-up); returns how many ran. */
static int
run_trials (struct si_clock_trial *t)
{
  unsigned long rounds = calibrate (TRIAL_SECONDS);
  double start = gb_wall_seconds ();
  int n = 0;

  while (gb_wall_seconds () - start < WARMUP_SECONDS)
    run (rounds);
  start = gb_wall_seconds ();
  while (n < TRIALS && (n < AGREE_MIN || gb_wall_seconds () - start < BUDGET_SECONDS))
    t[n++] = run (rounds);
  return n;
}

cJSON *
sysinfo_measure_clock (void)
{
  cJSON *m = cJSON_CreateObject ();
  struct si_clock_trial t[TRIALS];
  struct si_clock_estimate e;
  const char *emulator = si_live_emulator ();
  char method[128], why[96];
  cpu_mask saved;
  int cpu = pin (&saved);

  si_clock_estimate (t, run_trials (t), &e);
  unpin (cpu, &saved);
  if (emulator != NULL)
    {
      snprintf (why, sizeof why, "emulated (%s)", emulator);
      e.reason = why;
    }
  snprintf (method, sizeof method, "dependent add chain, %d x %.0f ms, %s", TRIALS,
            TRIAL_SECONDS * 1e3, thread_cpu_seconds () < 0 ? "not checked for preemption"
            : "preempted trials dropped (thread CPU time)");
  if (e.clean > 0)
    si_put_num (m, DOC_SYS_MEASURED_MHZ, round (e.mhz), NULL);
  else
    si_put_null (m, DOC_SYS_MEASURED_MHZ);
  si_put_str (m, DOC_SYS_MEASURED_METHOD, method, NULL);
  si_put_num (m, DOC_SYS_MEASURED_SPREAD, e.spread, NULL);
  si_put_num (m, DOC_SYS_MEASURED_TRIALS, e.trials, NULL);
  si_put_num (m, DOC_SYS_MEASURED_CLEAN_TRIALS, e.clean, NULL);
  si_put_num (m, DOC_SYS_MEASURED_AGREEING_TRIALS, e.agreeing, NULL);
  si_put_bool (m, DOC_SYS_MEASURED_PINNED, cpu >= 0, NULL);
  if (cpu >= 0)
    si_put_num (m, DOC_SYS_MEASURED_CPU, cpu, NULL);
  if (e.tsc_mhz > 0)
    si_put_num (m, DOC_SYS_MEASURED_TSC_MHZ, round (e.tsc_mhz), NULL);
  si_put_bool (m, DOC_SYS_MEASURED_VALID, e.reason == NULL, NULL);
  if (e.reason != NULL)
    si_put_str (m, DOC_SYS_MEASURED_REASON, e.reason, NULL);
  return m;
}
