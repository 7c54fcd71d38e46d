/* linux_cpuinfo.c: what /proc/cpuinfo says about the processor.  Its
 * format differs per architecture, so the architecture is settled first
 * (uname on the live system, the shape of cpuinfo in a snapshot), then one
 * function per architecture family reads the identity numbers, names the
 * part with the decoders and records the feature flags that matter to
 * bignum code. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <sys/utsname.h>
#endif

#define CPUINFO "/proc/cpuinfo"

static const char *
first (struct si_linux *L, const char *key)
{
  return si_kvfile_get (&L->cpuinfo, key);
}

/* Whether the space-separated word list LIST holds WORD. */
static int
has_word (const char *list, const char *word)
{
  size_t n = strlen (word);
  const char *p = list;

  while (list != NULL && (p = strstr (p, word)) != NULL)
    {
      if ((p == list || p[-1] == ' ' || p[-1] == '\t')
          && (p[n] == ' ' || p[n] == '\t' || p[n] == '\0'))
        return 1;
      p += n;
    }
  return 0;
}

/* POWER runs either way round; the kernel says which when asked. */
static const char *
ppc64_endian (struct si_linux *L)
{
  char *order = si_read (L->r, "sys/kernel/cpu_byteorder");
  int le = order != NULL && strcmp (order, "little") == 0;

  free (order);
  return le ? "ppc64le" : "ppc64";
}

static const char *
arch_from_cpuinfo (struct si_linux *L)
{
  const char *v;

  if ((v = first (L, "vendor_id")) != NULL)
    {
      if (strncmp (v, "IBM/S390", 8) == 0)
        return has_word (first (L, "features"), "zarch") ? "s390x" : "s390";
      return has_word (first (L, "flags"), "lm") ? "x86_64" : "i686";
    }
  if (first (L, "CPU implementer") != NULL)
    return has_word (first (L, "Features"), "asimd") ? "aarch64" : "armv7l";
  if ((v = first (L, "isa")) != NULL && strncmp (v, "rv", 2) == 0)
    return strncmp (v, "rv64", 4) == 0 ? "riscv64" : "riscv32";
  if ((v = first (L, "ISA")) != NULL && strstr (v, "loongarch64"))
    return "loongarch64";
  if ((v = first (L, "type")) != NULL && strncmp (v, "sun4", 4) == 0)
    return "sparc64";
  if ((v = first (L, "cpu")) != NULL)
    {
      const char *platform = first (L, "platform"), *rev = first (L, "revision");

      if (strncmp (v, "POWER", 5) == 0
          || (platform && (strcmp (platform, "pSeries") == 0
                           || strcmp (platform, "PowerNV") == 0)))
        return ppc64_endian (L);
      if (rev != NULL && strstr (rev, "pvr") != NULL)
        return "ppc";
    }
  return NULL;
}

/* The machine uname names on the live system (its kernel release goes to
 * os.kernel), or NULL.  On Windows the Linux reader only reads snapshots. */
static const char *
live_machine (struct si_linux *L, char *buf, size_t n)
{
#if defined(_WIN32)
  (void) L;
  (void) buf;
  (void) n;
  return NULL;
#else
  struct utsname un;

  if (!L->r->live || uname (&un) != 0)
    return NULL;
  snprintf (buf, n, "%s", un.machine);
  si_put_str (si_section (L->system, DOC_SYS_OS), DOC_SYS_OS_KERNEL, un.release, "uname");
  if (strcmp (buf, "arm64") == 0)
    return "aarch64";
  if (strcmp (buf, "amd64") == 0)
    return "x86_64";
  return buf;
#endif
}

void
si_linux_arch (struct si_linux *L)
{
  char machine[72];
  const char *a = live_machine (L, machine, sizeof machine), *src = "uname";

  if (a == NULL)
    {
      a = arch_from_cpuinfo (L);
      src = CPUINFO;
    }
  snprintf (L->arch, sizeof L->arch, "%s", a ? a : "unknown");
  si_put_str (L->cpusec, DOC_SYS_CPU_ARCH, L->arch, a ? src : "unrecognised /proc/cpuinfo");
}

static int
arch_is (struct si_linux *L, const char *prefix)
{
  return strncmp (L->arch, prefix, strlen (prefix)) == 0;
}

static void
put_flags (cJSON *features, const char *list, const char *const (*map)[2],
           size_t n, const char *source)
{
  size_t i;

  for (i = 0; i < n; i++)
    si_put_bool (features, map[i][1], has_word (list, map[i][0]), source);
}

