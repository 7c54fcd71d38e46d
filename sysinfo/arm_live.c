/* arm_live.c: the live view of an AArch64 core on Linux: the HWCAP bits
 * the kernel passes in the auxiliary vector, the SVE vector length, and
 * MIDR_EL1, which the kernel emulates for user space when HWCAP_CPUID is
 * set.  /proc/cpuinfo says the same on real hardware and stays the
 * source of per-core MIDRs there; this view matters where cpuinfo is not
 * the processor's own, as under qemu-user, which answers these with the
 * model chosen by -cpu.  Elsewhere the function does nothing. */
#include "sysinfo/internal.h"

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/prctl.h>

static void
put_features (cJSON *cpu, unsigned long hw, unsigned long hw2)
{
  cJSON *f = si_section (cpu, DOC_SYS_CPU_FEATURES);
  const char *src = "getauxval (AT_HWCAP)";

  si_put_bool (f, DOC_SYS_FEATURES_NEON, (hw & HWCAP_ASIMD) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_PMULL, (hw & HWCAP_PMULL) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_AES, (hw & HWCAP_AES) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_SHA2, (hw & HWCAP_SHA2) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_SHA512, (hw & HWCAP_SHA512) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_LSE, (hw & HWCAP_ATOMICS) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_DOTPROD, (hw & HWCAP_ASIMDDP) != 0, src);
  si_put_bool (f, DOC_SYS_FEATURES_SVE, (hw & HWCAP_SVE) != 0, src);
#if defined(HWCAP2_SVE2)
  si_put_bool (f, DOC_SYS_FEATURES_SVE2, (hw2 & HWCAP2_SVE2) != 0, "getauxval (AT_HWCAP2)");
#endif
#if defined(HWCAP2_I8MM)
  si_put_bool (f, DOC_SYS_FEATURES_I8MM, (hw2 & HWCAP2_I8MM) != 0, "getauxval (AT_HWCAP2)");
#endif
  (void) hw2;
#if defined(PR_SVE_GET_VL)
  if (hw & HWCAP_SVE)
    {
      int vl = prctl (PR_SVE_GET_VL);
      if (vl > 0)
        si_put_num (f, DOC_SYS_FEATURES_SVE_VECTOR_BITS, (vl & PR_SVE_VL_LEN_MASK) * 8,
                    "prctl (PR_SVE_GET_VL)");
    }
#endif
}

static void
put_midr (cJSON *cpu)
{
  unsigned long midr;
  struct si_midr m;
  const char *name, *vendor, *src = "MIDR_EL1 (mrs, emulated by the kernel)";
  char id[96], raw[16];

  __asm__ volatile ("mrs %0, MIDR_EL1" : "=r" (midr));
  m.implementer = (unsigned) (midr >> 24) & 0xff;
  m.variant = (unsigned) (midr >> 20) & 0xf;
  m.part = (unsigned) (midr >> 4) & 0xfff;
  m.revision = (unsigned) midr & 0xf;
  si_arm_identity (id, sizeof id, &m);
  si_put_str (cpu, DOC_SYS_CPU_IDENTITY, id, src);
  snprintf (raw, sizeof raw, "0x%08lx", midr & 0xffffffffUL);
  si_put_str (cpu, DOC_SYS_CPU_MIDR_EL1, raw, src);
  vendor = si_arm_implementer_name (m.implementer);
  si_put_str (cpu, DOC_SYS_CPU_VENDOR, vendor, "MIDR implementer table");
  name = si_arm_part_name (m.implementer, m.part);
  si_put_str (cpu, DOC_SYS_CPU_NAME, name, "MIDR part table");
  si_put_str (cpu, DOC_SYS_CPU_MICROARCHITECTURE, si_arm_uarch (m.implementer, m.part),
              "MIDR part table");
}

void
si_arm_live_collect (cJSON *system)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU);
  unsigned long hw = getauxval (AT_HWCAP), hw2 = getauxval (AT_HWCAP2);

  put_features (cpu, hw, hw2);
  if (!si_has (cpu, DOC_SYS_CPU_IDENTITY) && (hw & HWCAP_CPUID))
    put_midr (cpu);
}

#else

void
si_arm_live_collect (cJSON *system)
{
  (void) system;
}

#endif
