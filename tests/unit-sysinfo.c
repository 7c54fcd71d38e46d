/* unit-sysinfo.c: the sysinfo decoders and parsers on fixed inputs, and
 * the Linux reader on the synthetic snapshots under
 * tests/fixtures/sysinfo/ (written for this project: Intel hybrid,
 * Graviton2, AmpereOne, RK3588 big.LITTLE, Raspberry Pi 4, Apple M1 under
 * Asahi, POWER9, z15, SiFive U74, a container with a CPU quota). */
#include "tests/sysinfo-check.h"
#include "sysinfo/internal.h"

#include <stdlib.h>

static void
test_decoders (void)
{
  struct si_midr m = { 0x41, 3, 0xd0c, 1 };
  char buf[128];
  cJSON *f = cJSON_CreateObject ();

  si_arm_identity (buf, sizeof buf, &m);
  check (strcmp (buf, "arm:0x41:0xd0c:r3p1") == 0, "MIDR identity key (%s)", buf);
  check (strcmp (si_arm_part_name (0x41, 0xd0c), "Neoverse-N1") == 0, "MIDR 0x41/0xd0c is Neoverse-N1");
  check (strcmp (si_arm_part_name (0x61, 0x023), "Apple M1 Firestorm") == 0, "MIDR 0x61/0x023 is M1 Firestorm");
  check (strcmp (si_arm_uarch (0x51, 0x804), "Cortex-A76") == 0, "Kryo 4xx Gold is Cortex-A76 based");
  check (strcmp (si_arm_part_name (0x46, 0x001), "A64FX") == 0, "MIDR 0x46/0x001 is A64FX");
  check (si_arm_part_name (0x41, 0xfff) == NULL, "unknown MIDR part gives NULL");
  check (strcmp (si_arm_implementer_name (0xc0), "Ampere") == 0, "implementer 0xc0 is Ampere");
  check (strcmp (si_x86_uarch ("AuthenticAMD", 25, 1, 1), "Zen 3") == 0, "AMD 25/1 is Zen 3");
  check (strcmp (si_x86_uarch ("AuthenticAMD", 25, 97, 2), "Zen 4") == 0, "AMD 25/97 is Zen 4");
  check (strcmp (si_x86_uarch ("AuthenticAMD", 23, 49, 0), "Zen 2") == 0, "AMD 23/49 is Zen 2");
  check (strcmp (si_x86_uarch ("GenuineIntel", 6, 151, 2), "Golden Cove") == 0, "Intel 6/151 is Golden Cove");
  check (strcmp (si_x86_uarch_e ("GenuineIntel", 6, 151, 2), "Gracemont") == 0, "Intel 6/151 E-core is Gracemont");
  check (strcmp (si_x86_codename ("GenuineIntel", 6, 85, 7), "Cascade Lake") == 0, "Intel 6/85 stepping 7 is Cascade Lake");
  check (si_x86_uarch ("GenuineIntel", 6, 0xff, 0) == NULL, "unknown Intel model gives NULL");
  si_x86_identity (buf, sizeof buf, "AuthenticAMD", 25, 1, 1);
  check (strcmp (buf, "x86:AuthenticAMD:family=25:model=1:stepping=1") == 0, "x86 identity key");
  check (si_brand_mhz ("Intel(R) Core(TM) i5 CPU M 560  @ 2.67GHz") == 2670, "brand @ 2.67GHz");
  check (si_brand_mhz ("AMD EPYC") == 0, "brand without clock");
  check (strcmp (si_power_pvr_name (0x004e1202), "POWER9") == 0, "PVR 004e is POWER9");
  check (strcmp (si_s390_machine_name (8561), "z15") == 0, "s390 8561 is z15");
  check (strcmp (si_riscv_vendor_name (0x489), "SiFive") == 0, "mvendorid 0x489 is SiFive");
  si_riscv_isa_features ("rv64imafdcv_zba_zbb_zicsr", f, "test");
  check (cJSON_IsTrue (at (f, "v")) && cJSON_IsTrue (at (f, "zba")) && cJSON_IsTrue (at (f, "zbb"))
         && cJSON_IsFalse (at (f, "zbc")), "ISA string rv64imafdcv_zba_zbb");
  si_riscv_isa_features ("rv64imafdc_zicntr_zicsr", f, "test");
  check (cJSON_IsFalse (at (f, "v")) && cJSON_IsFalse (at (f, "zbb")), "ISA string without V or Zbb");
  cJSON_Delete (f);
}

