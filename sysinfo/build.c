/* build.c: the provenance of this gmpbench build, because a score depends
 * on the code as much as on the machine.  Recorded: the compiler as its
 * own predefined macros identify it (clang is tested before GCC, which it
 * imitates), the flags configure injected (build_config.h), the ISA macros
 * in effect, the GMP headers against the GMP library actually loaded
 * (version mismatch flagged, path and SHA-256 of the shared object, found
 * with dl_iterate_phdr or, on macOS, dladdr, on Windows
 * GetModuleHandleEx), the OpenSSL build and the CPU capability vector it
 * uses, and the SHA-256 of the executable (/proc/self/exe,
 * _NSGetExecutablePath, sysctl kern.proc.pathname, GetModuleFileName).
 * Home directories ($HOME, /home/USER, /Users/USER, C:\Users\USER) in
 * paths and flags are shown as "~" so that no user name leaks into a
 * signed result. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/internal.h"
#include "common/util.h"
#include "build_config.h"

#include <gmp.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__) || defined(__FreeBSD__)
#include <dlfcn.h>
#include <link.h>
#endif
#if defined(__APPLE__)
#include <dlfcn.h>
#include <mach-o/dyld.h>
#include <stdint.h>
#elif defined(__FreeBSD__)
#include <sys/types.h>
#include <sys/sysctl.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

#define STR2(x) #x
#define STR(x) STR2 (x)

static cJSON *
compiler (void)
{
  cJSON *c = cJSON_CreateObject ();
  const char *name, *version;

#if defined(__clang__)
  name = "clang";
  version = STR (__clang_major__) "." STR (__clang_minor__) "." STR (__clang_patchlevel__);
#if defined(__apple_build_version__)
  name = "apple-clang";
#endif
#elif defined(__GNUC__)
  name = "gcc";
  version = STR (__GNUC__) "." STR (__GNUC_MINOR__) "." STR (__GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
  name = "msvc";
  version = STR (_MSC_FULL_VER);
#else
  name = "unknown";
  version = "unknown";
#endif
  si_put_str (c, DOC_SYS_COMPILER_NAME, name, NULL);
  si_put_str (c, DOC_SYS_COMPILER_VERSION, version, NULL);
#if defined(__VERSION__)
  si_put_str (c, DOC_SYS_COMPILER_BANNER, __VERSION__, NULL);
#endif
#if defined(__MINGW64_VERSION_MAJOR)
  si_put_str (c, DOC_SYS_COMPILER_RUNTIME, "mingw-w64 " STR (__MINGW64_VERSION_MAJOR) "."
              STR (__MINGW64_VERSION_MINOR), NULL);
#endif
  return c;
}

/* The instruction-set macros the compiler had in effect. */
static cJSON *
isa_macros (void)
{
  static const char *const on[] = {
#if defined(__SSE4_2__)
    "__SSE4_2__",
#endif
#if defined(__AVX__)
    "__AVX__",
#endif
#if defined(__AVX2__)
    "__AVX2__",
#endif
#if defined(__BMI2__)
    "__BMI2__",
#endif
#if defined(__ADX__)
    "__ADX__",
#endif
#if defined(__AVX512F__)
    "__AVX512F__",
#endif
#if defined(__SHA__)
    "__SHA__",
#endif
#if defined(__ARM_NEON)
    "__ARM_NEON",
#endif
#if defined(__ARM_FEATURE_SVE)
    "__ARM_FEATURE_SVE",
#endif
#if defined(__ARM_FEATURE_SVE2)
    "__ARM_FEATURE_SVE2",
#endif
#if defined(__ARM_FEATURE_CRYPTO)
    "__ARM_FEATURE_CRYPTO",
#endif
#if defined(__riscv_vector)
    "__riscv_vector",
#endif
#if defined(__riscv_zbb)
    "__riscv_zbb",
#endif
#if defined(__VSX__)
    "__VSX__",
#endif
#if defined(__ALTIVEC__)
    "__ALTIVEC__",
#endif
#if defined(__VX__)
    "__VX__",
#endif
    NULL
  };
  cJSON *arr = cJSON_CreateArray ();
  size_t i;

  for (i = 0; on[i] != NULL; i++)
    cJSON_AddItemToArray (arr, cJSON_CreateString (on[i]));
  return arr;
}

