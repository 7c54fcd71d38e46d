/* bsd_sysctl.c: macOS and FreeBSD described from their sysctl values.
 * The values come through a small provider (struct si_sysctl), which is
 * sysctlbyname in sysctl_live.c and a table of recorded values in
 * the unit tests, so this parsing is tested on any host.
 *
 * macOS has no clock sysctl on Apple Silicon (hw.cpufrequency exists only
 * on Intel Macs), names its core kinds in hw.perflevelN.*, and identifies
 * the core design by hw.cpufamily; the identity key is built from
 * hw.cputype/hw.cpufamily there and from CPUID on Intel Macs, where the
 * CPUID reader runs after this one.  FreeBSD tells cores, clocks, the
 * hypervisor (kern.vm_guest, named as the Linux reader names it) and the
 * OS release. */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <stdio.h>
#include <string.h>

static int
get_str (const struct si_sysctl *s, const char *name, char *buf, size_t len)
{
  if (s->get_str (s->ctx, name, buf, len) != 0)
    return -1;
  buf[len - 1] = '\0';
  return 0;
}

static int
get_i64 (const struct si_sysctl *s, const char *name, long long *out)
{
  return s->get_i64 (s->ctx, name, out);
}

/* Copies the string sysctl NAME to KEY of SEC, if it exists. */
static void
copy_str (const struct si_sysctl *s, cJSON *sec, const char *key, const char *name)
{
  char buf[256], src[128];

  if (get_str (s, name, buf, sizeof buf) == 0)
    {
      snprintf (src, sizeof src, "sysctl %s", name);
      si_put_str (sec, key, buf, src);
    }
}

/* Copies the integer sysctl NAME times SCALE to KEY of SEC. */
static int
copy_num (const struct si_sysctl *s, cJSON *sec, const char *key,
          const char *name, double scale)
{
  long long v;
  char src[128];

  if (get_i64 (s, name, &v) != 0 || v <= 0)
    return -1;
  snprintf (src, sizeof src, "sysctl %s", name);
  si_put_num (sec, key, (double) v * scale, src);
  return 0;
}

static const struct
{
  unsigned long long id;
  const char *name, *uarch;
} apple_families[] = {
  {0x1b588bb3, "Apple M1", "Firestorm/Icestorm"},
  {0xda33d83d, "Apple M2", "Avalanche/Blizzard"},
  {0x8765edea, "Apple A16", "Everest/Sawtooth"},
  {0xfa33415e, "Apple M3", "M3 (Ibiza)"},
  {0x5f4dea93, "Apple M3 Pro", "M3 (Lobos)"},
  {0x72015832, "Apple M3 Max", "M3 (Palma)"},
};

/* Under Rosetta 2, hw.cpufamily is that of the Intel CPU Rosetta
 * presents (Westmere): it belongs with the emulator's processor. */
static void
emulated_cpufamily (cJSON *cpu)
{
  cJSON *family = cJSON_DetachItemFromObjectCaseSensitive (cpu, DOC_SYS_CPU_CPUFAMILY);

  if (family == NULL)
    return;
  cJSON_DeleteItemFromObjectCaseSensitive (cJSON_GetObjectItemCaseSensitive (cpu, DOC_SYS_SOURCES),
                                           DOC_SYS_CPU_CPUFAMILY);
  si_put_item (si_emulated_cpu (cpu), DOC_SYS_CPU_CPUFAMILY, family,
               "sysctl hw.cpufamily under Rosetta 2");
}