static void
x86_identity (struct si_linux *L)
{
  static const char *const flags[][2] = {
    {"bmi1", DOC_SYS_FEATURES_BMI1}, {"bmi2", DOC_SYS_FEATURES_BMI2},
    {"adx", DOC_SYS_FEATURES_ADX}, {"popcnt", DOC_SYS_FEATURES_POPCNT},
    {"abm", DOC_SYS_FEATURES_LZCNT}, {"avx", DOC_SYS_FEATURES_AVX},
    {"avx2", DOC_SYS_FEATURES_AVX2}, {"avx512f", DOC_SYS_FEATURES_AVX512F},
    {"avx512dq", DOC_SYS_FEATURES_AVX512DQ}, {"avx512ifma", DOC_SYS_FEATURES_AVX512IFMA},
    {"avx512vl", DOC_SYS_FEATURES_AVX512VL}, {"avx512bw", DOC_SYS_FEATURES_AVX512BW},
    {"sha_ni", DOC_SYS_FEATURES_SHA}, {"aes", DOC_SYS_FEATURES_AES},
    {"pclmulqdq", DOC_SYS_FEATURES_PCLMULQDQ}, {"vaes", DOC_SYS_FEATURES_VAES},
    {"vpclmulqdq", DOC_SYS_FEATURES_VPCLMULQDQ},
  };
  const char *vendor = first (L, "vendor_id"), *brand = first (L, "model name");
  const char *fam = first (L, "cpu family"), *mod = first (L, "model");
  const char *step = first (L, "stepping");
  int f = fam ? atoi (fam) : -1, m = mod ? atoi (mod) : -1;
  int s = step ? atoi (step) : -1;
  char id[128];
  const char *uarch;

  if (vendor == NULL)
    return;
  si_x86_identity (id, sizeof id, vendor, f, m, s);
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR_ID, vendor, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR,
              si_x86_vendor_name (vendor) ? si_x86_vendor_name (vendor) : vendor, CPUINFO);
  si_put_num (L->cpusec, DOC_SYS_CPU_FAMILY, f, CPUINFO);
  si_put_num (L->cpusec, DOC_SYS_CPU_MODEL, m, CPUINFO);
  si_put_num (L->cpusec, DOC_SYS_CPU_STEPPING, s, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_BRAND, brand, CPUINFO " model name");
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, brand, CPUINFO " model name");
  uarch = si_x86_uarch (vendor, f, m, s);
  si_put_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE, uarch, "x86 model table");
  si_put_str (L->cpusec, DOC_SYS_CPU_CODENAME, si_x86_codename (vendor, f, m, s),
              "x86 model table");
  put_flags (si_section (L->cpusec, DOC_SYS_CPU_FEATURES), first (L, "flags"), flags,
             GB_ARRAY_SIZE (flags), CPUINFO " flags");
  if (brand != NULL && si_brand_mhz (brand) > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, si_brand_mhz (brand), "brand string");
  else
    si_put_absent (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, "no clock in the brand string");
}

static unsigned
hexval (const char *s)
{
  return s ? (unsigned) strtoul (s, NULL, 0) : 0;
}

static void
read_midr (const struct si_block *b, struct si_midr *m)
{
  m->implementer = hexval (si_block_get (b, "CPU implementer"));
  m->variant = hexval (si_block_get (b, "CPU variant"));
  m->part = hexval (si_block_get (b, "CPU part"));
  m->revision = hexval (si_block_get (b, "CPU revision"));
}

/* Loads each processor's MIDR fields into L->cpu[].  Old 32-bit kernels
 * print the fields once, in a block of their own, for all processors. */
static void
arm_load_midrs (struct si_linux *L)
{
  int i, cpu;

  for (i = 0; i < L->cpuinfo.nblocks; i++)
    {
      const struct si_block *b = &L->cpuinfo.blocks[i];
      const char *p = si_block_get (b, "processor");
      long id = p ? strtol (p, NULL, 10) : -1;

      if (si_block_get (b, "CPU implementer") == NULL)
        continue;
      if (p == NULL)
        {
          for (cpu = 0; cpu < L->ncpu; cpu++)
            if (L->online[cpu] && !L->cpu[cpu].has_midr)
              {
                L->cpu[cpu].has_midr = 1;
                read_midr (b, &L->cpu[cpu].midr);
              }
        }
      else if (id >= 0 && id < L->ncpu)
        {
          L->cpu[id].has_midr = 1;
          read_midr (b, &L->cpu[id].midr);
        }
    }
}

