/* clock.c: measuring the clock the core actually runs at.  A chain of
 * dependent register additions executes one add per cycle on every
 * current core design, so adds / seconds is the frequency.  The thread is
 * pinned to the CPU it is on so that the kernel cannot move it half way;
 * a short warm-up lets the governor raise the clock, then the best of a
 * few trials counts.  On x86 the timestamp counter is read over the same
 * trials, giving its rate as well.  The whole measurement takes about
 * 100 ms.  Under emulation the number means nothing and is marked
 * invalid. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/sysinfo.h"
#include "sysinfo/internal.h"
#include "common/util.h"

#include <math.h>
#if defined(__linux__)
#include <sched.h>
#endif

#define ADDS_PER_ROUND 64
#define TRIALS 5
#define TRIAL_SECONDS 0.012
#define WARMUP_SECONDS 0.03

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

struct trial
{
  double seconds;
  unsigned long long tsc;
};

static struct trial
run (unsigned long rounds)
{
  struct trial t;
  double t0 = gb_wall_seconds ();
  unsigned long long c0 = si_tsc_read ();
  volatile unsigned long sink = add_chain (rounds, 3);

  (void) sink;
  t.tsc = si_tsc_read () - c0;
  t.seconds = gb_wall_seconds () - t0;
  return t;
}

/* Rounds that take about SECONDS, found by doubling. */
static unsigned long
calibrate (double seconds)
{
  unsigned long rounds = 1000;
  struct trial t = run (rounds);

  while (t.seconds < seconds / 4 && rounds < (1UL << 30))
    {
      rounds *= 2;
      t = run (rounds);
    }
  if (t.seconds > 0)
    rounds = (unsigned long) (rounds * (seconds / t.seconds)) + 1;
  return rounds;
}

#if defined(__linux__)
static int
pin (cpu_set_t *saved)
{
  cpu_set_t one;
  int cpu = sched_getcpu ();

  if (cpu < 0 || sched_getaffinity (0, sizeof *saved, saved) != 0)
    return -1;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one) == 0 ? cpu : -1;
}
#endif

cJSON *
sysinfo_measure_clock (void)
{
  cJSON *m = cJSON_CreateObject ();
  double best = 0, worst = 0, tsc_rate = 0;
  unsigned long rounds;
  int i, cpu = -1;
#if defined(__linux__)
  cpu_set_t saved;
  cpu = pin (&saved);
#endif

  rounds = calibrate (WARMUP_SECONDS);
  rounds = (unsigned long) (rounds * (TRIAL_SECONDS / WARMUP_SECONDS)) + 1;
  for (i = 0; i < TRIALS; i++)
    {
      struct trial t = run (rounds);
      double mhz = t.seconds > 0 ? rounds * (double) ADDS_PER_ROUND / t.seconds / 1e6 : 0;

      if (mhz > best)
        {
          best = mhz;
          tsc_rate = t.tsc / t.seconds / 1e6;
        }
      if (worst == 0 || mhz < worst)
        worst = mhz;
    }
#if defined(__linux__)
  if (cpu >= 0)
    sched_setaffinity (0, sizeof saved, &saved);
#endif
  si_put_num (m, "mhz", round (best), NULL);
  si_put_str (m, "method", "dependent add chain, best of 5", NULL);
  si_put_num (m, "spread", best > 0 ? (best - worst) / best : 0, NULL);
  si_put_bool (m, "pinned", cpu >= 0, NULL);
  if (cpu >= 0)
    si_put_num (m, "cpu", cpu, NULL);
  if (tsc_rate > 0)
    si_put_num (m, "tsc_mhz", round (tsc_rate), NULL);
  si_put_bool (m, "valid", si_emulator () == NULL && best > 50 && best < 10000, NULL);
  return m;
}
