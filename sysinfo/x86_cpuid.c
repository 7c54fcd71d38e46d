/* x86_cpuid.c: the live view of an x86 processor through the CPUID
 * instruction, which is more direct than any OS file: vendor and
 * family/model/stepping (the identity key), the brand string, the feature
 * bits that matter to bignum code checked against the OS's XSAVE state
 * (XGETBV), the hypervisor leaf 0x40000000, the nominal clock of leaf
 * 0x16, the timestamp-counter rate of leaf 0x15 (or of the hypervisor's
 * leaf 0x40000010), and the cache leaves 4 / 0x8000001D when no OS reader
 * supplied caches.  On other processors every function here does nothing. */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>

struct regs
{
  unsigned a, b, c, d;
};

static struct regs
cpuid (unsigned leaf, unsigned sub)
{
  struct regs r;
  __cpuid_count (leaf, sub, r.a, r.b, r.c, r.d);
  return r;
}

static unsigned long long
xgetbv0 (void)
{
  unsigned lo, hi;
  __asm__ volatile ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
  return (unsigned long long) hi << 32 | lo;
}

unsigned long long
si_tsc_read (void)
{
  return __rdtsc ();
}

/* The emulator this process is known to run under before CPUID is asked:
 * Rosetta 2 from the sysctl reader, qemu-user from the kernel. */
static const char *
prior_emulator (const cJSON *cpu)
{
  if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (cpu, DOC_SYS_CPU_EMULATED)))
    return si_get_str (cpu, DOC_SYS_CPU_EMULATOR) ? si_get_str (cpu, DOC_SYS_CPU_EMULATOR)
      : "unknown emulator";
  return si_emulator ();
}

static void
put_identity (cJSON *cpu, const char *vendor)
{
  char brand[49], *b = NULL, *e;
  struct regs r;
  unsigned i;

  if (cpuid (0x80000000, 0).a >= 0x80000004)
    {
      for (i = 0; i < 3; i++)
        {
          r = cpuid (0x80000002 + i, 0);
          memcpy (brand + 16 * i, &r, 16);
        }
      brand[48] = '\0';
      b = brand + strspn (brand, " ");
      e = b + strlen (b);
      while (e > b && e[-1] == ' ')
        *--e = '\0';
    }
  si_x86_put_cpuid (cpu, prior_emulator (cpu), vendor, cpuid (1, 0).a, b);
}

static void
put_features (cJSON *cpu, unsigned maxleaf)
{
  cJSON *f = si_section (cpu, DOC_SYS_CPU_FEATURES);
  struct regs l1 = cpuid (1, 0), l7 = { 0, 0, 0, 0 }, e1 = cpuid (0x80000001, 0);
  unsigned long long xcr0 = (l1.c >> 27 & 1) ? xgetbv0 () : 0;
  int avx_os = (xcr0 & 0x6) == 0x6, avx512_os = avx_os && (xcr0 & 0xe0) == 0xe0;
  const char *src = "cpuid (AVX checked with xgetbv)";

  if (maxleaf >= 7)
    l7 = cpuid (7, 0);
  si_put_bool (f, DOC_SYS_FEATURES_BMI1, l7.b >> 3 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_BMI2, l7.b >> 8 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_ADX, l7.b >> 19 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_POPCNT, l1.c >> 23 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_LZCNT, e1.c >> 5 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX, (l1.c >> 28 & 1) && avx_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX2, (l7.b >> 5 & 1) && avx_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512F, (l7.b >> 16 & 1) && avx512_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512DQ, (l7.b >> 17 & 1) && avx512_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512IFMA, (l7.b >> 21 & 1) && avx512_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512VL, (l7.b >> 31 & 1) && avx512_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512BW, (l7.b >> 30 & 1) && avx512_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_SHA, l7.b >> 29 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_AES, l1.c >> 25 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_PCLMULQDQ, l1.c >> 1 & 1, src);
  si_put_bool (f, DOC_SYS_FEATURES_VAES, (l7.c >> 9 & 1) && avx_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_VPCLMULQDQ, (l7.c >> 10 & 1) && avx_os, src);
  si_put_bool (f, DOC_SYS_FEATURES_AVX512_OS_SUPPORT, avx512_os, "xgetbv XCR0 bits 5-7");
  if (!si_has (cpu, DOC_SYS_CPU_HYBRID))
    si_put_bool (cpu, DOC_SYS_CPU_HYBRID, l7.d >> 15 & 1, "cpuid leaf 7 edx bit 15");
}

static const struct
{
  const char *sig, *name;
} hypervisors[] = {
  {"KVMKVMKVM", "KVM"}, {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
  {"XenVMMXenVMM", "Xen"}, {"VBoxVBoxVBox", "VirtualBox"},
  {"bhyve bhyve ", "bhyve"}, {" lrpepyh  vr", "Parallels"},
  {"ACRNACRNACRN", "ACRN"}, {"QNXQVMBSQG", "QNX"}, {"TCGTCGTCGTCG", "QEMU TCG"},
  {"VirtualApple", "Apple Rosetta 2"},
};

/* Returns the hypervisor's highest leaf, 0 when none is present. */
static unsigned
put_hypervisor (cJSON *cpu)
{
  struct regs r;
  char sig[13];
  const char *name = NULL;
  size_t i;

  if (!(cpuid (1, 0).c >> 31 & 1))
    {
      si_put_null (cpu, DOC_SYS_CPU_HYPERVISOR);
      return 0;
    }
  r = cpuid (0x40000000, 0);
  memcpy (sig, &r.b, 4);
  memcpy (sig + 4, &r.c, 4);
  memcpy (sig + 8, &r.d, 4);
  sig[12] = '\0';
  for (i = 0; i < GB_ARRAY_SIZE (hypervisors) && name == NULL; i++)
    if (strncmp (sig, hypervisors[i].sig, strlen (hypervisors[i].sig)) == 0)
      name = hypervisors[i].name;
  /* DMI names the cloud more precisely than the signature does. */
  if (!si_has (cpu, DOC_SYS_CPU_HYPERVISOR)
      || strcmp (si_get_str (cpu, DOC_SYS_CPU_HYPERVISOR), "unknown") == 0)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, name ? name : "unknown", "cpuid leaf 0x40000000");
  if (name != NULL && (strcmp (name, "QEMU TCG") == 0 || strcmp (name, "Apple Rosetta 2") == 0))
    {
      si_put_bool (cpu, DOC_SYS_CPU_EMULATED, 1, "cpuid hypervisor signature");
      si_put_str (cpu, DOC_SYS_CPU_EMULATOR, name, "cpuid hypervisor signature");
    }
  return r.a >= 0x40000000 ? r.a : 0;
}