static void
arm_identity (struct si_linux *L)
{
  static const char *const flags[][2] = {
    {"asimd", DOC_SYS_FEATURES_NEON}, {"sve", DOC_SYS_FEATURES_SVE},
    {"sve2", DOC_SYS_FEATURES_SVE2}, {"pmull", DOC_SYS_FEATURES_PMULL},
    {"aes", DOC_SYS_FEATURES_AES}, {"sha2", DOC_SYS_FEATURES_SHA2},
    {"sha512", DOC_SYS_FEATURES_SHA512}, {"atomics", DOC_SYS_FEATURES_LSE},
    {"asimddp", DOC_SYS_FEATURES_DOTPROD}, {"i8mm", DOC_SYS_FEATURES_I8MM},
  };
  const char *feat = first (L, "Features");
  cJSON *features = si_section (L->cpusec, DOC_SYS_CPU_FEATURES);

  arm_load_midrs (L);
  put_flags (features, feat, flags, GB_ARRAY_SIZE (flags), CPUINFO " Features");
  if (arch_is (L, "armv7"))
    si_put_bool (features, DOC_SYS_FEATURES_NEON, has_word (feat, "neon"), CPUINFO " Features");
  /* Identity, name and vendor are set from the biggest core kind by
   * si_linux_kinds. */
}

static void
riscv_identity (struct si_linux *L)
{
  const char *isa = first (L, "isa"), *uarch_s = first (L, "uarch");
  const char *v = first (L, "mvendorid"), *a = first (L, "marchid");
  const char *im = first (L, "mimpid");
  unsigned long long vid = v ? strtoull (v, NULL, 0) : 0;
  unsigned long long aid = a ? strtoull (a, NULL, 0) : 0;
  const char *vendor = v ? si_riscv_vendor_name (vid) : NULL;
  const char *uarch = si_riscv_uarch (vid, aid, uarch_s);
  char id[160];

  if (v != NULL)
    snprintf (id, sizeof id, "riscv:%s:%s:%s", v, a ? a : "?", im ? im : "?");
  else
    snprintf (id, sizeof id, "riscv:unknown:%s", uarch_s ? uarch_s : isa ? isa : "?");
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR, vendor, "RISC-V mvendorid table");
  si_put_str (L->cpusec, DOC_SYS_CPU_MVENDORID, v, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_MARCHID, a, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_MIMPID, im, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_ISA, isa, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE, uarch, "RISC-V id table");
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, uarch ? uarch : uarch_s ? uarch_s : isa, CPUINFO);
  if (isa != NULL)
    si_riscv_isa_features (isa, si_section (L->cpusec, DOC_SYS_CPU_FEATURES), CPUINFO " isa");
}

static void
power_identity (struct si_linux *L)
{
  const char *cpu = first (L, "cpu"), *rev = first (L, "revision");
  const char *pvrp = rev ? strstr (rev, "pvr") : NULL;
  const char *clock = first (L, "clock");
  unsigned hi = 0, lo = 0, pvr;
  char id[64], name[128];
  const char *table;

  if (pvrp == NULL || sscanf (pvrp, "pvr %x %x", &hi, &lo) != 2)
    return;
  pvr = hi << 16 | lo;
  snprintf (id, sizeof id, "ppc:pvr=0x%08x", pvr);
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO " revision");
  snprintf (id, sizeof id, "0x%08x", pvr);
  si_put_str (L->cpusec, DOC_SYS_CPU_PVR, id, CPUINFO " revision");
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR, "IBM", "PVR");
  table = si_power_pvr_name (pvr);
  si_put_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE, table, "PVR table");
  snprintf (name, sizeof name, "%.*s", (int) strcspn (cpu ? cpu : "", ","), cpu ? cpu : "");
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, table ? table : name, table ? "PVR table" : CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_PLATFORM, first (L, "platform"), CPUINFO);
  si_put_bool (si_section (L->cpusec, DOC_SYS_CPU_FEATURES), DOC_SYS_FEATURES_ALTIVEC,
               cpu && strstr (cpu, "altivec") != NULL, CPUINFO " cpu");
  if (clock && atof (clock) > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, atof (clock), CPUINFO " clock");
}