static void
darwin_identity (const struct si_sysctl *s, cJSON *cpu)
{
  long long type = 0, family = 0;
  char id[96];
  size_t i;

  copy_str (s, cpu, DOC_SYS_CPU_BRAND, "machdep.cpu.brand_string");
  copy_str (s, cpu, DOC_SYS_CPU_NAME, "machdep.cpu.brand_string");
  if (get_i64 (s, "hw.cputype", &type) != 0 || get_i64 (s, "hw.cpufamily", &family) != 0)
    return;
  family &= 0xffffffffLL;
  si_put_num (cpu, DOC_SYS_CPU_CPUFAMILY, (double) family, "sysctl hw.cpufamily");
  if (type != 0x0100000c)       /* not CPU_TYPE_ARM64: CPUID names it */
    return;
  si_put_str (cpu, DOC_SYS_CPU_ARCH, "aarch64", "sysctl hw.cputype");
  si_put_str (cpu, DOC_SYS_CPU_VENDOR, "Apple", "sysctl hw.cputype");
  snprintf (id, sizeof id, "apple:cpufamily=0x%08llx", (unsigned long long) family);
  si_put_str (cpu, DOC_SYS_CPU_IDENTITY, id, "sysctl hw.cpufamily");
  for (i = 0; i < GB_ARRAY_SIZE (apple_families); i++)
    if (apple_families[i].id == (unsigned long long) family)
      {
        si_put_str (cpu, DOC_SYS_CPU_MICROARCHITECTURE, apple_families[i].uarch,
                    "hw.cpufamily table");
        if (!si_has (cpu, DOC_SYS_CPU_NAME))
          si_put_str (cpu, DOC_SYS_CPU_NAME, apple_families[i].name, "hw.cpufamily table");
      }
}

static void
darwin_kinds (const struct si_sysctl *s, cJSON *cpu)
{
  long long n = 0;
  cJSON *arr;
  int i;

  if (get_i64 (s, "hw.nperflevels", &n) != 0 || n < 1)
    return;
  arr = cJSON_CreateArray ();
  for (i = 0; i < n && i < 8; i++)
    {
      char name[64], val[64];
      long long v;
      cJSON *k = cJSON_CreateObject ();

      snprintf (name, sizeof name, "hw.perflevel%d.name", i);
      if (get_str (s, name, val, sizeof val) == 0)
        cJSON_AddStringToObject (k, DOC_SYS_KINDS_TYPE, val);
      snprintf (name, sizeof name, "hw.perflevel%d.logicalcpu", i);
      if (get_i64 (s, name, &v) == 0)
        cJSON_AddNumberToObject (k, DOC_SYS_KINDS_COUNT, (double) v);
      snprintf (name, sizeof name, "hw.perflevel%d.l2cachesize", i);
      if (get_i64 (s, name, &v) == 0)
        cJSON_AddNumberToObject (k, DOC_SYS_KINDS_L2_SIZE, (double) v);
      cJSON_AddItemToArray (arr, k);
    }
  si_put_item (cpu, DOC_SYS_CPU_KINDS, arr, "sysctl hw.perflevelN.*");
  si_put_bool (cpu, DOC_SYS_CPU_HYBRID, n > 1, "sysctl hw.nperflevels");
}

static void
darwin_features (const struct si_sysctl *s, cJSON *cpu)
{
  static const char *const map[][2] = {
    {"hw.optional.neon", DOC_SYS_FEATURES_NEON},
    {"hw.optional.arm.FEAT_PMULL", DOC_SYS_FEATURES_PMULL},
    {"hw.optional.arm.FEAT_AES", DOC_SYS_FEATURES_AES},
    {"hw.optional.arm.FEAT_SHA256", DOC_SYS_FEATURES_SHA2},
    {"hw.optional.arm.FEAT_SHA512", DOC_SYS_FEATURES_SHA512},
    {"hw.optional.arm.FEAT_LSE", DOC_SYS_FEATURES_LSE},
    {"hw.optional.arm.FEAT_SVE", DOC_SYS_FEATURES_SVE},
    {"hw.optional.arm.FEAT_SVE2", DOC_SYS_FEATURES_SVE2},
  };
  cJSON *f = si_section (cpu, DOC_SYS_CPU_FEATURES);
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (map); i++)
    {
      long long v;
      char src[96];
      if (get_i64 (s, map[i][0], &v) != 0)
        continue;
      snprintf (src, sizeof src, "sysctl %s", map[i][0]);
      si_put_bool (f, map[i][1], v != 0, src);
    }
}

