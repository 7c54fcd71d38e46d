/* gmp_build.c: what kind of GMP build the loaded library is, learnt from
 * the library itself rather than from the gmp.h gmpbench was compiled
 * against (whose __GMP_CFLAGS describe another build when the program runs
 * with another libgmp).
 *
 *   fat           the library carries GMP's CPU dispatch table
 *                 (__gmpn_cpuvec, which only --enable-fat builds define):
 *                 it picks its code for the CPU at run time;
 *   distribution  otherwise, a library in the system's own library
 *                 directories (/lib, /usr/lib, their 64 variants): what the
 *                 distribution's package installed, built for any CPU of
 *                 the architecture;
 *   native        otherwise, on x86-64, a library whose loaded code uses
 *                 mulx or adcx/adox (BMI2, ADX): built for a CPU that has
 *                 them, as GMP's configure does for the build machine;
 *   unknown       anything else.
 *
 * The x86-64 instruction counts (system.build.gmp.code) come from the
 * executable segments of the loaded libgmp, scanned for the encodings of
 * mulx (VEX F2 0F38 F6) and adcx/adox (66/F3 0F 38 F6).  A byte scan
 * counts some data by chance: about one match per 2 MB for mulx, so
 * NATIVE_MIN_INSNS matches are asked for (Debian's libgmp 6.2.1: 0; GMP
 * 6.2.1 built for Zen 3: about 300). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/internal.h"

#include <string.h>
#if defined(__linux__) || defined(__FreeBSD__)
#include <dlfcn.h>
#include <link.h>
#endif

#define NATIVE_MIN_INSNS 16

struct gmp_code
{
  int found;
  unsigned long mulx, adx;
};

#if defined(__x86_64__) && (defined(__linux__) || defined(__FreeBSD__))
/* Counts mulx and adcx/adox encodings in the N bytes at P into C. */
static void
scan_code (const unsigned char *p, size_t n, struct gmp_code *c)
{
  for (size_t i = 0; i + 4 <= n; i++)
    {
      if (p[i] == 0xc4 && (p[i + 1] & 0x1f) == 0x02 && (p[i + 2] & 0x87) == 0x83
          && p[i + 3] == 0xf6)
        c->mulx++;
      else if ((p[i] == 0x66 || p[i] == 0xf3) && p[i + 1] == 0x0f && p[i + 2] == 0x38
               && p[i + 3] == 0xf6)
        c->adx++;
    }
}
#endif

/* Whether PATH lies in one of the system's own library directories. */
static int
system_library (const char *path)
{
  static const char *const dirs[] = { "/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/" };
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    if (strncmp (path, dirs[i], strlen (dirs[i])) == 0)
      return 1;
  return 0;
}

#if defined(__linux__) || defined(__FreeBSD__)
static int
scan_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct gmp_code *c = data;
  const char *base = strrchr (info->dlpi_name, '/');
  (void) size;
  if (strncmp (base ? base + 1 : info->dlpi_name, "libgmp.", 7) != 0)
    return 0;
  c->found = 1;
#if defined(__x86_64__)
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
        scan_code ((const unsigned char *) (info->dlpi_addr + ph->p_vaddr), ph->p_filesz, c);
    }
#endif
  return 1;
}
#endif

void
si_gmp_build (cJSON *gmp, const char *library_path)
{
  struct gmp_code c = { 0, 0, 0 };
  const char *kind = "unknown", *how = "nothing known of this build";
#if defined(__linux__) || defined(__FreeBSD__)
  dl_iterate_phdr (scan_cb, &c);
  int fat = dlsym (RTLD_DEFAULT, "__gmpn_cpuvec") != NULL;
#else
  int fat = 0;
#endif
#if defined(__x86_64__) && (defined(__linux__) || defined(__FreeBSD__))
  if (c.found)
    {
      cJSON *code = cJSON_CreateObject ();
      si_put_num (code, DOC_SYS_CODE_MULX, (double) c.mulx,
                  "executable segments of the loaded libgmp");
      si_put_num (code, DOC_SYS_CODE_ADCX_ADOX, (double) c.adx,
                  "executable segments of the loaded libgmp");
      si_put_item (gmp, DOC_SYS_GMP_CODE, code, NULL);
    }
#endif
  if (fat)
    kind = "fat", how = "__gmpn_cpuvec defined";
  else if (library_path && library_path[0] && system_library (library_path))
    kind = "distribution", how = "library in a system directory";
  else if (c.mulx + c.adx >= NATIVE_MIN_INSNS)
    kind = "native", how = "loaded code uses mulx/adcx/adox";
  si_put_str (gmp, DOC_SYS_GMP_BUILD, kind, how);
}
