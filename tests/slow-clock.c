/* slow-clock.c: a library that slows every clock the process reads, for
 * tests/t0123-clock-counter.sh, as a cheat preloading it would.
 *
 * Loaded with LD_PRELOAD, it lets SLOW_CLOCK_AFTER seconds (default 1)
 * pass from its loading, or with SLOW_CLOCK_AFTER_READS=N the first N
 * calls of clock_gettime, then makes every clock advance at
 * SLOW_CLOCK_RATE (default 0.5) of its real pace: clock_gettime of every
 * clock id, gettimeofday, getrusage, times and clock.  With
 * SLOW_CLOCK_COUNT_FILE it writes there, at exit, how many calls of
 * clock_gettime the process made (a run to find the middle of another).
 * With SLOW_CLOCK_CPU_ONLY=1 only the CPU-time clocks slow down (the CPU
 * clock ids, getrusage, the user and system times of times, and clock),
 * while every wall clock keeps its pace, as a cheat would that counts on
 * a score computed from CPU time.  Each clock keeps its reading
 * at the moment it is first read slowed (its anchor), so every clock stays
 * continuous and monotonic; the thread CPU clocks have one anchor per
 * thread.  Nothing else changes: the program computes what it would.
 *
 * Built twice (tests/tests.mk): libslowclock.so, and with -DWRAP_DLADDR
 * libslowclock-dladdr.so, which also wraps dladdr (answering as the real
 * one), as a library that hides its interposition from dladdr would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL
#define MAX_CLOCK_ID 16         /* the fixed ids; dynamic (negative) ones
                                   are per thread or per process CPU */

/* Where a clock was when it was first read slowed. */
struct anchor
{
  int set;
  int64_t at;
};

static int (*real_clock_gettime) (clockid_t, struct timespec *);
static int (*real_gettimeofday) (struct timeval *, void *);
static int (*real_getrusage) (int, struct rusage *);
static clock_t (*real_times) (struct tms *);
static clock_t (*real_clock) (void);
#ifdef WRAP_DLADDR
static int (*real_dladdr) (const void *, Dl_info *);
#endif

static int64_t start_ns;
static double after = 1, rate = 0.5;
static long after_reads = -1;   /* -1: the time AFTER decides */
static int cpu_only;            /* SLOW_CLOCK_CPU_ONLY: wall clocks untouched */
static long reads;              /* calls of clock_gettime so far */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct anchor clock_anchor[MAX_CLOCK_ID], realtime_us, dynamic_clock;
static struct anchor self_user, self_system, children_user, children_system;
static struct anchor times_elapsed, times_user, times_system, times_cuser, times_csystem;
static struct anchor process_clock;
static __thread struct anchor thread_clock, thread_user, thread_system;

static int64_t
monotonic_ns (void)
{
  struct timespec ts;
  real_clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * NS + ts.tv_nsec;
}

__attribute__ ((constructor)) static void
init (void)
{
  real_clock_gettime = (int (*) (clockid_t, struct timespec *)) dlsym (RTLD_NEXT,
                                                                        "clock_gettime");
  real_gettimeofday = (int (*) (struct timeval *, void *)) dlsym (RTLD_NEXT, "gettimeofday");
  real_getrusage = (int (*) (int, struct rusage *)) dlsym (RTLD_NEXT, "getrusage");
  real_times = (clock_t (*) (struct tms *)) dlsym (RTLD_NEXT, "times");
  real_clock = (clock_t (*) (void)) dlsym (RTLD_NEXT, "clock");
#ifdef WRAP_DLADDR
  real_dladdr = (int (*) (const void *, Dl_info *)) dlsym (RTLD_NEXT, "dladdr");
#endif
  if (getenv ("SLOW_CLOCK_AFTER"))
    after = atof (getenv ("SLOW_CLOCK_AFTER"));
  if (getenv ("SLOW_CLOCK_RATE"))
    rate = atof (getenv ("SLOW_CLOCK_RATE"));
  cpu_only = getenv ("SLOW_CLOCK_CPU_ONLY") && atoi (getenv ("SLOW_CLOCK_CPU_ONLY"));
  if (getenv ("SLOW_CLOCK_AFTER_READS"))
    after_reads = atol (getenv ("SLOW_CLOCK_AFTER_READS"));
  start_ns = monotonic_ns ();
}

