/* unit-sysinfo-sysctl.c: the macOS and FreeBSD readers fed recorded
 * sysctl values through a mock provider, so that their parsing is tested
 * on any host.  The tables below are written for this test in the shape
 * those systems report: an Apple M1 (no clock sysctl, two perflevels), an
 * x86_64 binary translated by Rosetta 2 on it, an Intel Mac, and FreeBSD
 * on amd64 under KVM.  The x86 CPUID view is added from recorded
 * registers, to check that an emulator's CPU never becomes the identity. */
#include "tests/sysinfo-check.h"
#include "sysinfo/internal.h"

struct entry
{
  const char *name, *str;
  long long num;
};

static const struct entry *
lookup (void *ctx, const char *name)
{
  const struct entry *e;

  for (e = ctx; e->name != NULL; e++)
    if (strcmp (e->name, name) == 0)
      return e;
  return NULL;
}

static int
mock_str (void *ctx, const char *name, char *buf, size_t len)
{
  const struct entry *e = lookup (ctx, name);

  if (e == NULL || e->str == NULL)
    return -1;
  snprintf (buf, len, "%s", e->str);
  return 0;
}

static int
mock_i64 (void *ctx, const char *name, long long *out)
{
  const struct entry *e = lookup (ctx, name);

  if (e == NULL || e->str != NULL)
    return -1;
  *out = e->num;
  return 0;
}

static const struct entry apple_m1[] = {
  {"hw.machine", "arm64", 0}, {"hw.cputype", NULL, 0x0100000c},
  {"hw.cpufamily", NULL, 0x1b588bb3}, {"machdep.cpu.brand_string", "Apple M1", 0},
  {"hw.logicalcpu", NULL, 8}, {"hw.physicalcpu", NULL, 8}, {"hw.activecpu", NULL, 8},
  {"hw.packages", NULL, 1}, {"hw.nperflevels", NULL, 2},
  {"hw.perflevel0.name", "Performance", 0}, {"hw.perflevel0.logicalcpu", NULL, 4},
  {"hw.perflevel0.l1dcachesize", NULL, 131072}, {"hw.perflevel0.l2cachesize", NULL, 12582912},
  {"hw.perflevel1.name", "Efficiency", 0}, {"hw.perflevel1.logicalcpu", NULL, 4},
  {"hw.perflevel1.l2cachesize", NULL, 4194304},
  {"hw.l1dcachesize", NULL, 65536}, {"hw.l1icachesize", NULL, 131072},
  {"hw.l2cachesize", NULL, 4194304}, {"hw.tbfrequency", NULL, 24000000},
  {"hw.optional.neon", NULL, 1}, {"hw.optional.arm.FEAT_PMULL", NULL, 1},
  {"hw.optional.arm.FEAT_SHA512", NULL, 1}, {"hw.optional.arm.FEAT_LSE", NULL, 1},
  {"kern.osproductversion", "14.4.1", 0}, {"kern.osversion", "23E224", 0},
  {"kern.osrelease", "23.4.0", 0}, {"kern.hv_vmm_present", NULL, 0},
  {"sysctl.proc_translated", NULL, 0},
  {NULL, NULL, 0}
};

static const struct entry rosetta[] = {
  {"hw.machine", "x86_64", 0}, {"hw.cputype", NULL, 0x01000007},
  {"hw.cpufamily", NULL, 0x573b5eec},
  {"machdep.cpu.brand_string", "VirtualApple @ 2.50GHz processor", 0},
  {"hw.logicalcpu", NULL, 8}, {"hw.physicalcpu", NULL, 8},
  {"kern.osproductversion", "14.4.1", 0}, {"kern.osrelease", "23.4.0", 0},
  {"sysctl.proc_translated", NULL, 1},
  {NULL, NULL, 0}
};

static const struct entry intel_mac[] = {
  {"hw.machine", "x86_64", 0}, {"hw.cputype", NULL, 7}, {"hw.cpufamily", NULL, 0x0f817246},
  {"machdep.cpu.brand_string", "Intel(R) Core(TM) i5-7360U CPU @ 2.30GHz", 0},
  {"hw.logicalcpu", NULL, 4}, {"hw.physicalcpu", NULL, 2}, {"hw.activecpu", NULL, 4},
  {"hw.cpufrequency", NULL, 2300000000LL}, {"hw.cpufrequency_max", NULL, 2300000000LL},
  {"hw.l1dcachesize", NULL, 32768}, {"hw.l2cachesize", NULL, 262144},
  {"hw.l3cachesize", NULL, 4194304},
  {"kern.osproductversion", "12.7.6", 0}, {"kern.osrelease", "21.6.0", 0},
  {"kern.hv_vmm_present", NULL, 1},
  {NULL, NULL, 0}
};

static const struct entry freebsd_kvm[] = {
  {"hw.machine_arch", "amd64", 0}, {"hw.model", "AMD EPYC 7B13", 0},
  {"hw.ncpu", NULL, 4}, {"kern.smp.cores", NULL, 2}, {"kern.smp.threads_per_core", NULL, 2},
  {"hw.clockrate", NULL, 2450}, {"dev.cpu.0.freq_levels", "2450/-1 2200/-1", 0},
  {"kern.vm_guest", "kvm", 0}, {"kern.ostype", "FreeBSD", 0},
  {"kern.osrelease", "14.1-RELEASE", 0},
  {NULL, NULL, 0}
};