static void
s390_identity (struct si_linux *L)
{
  static const char *const flags[][2] = {
    {"vx", DOC_SYS_FEATURES_VX}, {"vxe", DOC_SYS_FEATURES_VXE},
    {"vxe2", DOC_SYS_FEATURES_VXE2}, {"msa", DOC_SYS_FEATURES_MSA},
    {"dfp", DOC_SYS_FEATURES_DFP},
  };
  const char *line = NULL, *mhz;
  unsigned type = 0;
  char id[64];
  int i, j;

  for (i = 0; i < L->cpuinfo.nblocks && line == NULL; i++)
    for (j = 0; j < L->cpuinfo.blocks[i].n && line == NULL; j++)
      if (strncmp (L->cpuinfo.blocks[i].kv[j].key, "processor ", 10) == 0)
        line = strstr (L->cpuinfo.blocks[i].kv[j].val, "machine =");
  if (line == NULL || sscanf (line, "machine = %x", &type) != 1)
    return;
  /* The machine type prints as decimal digits but is BCD-like; keep the
   * digits as they are. */
  snprintf (id, sizeof id, "%x", type);
  type = (unsigned) strtoul (id, NULL, 10);
  snprintf (id, sizeof id, "s390:machine=%u", type);
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO " machine");
  si_put_num (L->cpusec, DOC_SYS_CPU_MACHINE_TYPE, type, CPUINFO " machine");
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR, "IBM", CPUINFO " vendor_id");
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, si_s390_machine_name (type), "s390 machine table");
  si_put_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE, si_s390_uarch (type), "s390 machine table");
  put_flags (si_section (L->cpusec, DOC_SYS_CPU_FEATURES), first (L, "features"), flags,
             GB_ARRAY_SIZE (flags), CPUINFO " features");
  if ((mhz = first (L, "cpu MHz static")) != NULL && atof (mhz) > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, atof (mhz), CPUINFO " cpu MHz static");
  if ((mhz = first (L, "cpu MHz dynamic")) != NULL && atof (mhz) > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_MAX_MHZ, atof (mhz), CPUINFO " cpu MHz dynamic");
}

static void
loongarch_identity (struct si_linux *L)
{
  const char *name = first (L, "Model Name"), *rev = first (L, "CPU Revision");
  const char *mhz = first (L, "CPU MHz");
  static const char *const flags[][2] = {
    {"lsx", DOC_SYS_FEATURES_LSX}, {"lasx", DOC_SYS_FEATURES_LASX},
  };
  char id[160];

  snprintf (id, sizeof id, "loongarch:%s:%s", name ? name : "?", rev ? rev : "?");
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR, "Loongson", CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, name, CPUINFO " Model Name");
  put_flags (si_section (L->cpusec, DOC_SYS_CPU_FEATURES), first (L, "Features"), flags,
             GB_ARRAY_SIZE (flags), CPUINFO " Features");
  if (mhz && atof (mhz) > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, atof (mhz), CPUINFO " CPU MHz");
}

static void
sparc_identity (struct si_linux *L)
{
  const char *cpu = first (L, "cpu");
  char id[160];
  int i, j;

  snprintf (id, sizeof id, "sparc:%s", cpu ? cpu : "?");
  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, id, CPUINFO);
  si_put_str (L->cpusec, DOC_SYS_CPU_NAME, cpu, CPUINFO);
  for (i = 0; i < L->cpuinfo.nblocks; i++)
    for (j = 0; j < L->cpuinfo.blocks[i].n; j++)
      {
        const struct si_kv *kv = &L->cpuinfo.blocks[i].kv[j];
        size_t n = strlen (kv->key);
        if (n > 6 && strcmp (kv->key + n - 6, "ClkTck") == 0)
          {
            si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ,
                        (double) strtoull (kv->val, NULL, 16) / 1e6,
                        CPUINFO " ClkTck");
            return;
          }
      }
}

void
si_linux_identity (struct si_linux *L)
{
  if (arch_is (L, "x86_64") || arch_is (L, "i686"))
    x86_identity (L);
  else if (arch_is (L, "aarch64") || arch_is (L, "arm"))
    arm_identity (L);
  else if (arch_is (L, "riscv"))
    riscv_identity (L);
  else if (arch_is (L, "ppc"))
    power_identity (L);
  else if (arch_is (L, "s390"))
    s390_identity (L);
  else if (arch_is (L, "loongarch"))
    loongarch_identity (L);
  else if (arch_is (L, "sparc"))
    sparc_identity (L);
}
