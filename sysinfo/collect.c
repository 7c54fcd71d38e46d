/* collect.c: sysinfo_collect, the one entry point that assembles the
 * "system" object.  It picks the platform reader (the Linux reader for a
 * snapshot directory on any host; otherwise the one for the OS this was
 * built for: Linux, macOS/FreeBSD or Windows), lets the live CPUID view
 * refine it on x86, adds the OS,
 * emulation, build provenance and a clock measurement, and finally makes
 * sure every member that the server relies on exists, null if unknown.
 * The verdict of the live readers on emulation is kept for
 * si_live_emulator, so that every clock measurement can be marked
 * invalid under emulation. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/internal.h"

#include <stdio.h>
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
  static const char *const cpu_keys[] = { "arch", "identity", "name", "vendor",
    "microarchitecture", "hypervisor" };
  cJSON *cpu = si_section (system, "cpu"), *cores = si_section (system, "cores");
  cJSON *clock = si_section (system, "clock"), *os = si_section (system, "os");
  size_t i;

  for (i = 0; i < sizeof cpu_keys / sizeof cpu_keys[0]; i++)
    ensure (cpu, cpu_keys[i]);
  if (!si_has (cpu, "emulated"))
    si_put_bool (cpu, "emulated", 0, NULL);
  if (!si_has (cores, "logical"))
    {
#if defined(_SC_NPROCESSORS_ONLN)
      long n = sysconf (_SC_NPROCESSORS_ONLN);
#else
      long n = 0;
#endif
      si_put_num (cores, "logical", n > 0 ? n : 1, n > 0 ? "sysconf" : "assumed one CPU");
    }
  if (!si_has (cores, "physical"))
    si_put_num (cores, "physical", si_get_num (cores, "logical", 1), "assumed equal to logical");
  if (!si_has (cores, "usable"))
    si_put_num (cores, "usable", si_get_num (cores, "logical", 1), "assumed equal to logical");
  ensure (clock, "nominal_mhz");
  ensure (clock, "max_mhz");
  ensure (clock, "measured");
  ensure (os, "name");
  ensure (os, "version");
  ensure (os, "kernel");
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
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (system, "cpu");
  const char *name = si_get_str (cpu, "emulator");

  emulation.known = 1;
  emulation.emulated = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (cpu, "emulated"));
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

cJSON *
sysinfo_collect (const struct sysinfo_options *opt)
{
  cJSON *system = cJSON_CreateObject ();
  struct si_root r;
  int snapshot;

  si_root_init (&r, opt ? opt->root : NULL);
  snapshot = !r.live;
  /* Fix the order of the sections for readable output. */
  si_section (system, "cpu");
  si_section (system, "cores");
  si_section (system, "clock");
  si_section (system, "os");
  if (snapshot)
    si_linux_collect (system, &r);
  else
    {
      collect_live (system);
      remember_emulation (system);
    }
  if (!snapshot && opt != NULL && opt->measure_clock)
    si_put_item (si_section (system, "clock"), "measured", sysinfo_measure_clock (),
                 "dependent add chain");
  si_put_item (system, "build", si_build_collect (), NULL);
  ensure_required (system);
  return system;
}