/* Whether C ends a path component. */
static int
ends_component (char c)
{
  return c == '\0' || strchr ("/\\ \t\"':;,=", c) != NULL;
}

/* The length of the home directory that S starts with: $HOME,
 * /home/USER, /usr/home/USER, /Users/USER or C:\Users\USER; 0 if none. */
static size_t
home_at (const char *s, const char *home)
{
  static const char *const roots[] = { "/usr/home/", "/home/", "/Users/" };
  size_t hl = home ? strlen (home) : 0, n, i;

  if (hl > 1 && strncmp (s, home, hl) == 0 && ends_component (s[hl]))
    return hl;
  for (i = 0; i < GB_ARRAY_SIZE (roots); i++)
    {
      n = strlen (roots[i]);
      if (strncmp (s, roots[i], n) == 0 && !ends_component (s[n]))
        break;
    }
  if (i == GB_ARRAY_SIZE (roots))
    {
      if (!(((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z') && s[1] == ':'
            && (s[2] == '\\' || s[2] == '/') && strncmp (s + 3, "Users", 5) == 0
            && s[8] == s[2] && !ends_component (s[9])))
        return 0;
      n = 9;
    }
  while (!ends_component (s[n]))
    n++;
  return n;
}

char *
si_public_text (const char *text, const char *home)
{
  char *out = gb_xmalloc (strlen (text) + 1), *o = out;
  size_t n;

  while (*text != '\0')
    if ((n = home_at (text, home)) > 0)
      {
        *o++ = '~';
        text += n;
      }
    else
      *o++ = *text++;
  *o = '\0';
  return out;
}

/* Sets KEY of SEC to VAL with home directories hidden. */
static void
put_public (cJSON *sec, const char *key, const char *val, const char *source)
{
  char *shown = si_public_text (val, getenv ("HOME"));

  si_put_str (sec, key, shown, source);
  free (shown);
}

#if defined(__linux__) || defined(__FreeBSD__) || defined(__APPLE__)
/* Whether the file name of PATH starts with STEM. */
static int
has_stem (const char *path, const char *stem)
{
  const char *base = strrchr (path, '/');

  return strncmp (base ? base + 1 : path, stem, strlen (stem)) == 0;
}
#endif

#if defined(__linux__) || defined(__FreeBSD__)
struct find_lib
{
  const char *stem;
  char *path;
  size_t n;
};

static int
find_lib_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct find_lib *f = data;

  (void) size;
  if (!has_stem (info->dlpi_name, f->stem))
    return 0;
  snprintf (f->path, f->n, "%s", info->dlpi_name);
  return 1;
}
#endif

/* Puts into PATH the file of the loaded shared object whose name starts
 * with STEM ("libgmp."), "" when there is none (static linkage); SYMBOL
 * is one of its functions, for systems without dl_iterate_phdr.  Returns
 * how it looked, or NULL when this OS has no way to tell. */
static const char *
find_library (const char *stem, const void *symbol, char *path, size_t n)
{
#if defined(__linux__) || defined(__FreeBSD__)
  struct find_lib f = { stem, path, n };

  (void) symbol;
  path[0] = '\0';
  dl_iterate_phdr (find_lib_cb, &f);
  return "dl_iterate_phdr";
#elif defined(__APPLE__)
  Dl_info info;

  path[0] = '\0';
  if (dladdr (symbol, &info) != 0 && info.dli_fname != NULL && has_stem (info.dli_fname, stem))
    snprintf (path, n, "%s", info.dli_fname);
  return "dladdr";
#elif defined(_WIN32)
  /* The module holding SYMBOL: the executable itself when linked static. */
  HMODULE mod;

  (void) stem;
  path[0] = '\0';
  if (!GetModuleHandleExA (GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS
                           | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, symbol, &mod))
    return NULL;
  if (mod != GetModuleHandleA (NULL)
      && GetModuleFileNameA (mod, path, n > MAXDWORD ? MAXDWORD : (DWORD) n) == 0)
    path[0] = '\0';
  return "GetModuleHandleEx";
#else
  (void) stem, (void) symbol, (void) path, (void) n;
  return NULL;
#endif
}

/* Adds "library" {path, sha256} for the loaded shared object whose file
 * name starts with STEM and which holds SYMBOL; "linkage" when there is
 * none or this OS cannot tell. */
static void
put_library (cJSON *sec, const char *stem, const void *symbol)
{
  cJSON *lib = cJSON_CreateObject ();
  char path[4096], hex[65];
  const char *how = find_library (stem, symbol, path, sizeof path);

  if (how == NULL)
    si_put_str (lib, DOC_SYS_LIBRARY_LINKAGE, "unknown on this OS", NULL);
  else if (path[0] == '\0')
    si_put_str (lib, DOC_SYS_LIBRARY_LINKAGE, "static or not found", how);
  else
    {
      put_public (lib, DOC_SYS_LIBRARY_PATH, path, how);
      if (gb_sha256_file (path, hex) == 0)
        si_put_str (lib, DOC_SYS_LIBRARY_SHA256, hex, "file contents");
    }
  si_put_item (sec, DOC_SYS_LIBRARY, lib, NULL);
}

#if defined(__linux__) || defined(__FreeBSD__) || defined(__APPLE__)
/* The GMP functions the tests time, as this program calls them: their
 * addresses are what the dynamic linker bound, interposers included. */
static const struct si_entry_point timed_entry_points[] = {
  { "__gmpz_mul", (const void *) __gmpz_mul },
  { "__gmpz_tdiv_q", (const void *) __gmpz_tdiv_q },
  { "__gmpz_gcd", (const void *) __gmpz_gcd },
  { "__gmpz_gcdext", (const void *) __gmpz_gcdext },
  { "__gmpz_powm", (const void *) __gmpz_powm },
  { "__gmpz_powm_sec", (const void *) __gmpz_powm_sec },
  { "__gmpz_sqrt", (const void *) __gmpz_sqrt },
  { "__gmpz_invert", (const void *) __gmpz_invert },
  { "__gmpz_fac_ui", (const void *) __gmpz_fac_ui },
  { "__gmpz_probab_prime_p", (const void *) __gmpz_probab_prime_p },
  { "__gmpn_mul", (const void *) __gmpn_mul },
  { "__gmpn_mul_n", (const void *) __gmpn_mul_n },
  { "__gmpn_sqr", (const void *) __gmpn_sqr },
};

/* Adds "entry_points": "interposed" when any timed function resolves
 * (dladdr) outside LIBGMP, the loaded libgmp file (an LD_PRELOAD, a
 * wrapper library), or lies, or its slots in the executable point, outside
 * the libgmp's code as /proc/self/maps shows it (entry_maps.c: a library
 * that also wraps dladdr); "foreign", those functions with the file they
 * resolve into, by dladdr and by the mappings. */
static void
put_entry_points (cJSON *sec, const char *libgmp)
{
  cJSON *e = cJSON_CreateObject ();
  cJSON *foreign = cJSON_CreateArray ();
  for (size_t i = 0; i < GB_ARRAY_SIZE (timed_entry_points); i++)
    {
      Dl_info at;
      const char *file = dladdr (timed_entry_points[i].address, &at) && at.dli_fname
        ? at.dli_fname : "";
      if (libgmp[0] == '\0' || strcmp (file, libgmp) != 0)
        {
          char line[4200];
          snprintf (line, sizeof line, "%s: %s", timed_entry_points[i].name,
                    file[0] ? file : "(no object)");
          char *shown = si_public_text (line, getenv ("HOME"));
          cJSON_AddItemToArray (foreign, cJSON_CreateString (shown));
          free (shown);
        }
    }
  int by_dladdr = cJSON_GetArraySize (foreign) > 0 && libgmp[0] != '\0';
  int by_maps = si_entry_points_maps (foreign, libgmp, timed_entry_points,
                                      GB_ARRAY_SIZE (timed_entry_points));
  si_put_bool (e, DOC_SYS_ENTRY_POINTS_INTERPOSED, by_dladdr || by_maps > 0, by_maps < 0
               ? "dladdr on the timed functions against the libgmp file"
               : "dladdr, and /proc/self/maps on the timed functions and the executable's "
               "slots bound to them, against the libgmp file");
  si_put_item (e, DOC_SYS_ENTRY_POINTS_FOREIGN, foreign,
               by_maps < 0 ? "dladdr" : "dladdr, /proc/self/maps");
  si_put_item (sec, DOC_SYS_GMP_ENTRY_POINTS, e, NULL);
}
#endif

/* Only a GMP built with --enable-fat has this: it picks the code for the
 * CPU at start-up.  Weak, so that it is NULL in any other GMP. */
extern void __gmpn_cpuvec_init (void) __attribute__ ((weak));

static cJSON *
gmp_info (void)
{
  cJSON *g = cJSON_CreateObject ();
  char header[64];

  snprintf (header, sizeof header, "%d.%d.%d", __GNU_MP_VERSION,
            __GNU_MP_VERSION_MINOR, __GNU_MP_VERSION_PATCHLEVEL);
  si_put_str (g, DOC_SYS_GMP_VERSION, gmp_version, "gmp_version");
  si_put_str (g, DOC_SYS_GMP_HEADER_VERSION, header, "gmp.h");
  si_put_bool (g, DOC_SYS_GMP_VERSION_MISMATCH, strcmp (header, gmp_version) != 0,
               "gmp.h against gmp_version");
  put_public (g, DOC_SYS_GMP_CC, __GMP_CC, "gmp.h __GMP_CC");
  put_public (g, DOC_SYS_GMP_CFLAGS, __GMP_CFLAGS, "gmp.h __GMP_CFLAGS");
  si_put_num (g, DOC_SYS_GMP_LIMB_BITS, mp_bits_per_limb, "mp_bits_per_limb");
  si_put_num (g, DOC_SYS_GMP_HEADER_LIMB_BITS, GMP_LIMB_BITS, "gmp.h GMP_LIMB_BITS");
  si_put_bool (g, DOC_SYS_GMP_FAT, __gmpn_cpuvec_init != NULL, "__gmpn_cpuvec_init linked");
  put_library (g, "libgmp.", (const void *) __gmpz_init);
#if defined(__linux__) || defined(__FreeBSD__) || defined(__APPLE__)
  char libgmp[4096];
  find_library ("libgmp.", (const void *) __gmpz_init, libgmp, sizeof libgmp);
  put_entry_points (g, libgmp);
  si_gmp_build (g, libgmp);
#else
  si_gmp_build (g, NULL);
#endif
  return g;
}

static cJSON *
openssl_info (void)
{
  cJSON *o = cJSON_CreateObject ();
  const char *cflags = OpenSSL_version (OPENSSL_CFLAGS);
  const char *platform = OpenSSL_version (OPENSSL_PLATFORM);

  if (strncmp (cflags, "compiler: ", 10) == 0)
    cflags += 10;
  if (strncmp (platform, "platform: ", 10) == 0)
    platform += 10;
  si_put_str (o, DOC_SYS_OPENSSL_VERSION, OpenSSL_version (OPENSSL_VERSION), "OpenSSL_version");
  si_put_str (o, DOC_SYS_OPENSSL_HEADER_VERSION, OPENSSL_VERSION_TEXT, "opensslv.h");
  put_public (o, DOC_SYS_OPENSSL_CFLAGS, cflags, "OpenSSL_version (OPENSSL_CFLAGS)");
  si_put_str (o, DOC_SYS_OPENSSL_PLATFORM, platform, "OpenSSL_version (OPENSSL_PLATFORM)");
  si_put_str (o, DOC_SYS_OPENSSL_CPU_SETTINGS, OPENSSL_info (OPENSSL_INFO_CPU_SETTINGS),
              "OPENSSL_info (OPENSSL_INFO_CPU_SETTINGS)");
  put_library (o, "libcrypto.", (const void *) OpenSSL_version);
  return o;
}

/* Puts the file of the running executable into PATH; returns where it
 * was found, or NULL. */
static const char *
executable_path (char *path, size_t n)
{
#if defined(__linux__)
  snprintf (path, n, "/proc/self/exe");
  return "/proc/self/exe";
#elif defined(__APPLE__)
  uint32_t size = n > UINT32_MAX ? UINT32_MAX : (uint32_t) n;

  return _NSGetExecutablePath (path, &size) == 0 ? "_NSGetExecutablePath" : NULL;
#elif defined(__FreeBSD__)
  int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1 };
  size_t len = n;

  return sysctl (mib, 4, path, &len, NULL, 0) == 0 ? "sysctl kern.proc.pathname" : NULL;
#elif defined(_WIN32)
  DWORD got = GetModuleFileNameA (NULL, path, n > MAXDWORD ? MAXDWORD : (DWORD) n);

  return got > 0 && got < n ? "GetModuleFileName" : NULL;
#else
  (void) path, (void) n;
  return NULL;
#endif
}

