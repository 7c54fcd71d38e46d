/* linux.c: the Linux reader.  Everything comes from files under a root
 * directory (the live "/" or an extracted snapshot): /proc/cpuinfo for the
 * identity, /sys/devices/system/cpu for the online set, topology, cpufreq
 * and caches, /proc/self/status and the cgroup files for the CPUs this
 * process may use, and /etc/os-release for the distribution.  This file
 * loads the per-CPU facts and writes cores, clock and OS; the identity,
 * core kinds, caches and hypervisor are written by the linux_*.c parts. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_DIR "sys/devices/system/cpu"

static long
cpu_long (const struct si_root *r, int cpu, const char *file)
{
  char rel[256];
  long v;

  snprintf (rel, sizeof rel, CPU_DIR "/cpu%d/%s", cpu, file);
  return si_read_long (r, rel, &v) == 0 ? v : -1;
}

/* The online set: sysfs "online", else the processors /proc/cpuinfo
 * lists, else the cpuN directories that exist. */
static void
load_online (struct si_linux *L)
{
  char *text = si_read (L->r, CPU_DIR "/online");
  int i, n = -1;

  if (text != NULL)
    n = si_cpulist (text, L->online, SI_MAXCPU);
  free (text);
  if (n <= 0)
    {
      n = 0;
      memset (L->online, 0, sizeof L->online);
      for (i = 0; i < L->cpuinfo.nblocks; i++)
        {
          const char *p = si_block_get (&L->cpuinfo.blocks[i], "processor");
          long id = p ? strtol (p, NULL, 10) : -1;
          if (id >= 0 && id < SI_MAXCPU && !L->online[id])
            L->online[id] = 1, n++;
        }
    }
  L->nonline = n;
  L->ncpu = 0;
  for (i = 0; i < SI_MAXCPU; i++)
    if (L->online[i])
      L->ncpu = i + 1;
}

static void
load_cpus (struct si_linux *L)
{
  int i;

  for (i = 0; i < L->ncpu; i++)
    {
      struct si_lcpu *c = &L->cpu[i];
      long v;

      c->pkg = (int) cpu_long (L->r, i, "topology/physical_package_id");
      c->core = (int) cpu_long (L->r, i, "topology/core_id");
      v = cpu_long (L->r, i, "cpufreq/cpuinfo_max_freq");
      c->max_khz = v > 0 ? v : 0;
      v = cpu_long (L->r, i, "cpufreq/base_frequency");
      c->base_khz = v > 0 ? v : 0;
      v = cpu_long (L->r, i, "cpu_capacity");
      c->capacity = v > 0 ? v : 0;
    }
}

/* Physical cores: distinct thread-sibling sets of the online CPUs.  A
 * core_id of -1 says the kernel has no topology (early RISC-V kernels put
 * every hart into one sibling set), so each CPU is then a core. */
static int
count_cores (struct si_linux *L, const char **source)
{
  char **seen = gb_xcalloc ((size_t) L->ncpu, sizeof *seen);
  int i, j, n = 0, missing = 0;

  for (i = 0; i < L->ncpu; i++)
    {
      char rel[256], *s;
      long core_id;

      if (!L->online[i])
        continue;
      snprintf (rel, sizeof rel, CPU_DIR "/cpu%d/topology/core_id", i);
      if (si_read_long (L->r, rel, &core_id) == 0 && core_id == -1)
        {
          missing = 1;
          break;
        }
      snprintf (rel, sizeof rel, CPU_DIR "/cpu%d/topology/thread_siblings_list", i);
      s = si_read (L->r, rel);
      if (s == NULL)
        {
          missing = 1;
          break;
        }
      for (j = 0; j < n && strcmp (seen[j], s) != 0; j++)
        ;
      if (j == n)
        seen[n++] = s;
      else
        free (s);
    }
  for (j = 0; j < n; j++)
    free (seen[j]);
  free (seen);
  if (!missing && n > 0)
    {
      *source = "sysfs topology/thread_siblings_list";
      return n;
    }
  *source = "assumed one thread per core (no topology)";
  return L->nonline;
}

