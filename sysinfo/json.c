/* json.c: setting members of the "system" object together with their
 * sources.  Each section keeps a "sources" object mapping a member name to
 * where its value was read ("/proc/cpuinfo", "cpuid", "sysctl hw.ncpu"),
 * so that a reader of a result can tell measured facts from guesses.  A
 * member no reader could fill says what was looked at ("not reported: no
 * sysfs cpufreq/base_frequency; no CPUID leaf 0x16"). */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *
si_section (cJSON *parent, const char *key)
{
  cJSON *sec = cJSON_GetObjectItemCaseSensitive (parent, key);
  if (cJSON_IsObject (sec))
    return sec;
  sec = cJSON_CreateObject ();
  si_put_item (parent, key, sec, NULL);
  return sec;
}

static void
set_source (cJSON *sec, const char *key, const char *source)
{
  cJSON *sources;

  if (source == NULL)
    return;
  sources = cJSON_GetObjectItemCaseSensitive (sec, DOC_SYS_SOURCES);
  if (sources == NULL)
    {
      sources = cJSON_CreateObject ();
      cJSON_AddItemToObject (sec, DOC_SYS_SOURCES, sources);
    }
  cJSON_DeleteItemFromObjectCaseSensitive (sources, key);
  cJSON_AddItemToObject (sources, key, cJSON_CreateString (source));
}

void
si_put_item (cJSON *sec, const char *key, cJSON *item, const char *source)
{
  if (item == NULL)
    {
      fprintf (stderr, "gmpbench: out of memory\n");
      abort ();
    }
  if (cJSON_GetObjectItemCaseSensitive (sec, key) != NULL)
    cJSON_ReplaceItemInObjectCaseSensitive (sec, key, item);
  else
    cJSON_AddItemToObject (sec, key, item);
  set_source (sec, key, source);
}

void
si_put_str (cJSON *sec, const char *key, const char *val, const char *source)
{
  si_put_item (sec, key, val ? cJSON_CreateString (val) : cJSON_CreateNull (),
               val ? source : NULL);
}

void
si_put_num (cJSON *sec, const char *key, double val, const char *source)
{
  si_put_item (sec, key, cJSON_CreateNumber (val), source);
}

void
si_put_bool (cJSON *sec, const char *key, int val, const char *source)
{
  si_put_item (sec, key, cJSON_CreateBool (val), source);
}

void
si_put_null (cJSON *sec, const char *key)
{
  si_put_item (sec, key, cJSON_CreateNull (), NULL);
}

void
si_put_absent (cJSON *sec, const char *key, const char *what)
{
  const char *prior = si_get_str (cJSON_GetObjectItemCaseSensitive (sec, DOC_SYS_SOURCES), key);
  char buf[512];

  if (si_has (sec, key))
    return;
  if (prior != NULL && strncmp (prior, "not reported: ", 14) == 0)
    {
      if (strstr (prior, what) != NULL)
        return;
      snprintf (buf, sizeof buf, "%s; %s", prior, what);
    }
  else
    snprintf (buf, sizeof buf, "not reported: %s", what);
  si_put_item (sec, key, cJSON_CreateNull (), buf);
}

cJSON *
si_emulated_cpu (cJSON *cpu)
{
  cJSON *emu = cJSON_GetObjectItemCaseSensitive (cpu, DOC_SYS_CPU_EMULATED_CPU);

  if (cJSON_IsObject (emu))
    return emu;
  emu = cJSON_CreateObject ();
  si_put_item (cpu, DOC_SYS_CPU_EMULATED_CPU, emu, "what the emulator presents");
  return emu;
}

int
si_has (const cJSON *sec, const char *key)
{
  const cJSON *it = cJSON_GetObjectItemCaseSensitive (sec, key);
  return it != NULL && !cJSON_IsNull (it);
}

const char *
si_get_str (const cJSON *sec, const char *key)
{
  const cJSON *it = cJSON_GetObjectItemCaseSensitive (sec, key);
  return cJSON_IsString (it) ? it->valuestring : NULL;
}

double
si_get_num (const cJSON *sec, const char *key, double fallback)
{
  const cJSON *it = cJSON_GetObjectItemCaseSensitive (sec, key);
  return cJSON_IsNumber (it) ? it->valuedouble : fallback;
}