static void
test_parsers (void)
{
  unsigned char set[64];
  struct si_kvfile kv;

  check (si_cpulist ("0-3,8,10-11", set, 64) == 7 && set[3] && set[8] && !set[9] && set[11],
         "cpulist 0-3,8,10-11");
  check (si_cpulist ("5", set, 64) == 1 && set[5], "cpulist single CPU");
  check (si_cpulist ("3-1", set, 64) == -1, "cpulist with a backwards range is rejected");
  check (si_cpulist ("0,x", set, 64) == -1, "cpulist with garbage is rejected");
  si_kvfile_parse ("processor\t: 0\nflags\t: a b\n\nprocessor\t: 1\nodd line\n", &kv);
  check (kv.nblocks == 2 && strcmp (si_block_get (&kv.blocks[1], "processor"), "1") == 0
         && strcmp (si_kvfile_get (&kv, "flags"), "a b") == 0, "key: value blocks");
  si_kvfile_free (&kv);
}

static cJSON *
snapshot (const char *name)
{
  const char *srcdir = getenv ("SRCDIR");
  char root[4096];
  struct sysinfo_options opt;

  snprintf (root, sizeof root, "%s/tests/fixtures/sysinfo/%s", srcdir ? srcdir : ".", name);
  opt.root = root;
  opt.measure_clock = 0;
  return sysinfo_collect (&opt);
}

static void
test_intel_hybrid (void)
{
  const char *w = "intel-hybrid-adl";
  cJSON *s = snapshot (w);

  expect_str (w, s, "cpu.arch", "x86_64");
  expect_str (w, s, "cpu.identity", "x86:GenuineIntel:family=6:model=151:stepping=2");
  expect_str (w, s, "cpu.codename", "Alder Lake");
  expect_bool (w, s, "cpu.hybrid", 1);
  expect_str (w, s, "cpu.kinds.0.type", "performance");
  expect_num (w, s, "cpu.kinds.0.count", 16);
  expect_str (w, s, "cpu.kinds.1.microarchitecture", "Gracemont");
  expect_str (w, s, "cpu.kinds.1.cpus", "16-19");
  expect_num (w, s, "cores.logical", 20);
  expect_num (w, s, "cores.physical", 12);
  expect_num (w, s, "clock.nominal_mhz", 3600);
  expect_num (w, s, "clock.max_mhz", 5000);
  expect_bool (w, s, "clock.boost", 1);
  expect_num (w, s, "cache.l1d", 48 * 1024);
  expect_num (w, s, "cache.l2", 1280 * 1024);
  expect_num (w, s, "cache.l3", 25600 * 1024);
  expect_bool (w, s, "cpu.features.adx", 1);
  expect_bool (w, s, "cpu.features.avx512f", 0);
  expect_str (w, s, "os.name", "Fedora Linux");
  expect_str (w, s, "os.kernel", "6.5.6-300.fc39.x86_64");
  expect_str (w, s, "machine.model", NULL);     /* DMI's "To Be Filled By O.E.M." */
  expect_str (w, s, "machine.soc", NULL);
  cJSON_Delete (s);
}