static int
count_packages (struct si_linux *L)
{
  unsigned char seen[SI_MAXCPU];
  int i, n = 0;

  memset (seen, 0, sizeof seen);
  for (i = 0; i < L->ncpu; i++)
    if (L->online[i] && L->cpu[i].pkg >= 0 && L->cpu[i].pkg < SI_MAXCPU
        && !seen[L->cpu[i].pkg])
      seen[L->cpu[i].pkg] = 1, n++;
  return n;
}

/* The CPUs the process may run on, from Cpus_allowed_list. */
static int
affinity_count (struct si_linux *L)
{
  char *text = si_read (L->r, "proc/self/status");
  const char *p;
  unsigned char *set;
  int n = -1;

  if (text == NULL)
    return -1;
  p = strstr (text, "Cpus_allowed_list:");
  if (p != NULL)
    {
      char line[4096];
      size_t len;

      p += strlen ("Cpus_allowed_list:");
      len = strcspn (p, "\n");
      if (len >= sizeof line)
        len = sizeof line - 1;
      memcpy (line, p, len);
      line[len] = '\0';
      set = gb_xmalloc (SI_MAXCPU);
      n = si_cpulist (line + strspn (line, " \t"), set, SI_MAXCPU);
      free (set);
    }
  free (text);
  return n;
}

/* The cgroup path of controller CTRL ("" for the v2 unified one) in
 * /proc/self/cgroup, or NULL. */
static char *
cgroup_path (struct si_linux *L, const char *ctrl)
{
  char *text = si_read (L->r, "proc/self/cgroup"), *line, *save = NULL;
  char *found = NULL;

  if (text == NULL)
    return NULL;
  for (line = strtok_r (text, "\n", &save); line && !found;
       line = strtok_r (NULL, "\n", &save))
    {
      char *c1 = strchr (line, ':'), *c2 = c1 ? strchr (c1 + 1, ':') : NULL;
      char list[256];
      size_t len;

      if (c2 == NULL)
        continue;
      len = (size_t) (c2 - c1 - 1);
      if (len >= sizeof list)
        continue;
      memcpy (list, c1 + 1, len);
      list[len] = '\0';
      if (ctrl[0] == '\0' ? len == 0 : strstr (list, ctrl) != NULL)
        found = gb_xstrdup (c2 + 1);
    }
  free (text);
  return found;
}

/* Quota in CPUs from a cgroup directory, or 0 when unlimited/absent. */
static double
quota_in (struct si_linux *L, const char *dir, int v2)
{
  char rel[8192], *text;
  double q = 0;

  if (v2)
    {
      long long quota, period;
      snprintf (rel, sizeof rel, "%s/cpu.max", dir);
      text = si_read (L->r, rel);
      if (text != NULL && sscanf (text, "%lld %lld", &quota, &period) == 2
          && quota > 0 && period > 0)
        q = (double) quota / (double) period;
      free (text);
    }
  else
    {
      long quota, period;
      snprintf (rel, sizeof rel, "%s/cpu.cfs_quota_us", dir);
      if (si_read_long (L->r, rel, &quota) == 0 && quota > 0)
        {
          snprintf (rel, sizeof rel, "%s/cpu.cfs_period_us", dir);
          if (si_read_long (L->r, rel, &period) == 0 && period > 0)
            q = (double) quota / (double) period;
        }
    }
  return q;
}

/* The smallest quota on the way from the process's cgroup up to the
 * mount point (a container sees its own cgroup at the mount point). */
static double
quota_along (struct si_linux *L, const char *mount, const char *path, int v2)
{
  char dir[4096];
  double best = 0;

  snprintf (dir, sizeof dir, "%s%s", mount, path && strcmp (path, "/") ? path : "");
  for (;;)
    {
      double q = quota_in (L, dir, v2);
      char *slash;

      if (q > 0 && (best == 0 || q < best))
        best = q;
      if (strlen (dir) <= strlen (mount))
        break;
      slash = strrchr (dir, '/');
      if (slash == NULL)
        break;
      *slash = '\0';
    }
  return best;
}

