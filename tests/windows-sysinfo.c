/* windows-sysinfo.c: the live readers of a Windows build, without the rest
 * of gmpbench, printed as the JSON of the "system" object.  Debian has no
 * MinGW GMP or OpenSSL, so sysinfo_collect (whose build section needs
 * them) cannot be linked; this program runs the same readers in the same
 * order as collect.c does on Windows: sysinfo/windows.c, then the Arm and
 * CPUID readers and os.c.  tests/cross/check-cross.sh builds it with
 * MinGW-w64 and a cJSON compiled from Debian's source package, runs it
 * under Wine and checks what it printed. */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>

/* common/util.c needs OpenSSL; rootfs.c (for os.c) needs only these. */
void *
gb_xmalloc (size_t n)
{
  return gb_xrealloc (NULL, n);
}

void *
gb_xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n != 0 ? n : 1);

  if (q == NULL)
    {
      fprintf (stderr, "windows-sysinfo: out of memory\n");
      abort ();
    }
  return q;
}

int
main (void)
{
  cJSON *system = cJSON_CreateObject ();
  char *text;

  si_windows_collect (system);
  si_arm_live_collect (system);
  si_x86_cpuid_collect (system);
  si_os_collect (system);
  text = cJSON_Print (system);
  if (text == NULL)
    return 1;
  puts (text);
  free (text);
  cJSON_Delete (system);
  return 0;
}