static cJSON *
feed (void (*reader) (cJSON *, const struct si_sysctl *), const struct entry *t)
{
  struct si_sysctl s = { mock_str, mock_i64, (void *) t };
  cJSON *sys = cJSON_CreateObject ();

  reader (sys, &s);
  return sys;
}

int
main (void)
{
  cJSON *s = feed (si_darwin_from_sysctl, apple_m1);
  const char *w = "macOS M1";

  expect_str (w, s, "cpu.arch", "aarch64");
  expect_str (w, s, "cpu.identity", "apple:cpufamily=0x1b588bb3");
  expect_str (w, s, "cpu.name", "Apple M1");
  expect_str (w, s, "cpu.vendor", "Apple");
  expect_str (w, s, "cpu.microarchitecture", "Firestorm/Icestorm");
  expect_bool (w, s, "cpu.hybrid", 1);
  expect_str (w, s, "cpu.kinds.0.type", "Performance");
  expect_num (w, s, "cpu.kinds.1.count", 4);
  expect_num (w, s, "cores.logical", 8);
  expect_num (w, s, "cores.usable", 8);
  expect_num (w, s, "cache.l1d", 131072);
  expect_num (w, s, "cache.l2", 12582912);
  expect_num (w, s, "clock.nominal_mhz", -1);
  expect_num (w, s, "clock.timebase_mhz", 24);
  expect_bool (w, s, "cpu.features.pmull", 1);
  expect_bool (w, s, "cpu.emulated", 0);
  expect_str (w, s, "cpu.hypervisor", NULL);
  expect_str (w, s, "os.name", "macOS");
  expect_str (w, s, "os.version", "14.4.1");
  expect_str (w, s, "os.kernel", "23.4.0");
  cJSON_Delete (s);

  s = feed (si_darwin_from_sysctl, rosetta);
  w = "macOS Rosetta";
  expect_bool (w, s, "cpu.emulated", 1);
  expect_str (w, s, "cpu.emulator", "Rosetta 2");
  expect_str (w, s, "cpu.arch", "x86_64");
  expect_str (w, s, "cpu.identity", NULL);
  expect_num (w, s, "cpu.cpufamily", -1);
  expect_num (w, s, "cpu.emulated_cpu.cpufamily", 0x573b5eec);
  /* What CPUID then says (Westmere-class 6/44/2) must stay apart. */
  si_x86_put_cpuid (si_section (s, "cpu"), si_get_str (si_section (s, "cpu"), "emulator"),
                    "GenuineIntel", 0x000206c2, "VirtualApple @ 2.50GHz processor");
  expect_str (w, s, "cpu.identity", "emulated:Rosetta 2:x86:GenuineIntel:family=6:model=44:stepping=2");
  expect_str (w, s, "cpu.microarchitecture", NULL);
  expect_str (w, s, "cpu.emulated_cpu.identity", "x86:GenuineIntel:family=6:model=44:stepping=2");
  expect_str (w, s, "cpu.emulated_cpu.microarchitecture", "Westmere");
  expect_str (w, s, "cpu.emulated_cpu.brand", "VirtualApple @ 2.50GHz processor");
  expect_num (w, s, "cpu.emulated_cpu.cpufamily", 0x573b5eec);
  cJSON_Delete (s);

  s = feed (si_darwin_from_sysctl, apple_m1);
  w = "macOS M1, CPUID under an emulator";
  si_x86_put_cpuid (si_section (s, "cpu"), "Rosetta 2", "GenuineIntel", 0x000206c2, NULL);
  expect_str (w, s, "cpu.identity", "apple:cpufamily=0x1b588bb3");
  expect_str (w, s, "cpu.microarchitecture", "Firestorm/Icestorm");
  expect_str (w, s, "cpu.vendor", "Apple");
  expect_num (w, s, "cpu.emulated_cpu.model", 44);
  cJSON_Delete (s);

  s = feed (si_darwin_from_sysctl, intel_mac);
  w = "macOS Intel";
  expect_str (w, s, "cpu.arch", "x86_64");
  expect_num (w, s, "cores.physical", 2);
  expect_num (w, s, "clock.nominal_mhz", 2300);
  expect_num (w, s, "clock.max_mhz", 2300);
  expect_num (w, s, "cache.l3", 4194304);
  expect_str (w, s, "cpu.hypervisor", "Apple Hypervisor.framework guest");
  si_x86_put_cpuid (si_section (s, "cpu"), NULL, "GenuineIntel", 0x000806e9,
                    "Intel(R) Core(TM) i5-7360U CPU @ 2.30GHz");
  expect_str (w, s, "cpu.identity", "x86:GenuineIntel:family=6:model=142:stepping=9");
  expect_str (w, s, "cpu.emulated_cpu", NULL);
  cJSON_Delete (s);

  s = feed (si_freebsd_from_sysctl, freebsd_kvm);
  w = "FreeBSD";
  expect_str (w, s, "cpu.arch", "x86_64");
  expect_str (w, s, "cpu.name", "AMD EPYC 7B13");
  expect_num (w, s, "cores.logical", 4);
  expect_num (w, s, "cores.physical", 2);
  expect_num (w, s, "clock.nominal_mhz", 2450);
  expect_num (w, s, "clock.max_mhz", 2450);
  expect_str (w, s, "cpu.hypervisor", "KVM");
  expect_str (w, s, "os.name", "FreeBSD");
  expect_str (w, s, "os.version", "14.1-RELEASE");
  cJSON_Delete (s);
  return check_exit_status ();
}