static void
test_arm (void)
{
  cJSON *s = snapshot ("graviton2");

  expect_str ("graviton2", s, "cpu.identity", "arm:0x41:0xd0c:r3p1");
  expect_str ("graviton2", s, "cpu.name", "Neoverse-N1");
  expect_str ("graviton2", s, "cpu.vendor", "Arm");
  expect_str ("graviton2", s, "cpu.hypervisor", "KVM (AWS Nitro)");
  expect_str ("graviton2", s, "machine.model", "Amazon EC2 m6g.xlarge");
  expect_str ("graviton2", s, "cpu.midr.3", "0x413fd0c1");
  expect_num ("graviton2", s, "cache.l3", 32 << 20);
  expect_num ("graviton2", s, "clock.max_mhz", -1);
  expect_bool ("graviton2", s, "cpu.features.pmull", 1);
  expect_bool ("graviton2", s, "cpu.features.sve", 0);
  cJSON_Delete (s);

  s = snapshot ("ampereone");
  expect_str ("ampereone", s, "cpu.identity", "arm:0xc0:0xac3:r0p0");
  expect_str ("ampereone", s, "cpu.vendor", "Ampere");
  expect_str ("ampereone", s, "cpu.name", "AmpereOne");
  expect_num ("ampereone", s, "clock.max_mhz", 3000);
  expect_str ("ampereone", s, "clock.scaling_driver", "cppc_cpufreq");
  cJSON_Delete (s);

  s = snapshot ("arm-biglittle-rk3588");
  expect_str ("rk3588", s, "cpu.identity", "arm:0x41:0xd0b:r4p0");
  expect_str ("rk3588", s, "cpu.microarchitecture", "Cortex-A76");
  expect_num ("rk3588", s, "cpu.kinds.1.count", 4);
  expect_str ("rk3588", s, "cpu.kinds.1.name", "Cortex-A55");
  expect_str ("rk3588", s, "cpu.kinds.1.cpus", "0-3");
  expect_num ("rk3588", s, "cpu.kinds.1.max_mhz", 1800);
  expect_num ("rk3588", s, "clock.max_mhz", 2400);
  expect_num ("rk3588", s, "cache.l2", 512 * 1024);
  cJSON_Delete (s);

  s = snapshot ("rpi4");
  expect_str ("rpi4", s, "cpu.identity", "arm:0x41:0xd08:r0p3");
  expect_bool ("rpi4", s, "cpu.hybrid", 0);
  expect_bool ("rpi4", s, "cpu.features.aes", 0);
  expect_num ("rpi4", s, "cache.l1i", 48 * 1024);
  expect_str ("rpi4", s, "machine.model", "Raspberry Pi 4 Model B Rev 1.4");
  expect_str ("rpi4", s, "machine.soc", "brcm,bcm2711");
  expect_str ("rpi4", s, "machine.sources.model", "device tree model");
  cJSON_Delete (s);

  s = snapshot ("apple-m1-asahi");
  expect_str ("m1", s, "cpu.identity", "arm:0x61:0x023:r1p1");
  expect_str ("m1", s, "cpu.vendor", "Apple");
  expect_str ("m1", s, "cpu.microarchitecture", "Firestorm");
  expect_str ("m1", s, "cpu.kinds.1.microarchitecture", "Icestorm");
  expect_num ("m1", s, "cache.l1d", 128 * 1024);
  expect_num ("m1", s, "cache.l2", 12 << 20);
  cJSON_Delete (s);
}

