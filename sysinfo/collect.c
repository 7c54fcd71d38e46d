/* collect.c: sysinfo_collect, the one entry point that assembles the
 * "system" object.  It picks the platform reader (the Linux reader for a
 * snapshot directory on any host; otherwise the one for the OS this was
 * built for: Linux, macOS/FreeBSD or Windows), lets the live CPUID view
 * refine it on x86, adds the OS,
 * emulation, build provenance and a clock measurement, and finally makes
 * sure every member that the server relies on exists, null if unknown.
 * For tests, a snapshot named by GMPBENCH_TEST_SYSINFO_ROOT stands in for
 * the running machine's CPU (what a host of another kind would show: a
 * hypervisor's brand, no cache topology), the rest being read live.
 * The verdict of the live readers on emulation is kept for
 * si_live_emulator, so that every clock measurement can be marked
 * invalid under emulation. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static struct
{
  int known, emulated;
  char name[64];
} emulation;

static void
ensure (cJSON *sec, const char *key)
{
  if (cJSON_GetObjectItemCaseSensitive (sec, key) == NULL)
    si_put_null (sec, key);
}

static void
ensure_required (cJSON *system)
{
  static const char *const cpu_keys[] = { DOC_SYS_CPU_ARCH, DOC_SYS_CPU_IDENTITY,
    DOC_SYS_CPU_NAME, DOC_SYS_CPU_VENDOR, DOC_SYS_CPU_MICROARCHITECTURE, DOC_SYS_CPU_HYPERVISOR };
  cJSON *cpu = si_section (system, DOC_SYS_CPU), *cores = si_section (system, DOC_SYS_CORES);
  cJSON *clock = si_section (system, DOC_SYS_CLOCK), *os = si_section (system, DOC_SYS_OS);
  size_t i;

  for (i = 0; i < sizeof cpu_keys / sizeof cpu_keys[0]; i++)
    ensure (cpu, cpu_keys[i]);
  if (!si_has (cpu, DOC_SYS_CPU_EMULATED))
    si_put_bool (cpu, DOC_SYS_CPU_EMULATED, 0, NULL);
  if (!si_has (cores, DOC_SYS_CORES_LOGICAL))
    {
#if defined(_SC_NPROCESSORS_ONLN)
      long n = sysconf (_SC_NPROCESSORS_ONLN);
#else
      long n = 0;
#endif
      si_put_num (cores, DOC_SYS_CORES_LOGICAL, n > 0 ? n : 1,
                  n > 0 ? "sysconf" : "assumed one CPU");
    }
  if (!si_has (cores, DOC_SYS_CORES_PHYSICAL))
    si_put_num (cores, DOC_SYS_CORES_PHYSICAL, si_get_num (cores, DOC_SYS_CORES_LOGICAL, 1),
                "assumed equal to logical");
  if (!si_has (cores, DOC_SYS_CORES_USABLE))
    si_put_num (cores, DOC_SYS_CORES_USABLE, si_get_num (cores, DOC_SYS_CORES_LOGICAL, 1),
                "assumed equal to logical");
  ensure (clock, DOC_SYS_CLOCK_NOMINAL_MHZ);
  ensure (clock, DOC_SYS_CLOCK_MAX_MHZ);
  ensure (clock, DOC_SYS_CLOCK_MEASURED);
  ensure (os, DOC_SYS_OS_NAME);
  ensure (os, DOC_SYS_OS_VERSION);
  ensure (os, DOC_SYS_OS_KERNEL);
}

/* The readers of the running machine, least trusted first. */
static void
collect_live (cJSON *system)
{
#if defined(__linux__)
  struct si_root r;
  si_root_init (&r, NULL);
  si_linux_collect (system, &r);
#elif defined(__APPLE__) || defined(__FreeBSD__)
  si_sysctl_collect (system);
#elif defined(_WIN32)
  si_windows_collect (system);
#endif
  si_arm_live_collect (system);
  si_riscv_live_collect (system);
  si_x86_cpuid_collect (system);
  si_os_collect (system);
}

/* Keeps what the live readers said about emulation in SYSTEM. */
static void
remember_emulation (const cJSON *system)
{
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CPU);
  const char *name = si_get_str (cpu, DOC_SYS_CPU_EMULATOR);

  emulation.known = 1;
  emulation.emulated = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (cpu, DOC_SYS_CPU_EMULATED));
  snprintf (emulation.name, sizeof emulation.name, "%s", name ? name : "unknown emulator");
}

const char *
si_live_emulator (void)
{
  if (!emulation.known)
    {
      cJSON *system = cJSON_CreateObject ();

      if (system == NULL)
        return NULL;
      collect_live (system);
      remember_emulation (system);
      cJSON_Delete (system);
    }
  return emulation.emulated ? emulation.name : NULL;
}

/* This machine's OS, in place of the one a snapshot describes. */
static void
live_os (cJSON *system)
{
  cJSON_ReplaceItemInObjectCaseSensitive (system, DOC_SYS_OS, cJSON_CreateObject ());
#if defined(__linux__)
  struct si_root live;
  si_root_init (&live, NULL);
  si_linux_os (system, &live);
#endif
  si_os_collect (system);
}

/* The snapshot that stands in for this machine's CPU, for tests: the
 * directory GMPBENCH_TEST_SYSINFO_ROOT names, or NULL. */
static const char *
stand_in_root (void)
{
  const char *root = getenv ("GMPBENCH_TEST_SYSINFO_ROOT");
  return root && *root ? root : NULL;
}

cJSON *
sysinfo_collect (const struct sysinfo_options *opt)
{
  cJSON *system = cJSON_CreateObject ();
  const char *root = opt ? opt->root : NULL, *stand_in = root ? NULL : stand_in_root ();
  struct si_root r;
  int snapshot;

  si_root_init (&r, root ? root : stand_in);
  snapshot = !r.live;
  /* Fix the order of the sections for readable output. */
  si_section (system, DOC_SYS_CPU);
  si_section (system, DOC_SYS_CORES);
  si_section (system, DOC_SYS_CLOCK);
  si_section (system, DOC_SYS_OS);
  if (!snapshot)
    {
      collect_live (system);
      remember_emulation (system);
    }
  else
    {
      si_linux_collect (system, &r);
      if (stand_in)
        live_os (system);
    }
  if ((!snapshot || stand_in) && opt != NULL && opt->measure_clock)
    si_put_item (si_section (system, DOC_SYS_CLOCK), DOC_SYS_CLOCK_MEASURED,
                 sysinfo_measure_clock (), "dependent add chain");
  si_put_item (system, DOC_SYS_BUILD, si_build_collect (), NULL);
  ensure_required (system);
  return system;
}
