/* unit-sysinfo-dumps.c: the Linux reader against the real machine
 * snapshots in ../shared/data/cpu-dumps (lscpu's test dumps plus this
 * project's KVM guest).  Each tarball is unpacked into a temporary
 * directory at test time, read as if it were "/", and checked against
 * values determined by inspecting its files: identity, name,
 * microarchitecture, logical and physical core counts, nominal and maximum
 * clock, cache sizes, hypervisor and the number of core kinds.  Without
 * the folder the test skips.
 *
 * GB_DUMPS_UNPACKED=DIR reads dumps unpacked beforehand instead, each
 * tarball NAME.tar.gz into DIR/NAME (the test skips when DIR is absent):
 * tests/cross/check-cross.sh unpacks them on the build machine, because under
 * qemu-aarch64 7.2 a forked child of a dynamically linked program hangs
 * before it reaches exec, so tar cannot be run there. */
#include "tests/sysinfo-check.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define K 1024.0
#define NONE (-1.0)

struct dump
{
  const char *file, *arch, *identity, *name, *uarch, *hypervisor;
  double logical, physical, nominal_mhz, max_mhz, l1d, l2, l3, kinds;
};

static const struct dump dumps[] = {
  {"arm-A510-A710-A715-X3", "aarch64", "arm:0x41:0xd4e:r1p0", "Cortex-X3", "Cortex-X3", NULL,
   8, 8, NONE, 3187.2, NONE, NONE, NONE, 4},
  {"armv7", "armv7l", "arm:0x41:0xc0f:r0p4", "Cortex-A15", "Cortex-A15", NULL,
   2, 2, NONE, 1700, NONE, NONE, NONE, 1},
  {"loongarch-kvm_on_loongson_3c6000", "loongarch64", "loongarch:Loongson-3A5000:0x10",
   "Loongson-3A5000", NULL, NULL, 32, 32, 2000, NONE, 64 * K, 256 * K, 16384 * K, 1},
  {"loongarch-loongson_3a5000_hv", "loongarch64", "loongarch:Loongson-3A5000-HV:0x11",
   "Loongson-3A5000-HV", NULL, NULL, 4, 4, 2500, NONE, 64 * K, 256 * K, 16384 * K, 1},
  {"ppc-qemu", "ppc", "ppc:pvr=0x00080301", "PowerPC 750", "PowerPC 750", NULL,
   1, 1, 266, NONE, NONE, NONE, NONE, 1},
  {"ppc64-POWER7-64cpu", "ppc64", "ppc:pvr=0x003f0201", "POWER7", "POWER7", "PowerVM",
   64, 16, 3550, NONE, 32 * K, NONE, NONE, 1},
  {"ppc64-POWER7", "ppc64", "ppc:pvr=0x003f0201", "POWER7", "POWER7", NULL,
   16, 4, 3000, NONE, 32 * K, NONE, NONE, 1},
  {"rv64-linux", "riscv64", "riscv:unknown:sifive,u74-mc", "SiFive U74", "SiFive U74", NULL,
   2, 2, NONE, NONE, 32 * K, 2048 * K, NONE, 1},
  {"rv64-milkvpioneer", "riscv64", "riscv:0x5b7:0x0:0x0", "T-Head C9xx", "T-Head C9xx", NULL,
   64, 64, NONE, NONE, NONE, NONE, NONE, 1},
  {"rv64-visionfive2", "riscv64", "riscv:0x489:0x8000000000000007:0x4210427", "SiFive U74",
   "SiFive U74", NULL, 4, 4, NONE, NONE, 32 * K, 2048 * K, NONE, 1},
  {"s390-kvm", "s390x", "s390:machine=2817", "z196", "z196", "KVM/Linux",
   3, 3, NONE, NONE, NONE, NONE, NONE, 1},
  {"s390-lpar-drawer", "s390x", "s390:machine=2964", "z13", "z13", "PR/SM (LPAR)",
   8, 8, 5000, 5000, 128 * K, 2048 * K, NONE, 1},
  {"s390-lpar", "s390x", "s390:machine=2817", "z196", "z196", "PR/SM (LPAR)",
   17, 17, NONE, NONE, NONE, NONE, NONE, 1},
  {"s390-nested-virt", "s390x", "s390:machine=2964", "z13", "z13", "KVM/Linux",
   2, 2, 5000, 5000, 128 * K, 2048 * K, NONE, 1},
  {"s390-zvm", "s390x", "s390:machine=2817", "z196", "z196", "z/VM 6.1.0",
   4, 4, NONE, NONE, NONE, NONE, NONE, 1},
  {"sparc64", "sparc64", "sparc:TI UltraSparc II  (BlackBird)", "TI UltraSparc II  (BlackBird)",
   NULL, NULL, 6, 6, 248, NONE, NONE, NONE, NONE, 1},
  {"vbox-win", "x86_64", "x86:GenuineIntel:family=6:model=58:stepping=9",
   "Intel(R) Core(TM) i5-3317U CPU @ 1.70GHz", "Ivy Bridge", NULL,
   2, 2, 1700, 3800, 32 * K, 6144 * K, NONE, 1},
  {"vmware_fpe", "x86_64", "x86:AuthenticAMD:family=21:model=2:stepping=0",
   "AMD Opteron(tm) Processor 6328", "Piledriver", NULL,
   16, 8, NONE, 3200, 16 * K, 2048 * K, 6144 * K, 1},
  {"x86_64-64cpu-linux6.2", "x86_64", "x86:GenuineIntel:family=6:model=140:stepping=1",
   "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", "Willow Cove", NULL,
   8, 4, 2800, 4700, 48 * K, 1280 * K, 12288 * K, 1},
  {"x86_64-64cpu", "x86_64", "x86:GenuineIntel:family=6:model=46:stepping=6",
   "Intel(R) Xeon(R) CPU           X7550  @ 2.00GHz", "Nehalem", NULL,
   64, 32, 2000, 1996, 32 * K, 256 * K, 18432 * K, 1},
  {"x86_64-dell_e4310", "x86_64", "x86:GenuineIntel:family=6:model=37:stepping=5",
   "Intel(R) Core(TM) i5 CPU       M 560  @ 2.67GHz", "Westmere", NULL,
   4, 2, 2670, 2667, 32 * K, 256 * K, 3072 * K, 1},
  {"x86_64-epyc_7451", "x86_64", "x86:AuthenticAMD:family=23:model=1:stepping=2",
   "AMD EPYC 7451 24-Core Processor", "Zen", NULL,
   96, 48, NONE, 2300, 32 * K, 512 * K, 8192 * K, 1},
  {"x86_64-kvm-epyc-zen3-2vcpu", "x86_64", "x86:AuthenticAMD:family=25:model=1:stepping=1",
   "AMD EPYC", "Zen 3", "unknown", 2, 2, NONE, NONE, 32 * K, 512 * K, 32768 * K, 1},
};

