/* gmp_pin.h: the one CPU of a side-by-side run (`gmpbench run --gmp A
 * --gmp B`, gmp_side.h).
 *
 * The CPUs of a machine are not equally fast (a VM's vCPUs differ by
 * several percent), and a process stays on the CPU it happens to land
 * on: two workers on two CPUs would compare the CPUs as much as the
 * libraries.  So the run pins itself, before it starts any worker, to the
 * CPU it is running on (or to the first it may use, when the kernel does
 * not say which), and each worker pins itself to that same CPU once it
 * has described the machine (so that its `system` section reports the
 * CPUs the user allowed, not the one of the pinning), before it sets up
 * and calibrates its tests.  Only one process measures at a time, so they
 * do not compete for it.
 *
 * Linux only (sched_setaffinity); elsewhere, or where pinning fails, the
 * processes run where the kernel puts them and the workers' documents say
 * why (run.pinning, docs/result-format.md). */
#ifndef GB_GMP_PIN_H
#define GB_GMP_PIN_H

#include <cjson/cJSON.h>
#ifdef __linux__
#include <sched.h>
#endif

/* Set in a worker's environment: the CPU to pin itself to (a number), or
 * why the run is not pinned (words). */
#define GMP_PIN_ENV "GMPBENCH_GMP_CPU"

struct gmp_pin
{
  int cpu;                      /* the CPU pinned to, -1 when none */
  char why_not[200];            /* when none: why */
#ifdef __linux__
  cpu_set_t allowed;            /* the CPUs the run had before it pinned itself */
#endif
};

/* The run's side, before it starts its workers: pins the calling process
 * to one CPU as above; 0, or -1 with P->why_not saying why nothing was
 * pinned. */
int gmp_pin_run (struct gmp_pin *p);

#ifndef _WIN32
/* In a worker's process between fork and exec (which Windows has not):
 * gives back the CPUs the run had (P->allowed) and sets GMP_PIN_ENV for
 * the worker. */
void gmp_pin_child (const struct gmp_pin *p);
#endif

/* The worker's side, after its machine is described and before its
 * tests are set up: pins the calling process to the CPU GMP_PIN_ENV
 * names.  A message on stderr when that fails; the run goes on. */
void gmp_pin_worker (void);

/* The worker's run.pinning member: {"cpu": N}, or {"cpu": null,
 * "skipped": why}. */
cJSON *gmp_pin_member (void);

#endif
