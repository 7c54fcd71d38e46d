/* counter.c: the CPU's time counter, one section per architecture, and
 * clock readings bracketed by it (see counter.h).  Each read is one
 * instruction (aarch64: an ISB first, so that the read is not taken ahead
 * of the code before it); nothing here calls a library function that
 * LD_PRELOAD could replace. */
#include "engine/counter.h"

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>

#define CPUID_HYPERVISOR_BIT (1u << 31)      /* leaf 1, ECX */
#define CPUID_INVARIANT_TSC_BIT (1u << 8)    /* leaf 0x80000007, EDX */

const char *
counter_source (const char **why)
{
  unsigned a, b, c, d;
  if (__get_cpuid (0x80000007, &a, &b, &c, &d) && (d & CPUID_INVARIANT_TSC_BIT))
    return "tsc";
  if (__get_cpuid (1, &a, &b, &c, &d) && (c & CPUID_HYPERVISOR_BIT))
    return "tsc";
  *why = "the timestamp counter is not invariant (CPUID leaf 0x80000007) and no "
    "hypervisor presents it";
  return NULL;
}

uint64_t
counter_read (void)
{
  return __rdtsc ();
}

double
counter_stated_hz (void)
{
  return 0;
}

#elif defined(__aarch64__)

const char *
counter_source (const char **why)
{
  (void) why;
  return "cntvct";
}

uint64_t
counter_read (void)
{
  uint64_t v;
  __asm__ volatile ("isb\n\tmrs %0, cntvct_el0" : "=r" (v) : : "memory");
  return v;
}

double
counter_stated_hz (void)
{
  uint64_t f;
  __asm__ volatile ("mrs %0, cntfrq_el0" : "=r" (f));
  return (double) f;
}

#elif defined(__riscv) && __riscv_xlen == 64

const char *
counter_source (const char **why)
{
  (void) why;
  return "rdtime";
}

uint64_t
counter_read (void)
{
  uint64_t v;
  __asm__ volatile ("rdtime %0" : "=r" (v));
  return v;
}

double
counter_stated_hz (void)
{
  return 0;
}

#elif defined(__powerpc64__)

const char *
counter_source (const char **why)
{
  (void) why;
  return "timebase";
}

uint64_t
counter_read (void)
{
  return __builtin_ppc_get_timebase ();
}

double
counter_stated_hz (void)
{
  return 0;
}

#elif defined(__s390x__)

/* Bit 51 of the TOD clock steps once a microsecond. */
#define TOD_TICKS_PER_SECOND 4096e6

const char *
counter_source (const char **why)
{
  (void) why;
  return "tod";
}

uint64_t
counter_read (void)
{
  uint64_t v;
  __asm__ volatile ("stckf %0" : "=Q" (v) : : "cc");
  return v;
}

double
counter_stated_hz (void)
{
  return TOD_TICKS_PER_SECOND;
}

#else

const char *
counter_source (const char **why)
{
  *why = "gmpbench reads no counter on this architecture";
  return NULL;
}

uint64_t
counter_read (void)
{
  return 0;
}

double
counter_stated_hz (void)
{
  return 0;
}

#endif

double
counter_stamp (double (*clock) (void), struct counter_stamp *stamp)
{
  stamp->before = counter_read ();
  double seconds = clock ();
  stamp->after = counter_read ();
  return seconds;
}

void
counter_span_add (struct counter_span *span, const struct counter_stamp *start,
                  const struct counter_stamp *end, double seconds)
{
  span->seconds += seconds;
  span->ticks_min += (double) (end->before - start->after);
  span->ticks_max += (double) (end->after - start->before);
}
