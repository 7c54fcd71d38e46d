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
  const char *model = si_get_str (machine, "model"), *soc = si_get_str (machine, "soc");
  const char *uarch = si_get_str (cpu, "microarchitecture");
  const char *hv = si_get_str (cpu, "hypervisor");

  fprintf (out, "CPU:     %s [%s]", str_or (cpu, "name", "unknown"),
           str_or (cpu, "identity", "no identity"));
  if (uarch != NULL)
    fprintf (out, ", %s", uarch);
  if (hv != NULL)
    fprintf (out, ", hypervisor %s", hv);
  if (cJSON_IsTrue (sub (cpu, "emulated")))
    fprintf (out, ", EMULATED (%s)", str_or (cpu, "emulator", "?"));
  if (model != NULL)
    fprintf (out, ", in %s", model);
  if (soc != NULL)
    fprintf (out, " (SoC %s)", soc);
  fputc ('\n', out);
}

static void
print_clock (FILE *out, const cJSON *clock)
{
  const cJSON *m = sub (clock, "measured");

  const char *why = si_get_str (m, "reason");

  fprintf (out, "Clock:  ");
  if (!cJSON_IsObject (m))
    fprintf (out, " not measured");
  else if (!cJSON_IsNumber (sub (m, "mhz")))
    fprintf (out, " not measured (%s)", why ? why : "no reason given");
  else if (cJSON_IsTrue (sub (m, "valid")))
    fprintf (out, " measured %.0f MHz", si_get_num (m, "mhz", 0));
  else
    fprintf (out, " measured %.0f MHz (not valid: %s)", si_get_num (m, "mhz", 0),
             why ? why : "no reason given");
  print_mhz (out, "nominal", clock, "nominal_mhz");
  print_mhz (out, "max", clock, "max_mhz");
  fputc ('\n', out);
}

static void
print_cores (FILE *out, const cJSON *cores, const cJSON *cpu)
{
  const cJSON *kinds = sub (cpu, "kinds"), *k;

  fprintf (out, "Cores:   %.0f logical, %.0f physical, %.0f usable",
           si_get_num (cores, "logical", 0), si_get_num (cores, "physical", 0),
           si_get_num (cores, "usable", 0));
  if (cJSON_GetArraySize (kinds) > 1)
    {
      const char *sep = " (";
      cJSON_ArrayForEach (k, kinds)
        {
          const char *name = si_get_str (k, "name");
          if (name == NULL)
            name = str_or (k, "microarchitecture", str_or (k, "type", "?"));
          fprintf (out, "%s%.0f x %s", sep, si_get_num (k, "count", 0), name);
          sep = " + ";
        }
      fputc (')', out);
    }
  fputc ('\n', out);
}

static void
print_os (FILE *out, const cJSON *os)
{
  const char *version = si_get_str (os, "version");

  fprintf (out, "OS:      %s", str_or (os, "name", "unknown"));
  if (version != NULL)
    fprintf (out, " %s", version);
  fprintf (out, ", kernel %s", str_or (os, "kernel", "unknown"));
  if (si_get_str (os, "libc") != NULL)
    fprintf (out, ", %s", si_get_str (os, "libc"));
  fputc ('\n', out);
}

static void
print_build (FILE *out, const cJSON *build)
{
  const cJSON *gmp = sub (build, "gmp"), *ssl = sub (build, "openssl");
  const cJSON *cc = sub (build, "compiler");

  fprintf (out, "GMP:     %s, %.0f-bit limbs, built by %s",
           str_or (gmp, "version", "?"), si_get_num (gmp, "limb_bits", 0),
           str_or (gmp, "cc", "?"));
  if (cJSON_IsTrue (sub (gmp, "version_mismatch")))
    fprintf (out, " (headers %s: MISMATCH)", str_or (gmp, "header_version", "?"));
  fputc ('\n', out);
  fprintf (out, "OpenSSL: %s (%s); gmpbench built with %s %s\n",
           str_or (ssl, "version", "?"), str_or (ssl, "platform", "?"),
           str_or (cc, "name", "?"), str_or (cc, "version", "?"));
}

void
sysinfo_print_summary (FILE *out, const cJSON *system)
{
  const cJSON *cpu = sub (system, "cpu");

  print_cpu (out, cpu, sub (system, "machine"));
  print_clock (out, sub (system, "clock"));
  print_cores (out, sub (system, "cores"), cpu);
  print_os (out, sub (system, "os"));
  print_build (out, sub (system, "build"));
}
