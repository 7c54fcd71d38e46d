/* linux_virt.c: whether Linux runs under a hypervisor, and which, as far
 * as files tell: the x86 "hypervisor" CPU flag, the DMI system vendor,
 * /sys/hypervisor, the device tree, and on IBM Z the control program
 * levels of /proc/sysinfo.  The live CPUID leaf 0x40000000 (x86_cpuid.c)
 * refines this later.  Partition, guest and host names are not read. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
  const char *prefix, *name;
} dmi_vendors[] = {
  {"QEMU", "KVM/QEMU"}, {"VMware", "VMware"}, {"innotek", "VirtualBox"},
  {"Xen", "Xen"}, {"Amazon EC2", "KVM (AWS Nitro)"}, {"Google", "KVM (Google)"},
  {"Parallels", "Parallels"}, {"OpenStack", "KVM (OpenStack)"},
  {"Bochs", "Bochs"}, {"Apple Virtualization", "Apple Virtualization"},
};

static const char *
from_dmi (struct si_linux *L)
{
  char *vendor = si_read (L->r, "sys/class/dmi/id/sys_vendor");
  char *product = si_read (L->r, "sys/class/dmi/id/product_name");
  const char *found = NULL;
  size_t i;

  for (i = 0; vendor && i < GB_ARRAY_SIZE (dmi_vendors) && !found; i++)
    if (strncmp (vendor, dmi_vendors[i].prefix, strlen (dmi_vendors[i].prefix)) == 0)
      found = dmi_vendors[i].name;
  if (!found && vendor && product && strstr (vendor, "Microsoft")
      && strstr (product, "Virtual Machine"))
    found = "Hyper-V";
  if (!found && product && strncmp (product, "KVM", 3) == 0)
    found = "KVM";
  free (vendor);
  free (product);
  return found;
}

/* Copies SRC to BUF with runs of spaces cut to one ("z/VM    6.4.0"). */
static void
squeeze (char *buf, size_t n, const char *src)
{
  size_t w = 0;

  for (; *src != '\0' && w + 1 < n; src++)
    if (!(*src == ' ' && (src[1] == ' ' || src[1] == '\0')))
      buf[w++] = *src;
  buf[w] = '\0';
}

/* IBM Z: "VM00 Control Program: z/VM 6.4.0" is the level directly
 * below us; without any VM level we run in an LPAR under PR/SM. */
static void
from_sysinfo (struct si_linux *L, cJSON *cpu)
{
  char *text = si_read (L->r, "proc/sysinfo");
  struct si_kvfile f;
  const char *cp;
  char buf[64];

  if (text == NULL)
    return;
  si_kvfile_parse (text, &f);
  free (text);
  cp = si_kvfile_get (&f, "VM00 Control Program");
  if (cp != NULL)
    {
      squeeze (buf, sizeof buf, cp);
      si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, buf, "/proc/sysinfo VM00 Control Program");
      if (si_kvfile_get (&f, "VM01 Control Program") != NULL)
        si_put_bool (cpu, DOC_SYS_CPU_NESTED_VIRTUALIZATION, 1, "/proc/sysinfo VM01");
    }
  else if (si_kvfile_get (&f, "LPAR Number") != NULL
           || si_kvfile_get (&f, "LPAR Name") != NULL)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, "PR/SM (LPAR)", "/proc/sysinfo LPAR");
  si_kvfile_free (&f);
}

void
si_linux_hypervisor (struct si_linux *L)
{
  cJSON *cpu = L->cpusec;
  const char *flags = si_kvfile_get (&L->cpuinfo, "flags");
  const char *dmi = from_dmi (L);
  char *xen = si_read (L->r, "sys/hypervisor/type");
  char *dt = si_read (L->r, "proc/device-tree/hypervisor/compatible");

  si_put_null (cpu, DOC_SYS_CPU_HYPERVISOR);
  if (flags != NULL && strstr (flags, " hypervisor") != NULL)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, "unknown", "/proc/cpuinfo hypervisor flag");
  if (dt != NULL)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, strstr (dt, "kvm") ? "KVM" : dt,
                "device tree hypervisor/compatible");
  else if (si_exists (L->r, "proc/device-tree/ibm,partition-name"))
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, "PowerVM", "device tree ibm,partition-name");
  if (xen != NULL)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, xen, "/sys/hypervisor/type");
  if (dmi != NULL)
    si_put_str (cpu, DOC_SYS_CPU_HYPERVISOR, dmi, "DMI sys_vendor/product_name");
  from_sysinfo (L, cpu);
  free (xen);
  free (dt);
}