static void
put_executable (cJSON *b)
{
  char path[4096], hex[65];
  const char *how = executable_path (path, sizeof path);

  if (how != NULL && gb_sha256_file (path, hex) == 0)
    si_put_str (b, DOC_SYS_BUILD_EXECUTABLE_SHA256, hex, how);
  else
    si_put_null (b, DOC_SYS_BUILD_EXECUTABLE_SHA256);
}

cJSON *
si_build_collect (void)
{
  cJSON *b = cJSON_CreateObject ();
  cJSON *cfg = cJSON_CreateObject ();

  si_put_str (b, DOC_SYS_BUILD_GMPBENCH_VERSION, GB_VERSION, "configure");
  si_put_str (b, DOC_SYS_BUILD_ARCH, si_built_arch (), "predefined macros");
  si_put_item (b, DOC_SYS_BUILD_COMPILER, compiler (), "predefined macros");
  put_public (cfg, DOC_SYS_CONFIGURE_CC, GB_BUILD_CC, NULL);
  put_public (cfg, DOC_SYS_CONFIGURE_CFLAGS, GB_BUILD_CFLAGS, NULL);
  put_public (cfg, DOC_SYS_CONFIGURE_CPPFLAGS, GB_BUILD_CPPFLAGS, NULL);
  put_public (cfg, DOC_SYS_CONFIGURE_LDFLAGS, GB_BUILD_LDFLAGS, NULL);
  put_public (cfg, DOC_SYS_CONFIGURE_LIBS, GB_BUILD_LIBS, NULL);
  si_put_str (cfg, DOC_SYS_CONFIGURE_HOST, GB_BUILD_HOST, NULL);
  si_put_item (b, DOC_SYS_BUILD_CONFIGURE, cfg, "build_config.h");
  si_put_item (b, DOC_SYS_BUILD_ISA_MACROS, isa_macros (), "predefined macros");
  si_put_item (b, DOC_SYS_BUILD_GMP, gmp_info (), NULL);
  si_put_item (b, DOC_SYS_BUILD_OPENSSL, openssl_info (), NULL);
  put_executable (b);
  return b;
}
