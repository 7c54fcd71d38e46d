/* linux.h: state shared by the parts of the Linux reader (linux.c,
 * linux_cpuinfo.c, linux_cache.c, linux_virt.c, linux_machine.c).  The reader first loads
 * /proc/cpuinfo and the per-CPU sysfs facts into this structure, then
 * each part writes its own members of the "system" object. */
#ifndef GB_SYSINFO_LINUX_H
#define GB_SYSINFO_LINUX_H

#include "sysinfo/internal.h"

#define SI_MAXCPU 4096

struct si_lcpu
{
  int pkg, core;                /* topology ids, -1 when unknown */
  long max_khz, base_khz;       /* cpufreq, 0 when unknown */
  long capacity;                /* arm/riscv cpu_capacity, 0 when unknown */
  int has_midr;
  struct si_midr midr;
};

struct si_kind
{
  char identity[96];
  const char *name, *uarch, *type;
  int count;
  long max_khz, capacity;
  unsigned char cpus[SI_MAXCPU];
};

#define SI_MAXKINDS 8

struct si_linux
{
  const struct si_root *r;
  struct si_kvfile cpuinfo;
  char arch[72];
  int ncpu;                     /* highest CPU number seen + 1 */
  int nonline;
  unsigned char online[SI_MAXCPU];
  struct si_lcpu cpu[SI_MAXCPU];
  int nkinds;
  struct si_kind kinds[SI_MAXKINDS];
  cJSON *system, *cpusec, *cores, *clock;
};

/* linux_cpuinfo.c: identity, names and features from /proc/cpuinfo. */
void si_linux_arch (struct si_linux *L);
void si_linux_identity (struct si_linux *L);
/* linux_cache.c */
void si_linux_caches (struct si_linux *L);
/* linux_virt.c: hypervisor. */
void si_linux_hypervisor (struct si_linux *L);
/* linux_machine.c: the board or system model. */
void si_linux_machine (struct si_linux *L);
/* linux_kinds.c: core kinds (big.LITTLE, P/E) and the identity of the
 * biggest kind. */
void si_linux_kinds (struct si_linux *L);

#endif
