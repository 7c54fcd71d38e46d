/* os.c: facts about the running operating system that no platform reader
 * covers: the kernel release (uname), the C library, the architecture
 * this executable was built for, and whether it runs under user-mode
 * emulation.  qemu-user fakes uname and some /proc files for its guest but
 * not /proc/sys/kernel/arch, which still names the host's architecture;
 * a foreign /proc/cpuinfo is the second sign.  Rosetta 2 is detected by
 * the macOS reader, TCG by the CPUID reader.  Under qemu-user, /sys and
 * /proc describe the host: its caches are left out (they are not the
 * emulated CPU's), and the sources of the cores, the hypervisor and the
 * OS's clocks are marked "host (emulated)". */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <sys/utsname.h>
#endif
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

const char *
si_built_arch (void)
{
#if defined(__x86_64__) || defined(_M_X64)
  return "x86_64";
#elif defined(__i386__) || defined(_M_IX86)
  return "i686";
#elif defined(__aarch64__) || defined(_M_ARM64)
  return "aarch64";
#elif defined(__arm__)
  return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#elif defined(__riscv)
  return "riscv32";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
  return "ppc64le";
#elif defined(__powerpc64__)
  return "ppc64";
#elif defined(__powerpc__)
  return "ppc";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__loongarch64)
  return "loongarch64";
#elif defined(__sparc__)
  return "sparc64";
#elif defined(__mips__)
  return "mips";
#else
  return "unknown";
#endif
}

/* The architecture family of a machine name: x86_64 and i686 are one. */
static const char *
family (const char *arch)
{
  static const char *const prefixes[][2] = {
    {"x86", "x86"}, {"i386", "x86"}, {"i486", "x86"}, {"i586", "x86"},
    {"i686", "x86"}, {"amd64", "x86"}, {"aarch64", "arm"}, {"arm", "arm"},
    {"riscv", "riscv"}, {"ppc", "ppc"}, {"s390", "s390"},
    {"loongarch", "loongarch"}, {"sparc", "sparc"}, {"mips", "mips"},
  };
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (prefixes); i++)
    if (strncmp (arch, prefixes[i][0], strlen (prefixes[i][0])) == 0)
      return prefixes[i][1];
  return arch;
}

/* The family the host's /proc/cpuinfo belongs to, or NULL. */
static const char *
cpuinfo_family (void)
{
  struct si_root r;
  char *text;
  const char *fam = NULL;

  si_root_init (&r, NULL);
  text = si_read (&r, "proc/cpuinfo");
  if (text == NULL)
    return NULL;
  if (strstr (text, "vendor_id") && strstr (text, "flags"))
    fam = "x86";
  else if (strstr (text, "CPU implementer"))
    fam = "arm";
  else if (strstr (text, "IBM/S390"))
    fam = "s390";
  free (text);
  return fam;
}

const char *
si_emulator (void)
{
  static int done;
  static const char *emulator;
  struct si_root r;
  char *karch;
  const char *built = family (si_built_arch ()), *cf;

  if (done)
    return emulator;
  done = 1;
  si_root_init (&r, NULL);
  karch = si_read (&r, "proc/sys/kernel/arch");
  if (karch != NULL && strcmp (family (karch), built) != 0)
    emulator = "qemu-user";
  else if ((cf = cpuinfo_family ()) != NULL && strcmp (cf, built) != 0)
    emulator = "qemu-user";
  free (karch);
  return emulator;
}

static void
put_libc (cJSON *os)
{
#if defined(__GLIBC__)
  char buf[64];
  snprintf (buf, sizeof buf, "glibc %s", gnu_get_libc_version ());
  si_put_str (os, DOC_SYS_OS_LIBC, buf, "gnu_get_libc_version");
#elif defined(__APPLE__)
  si_put_str (os, DOC_SYS_OS_LIBC, "libSystem", "platform");
#elif defined(__FreeBSD__)
  si_put_str (os, DOC_SYS_OS_LIBC, "FreeBSD libc", "platform");
#elif defined(__linux__)
  si_put_str (os, DOC_SYS_OS_LIBC, "musl or other non-glibc", "absence of __GLIBC__");
#elif defined(_UCRT)
  si_put_str (os, DOC_SYS_OS_LIBC, "UCRT", "mingw-w64 _UCRT");
#elif defined(_WIN32)
  si_put_str (os, DOC_SYS_OS_LIBC, "msvcrt", "mingw-w64 without _UCRT");
#else
  si_put_null (os, DOC_SYS_OS_LIBC);
#endif
}

/* The kernel release, where no platform reader gave one (Windows' does). */
static void
put_kernel (cJSON *os)
{
#if !defined(_WIN32)
  struct utsname u;

  if (!si_has (os, DOC_SYS_OS_KERNEL) && uname (&u) == 0)
    si_put_str (os, DOC_SYS_OS_KERNEL, u.release, "uname");
#else
  (void) os;
#endif
}

/* Prefixes the source of KEY in SEC, if any, with "host (emulated): ". */
static void
mark_host (cJSON *sec, const char *key)
{
  cJSON *sources = cJSON_GetObjectItemCaseSensitive (sec, DOC_SYS_SOURCES);
  const char *old = si_get_str (sources, key);
  char buf[256];

  if (old == NULL || strncmp (old, "host (emulated)", 15) == 0)
    return;
  snprintf (buf, sizeof buf, "host (emulated): %s", old);
  cJSON_ReplaceItemInObjectCaseSensitive (sources, key, cJSON_CreateString (buf));
}

/* Under qemu-user: what /proc and /sys said is the host's. */
static void
mark_host_facts (cJSON *system)
{
  cJSON *cores = si_section (system, DOC_SYS_CORES), *clock = si_section (system, DOC_SYS_CLOCK);
  const cJSON *src = cJSON_GetObjectItemCaseSensitive (cores, DOC_SYS_SOURCES);
  const cJSON *it, *next;

  for (it = src ? src->child : NULL; it != NULL; it = next)
    {
      next = it->next;          /* mark_host replaces IT */
      mark_host (cores, it->string);
    }
  mark_host (si_section (system, DOC_SYS_CPU), DOC_SYS_CPU_HYPERVISOR);
  mark_host (clock, DOC_SYS_CLOCK_NOMINAL_MHZ);
  mark_host (clock, DOC_SYS_CLOCK_MAX_MHZ);
  mark_host (clock, DOC_SYS_CLOCK_TSC_MHZ);
  if (cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CACHE) != NULL)
    si_put_item (system, DOC_SYS_CACHE, cJSON_CreateNull (),
                 "left out: the host's under qemu-user");
  if (cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CACHES) != NULL)
    si_put_item (system, DOC_SYS_CACHES, cJSON_CreateNull (),
                 "left out: the host's under qemu-user");
}

void
si_os_collect (cJSON *system)
{
  cJSON *os = si_section (system, DOC_SYS_OS), *cpu = si_section (system, DOC_SYS_CPU);
  const char *emu = si_emulator ();

  put_kernel (os);
  put_libc (os);
  if (emu != NULL)
    {
      si_put_bool (cpu, DOC_SYS_CPU_EMULATED, 1, "/proc/sys/kernel/arch differs from the build");
      si_put_str (cpu, DOC_SYS_CPU_EMULATOR, emu, "/proc/sys/kernel/arch");
      mark_host_facts (system);
    }
  else if (!si_has (cpu, DOC_SYS_CPU_EMULATED))
    si_put_bool (cpu, DOC_SYS_CPU_EMULATED, 0, "no sign of emulation");
}
