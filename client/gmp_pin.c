/* gmp_pin.c: the one CPU of a side-by-side run (gmp_pin.h): the run
 * chooses it and pins itself, hands it to each worker through the
 * environment, and each worker pins itself and says so in its document. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "client/gmp_pin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "model/doc_schema.h"

/* The worker's pinning, for its document. */
static int worker_cpu = -1;
static char worker_why_not[200] = "this process is not a worker of a --gmp run";

#ifdef __linux__
/* The CPU to pin to among ALLOWED: the one this process runs on, else the
 * first allowed; -1 when none is. */
static int
choose_cpu (const cpu_set_t *allowed)
{
  int cpu = sched_getcpu ();
  if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET (cpu, allowed))
    return cpu;
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, allowed))
      return cpu;
  return -1;
}

/* Pins the calling process to CPU; 0, or -1 with errno set. */
static int
pin_to (int cpu)
{
  cpu_set_t one;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  return sched_setaffinity (0, sizeof one, &one);
}
#endif

int
gmp_pin_run (struct gmp_pin *p)
{
  p->cpu = -1;
  p->why_not[0] = '\0';
#ifdef __linux__
  if (sched_getaffinity (0, sizeof p->allowed, &p->allowed) != 0)
    {
      snprintf (p->why_not, sizeof p->why_not, "sched_getaffinity: %s", strerror (errno));
      return -1;
    }
  int cpu = choose_cpu (&p->allowed);
  if (cpu < 0)
    {
      snprintf (p->why_not, sizeof p->why_not, "sched_getaffinity named no CPU");
      return -1;
    }
  if (pin_to (cpu) != 0)
    {
      snprintf (p->why_not, sizeof p->why_not, "sched_setaffinity (CPU %d): %s", cpu,
                strerror (errno));
      return -1;
    }
  p->cpu = cpu;
  return 0;
#else
  snprintf (p->why_not, sizeof p->why_not, "pinning to a CPU is implemented on Linux only");
  return -1;
#endif
}

#ifndef _WIN32
void
gmp_pin_child (const struct gmp_pin *p)
{
  char value[32];
  if (p->cpu < 0)
    {
      setenv (GMP_PIN_ENV, p->why_not, 1);
      return;
    }
#ifdef __linux__
  if (sched_setaffinity (0, sizeof p->allowed, &p->allowed) != 0)
    gb_error ("run", "a worker cannot have back the CPUs the run had (sched_setaffinity: %s); "
              "its system section names only CPU %d", strerror (errno), p->cpu);
#endif
  snprintf (value, sizeof value, "%d", p->cpu);
  setenv (GMP_PIN_ENV, value, 1);
}
#endif

/* The CPU named by TEXT, a decimal number; -1 when it is not one. */
static int
parse_cpu (const char *text)
{
  char *end;
  errno = 0;
  long cpu = strtol (text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || cpu < 0 || cpu > 65535)
    return -1;
  return (int) cpu;
}

void
gmp_pin_worker (void)
{
  const char *value = getenv (GMP_PIN_ENV);
  int cpu = value ? parse_cpu (value) : -1;
  if (value == NULL)
    snprintf (worker_why_not, sizeof worker_why_not, "the run named no CPU (%s unset)",
              GMP_PIN_ENV);
  else if (cpu < 0)
    snprintf (worker_why_not, sizeof worker_why_not, "%s", value);
#ifdef __linux__
  else if (cpu >= CPU_SETSIZE || pin_to (cpu) != 0)
    {
      snprintf (worker_why_not, sizeof worker_why_not, "sched_setaffinity (CPU %d): %s", cpu,
                cpu >= CPU_SETSIZE ? strerror (EINVAL) : strerror (errno));
      gb_error ("run", "this worker could not be pinned to the run's CPU: %s", worker_why_not);
    }
  else
    worker_cpu = cpu;
#else
  else
    snprintf (worker_why_not, sizeof worker_why_not,
              "pinning to a CPU is implemented on Linux only");
#endif
}

cJSON *
gmp_pin_member (void)
{
  cJSON *pinning = cJSON_CreateObject ();
  if (worker_cpu >= 0)
    cJSON_AddNumberToObject (pinning, DOC_PINNING_CPU, worker_cpu);
  else
    {
      cJSON_AddNullToObject (pinning, DOC_PINNING_CPU);
      cJSON_AddStringToObject (pinning, DOC_PINNING_SKIPPED, worker_why_not);
    }
  return pinning;
}
