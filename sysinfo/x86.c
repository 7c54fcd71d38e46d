/* x86.c: the x86 identity key and what CPUID says, as members.  The
 * identity key is built from the vendor string, family, model and
 * stepping alone (as reported, i.e. with the extended fields already
 * folded in, the way /proc/cpuinfo prints them), never from the brand
 * string, which hypervisors cut short and AMD parts let firmware rewrite;
 * x86_models.c names them.  si_x86_put_cpuid turns the raw CPUID numbers
 * into members, and keeps an emulator's synthetic processor (Rosetta 2
 * presents a Westmere-class Intel CPU) out of the identity of the machine
 * under it. */
#include "sysinfo/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
si_x86_identity (char *buf, size_t n, const char *vendor_id,
                 int family, int model, int stepping)
{
  snprintf (buf, n, "x86:%s:family=%d:model=%d:stepping=%d",
            vendor_id, family, model, stepping);
}

double
si_brand_mhz (const char *brand)
{
  const char *at = strrchr (brand, '@');
  char *end;
  double v;

  if (at == NULL)
    return 0;
  v = strtod (at + 1, &end);
  if (end == at + 1 || v <= 0)
    return 0;
  while (*end == ' ')
    end++;
  if (strncmp (end, "GHz", 3) == 0)
    return v * 1000;
  if (strncmp (end, "MHz", 3) == 0)
    return v;
  return 0;
}

/* The members CPUID gives, into SEC. */
static void
put_cpuid_members (cJSON *sec, const char *vendor, int fam, int mod, int step,
                   const char *brand)
{
  char id[128];
  const char *name = si_x86_vendor_name (vendor);

  si_x86_identity (id, sizeof id, vendor, fam, mod, step);
  si_put_str (sec, DOC_SYS_CPU_IDENTITY, id, "cpuid leaf 1");
  si_put_str (sec, DOC_SYS_CPU_VENDOR_ID, vendor, "cpuid leaf 0");
  si_put_str (sec, DOC_SYS_CPU_VENDOR, name ? name : vendor, "cpuid leaf 0");
  si_put_num (sec, DOC_SYS_CPU_FAMILY, fam, "cpuid leaf 1");
  si_put_num (sec, DOC_SYS_CPU_MODEL, mod, "cpuid leaf 1");
  si_put_num (sec, DOC_SYS_CPU_STEPPING, step, "cpuid leaf 1");
  si_put_str (sec, DOC_SYS_CPU_MICROARCHITECTURE, si_x86_uarch (vendor, fam, mod, step),
              "x86 model table");
  si_put_str (sec, DOC_SYS_CPU_CODENAME, si_x86_codename (vendor, fam, mod, step),
              "x86 model table");
  if (brand != NULL)
    {
      si_put_str (sec, DOC_SYS_CPU_BRAND, brand, "cpuid leaves 0x80000002-4");
      si_put_str (sec, DOC_SYS_CPU_NAME, brand, "cpuid brand string");
    }
}

void
si_x86_put_cpuid (cJSON *cpu, const char *emulator, const char *vendor,
                  unsigned leaf1_eax, const char *brand)
{
  int fam = (leaf1_eax >> 8) & 0xf, mod = (leaf1_eax >> 4) & 0xf, step = leaf1_eax & 0xf;
  char id[192];
  cJSON *emu;

  if (fam == 0xf)
    fam += (leaf1_eax >> 20) & 0xff;
  if (fam == 6 || fam >= 0xf)
    mod |= ((leaf1_eax >> 16) & 0xf) << 4;
  if (emulator == NULL)
    {
      put_cpuid_members (cpu, vendor, fam, mod, step, brand);
      return;
    }
  emu = si_emulated_cpu (cpu);
  put_cpuid_members (emu, vendor, fam, mod, step, brand);
  if (si_has (cpu, DOC_SYS_CPU_IDENTITY))
    return;
  snprintf (id, sizeof id, "emulated:%s:%s", emulator, si_get_str (emu, DOC_SYS_CPU_IDENTITY));
  si_put_str (cpu, DOC_SYS_CPU_IDENTITY, id, "cpuid leaf 1 under emulation");
}
