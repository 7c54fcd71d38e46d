/* windows.c: the Windows reader, built only for Windows (MinGW-w64, see
 * sysinfo/sources.mk).  It asks the system and hands what comes back to
 * the pure parsers of win_parse.c, which the tests exercise on any host:
 *   - GetLogicalProcessorInformationEx: cores, threads, packages, core
 *     kinds by EfficiencyClass, caches;
 *   - the registry key of CPU 0: the ~MHz clock, the processor name and,
 *     on Arm, "CP 4000", which holds MIDR_EL1;
 *   - RtlGetVersion (GetVersionEx lies to programs without a manifest);
 *   - IsWow64Process2: x86 code emulated on an Arm machine;
 *   - Wine, where ntdll exports wine_get_version.
 * CPUID (x86_cpuid.c) runs after this reader and refines the identity,
 * features and clocks on x86. */
#include "sysinfo/internal.h"
#include "sysinfo/win_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define CPU0_KEY "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0"

/* A function of a loaded system DLL, or NULL where Windows is too old. */
static FARPROC
system_function (const char *dll, const char *name)
{
  HMODULE m = GetModuleHandleA (dll);

  return m != NULL ? GetProcAddress (m, name) : NULL;
}

static int
reg_value (const char *name, DWORD type, void *out, DWORD size)
{
  return RegGetValueA (HKEY_LOCAL_MACHINE, CPU0_KEY, name, type, NULL, out, &size)
    == ERROR_SUCCESS ? 0 : -1;
}

/* MIDR_EL1 from the registry, on Windows on Arm. */
static void
put_midr (cJSON *cpu, unsigned long long reg)
{
  struct si_midr m;
  char id[96], raw[16];
  const char *src = "registry CP 4000 (MIDR_EL1)";

  m.implementer = (unsigned) (reg >> 24) & 0xff;
  m.variant = (unsigned) (reg >> 20) & 0xf;
  m.part = (unsigned) (reg >> 4) & 0xfff;
  m.revision = (unsigned) reg & 0xf;
  si_arm_identity (id, sizeof id, &m);
  si_put_str (cpu, DOC_SYS_CPU_IDENTITY, id, src);
  snprintf (raw, sizeof raw, "0x%08llx", reg & 0xffffffffULL);
  si_put_str (cpu, DOC_SYS_CPU_MIDR_EL1, raw, src);
  si_put_str (cpu, DOC_SYS_CPU_VENDOR, si_arm_implementer_name (m.implementer),
              "MIDR implementer table");
  si_put_str (cpu, DOC_SYS_CPU_NAME, si_arm_part_name (m.implementer, m.part), "MIDR part table");
  si_put_str (cpu, DOC_SYS_CPU_MICROARCHITECTURE, si_arm_uarch (m.implementer, m.part),
              "MIDR part table");
}

static void
put_registry (cJSON *system)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU);
  char name[128];
  DWORD mhz;
  unsigned long long midr;

  if (reg_value ("ProcessorNameString", RRF_RT_REG_SZ, name, sizeof name) == 0)
    {
      char *b = name + strspn (name, " "), *e = b + strlen (b);
      while (e > b && e[-1] == ' ')
        *--e = '\0';
      si_put_str (cpu, DOC_SYS_CPU_BRAND, b, "registry ProcessorNameString");
      si_put_str (cpu, DOC_SYS_CPU_NAME, b, "registry ProcessorNameString");
    }
  if (reg_value ("~MHz", RRF_RT_REG_DWORD, &mhz, sizeof mhz) == 0 && mhz > 0)
    si_put_num (si_section (system, DOC_SYS_CLOCK), DOC_SYS_CLOCK_NOMINAL_MHZ, mhz,
                "registry ~MHz");
  if (reg_value ("CP 4000", RRF_RT_REG_QWORD, &midr, sizeof midr) == 0 && midr != 0)
    put_midr (cpu, midr);
}