__attribute__ ((destructor)) static void
report (void)
{
  const char *file = getenv ("SLOW_CLOCK_COUNT_FILE");
  FILE *f = file ? fopen (file, "w") : NULL;
  if (f)
    {
      fprintf (f, "%ld\n", __atomic_load_n (&reads, __ATOMIC_RELAXED));
      fclose (f);
    }
}

/* Whether the clocks run slow now. */
static int
slowed (void)
{
  if (after_reads >= 0)
    return __atomic_load_n (&reads, __ATOMIC_RELAXED) > after_reads;
  return monotonic_ns () - start_ns >= (int64_t) (after * NS);
}

/* V, a reading of the clock anchored at A, as the slowed clock reads it. */
static int64_t
slow (struct anchor *a, int64_t v)
{
  if (!slowed ())
    return v;
  pthread_mutex_lock (&lock);
  if (!a->set)
    {
      a->set = 1;
      a->at = v;
    }
  int64_t at = a->at;
  pthread_mutex_unlock (&lock);
  return at + (int64_t) ((double) (v - at) * rate);
}

static struct anchor *
anchor_of (clockid_t id)
{
  if (id == CLOCK_THREAD_CPUTIME_ID)
    return &thread_clock;
  if (id >= 0 && id < MAX_CLOCK_ID)
    return &clock_anchor[id];
  return &dynamic_clock;
}

int
clock_gettime (clockid_t id, struct timespec *ts)
{
  int r = real_clock_gettime (id, ts);
  __atomic_add_fetch (&reads, 1, __ATOMIC_RELAXED);
  int cpu_clock = id < 0 || id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID;
  if (r == 0 && (cpu_clock || !cpu_only))
    {
      int64_t v = slow (anchor_of (id), ts->tv_sec * NS + ts->tv_nsec);
      ts->tv_sec = v / NS;
      ts->tv_nsec = v % NS;
    }
  return r;
}

static void
slow_timeval (struct anchor *a, struct timeval *tv)
{
  int64_t v = slow (a, tv->tv_sec * 1000000LL + tv->tv_usec);
  tv->tv_sec = v / 1000000;
  tv->tv_usec = v % 1000000;
}

int
gettimeofday (struct timeval *tv, void *tz)
{
  int r = real_gettimeofday (tv, tz);
  if (r == 0 && !cpu_only)
    slow_timeval (&realtime_us, tv);
  return r;
}

int
getrusage (int who, struct rusage *u)
{
  int r = real_getrusage (who, u);
  if (r != 0)
    return r;
  if (who == RUSAGE_SELF)
    slow_timeval (&self_user, &u->ru_utime), slow_timeval (&self_system, &u->ru_stime);
  else if (who == RUSAGE_CHILDREN)
    slow_timeval (&children_user, &u->ru_utime), slow_timeval (&children_system, &u->ru_stime);
  else
    slow_timeval (&thread_user, &u->ru_utime), slow_timeval (&thread_system, &u->ru_stime);
  return r;
}

clock_t
times (struct tms *t)
{
  clock_t r = real_times (t);
  if (t)
    {
      t->tms_utime = (clock_t) slow (&times_user, t->tms_utime);
      t->tms_stime = (clock_t) slow (&times_system, t->tms_stime);
      t->tms_cutime = (clock_t) slow (&times_cuser, t->tms_cutime);
      t->tms_cstime = (clock_t) slow (&times_csystem, t->tms_cstime);
    }
  return r == (clock_t) -1 || cpu_only ? r : (clock_t) slow (&times_elapsed, r);
}

clock_t
clock (void)
{
  clock_t r = real_clock ();
  return r == (clock_t) -1 ? r : (clock_t) slow (&process_clock, r);
}

#ifdef WRAP_DLADDR
int
dladdr (const void *addr, Dl_info *info)
{
  return real_dladdr (addr, info);
}
#endif
