/* syscall_clock.c: clock_gettime and getrusage made by the system call
 * instruction itself, one section per architecture (see syscall_clock.h).
 * The kernel's struct timespec and struct rusage on these 64-bit
 * architectures are the C library's: longs throughout. */
#define _GNU_SOURCE             /* RUSAGE_THREAD */
#include "engine/syscall_clock.h"

#include <time.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#endif
#include "common/util.h"

#if defined(__linux__) && defined(SYS_clock_gettime) \
  && ((defined(__x86_64__) && !defined(__ILP32__)) || defined(__aarch64__) \
      || (defined(__riscv) && __riscv_xlen == 64))
#define HAVE_RAW_CLOCK 1

/* System call NR with two arguments: the kernel's answer, 0 or a
 * negative errno. */
static long
raw_syscall2 (long nr, long arg0, void *arg1)
{
#if defined(__x86_64__)
  long ret;
  __asm__ volatile ("syscall" : "=a" (ret) : "0" (nr), "D" (arg0),
                    "S" (arg1) : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 __asm__ ("x8") = nr;
  register long a0 __asm__ ("x0") = arg0;
  register long a1 __asm__ ("x1") = (long) arg1;
  __asm__ volatile ("svc #0" : "+r" (a0) : "r" (x8), "r" (a1) : "memory");
  return a0;
#else
  register long a7 __asm__ ("a7") = nr;
  register long a0 __asm__ ("a0") = arg0;
  register long a1 __asm__ ("a1") = (long) arg1;
  __asm__ volatile ("ecall" : "+r" (a0) : "r" (a7), "r" (a1) : "memory");
  return a0;
#endif
}

static long
raw_clock_gettime (long clock, struct timespec *ts)
{
  return raw_syscall2 (SYS_clock_gettime, clock, ts);
}
#endif

int
syscall_clock_seconds (double *seconds)
{
#ifdef HAVE_RAW_CLOCK
  struct timespec ts;
  if (raw_clock_gettime (CLOCK_MONOTONIC, &ts) != 0)
    return -1;
  *seconds = ts.tv_sec + ts.tv_nsec * 1e-9;
  return 0;
#else
  (void) seconds;
  return -1;
#endif
}

double
thread_cpu_seconds (void)
{
#if defined(HAVE_RAW_CLOCK) && defined(CLOCK_THREAD_CPUTIME_ID)
  struct timespec ts;
  if (raw_clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return ts.tv_sec + ts.tv_nsec * 1e-9;
#endif
  return gb_thread_cpu_seconds ();
}

double
thread_kernel_seconds (void)
{
#if defined(__linux__)
  struct rusage u;
  if (thread_rusage (&u) == 0)
    return u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
#endif
  return gb_thread_kernel_seconds ();
}

int
process_cpu_seconds (double *seconds)
{
#ifdef CLOCK_PROCESS_CPUTIME_ID
  struct timespec ts;
#ifdef HAVE_RAW_CLOCK
  if (raw_clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return -1;
#else
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return -1;
#endif
  *seconds = ts.tv_sec + ts.tv_nsec * 1e-9;
  return 0;
#else
  (void) seconds;
  return -1;
#endif
}

#if defined(__linux__)
int
thread_rusage (struct rusage *u)
{
#if defined(HAVE_RAW_CLOCK) && defined(SYS_getrusage)
  return raw_syscall2 (SYS_getrusage, RUSAGE_THREAD, u) == 0 ? 0 : -1;
#elif defined(RUSAGE_THREAD)
  return getrusage (RUSAGE_THREAD, u);
#else
  (void) u;
  return -1;
#endif
}
#endif