static void
put_caches (const struct si_sysctl *s, cJSON *system, const char *prefix)
{
  static const char *const map[][2] = {
    {"l1dcachesize", DOC_SYS_CACHE_L1D}, {"l1icachesize", DOC_SYS_CACHE_L1I},
    {"l2cachesize", DOC_SYS_CACHE_L2}, {"l3cachesize", DOC_SYS_CACHE_L3},
  };
  cJSON *cache = si_section (system, DOC_SYS_CACHE);
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (map); i++)
    {
      char name[64];
      snprintf (name, sizeof name, "%s%s", prefix, map[i][0]);
      copy_num (s, cache, map[i][1], name, 1);
    }
}

void
si_darwin_from_sysctl (cJSON *system, const struct si_sysctl *s)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU), *cores = si_section (system, DOC_SYS_CORES);
  cJSON *clock = si_section (system, DOC_SYS_CLOCK), *os = si_section (system, DOC_SYS_OS);
  long long v;

  copy_str (s, cpu, DOC_SYS_CPU_ARCH, "hw.machine");
  if (strcmp (si_get_str (cpu, DOC_SYS_CPU_ARCH) ? si_get_str (cpu, DOC_SYS_CPU_ARCH) : "",
              "arm64") == 0)
    si_put_str (cpu, DOC_SYS_CPU_ARCH, "aarch64", "sysctl hw.machine");
  darwin_identity (s, cpu);
  darwin_kinds (s, cpu);
  darwin_features (s, cpu);
  copy_num (s, cores, DOC_SYS_CORES_LOGICAL, "hw.logicalcpu", 1);
  copy_num (s, cores, DOC_SYS_CORES_PHYSICAL, "hw.physicalcpu", 1);
  copy_num (s, cores, DOC_SYS_CORES_USABLE, "hw.activecpu", 1);
  copy_num (s, cores, DOC_SYS_CORES_PACKAGES, "hw.packages", 1);
  /* The largest cores' caches where core kinds exist. */
  put_caches (s, system, "hw.");
  put_caches (s, system, "hw.perflevel0.");
  copy_num (s, clock, DOC_SYS_CLOCK_NOMINAL_MHZ, "hw.cpufrequency", 1e-6);
  copy_num (s, clock, DOC_SYS_CLOCK_MAX_MHZ, "hw.cpufrequency_max", 1e-6);
  copy_num (s, clock, DOC_SYS_CLOCK_TIMEBASE_MHZ, "hw.tbfrequency", 1e-6);
  si_put_str (os, DOC_SYS_OS_FAMILY, "Darwin", "platform");
  si_put_str (os, DOC_SYS_OS_NAME, "macOS", "platform");
  copy_str (s, os, DOC_SYS_OS_VERSION, "kern.osproductversion");
  copy_str (s, os, DOC_SYS_OS_BUILD, "kern.osversion");
  copy_str (s, os, DOC_SYS_OS_KERNEL, "kern.osrelease");
  if (get_i64 (s, "kern.hv_vmm_present", &v) == 0)
    {
      if (v)
        si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, "Apple Hypervisor.framework guest",
                    "sysctl kern.hv_vmm_present");
      else
        si_put_null (cpu, DOC_SYS_CPU_HYPERVISOR);
    }
  if (get_i64 (s, "sysctl.proc_translated", &v) == 0)
    {
      si_put_bool (cpu, DOC_SYS_CPU_EMULATED, v != 0, "sysctl sysctl.proc_translated");
      if (v)
        {
          si_put_str (cpu, DOC_SYS_CPU_EMULATOR, "Rosetta 2", "sysctl sysctl.proc_translated");
          emulated_cpufamily (cpu);
        }
    }
}