static void
test_others (void)
{
  cJSON *s = snapshot ("power9");

  expect_str ("power9", s, "cpu.arch", "ppc64le");
  expect_str ("power9", s, "cpu.identity", "ppc:pvr=0x004e1202");
  expect_str ("power9", s, "cpu.name", "POWER9");
  expect_num ("power9", s, "cores.physical", 4);
  expect_num ("power9", s, "clock.nominal_mhz", 3800);
  expect_num ("power9", s, "cache.l3", 10 << 20);
  cJSON_Delete (s);

  s = snapshot ("z15-lpar");
  expect_str ("z15", s, "cpu.arch", "s390x");
  expect_str ("z15", s, "cpu.identity", "s390:machine=8561");
  expect_str ("z15", s, "cpu.name", "z15");
  expect_str ("z15", s, "cpu.hypervisor", "PR/SM (LPAR)");
  expect_bool ("z15", s, "cpu.features.vxe2", 1);
  expect_num ("z15", s, "clock.nominal_mhz", 5200);
  cJSON_Delete (s);

  s = snapshot ("sifive-unmatched");
  expect_str ("sifive", s, "cpu.arch", "riscv64");
  expect_str ("sifive", s, "cpu.identity", "riscv:0x489:0x8000000000000007:0x20181004");
  expect_str ("sifive", s, "cpu.vendor", "SiFive");
  expect_str ("sifive", s, "cpu.microarchitecture", "SiFive U74");
  expect_bool ("sifive", s, "cpu.features.zbb", 0);
  expect_num ("sifive", s, "cache.l2", 2 << 20);
  expect_str ("sifive", s, "machine.model", "SiFive HiFive Unmatched A00");
  expect_str ("sifive", s, "machine.soc", "sifive,fu740");
  cJSON_Delete (s);

  s = snapshot ("container-quota");
  expect_str ("container", s, "cpu.microarchitecture", "Zen 4");
  expect_num ("container", s, "cores.logical", 16);
  expect_num ("container", s, "cores.physical", 8);
  expect_num ("container", s, "cores.affinity", 8);
  expect_num ("container", s, "cores.cgroup_quota", 1.5);
  expect_num ("container", s, "cores.usable", 2);
  expect_bool ("container", s, "cpu.features.avx512ifma", 1);
  expect_str ("container", s, "os.name", "Alpine Linux");
  cJSON_Delete (s);
}

/* N trials at MHZ[i] MHz of 2 ms, preempted (CPU time half the wall time)
 * where PREEMPTED[i]; their estimate into E. */
static void
estimate_of (const double *mhz, const int *preempted, int n, struct si_clock_estimate *e)
{
  struct si_clock_trial t[32];
  int i;

  for (i = 0; i < n; i++)
    {
      t[i].wall = 0.002;
      t[i].cpu = preempted[i] ? 0.001 : 0.00199;
      t[i].mhz = mhz[i];
      t[i].tsc = 4800000;
    }
  si_clock_estimate (t, n, e);
}

/* The clock estimate drops preempted trials, takes the fastest result
 * three clean trials agree on, and says why it is not valid. */
static void
test_clock_estimate (void)
{
  static const double steady[] = { 2990, 1500, 3010, 3000, 2100, 3005, 2995, 2400 };
  static const int steady_p[] = { 0, 1, 0, 0, 1, 0, 0, 1 };
  static const double outlier[] = { 4000, 3000, 3010, 2990, 2000 };
  static const int none_p[] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  static const double scattered[] = { 3000, 2700, 2400, 2100 };
  static const int all_p[] = { 1, 1, 1, 1 };
  struct si_clock_estimate e;

  estimate_of (steady, steady_p, 8, &e);
  check (e.reason == NULL && e.clean == 5 && e.agreeing == 5 && fabs (e.mhz - 3000) < 1
         && fabs (e.tsc_mhz - 2400) < 1, "clock: preempted trials dropped (%g MHz, %d clean)",
         e.mhz, e.clean);
  estimate_of (outlier, none_p, 5, &e);
  check (e.reason == NULL && fabs (e.mhz - 3000) < 1,
         "clock: a fast trial no other agrees with is left out (%g MHz)", e.mhz);
  estimate_of (scattered, none_p, 4, &e);
  check (e.reason != NULL && strstr (e.reason, "agree") != NULL,
         "clock: scattered trials are not valid (%s)", e.reason ? e.reason : "valid");
  estimate_of (scattered, all_p, 4, &e);
  check (e.clean == 0 && e.reason != NULL && strstr (e.reason, "preempted") != NULL,
         "clock: all trials preempted is not valid (%s)", e.reason ? e.reason : "valid");
}