static int
run (char *const argv[])
{
  pid_t pid = fork ();
  int status;

  if (pid < 0)
    return -1;
  if (pid == 0)
    {
      execvp (argv[0], argv);
      _exit (127);
    }
  if (waitpid (pid, &status, 0) < 0)
    return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The one directory under DIR (where a tarball unpacked into). */
static int
find_root (const char *dir, char *root, size_t n)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  int found = 0;

  if (d == NULL)
    return -1;
  while ((e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      {
        snprintf (root, n, "%s/%s", dir, e->d_name);
        found++;
      }
  closedir (d);
  return found == 1 ? 0 : -1;
}

/* The tarball unpacked under TMP; ROOT is its one directory. */
static int
unpack (const char *tarball, const char *tmp, char *root, size_t n)
{
  char *tar[] = { "tar", "-xzf", (char *) tarball, "-C", (char *) tmp,
    "--exclude=*/cpuidle", "--exclude=*/power", "--exclude=*/stats", NULL };

  return run (tar) == 0 ? find_root (tmp, root, n) : -1;
}
static void
check_dump (const struct dump *x, const char *root)
{
  struct sysinfo_options opt = { root, 0 };
  cJSON *s = sysinfo_collect (&opt);
  const char *w = x->file;

  expect_str (w, s, "cpu.arch", x->arch);
  expect_str (w, s, "cpu.identity", x->identity);
  expect_str (w, s, "cpu.name", x->name);
  expect_str (w, s, "cpu.microarchitecture", x->uarch);
  expect_str (w, s, "cpu.hypervisor", x->hypervisor);
  expect_num (w, s, "cores.logical", x->logical);
  expect_num (w, s, "cores.physical", x->physical);
  expect_num (w, s, "cores.usable", x->logical);
  expect_num (w, s, "clock.nominal_mhz", x->nominal_mhz);
  expect_num (w, s, "clock.max_mhz", x->max_mhz);
  expect_bool (w, s, "cpu.emulated", 0);
  expect_num (w, s, "cache.l1d", x->l1d);
  expect_num (w, s, "cache.l2", x->l2);
  expect_num (w, s, "cache.l3", x->l3);
  check (cJSON_GetArraySize (at (s, "cpu.kinds")) == (int) x->kinds,
         "%s: %g core kind(s)", w, x->kinds);
  cJSON_Delete (s);
}

/* Every dump, as unpacked beforehand into DIR/NAME. */
static void
check_unpacked (const char *dir)
{
  size_t i;

  for (i = 0; i < sizeof dumps / sizeof dumps[0]; i++)
    {
      char sub[4608], root[8192];

      snprintf (sub, sizeof sub, "%s/%s", dir, dumps[i].file);
      if (find_root (sub, root, sizeof root) != 0)
        check (0, "%s: one unpacked directory in %s", dumps[i].file, sub);
      else
        check_dump (&dumps[i], root);
    }
}

/* Every dump, unpacked from the tarballs of DIR into a temporary
 * directory, which is removed afterwards. */
static void
check_tarballs (const char *dir)
{
  char tmp[256];
  size_t i;

  /* Thousands of small files: unpack them into memory where we can. */
  snprintf (tmp, sizeof tmp, "%s/gb-sysinfo-dumps.XXXXXX",
            access ("/dev/shm", W_OK) == 0 ? "/dev/shm"
            : getenv ("TMPDIR") ? getenv ("TMPDIR") : "/tmp");
  if (mkdtemp (tmp) == NULL)
    {
      check (0, "create a temporary directory");
      return;
    }
  for (i = 0; i < sizeof dumps / sizeof dumps[0]; i++)
    {
      char tarball[8192], sub[512], root[1024];

      snprintf (tarball, sizeof tarball, "%s/%s.tar.gz", dir, dumps[i].file);
      snprintf (sub, sizeof sub, "%s/%zu", tmp, i);
      if (mkdir (sub, 0700) != 0 || unpack (tarball, sub, root, sizeof root) != 0)
        {
          check (0, "%s: unpack %s", dumps[i].file, tarball);
          continue;
        }
      check_dump (&dumps[i], root);
    }
  {
    char *rm[] = { "rm", "-rf", tmp, NULL };
    check (run (rm) == 0, "remove the unpacked dumps");
  }
}

int
main (void)
{
  const char *srcdir = getenv ("SRCDIR"), *unpacked = getenv ("GB_DUMPS_UNPACKED");
  int beforehand = unpacked != NULL && *unpacked != '\0';
  char dir[4096];
  struct stat st;

  if (beforehand)
    snprintf (dir, sizeof dir, "%s", unpacked);
  else
    snprintf (dir, sizeof dir, "%s/../shared/data/cpu-dumps", srcdir ? srcdir : ".");
  if (stat (dir, &st) != 0)
    {
      printf ("SKIP: sysinfo dumps (%s is absent)\n", dir);
      return 0;
    }
  if (beforehand)
    check_unpacked (dir);
  else
    check_tarballs (dir);
  return check_exit_status ();
}