static void
put_cores (cJSON *system, const struct si_win_topology *t)
{
  cJSON *cores = si_section (system, DOC_SYS_CORES);
  const char *src = "GetLogicalProcessorInformationEx";
  DWORD_PTR mine, all;

  si_put_num (cores, DOC_SYS_CORES_LOGICAL, t->logical, src);
  si_put_num (cores, DOC_SYS_CORES_PHYSICAL, t->physical, src);
  si_put_num (cores, DOC_SYS_CORES_PACKAGES, t->packages, src);
  /* The affinity mask covers one processor group, so it only counts when
   * there is one. */
  if (t->logical <= 64 && GetProcessAffinityMask (GetCurrentProcess (), &mine, &all))
    {
      int n = 0;
      for (; mine != 0; mine &= mine - 1)
        n++;
      si_put_num (cores, DOC_SYS_CORES_AFFINITY, n, "GetProcessAffinityMask");
      si_put_num (cores, DOC_SYS_CORES_USABLE, n, "GetProcessAffinityMask");
    }
}

static void
put_kinds (cJSON *cpu, const struct si_win_topology *t)
{
  cJSON *arr;
  int i;

  si_put_bool (cpu, DOC_SYS_CPU_HYBRID, t->nkinds > 1,
               "GetLogicalProcessorInformationEx EfficiencyClass");
  if (t->nkinds < 2)
    return;
  arr = cJSON_CreateArray ();
  for (i = 0; i < t->nkinds; i++)
    {
      cJSON *k = cJSON_CreateObject ();
      cJSON_AddStringToObject (k, DOC_SYS_KINDS_TYPE, i == 0 ? "performance"
                               : i == t->nkinds - 1 ? "efficiency" : "intermediate");
      cJSON_AddNumberToObject (k, DOC_SYS_KINDS_EFFICIENCY_CLASS, t->kinds[i].efficiency_class);
      cJSON_AddNumberToObject (k, DOC_SYS_KINDS_COUNT, t->kinds[i].threads);
      cJSON_AddNumberToObject (k, DOC_SYS_KINDS_CORES, t->kinds[i].cores);
      cJSON_AddItemToArray (arr, k);
    }
  si_put_item (cpu, DOC_SYS_CPU_KINDS, arr, "GetLogicalProcessorInformationEx EfficiencyClass");
}

/* "l1d", "l2", ... for the summary, or NULL for caches it leaves out. */
static const char *
cache_key (const struct si_win_cache *c)
{
  static const char *const unified[] = {
    NULL, DOC_SYS_CACHE_L1, DOC_SYS_CACHE_L2, DOC_SYS_CACHE_L3, DOC_SYS_CACHE_L4
  };

  if (c->level == 1 && strcmp (c->type, "Data") == 0)
    return DOC_SYS_CACHE_L1D;
  if (c->level == 1 && strcmp (c->type, "Instruction") == 0)
    return DOC_SYS_CACHE_L1I;
  return c->level <= 4 && strcmp (c->type, "Unified") == 0 ? unified[c->level] : NULL;
}

static void
put_caches (cJSON *system, const struct si_win_topology *t)
{
  cJSON *arr = cJSON_CreateArray (), *sum = si_section (system, DOC_SYS_CACHE);
  const char *src = "GetLogicalProcessorInformationEx";
  int i;

  for (i = 0; i < t->ncaches; i++)
    {
      const struct si_win_cache *c = &t->caches[i];
      cJSON *o = cJSON_CreateObject ();
      const char *key = cache_key (c);

      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LEVEL, c->level);
      cJSON_AddStringToObject (o, DOC_SYS_CACHES_TYPE, c->type);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SIZE, (double) c->size);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_WAYS, c->ways);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LINE, c->line);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SHARED_BY, c->shared_by);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_INSTANCES, c->instances);
      cJSON_AddItemToArray (arr, o);
      if (key != NULL && c->seen_by_biggest)
        si_put_num (sum, key, (double) c->size, src);
    }
  si_put_item (system, DOC_SYS_CACHES, arr, src);
}