static double
cgroup_quota (struct si_linux *L, const char **source)
{
  char *path = cgroup_path (L, "");
  double q = 0;

  if (path != NULL && si_exists (L->r, "sys/fs/cgroup/cgroup.controllers"))
    {
      q = quota_along (L, "sys/fs/cgroup", path, 1);
      *source = "cgroup v2 cpu.max";
    }
  free (path);
  if (q == 0 && (path = cgroup_path (L, "cpu")) != NULL)
    {
      q = quota_along (L, "sys/fs/cgroup/cpu", path, 0);
      if (q == 0)
        q = quota_along (L, "sys/fs/cgroup/cpu,cpuacct", path, 0);
      *source = "cgroup v1 cpu.cfs_quota_us";
      free (path);
    }
  return q;
}

static void
put_cores (struct si_linux *L)
{
  const char *core_src, *quota_src = NULL;
  int physical = count_cores (L, &core_src);
  int packages = count_packages (L);
  int allowed = affinity_count (L);
  double quota = cgroup_quota (L, &quota_src);
  int usable = L->nonline;
  const char *usable_src = "online CPUs";

  si_put_num (L->cores, DOC_SYS_CORES_LOGICAL, L->nonline,
              si_exists (L->r, CPU_DIR "/online") ? "sysfs cpu/online"
              : "/proc/cpuinfo processors");
  si_put_num (L->cores, DOC_SYS_CORES_PHYSICAL, physical, core_src);
  if (packages > 0)
    si_put_num (L->cores, DOC_SYS_CORES_PACKAGES, packages, "sysfs topology/physical_package_id");
  if (allowed > 0)
    {
      si_put_num (L->cores, DOC_SYS_CORES_AFFINITY, allowed, "/proc/self/status Cpus_allowed_list");
      if (allowed < usable)
        usable = allowed, usable_src = "affinity mask";
    }
  if (quota > 0)
    {
      si_put_num (L->cores, DOC_SYS_CORES_CGROUP_QUOTA, quota, quota_src);
      if ((int) ceil (quota) < usable)
        usable = (int) ceil (quota), usable_src = quota_src;
    }
  si_put_num (L->cores, DOC_SYS_CORES_USABLE, usable, usable_src);
}

/* Copies the cpufreq file FILE of CPU to KEY of the clock section. */
static void
put_cpufreq_str (struct si_linux *L, int cpu, const char *file, const char *key)
{
  char rel[256], src[128], *s;

  snprintf (rel, sizeof rel, CPU_DIR "/cpu%d/cpufreq/%s", cpu, file);
  snprintf (src, sizeof src, "sysfs cpufreq/%s", file);
  if ((s = si_read (L->r, rel)) != NULL)
    si_put_str (L->clock, key, s, src);
  free (s);
}

static void
put_cpufreq (struct si_linux *L)
{
  long max = 0, base = 0, boost;
  int i, first = -1;

  for (i = 0; i < L->ncpu; i++)
    if (L->online[i])
      {
        if (first < 0)
          first = i;
        if (L->cpu[i].max_khz > max)
          max = L->cpu[i].max_khz;
        if (L->cpu[i].base_khz > base)
          base = L->cpu[i].base_khz;
      }
  if (base > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, base / 1000.0, "sysfs cpufreq/base_frequency");
  else
    si_put_absent (L->clock, DOC_SYS_CLOCK_NOMINAL_MHZ, "no sysfs cpufreq/base_frequency");
  if (max > 0)
    si_put_num (L->clock, DOC_SYS_CLOCK_MAX_MHZ, max / 1000.0, "sysfs cpufreq/cpuinfo_max_freq");
  else
    si_put_absent (L->clock, DOC_SYS_CLOCK_MAX_MHZ, "no sysfs cpufreq/cpuinfo_max_freq");
  if (first >= 0)
    {
      put_cpufreq_str (L, first, "scaling_driver", DOC_SYS_CLOCK_SCALING_DRIVER);
      put_cpufreq_str (L, first, "scaling_governor", DOC_SYS_CLOCK_GOVERNOR);
    }
  if (si_read_long (L->r, CPU_DIR "/cpufreq/boost", &boost) == 0)
    si_put_bool (L->clock, DOC_SYS_CLOCK_BOOST, boost != 0, "sysfs cpufreq/boost");
  else if (si_read_long (L->r, CPU_DIR "/intel_pstate/no_turbo", &boost) == 0)
    si_put_bool (L->clock, DOC_SYS_CLOCK_BOOST, boost == 0, "sysfs intel_pstate/no_turbo");
}

