/* riscv_live.c: the live view of a RISC-V hart on Linux: the single-letter
 * extensions the kernel passes in AT_HWCAP (bit 'V' - 'A' for the vector
 * extension) and, from Linux 6.4, the riscv_hwprobe system call, which
 * answers the machine ids and the Zba/Zbb/Zbs extensions for every hart.
 * /proc/cpuinfo says the same on real hardware; this view matters where
 * cpuinfo is not the processor's own, as under qemu-user (whose 7.2 has
 * AT_HWCAP but not riscv_hwprobe).  Elsewhere the function does nothing. */
#include "sysinfo/internal.h"
#include "common/util.h"

#if defined(__riscv) && defined(__linux__)
#include <stdio.h>
#include <sys/auxv.h>
#if __has_include(<asm/hwprobe.h>)
#include <asm/hwprobe.h>
#include <sys/syscall.h>
#include <unistd.h>
#define HAVE_HWPROBE 1
#endif

#define HWCAP_LETTER(c) (1UL << ((c) - 'A'))

#ifdef HAVE_HWPROBE
/* What riscv_hwprobe says of every hart: the ids (when the identity is not
 * known yet) and the bit-manipulation extensions.  Nothing when the kernel
 * (or emulator) lacks the call. */
static void
put_hwprobe (cJSON *cpu, cJSON *features)
{
  struct riscv_hwprobe p[] = {
    { RISCV_HWPROBE_KEY_MVENDORID, 0 }, { RISCV_HWPROBE_KEY_MARCHID, 0 },
    { RISCV_HWPROBE_KEY_MIMPID, 0 }, { RISCV_HWPROBE_KEY_IMA_EXT_0, 0 },
  };
  const char *src = "riscv_hwprobe";
  char v[24], a[24], im[24], id[96];

  if (syscall (__NR_riscv_hwprobe, p, GB_ARRAY_SIZE (p), 0, NULL, 0) != 0
      || p[3].key != RISCV_HWPROBE_KEY_IMA_EXT_0)
    return;
  si_put_bool (features, DOC_SYS_FEATURES_V, (p[3].value & RISCV_HWPROBE_IMA_V) != 0, src);
  si_put_bool (features, DOC_SYS_FEATURES_ZBA, (p[3].value & RISCV_HWPROBE_EXT_ZBA) != 0, src);
  si_put_bool (features, DOC_SYS_FEATURES_ZBB, (p[3].value & RISCV_HWPROBE_EXT_ZBB) != 0, src);
  si_put_bool (features, DOC_SYS_FEATURES_ZBS, (p[3].value & RISCV_HWPROBE_EXT_ZBS) != 0, src);
  if (si_get_str (cpu, DOC_SYS_CPU_MVENDORID) || p[0].key < 0)
    return;
  snprintf (v, sizeof v, "0x%llx", (unsigned long long) p[0].value);
  snprintf (a, sizeof a, "0x%llx", (unsigned long long) p[1].value);
  snprintf (im, sizeof im, "0x%llx", (unsigned long long) p[2].value);
  snprintf (id, sizeof id, "riscv:%s:%s:%s", v, a, im);
  si_put_str (cpu, DOC_SYS_CPU_IDENTITY, id, src);
  si_put_str (cpu, DOC_SYS_CPU_MVENDORID, v, src);
  si_put_str (cpu, DOC_SYS_CPU_MARCHID, a, src);
  si_put_str (cpu, DOC_SYS_CPU_MIMPID, im, src);
  si_put_str (cpu, DOC_SYS_CPU_VENDOR, si_riscv_vendor_name (p[0].value), "RISC-V mvendorid table");
  si_put_str (cpu, DOC_SYS_CPU_MICROARCHITECTURE, si_riscv_uarch (p[0].value, p[1].value, NULL),
              "RISC-V id table");
}
#endif

void
si_riscv_live_collect (cJSON *system)
{
  cJSON *cpu = si_section (system, DOC_SYS_CPU);
  cJSON *features = si_section (cpu, DOC_SYS_CPU_FEATURES);
  unsigned long hw = getauxval (AT_HWCAP);

  if (hw != 0)
    {
      si_put_bool (features, DOC_SYS_FEATURES_M, (hw & HWCAP_LETTER ('M')) != 0,
                   "getauxval (AT_HWCAP)");
      si_put_bool (features, DOC_SYS_FEATURES_V, (hw & HWCAP_LETTER ('V')) != 0,
                   "getauxval (AT_HWCAP)");
    }
#ifdef HAVE_HWPROBE
  put_hwprobe (cpu, features);
#endif
}

#else

void
si_riscv_live_collect (cJSON *system)
{
  (void) system;
}

#endif