static void
put_topology (cJSON *system)
{
  DWORD len = 0;
  unsigned char *buf;
  struct si_win_topology t;

  GetLogicalProcessorInformationEx (RelationAll, NULL, &len);
  if (len == 0 || (buf = malloc (len)) == NULL)
    return;
  if (GetLogicalProcessorInformationEx (RelationAll, (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX) buf, &len)
      && si_win_parse_topology (buf, len, sizeof (KAFFINITY), &t) == 0)
    {
      put_cores (system, &t);
      put_kinds (si_section (system, DOC_SYS_CPU), &t);
      put_caches (system, &t);
    }
  free (buf);
}

static void
put_version (cJSON *os)
{
  typedef LONG (WINAPI *rtl_get_version) (OSVERSIONINFOEXW *);
  rtl_get_version get = (rtl_get_version) (void (*) (void))
    system_function ("ntdll.dll", "RtlGetVersion");
  OSVERSIONINFOEXW v;
  char buf[96];
  const char *src = "RtlGetVersion";

  memset (&v, 0, sizeof v);
  v.dwOSVersionInfoSize = sizeof v;
  if (get == NULL || get (&v) != 0)
    return;
  si_put_str (os, DOC_SYS_OS_NAME,
              si_win_product_name (buf, sizeof buf, v.dwMajorVersion, v.dwMinorVersion,
                                   v.dwBuildNumber, v.wProductType == VER_NT_WORKSTATION), src);
  snprintf (buf, sizeof buf, "%lu.%lu.%lu", v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber);
  si_put_str (os, DOC_SYS_OS_VERSION, buf, src);
  snprintf (buf, sizeof buf, "Windows NT %lu.%lu build %lu", v.dwMajorVersion,
            v.dwMinorVersion, v.dwBuildNumber);
  si_put_str (os, DOC_SYS_OS_KERNEL, buf, src);
}

static void
put_wine (cJSON *os)
{
  typedef const char *(*wine_get_version) (void);
  wine_get_version get = (wine_get_version) (void (*) (void))
    system_function ("ntdll.dll", "wine_get_version");
  char buf[64];

  if (get == NULL)
    return;
  snprintf (buf, sizeof buf, "Wine %s", get ());
  si_put_str (os, DOC_SYS_OS_COMPAT_LAYER, buf, "ntdll wine_get_version");
}

/* x86 or x64 code on an Arm machine runs in Windows' emulator. */
static void
put_emulation (cJSON *cpu)
{
  typedef BOOL (WINAPI *is_wow64_process2) (HANDLE, USHORT *, USHORT *);
  is_wow64_process2 f = (is_wow64_process2) (void (*) (void))
    system_function ("kernel32.dll", "IsWow64Process2");
  USHORT process, native;
  const char *arch;

  if (f == NULL || !f (GetCurrentProcess (), &process, &native)
      || (arch = si_win_machine_arch (native)) == NULL)
    return;
  si_put_str (cpu, DOC_SYS_CPU_NATIVE_ARCH, arch, "IsWow64Process2");
  if (strcmp (arch, "aarch64") == 0 && strcmp (si_built_arch (), "aarch64") != 0)
    {
      si_put_bool (cpu, DOC_SYS_CPU_EMULATED, 1, "IsWow64Process2 native machine");
      si_put_str (cpu, DOC_SYS_CPU_EMULATOR, "Windows x86 emulation on Arm", "IsWow64Process2");
    }
}

void
si_windows_collect (cJSON *system)
{
  cJSON *os = si_section (system, DOC_SYS_OS), *cpu = si_section (system, DOC_SYS_CPU);

  si_put_str (cpu, DOC_SYS_CPU_ARCH, si_built_arch (), "build");
  si_put_str (os, DOC_SYS_OS_FAMILY, "Windows", "platform");
  put_registry (system);
  put_topology (system);
  put_version (os);
  put_wine (os);
  put_emulation (cpu);
}
