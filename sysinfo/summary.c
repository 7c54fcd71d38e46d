/* summary.c: the few lines that open the text output of `gmpbench run`
 * and `gmpbench sysinfo`: what the CPU is (and the machine it is in), how
 * fast it measured, how many cores, which OS, and which GMP and OpenSSL
 * builds ran.  It reads only
 * the "system" object, so it works on a stored result as well. */
#include "sysinfo/sysinfo.h"
#include "sysinfo/internal.h"

#include <string.h>

static const cJSON *
sub (const cJSON *o, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive (o, key);
}

static const char *
str_or (const cJSON *o, const char *key, const char *fallback)
{
  const char *s = si_get_str (o, key);
  return s ? s : fallback;
}

static void
print_mhz (FILE *out, const char *label, const cJSON *o, const char *key)
{
  double v = si_get_num (o, key, 0);
  if (v > 0)
    fprintf (out, ", %s %.0f MHz", label, v);
}

static void
print_cpu (FILE *out, const cJSON *cpu, const cJSON *machine)
{
  const char *model = si_get_str (machine, DOC_SYS_MACHINE_MODEL);
  const char *soc = si_get_str (machine, DOC_SYS_MACHINE_SOC);
  const char *uarch = si_get_str (cpu, DOC_SYS_CPU_MICROARCHITECTURE);
  const char *hv = si_get_str (cpu, DOC_SYS_CPU_HYPERVISOR);

  fprintf (out, "CPU:     %s [%s]", str_or (cpu, DOC_SYS_CPU_NAME, "unknown"),
           str_or (cpu, DOC_SYS_CPU_IDENTITY, "no identity"));
  if (uarch != NULL)
    fprintf (out, ", %s", uarch);
  if (hv != NULL)
    fprintf (out, ", hypervisor %s", hv);
  if (cJSON_IsTrue (sub (cpu, DOC_SYS_CPU_EMULATED)))
    fprintf (out, ", EMULATED (%s)", str_or (cpu, DOC_SYS_CPU_EMULATOR, "?"));
  if (model != NULL)
    fprintf (out, ", in %s", model);
  if (soc != NULL)
    fprintf (out, " (SoC %s)", soc);
  fputc ('\n', out);
}

static void
print_clock (FILE *out, const cJSON *clock)
{
  const cJSON *m = sub (clock, DOC_SYS_CLOCK_MEASURED);

  const char *why = si_get_str (m, DOC_SYS_MEASURED_REASON);

  fprintf (out, "Clock:  ");
  if (!cJSON_IsObject (m))
    fprintf (out, " not measured");
  else if (!cJSON_IsNumber (sub (m, DOC_SYS_MEASURED_MHZ)))
    fprintf (out, " not measured (%s)", why ? why : "no reason given");
  else if (cJSON_IsTrue (sub (m, DOC_SYS_MEASURED_VALID)))
    fprintf (out, " measured %.0f MHz", si_get_num (m, DOC_SYS_MEASURED_MHZ, 0));
  else
    fprintf (out, " measured %.0f MHz (not valid: %s)", si_get_num (m, DOC_SYS_MEASURED_MHZ, 0),
             why ? why : "no reason given");
  print_mhz (out, "nominal", clock, DOC_SYS_CLOCK_NOMINAL_MHZ);
  print_mhz (out, "max", clock, DOC_SYS_CLOCK_MAX_MHZ);
  fputc ('\n', out);
}

static void
print_cores (FILE *out, const cJSON *cores, const cJSON *cpu)
{
  const cJSON *kinds = sub (cpu, DOC_SYS_CPU_KINDS), *k;

  fprintf (out, "Cores:   %.0f logical, %.0f physical, %.0f usable",
           si_get_num (cores, DOC_SYS_CORES_LOGICAL, 0),
           si_get_num (cores, DOC_SYS_CORES_PHYSICAL, 0),
           si_get_num (cores, DOC_SYS_CORES_USABLE, 0));
  if (cJSON_GetArraySize (kinds) > 1)
    {
      const char *sep = " (";
      cJSON_ArrayForEach (k, kinds)
        {
          const char *name = si_get_str (k, DOC_SYS_KINDS_NAME);
          if (name == NULL)
            name = str_or (k, DOC_SYS_KINDS_MICROARCHITECTURE, str_or (k, DOC_SYS_KINDS_TYPE, "?"));
          fprintf (out, "%s%.0f x %s", sep, si_get_num (k, DOC_SYS_KINDS_COUNT, 0), name);
          sep = " + ";
        }
      fputc (')', out);
    }
  fputc ('\n', out);
}

static void
print_os (FILE *out, const cJSON *os)
{
  const char *version = si_get_str (os, DOC_SYS_OS_VERSION);

  fprintf (out, "OS:      %s", str_or (os, DOC_SYS_OS_NAME, "unknown"));
  if (version != NULL)
    fprintf (out, " %s", version);
  fprintf (out, ", kernel %s", str_or (os, DOC_SYS_OS_KERNEL, "unknown"));
  if (si_get_str (os, DOC_SYS_OS_LIBC) != NULL)
    fprintf (out, ", %s", si_get_str (os, DOC_SYS_OS_LIBC));
  fputc ('\n', out);
}

static void
print_build (FILE *out, const cJSON *build)
{
  const cJSON *gmp = sub (build, DOC_SYS_BUILD_GMP), *ssl = sub (build, DOC_SYS_BUILD_OPENSSL);
  const cJSON *cc = sub (build, DOC_SYS_BUILD_COMPILER);

  fprintf (out, "GMP:     %s, %.0f-bit limbs, built by %s",
           str_or (gmp, DOC_SYS_GMP_VERSION, "?"), si_get_num (gmp, DOC_SYS_GMP_LIMB_BITS, 0),
           str_or (gmp, DOC_SYS_GMP_CC, "?"));
  if (cJSON_IsTrue (sub (gmp, DOC_SYS_GMP_VERSION_MISMATCH)))
    fprintf (out, " (headers %s: MISMATCH)", str_or (gmp, DOC_SYS_GMP_HEADER_VERSION, "?"));
  fputc ('\n', out);
  fprintf (out, "OpenSSL: %s (%s); gmpbench built with %s %s\n",
           str_or (ssl, DOC_SYS_OPENSSL_VERSION, "?"), str_or (ssl, DOC_SYS_OPENSSL_PLATFORM, "?"),
           str_or (cc, DOC_SYS_COMPILER_NAME, "?"), str_or (cc, DOC_SYS_COMPILER_VERSION, "?"));
}

void
sysinfo_print_summary (FILE *out, const cJSON *system)
{
  const cJSON *cpu = sub (system, DOC_SYS_CPU);

  print_cpu (out, cpu, sub (system, DOC_SYS_MACHINE));
  print_clock (out, sub (system, DOC_SYS_CLOCK));
  print_cores (out, sub (system, DOC_SYS_CORES), cpu);
  print_os (out, sub (system, DOC_SYS_OS));
  print_build (out, sub (system, DOC_SYS_BUILD));
}
