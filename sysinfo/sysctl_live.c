/* sysctl_live.c: the real sysctl provider for macOS and FreeBSD, built
 * only there (see sysinfo/sources.mk).  It answers the parsing code of
 * bsd_sysctl.c through sysctlbyname, and on FreeBSD adds the CPUs this
 * process may use from its cpuset. */
#include "sysinfo/internal.h"

#include <string.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#if defined(__FreeBSD__)
#include <sys/param.h>
#include <sys/cpuset.h>
#endif

static int
live_str (void *ctx, const char *name, char *buf, size_t len)
{
  size_t n = len;

  (void) ctx;
  if (sysctlbyname (name, buf, &n, NULL, 0) != 0 || n == 0)
    return -1;
  buf[n < len ? n : len - 1] = '\0';
  return 0;
}

/* Integer sysctls come in 4 and 8 byte sizes. */
static int
live_i64 (void *ctx, const char *name, long long *out)
{
  unsigned char buf[8];
  size_t n = sizeof buf;

  (void) ctx;
  if (sysctlbyname (name, buf, &n, NULL, 0) != 0)
    return -1;
  if (n == sizeof (int))
    {
      int v;
      memcpy (&v, buf, sizeof v);
      *out = v;
    }
  else if (n == sizeof (long long))
    memcpy (out, buf, sizeof *out);
  else
    return -1;
  return 0;
}

#if defined(__FreeBSD__)
static void
put_affinity (cJSON *system)
{
  cpuset_t mask;
  cJSON *cores = si_section (system, DOC_SYS_CORES);

  if (cpuset_getaffinity (CPU_LEVEL_WHICH, CPU_WHICH_PID, -1, sizeof mask, &mask) == 0)
    {
      int n = CPU_COUNT (&mask);
      si_put_num (cores, DOC_SYS_CORES_AFFINITY, n, "cpuset_getaffinity");
      si_put_num (cores, DOC_SYS_CORES_USABLE, n, "cpuset_getaffinity");
    }
}
#endif

void
si_sysctl_collect (cJSON *system)
{
  struct si_sysctl s = { live_str, live_i64, NULL };

#if defined(__APPLE__)
  si_darwin_from_sysctl (system, &s);
#else
  si_freebsd_from_sysctl (system, &s);
  put_affinity (system);
#endif
}