/* One value of os-release: KEY=VALUE with optional quotes. */
static char *
os_release_get (const char *text, const char *key)
{
  size_t klen = strlen (key);
  const char *p = text;

  while (p != NULL && *p != '\0')
    {
      if (strncmp (p, key, klen) == 0 && p[klen] == '=')
        {
          const char *v = p + klen + 1;
          size_t len = strcspn (v, "\n");
          char *out;

          if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0])
            v++, len -= 2;
          out = gb_xmalloc (len + 1);
          memcpy (out, v, len);
          out[len] = '\0';
          return out;
        }
      p = strchr (p, '\n');
      if (p != NULL)
        p++;
    }
  return NULL;
}

static void
put_os (struct si_linux *L)
{
  cJSON *os = si_section (L->system, DOC_SYS_OS);
  const char *src = "/etc/os-release";
  char *text = si_read (L->r, "etc/os-release"), *v;

  if (text == NULL)
    {
      text = si_read (L->r, "usr/lib/os-release");
      src = "/usr/lib/os-release";
    }
  si_put_str (os, DOC_SYS_OS_FAMILY, "Linux", "/proc");
  if (text != NULL)
    {
      v = os_release_get (text, "NAME");
      si_put_str (os, DOC_SYS_OS_NAME, v ? v : "Linux", src);
      free (v);
      v = os_release_get (text, "VERSION_ID");
      if (v == NULL)
        v = os_release_get (text, "BUILD_ID");
      si_put_str (os, DOC_SYS_OS_VERSION, v, src);
      free (v);
      v = os_release_get (text, "PRETTY_NAME");
      si_put_str (os, DOC_SYS_OS_PRETTY_NAME, v, src);
      free (v);
      free (text);
    }
  else
    {
      si_put_str (os, DOC_SYS_OS_NAME, "Linux", "default");
      si_put_null (os, DOC_SYS_OS_VERSION);
    }
  if (!si_has (os, DOC_SYS_OS_KERNEL))
    {
      v = si_read (L->r, "proc/sys/kernel/osrelease");
      si_put_str (os, DOC_SYS_OS_KERNEL, v, "/proc/sys/kernel/osrelease");
      free (v);
    }
}

void
si_linux_os (cJSON *system, const struct si_root *r)
{
  struct si_linux L = { .r = r, .system = system };
  put_os (&L);
}

void
si_linux_collect (cJSON *system, const struct si_root *r)
{
  struct si_linux *L = gb_xcalloc (1, sizeof *L);
  char *text;

  L->r = r;
  L->system = system;
  L->cpusec = si_section (system, DOC_SYS_CPU);
  L->cores = si_section (system, DOC_SYS_CORES);
  L->clock = si_section (system, DOC_SYS_CLOCK);
  text = si_read (r, "proc/cpuinfo");
  if (text != NULL)
    si_kvfile_parse (text, &L->cpuinfo);
  free (text);
  load_online (L);
  load_cpus (L);
  si_linux_arch (L);
  put_cores (L);
  put_cpufreq (L);
  si_linux_identity (L);
  si_linux_kinds (L);
  si_linux_caches (L);
  si_linux_hypervisor (L);
  si_linux_machine (L);
  put_os (L);
  si_kvfile_free (&L->cpuinfo);
  free (L);
}
