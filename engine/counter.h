/* counter.h: the CPU's own time counter, read by an instruction, which a
 * library preloaded into the process cannot rewrite as it can rewrite
 * clock_gettime (docs/timing.md, "The clock checked against the CPU's
 * counter").
 *
 *   x86 (64 and 32 bit)  the timestamp counter (RDTSC), where CPUID says
 *                        it is invariant (leaf 0x80000007, EDX bit 8) or
 *                        that a hypervisor presents it (leaf 1, ECX bit 31)
 *   aarch64              the virtual counter CNTVCT_EL0, its frequency
 *                        CNTFRQ_EL0
 *   riscv64              the time CSR (RDTIME)
 *   ppc64                the time base (MFTB)
 *   s390x                the TOD clock (STCKF), 4096 ticks a microsecond
 *
 * Every one of them counts at a constant rate whatever the core's clock
 * does.  Elsewhere, and on x86 without either CPUID bit, there is none:
 * counter_source returns NULL and says why.
 *
 * A timed interval is bracketed: each of its clock readings is made
 * between two counter readings (counter_stamp), so that the counter
 * bounds the interval from both sides whatever happens between the
 * readings (a preemption, a slow clock call); clock_check.h judges the
 * clock against those bounds. */
#ifndef GB_COUNTER_H
#define GB_COUNTER_H

#include <stdint.h>

/* The counter's short name ("tsc", "cntvct", "rdtime", "timebase", "tod"),
 * or NULL with *WHY saying why there is no usable one. */
const char *counter_source (const char **why);

/* The counter now; 0 where counter_source is NULL. */
uint64_t counter_read (void);

/* The counter's rate in Hz as the CPU states it by an instruction or by
 * the architecture (CNTFRQ_EL0; the TOD clock's fixed rate), else 0: for
 * the record, since firmware can set CNTFRQ_EL0 wrong. */
double counter_stated_hz (void);

/* A clock reading between two counter readings. */
struct counter_stamp
{
  uint64_t before, after;
};

/* CLOCK's reading, made between the two readings of the counter kept in
 * *STAMP. */
double counter_stamp (double (*clock) (void), struct counter_stamp *stamp);

/* Timed intervals of a clock and the counter's ticks over them: between
 * the counter readings nearest each interval's inside (TICKS_MIN: the
 * clock's interval lasted at least this) and outermost (TICKS_MAX: at
 * most this), however long the clock took to answer. */
struct counter_span
{
  double seconds;               /* on the clock */
  double ticks_min, ticks_max;
};

/* Adds to SPAN the interval from START to END, SECONDS on the clock. */
void counter_span_add (struct counter_span *span, const struct counter_stamp *start,
                       const struct counter_stamp *end, double seconds);

#endif