static void
put_clocks (cJSON *clock, unsigned maxleaf, unsigned hvleaf)
{
  struct regs r;

  if (maxleaf >= 0x16)
    {
      r = cpuid (0x16, 0);
      if ((r.a & 0xffff) != 0)
        si_put_num (clock, DOC_SYS_CLOCK_NOMINAL_MHZ, r.a & 0xffff, "cpuid leaf 0x16");
      if ((r.b & 0xffff) != 0 && !si_has (clock, DOC_SYS_CLOCK_MAX_MHZ))
        si_put_num (clock, DOC_SYS_CLOCK_MAX_MHZ, r.b & 0xffff, "cpuid leaf 0x16");
    }
  si_put_absent (clock, DOC_SYS_CLOCK_NOMINAL_MHZ,
                 maxleaf >= 0x16 ? "zero in CPUID leaf 0x16" : "no CPUID leaf 0x16");
  si_put_absent (clock, DOC_SYS_CLOCK_MAX_MHZ,
                 maxleaf >= 0x16 ? "zero in CPUID leaf 0x16" : "no CPUID leaf 0x16");
  if (maxleaf >= 0x15)
    {
      r = cpuid (0x15, 0);
      if (r.a != 0 && r.b != 0 && r.c != 0)
        {
          si_put_num (clock, DOC_SYS_CLOCK_TSC_MHZ, (double) r.c * r.b / r.a / 1e6,
                      "cpuid leaf 0x15");
          return;
        }
    }
  if (hvleaf >= 0x40000010)
    {
      r = cpuid (0x40000010, 0);
      if (r.a != 0)
        si_put_num (clock, DOC_SYS_CLOCK_TSC_MHZ, r.a / 1000.0, "cpuid leaf 0x40000010");
    }
}

/* Caches from the deterministic cache leaves, for OSes without sysfs. */
static void
put_caches (cJSON *system, const char *vendor)
{
  static const char *const types[] = { NULL, "Data", "Instruction", "Unified" };
  unsigned leaf = strcmp (vendor, "GenuineIntel") == 0 ? 4 : 0x8000001d;
  cJSON *arr = cJSON_CreateArray (), *sum = si_section (system, DOC_SYS_CACHE);
  unsigned i;

  if (leaf == 0x8000001d && cpuid (0x80000000, 0).a < 0x8000001d)
    {
      cJSON_Delete (arr);
      return;
    }
  for (i = 0; i < 16; i++)
    {
      struct regs r = cpuid (leaf, i);
      unsigned type = r.a & 0x1f, level = (r.a >> 5) & 7;
      double ways = (r.b >> 22) + 1, parts = ((r.b >> 12) & 0x3ff) + 1;
      double line = (r.b & 0xfff) + 1, sets = (double) r.c + 1;
      double size = ways * parts * line * sets;
      cJSON *o;
      const char *key;

      if (type == 0 || type > 3)
        break;
      o = cJSON_CreateObject ();
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LEVEL, level);
      cJSON_AddStringToObject (o, DOC_SYS_CACHES_TYPE, types[type]);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SIZE, size);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_WAYS, ways);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LINE, line);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SHARED_BY, ((r.a >> 14) & 0xfff) + 1);
      cJSON_AddItemToArray (arr, o);
      key = level == 1 ? (type == 2 ? DOC_SYS_CACHE_L1I : DOC_SYS_CACHE_L1D)
        : level == 2 ? DOC_SYS_CACHE_L2 : level == 3 ? DOC_SYS_CACHE_L3 : DOC_SYS_CACHE_L4;
      si_put_num (sum, key, size, "cpuid cache leaf");
    }
  si_put_item (system, DOC_SYS_CACHES, arr, leaf == 4 ? "cpuid leaf 4" : "cpuid leaf 0x8000001d");
}

void
si_x86_cpuid_collect (cJSON *system)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU);
  struct regs r = cpuid (0, 0);
  unsigned maxleaf = r.a, hvleaf;
  char vendor[13];

  memcpy (vendor, &r.b, 4);
  memcpy (vendor + 4, &r.d, 4);
  memcpy (vendor + 8, &r.c, 4);
  vendor[12] = '\0';
  put_identity (cpu, vendor);
  put_features (cpu, maxleaf);
  hvleaf = put_hypervisor (cpu);
  put_clocks (si_section (system, DOC_SYS_CLOCK), maxleaf, hvleaf);
  if (!si_has (system, DOC_SYS_CACHES))
    put_caches (system, vendor);
}

#else /* not x86 */

unsigned long long
si_tsc_read (void)
{
  return 0;
}

void
si_x86_cpuid_collect (cJSON *system)
{
  (void) system;
}

#endif
