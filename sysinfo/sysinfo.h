/* sysinfo.h: the one interface to the machine description.  It returns the
 * "system" object of the result document (docs/sysinfo.md): CPU identity,
 * cores, caches, feature flags, clocks, operating system and build
 * provenance, each value with the source it was read from.  The platform
 * readers behind it (Linux /proc and /sys, sysctl on macOS and FreeBSD,
 * CPUID on x86) are private to sysinfo/. */
#ifndef GB_SYSINFO_H
#define GB_SYSINFO_H

#include <stdio.h>
#include <cjson/cJSON.h>

struct sysinfo_options
{
  /* NULL or "/" describes the live system.  Any other directory is read
   * as a snapshot: the Linux reader takes ROOT/proc, ROOT/sys and
   * ROOT/etc/os-release, and nothing is asked of the running machine
   * (no CPUID, no uname, no clock measurement).  NULL with the variable
   * GMPBENCH_TEST_SYSINFO_ROOT set to a directory, for tests: that
   * snapshot stands in for this machine's CPU, cores, caches and clocks,
   * while the OS, the build and the measured clock are this machine's. */
  const char *root;
  /* 0 skips the timed clock measurement (system.clock.measured is null). */
  int measure_clock;
};

/* The "system" object; never NULL.  The caller owns it. */
cJSON *sysinfo_collect (const struct sysinfo_options *opt);

/* A fresh clock measurement: {"mhz": n, "method": "...", "valid": bool,
 * ...}.  Takes well under 200 ms; run before and after a benchmark. */
cJSON *sysinfo_measure_clock (void);

/* A short human summary of SYSTEM (from sysinfo_collect): CPU identity,
 * measured clock, cores, OS, GMP and OpenSSL builds. */
void sysinfo_print_summary (FILE *out, const cJSON *system);

#endif