/* A member no reader filled says what was looked at. */
static void
test_absent (void)
{
  cJSON *clock = cJSON_CreateObject ();

  si_put_absent (clock, "max_mhz", "no sysfs cpufreq");
  si_put_absent (clock, "max_mhz", "no CPUID leaf 0x16");
  si_put_absent (clock, "max_mhz", "no CPUID leaf 0x16");
  expect_str ("absent", clock, "max_mhz", NULL);
  expect_str ("absent", clock, "sources.max_mhz", "not reported: no sysfs cpufreq; no CPUID leaf 0x16");
  si_put_num (clock, "max_mhz", 3000, "cpuid leaf 0x16");
  si_put_absent (clock, "max_mhz", "no clock in the brand string");
  expect_num ("absent", clock, "max_mhz", 3000);
  expect_str ("absent", clock, "sources.max_mhz", "cpuid leaf 0x16");
  cJSON_Delete (clock);
}

/* Home directories are hidden in paths and flags. */
static void
test_public_text (void)
{
  static const char *const cases[][3] = {
    {"-O2 -I/home/alice/inc", "/root", "-O2 -I~/inc"},
    {"-L/home/alice/lib -Wl,-rpath,/Users/bob/lib", NULL, "-L~/lib -Wl,-rpath,~/lib"},
    {"-I/srv/carol/inc -I/srv/carolyn/inc", "/srv/carol", "-I~/inc -I/srv/carolyn/inc"},
    {"/usr/home/dave/gmp/lib/libgmp.so.10", "/", "~/gmp/lib/libgmp.so.10"},
    {"-IC:\\Users\\erin\\inc -Ld:/Users/erin", NULL, "-I~\\inc -L~"},
    {"/home/ /home -I/usr/include", "/home/frank", "/home/ /home -I/usr/include"},
    {"gcc", "", "gcc"},
  };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char *got = si_public_text (cases[i][0], cases[i][1]);
      check (strcmp (got, cases[i][2]) == 0, "public text of \"%s\" is \"%s\" (got \"%s\")",
             cases[i][0], cases[i][2], got);
      free (got);
    }
}

/* Whatever the machine, the members the server relies on exist. */
static void
test_live (void)
{
  struct sysinfo_options opt = { NULL, 0 };
  cJSON *s = sysinfo_collect (&opt), *m;
  static const char *const paths[] = {
    "cpu.arch", "cpu.identity", "cpu.name", "cpu.vendor", "cpu.microarchitecture",
    "cpu.hypervisor", "cpu.emulated", "cores.logical", "cores.physical", "cores.usable",
    "clock.nominal_mhz", "clock.max_mhz", "clock.measured", "os.name", "os.version",
    "os.kernel", "build.compiler.name", "build.gmp.version", "build.openssl.version",
  };
  size_t i;

  for (i = 0; i < sizeof paths / sizeof paths[0]; i++)
    check (at (s, paths[i]) != NULL, "live: %s present", paths[i]);
  check (cJSON_IsString (at (s, "cpu.arch")), "live: cpu.arch is a string");
  check (si_get_num (at (s, "cores"), "usable", 0) >= 1, "live: at least one usable CPU");
  check (cJSON_IsFalse (at (s, "build.gmp.version_mismatch")), "live: GMP header matches library");
  cJSON_Delete (s);
  m = sysinfo_measure_clock ();
  check ((cJSON_IsNumber (at (m, "mhz")) || cJSON_IsNull (at (m, "mhz")))
         && cJSON_IsBool (at (m, "valid")), "measured clock has mhz and valid");
  check (cJSON_IsTrue (at (m, "valid")) ? at (m, "reason") == NULL && cJSON_IsNumber (at (m, "mhz"))
         : cJSON_IsString (at (m, "reason")), "an invalid measured clock says why, a valid one does not");
  if (cJSON_IsTrue (at (m, "valid")))
    check (at (m, "mhz")->valuedouble > 50, "measured clock is plausible (%g MHz)",
           at (m, "mhz")->valuedouble);
  cJSON_Delete (m);
}

int
main (void)
{
  test_decoders ();
  test_parsers ();
  test_intel_hybrid ();
  test_arm ();
  test_others ();
  test_clock_estimate ();
  test_absent ();
  test_public_text ();
  test_live ();
  return check_exit_status ();
}