/* The name Linux gives the hypervisor FreeBSD's kern.vm_guest names
 * ("kvm" -> "KVM"); VM_GUEST itself when it is not in the table. */
static const char *
vm_guest_name (const char *vm_guest)
{
  static const char *const map[][2] = {
    {"kvm", "KVM"}, {"xen", "Xen"}, {"hv", "Hyper-V"}, {"vmware", "VMware"},
    {"bhyve", "bhyve"}, {"vbox", "VirtualBox"}, {"parallels", "Parallels"},
    {"nvmm", "NVMM"}, {"generic", "unknown"},
  };
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (map); i++)
    if (strcmp (vm_guest, map[i][0]) == 0)
      return map[i][1];
  return vm_guest;
}

static void
freebsd_clock (const struct si_sysctl *s, cJSON *clock)
{
  char levels[512];
  long long mhz;

  copy_num (s, clock, DOC_SYS_CLOCK_NOMINAL_MHZ, "hw.clockrate", 1);
  /* dev.cpu.0.freq_levels: "3400/65000 3200/58000 ...", highest first */
  if (get_str (s, "dev.cpu.0.freq_levels", levels, sizeof levels) == 0
      && sscanf (levels, "%lld/", &mhz) == 1 && mhz > 0)
    si_put_num (clock, DOC_SYS_CLOCK_MAX_MHZ, (double) mhz, "sysctl dev.cpu.0.freq_levels");
  copy_str (s, clock, DOC_SYS_CLOCK_SCALING_DRIVER, "dev.cpu.0.freq_driver");
}

void
si_freebsd_from_sysctl (cJSON *system, const struct si_sysctl *s)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU), *cores = si_section (system, DOC_SYS_CORES);
  cJSON *os = si_section (system, DOC_SYS_OS);
  char buf[128];
  long long ncpu = 0, corecount = 0, threads = 0;

  copy_str (s, cpu, DOC_SYS_CPU_ARCH, "hw.machine_arch");
  if (strcmp (si_get_str (cpu, DOC_SYS_CPU_ARCH) ? si_get_str (cpu, DOC_SYS_CPU_ARCH) : "",
              "amd64") == 0)
    si_put_str (cpu, DOC_SYS_CPU_ARCH, "x86_64", "sysctl hw.machine_arch");
  copy_str (s, cpu, DOC_SYS_CPU_BRAND, "hw.model");
  copy_str (s, cpu, DOC_SYS_CPU_NAME, "hw.model");
  if (get_i64 (s, "hw.ncpu", &ncpu) == 0)
    si_put_num (cores, DOC_SYS_CORES_LOGICAL, (double) ncpu, "sysctl hw.ncpu");
  if (get_i64 (s, "kern.smp.cores", &corecount) == 0 && corecount > 0)
    si_put_num (cores, DOC_SYS_CORES_PHYSICAL, (double) corecount, "sysctl kern.smp.cores");
  if (get_i64 (s, "kern.smp.threads_per_core", &threads) == 0 && threads > 0)
    si_put_num (cores, DOC_SYS_CORES_THREADS_PER_CORE, (double) threads,
                "sysctl kern.smp.threads_per_core");
  freebsd_clock (s, si_section (system, DOC_SYS_CLOCK));
  if (get_str (s, "kern.vm_guest", buf, sizeof buf) == 0)
    {
      if (strcmp (buf, "none") == 0)
        si_put_null (cpu, DOC_SYS_CPU_HYPERVISOR);
      else
        si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, vm_guest_name (buf), "sysctl kern.vm_guest");
    }
  si_put_str (os, DOC_SYS_OS_FAMILY, "FreeBSD", "platform");
  copy_str (s, os, DOC_SYS_OS_NAME, "kern.ostype");
  copy_str (s, os, DOC_SYS_OS_VERSION, "kern.osrelease");
  copy_str (s, os, DOC_SYS_OS_KERNEL, "kern.osrelease");
}
