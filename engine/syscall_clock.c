/* syscall_clock.c: clock_gettime (CLOCK_MONOTONIC) made by the system
 * call instruction itself, one section per architecture (see
 * syscall_clock.h).  The kernel's struct timespec on these 64-bit
 * architectures is the C library's: two longs. */
#include "engine/syscall_clock.h"

#include <time.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#if defined(__linux__) && defined(SYS_clock_gettime) \
  && ((defined(__x86_64__) && !defined(__ILP32__)) || defined(__aarch64__) \
      || (defined(__riscv) && __riscv_xlen == 64))
#define HAVE_RAW_CLOCK 1

/* The kernel's answer: 0, or a negative errno. */
static long
raw_clock_gettime (long clock, struct timespec *ts)
{
#if defined(__x86_64__)
  long ret;
  __asm__ volatile ("syscall" : "=a" (ret) : "0" ((long) SYS_clock_gettime), "D" (clock),
                    "S" (ts) : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long nr __asm__ ("x8") = SYS_clock_gettime;
  register long a0 __asm__ ("x0") = clock;
  register long a1 __asm__ ("x1") = (long) ts;
  __asm__ volatile ("svc #0" : "+r" (a0) : "r" (nr), "r" (a1) : "memory");
  return a0;
#else
  register long nr __asm__ ("a7") = SYS_clock_gettime;
  register long a0 __asm__ ("a0") = clock;
  register long a1 __asm__ ("a1") = (long) ts;
  __asm__ volatile ("ecall" : "+r" (a0) : "r" (nr), "r" (a1) : "memory");
  return a0;
#endif
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
