/* linux_cache.c: the cache hierarchy from sysfs (cpuN/cache/indexM), which
 * the kernel fills from CPUID leaf 4 / 0x8000001D on x86 and from the
 * device tree or ACPI PPTT elsewhere.  glibc's sysconf(_SC_LEVEL*_CACHE*)
 * is not used: it guesses wrongly on several of the machines this runs on.
 * Each physical cache is counted once (by level, type and the CPUs sharing
 * it); system.caches lists the distinct kinds with their instance counts
 * and system.cache gives the sizes seen from the biggest core. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cache
{
  int level;
  char type[16];                /* "Data", "Instruction", "Unified" */
  long size;                    /* bytes, -1 when unknown */
  long ways, line;
  char *shared;                 /* shared_cpu_list (or _map) text */
  int shared_by;
};

static char *
index_file (struct si_linux *L, int cpu, int idx, const char *file)
{
  char rel[256];
  snprintf (rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cache/index%d/%s",
            cpu, idx, file);
  return si_read (L->r, rel);
}

static long
index_long (struct si_linux *L, int cpu, int idx, const char *file)
{
  char *s = index_file (L, cpu, idx, file);
  long v = -1;

  if (s != NULL)
    {
      char *end;
      v = strtol (s, &end, 10);
      if (end == s)
        v = -1;
      else if (*end == 'K')
        v *= 1024;
      else if (*end == 'M')
        v *= 1024 * 1024;
    }
  free (s);
  return v;
}

/* Loads one index directory; 0 when it does not exist. */
static int
load_index (struct si_linux *L, int cpu, int idx, struct cache *c)
{
  char *type = index_file (L, cpu, idx, "type");
  unsigned char *set;

  if (type == NULL)
    return 0;
  snprintf (c->type, sizeof c->type, "%s", type);
  free (type);
  c->level = (int) index_long (L, cpu, idx, "level");
  c->size = index_long (L, cpu, idx, "size");
  c->ways = index_long (L, cpu, idx, "ways_of_associativity");
  c->line = index_long (L, cpu, idx, "coherency_line_size");
  c->shared = index_file (L, cpu, idx, "shared_cpu_list");
  set = gb_xmalloc (SI_MAXCPU);
  c->shared_by = c->shared ? si_cpulist (c->shared, set, SI_MAXCPU) : -1;
  free (set);
  if (c->shared == NULL)
    c->shared = index_file (L, cpu, idx, "shared_cpu_map");
  if (c->shared == NULL)
    c->shared = gb_xstrdup ("");
  return 1;
}

static int
same_instance (const struct cache *a, const struct cache *b)
{
  return a->level == b->level && strcmp (a->type, b->type) == 0
    && strcmp (a->shared, b->shared) == 0 && a->shared[0] != '\0';
}

static int
same_kind (const struct cache *a, const struct cache *b)
{
  return a->level == b->level && strcmp (a->type, b->type) == 0
    && a->size == b->size && a->ways == b->ways && a->line == b->line
    && a->shared_by == b->shared_by;
}

static void
put_list (struct si_linux *L, struct cache *all, int n)
{
  cJSON *arr = cJSON_CreateArray ();
  int *done = gb_xcalloc ((size_t) n + 1, sizeof *done);
  int i, j;

  for (i = 0; i < n; i++)
    {
      cJSON *o;
      int count = 0;

      if (done[i])
        continue;
      for (j = i; j < n; j++)
        if (!done[j] && same_kind (&all[i], &all[j]))
          done[j] = 1, count++;
      o = cJSON_CreateObject ();
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LEVEL, all[i].level);
      cJSON_AddStringToObject (o, DOC_SYS_CACHES_TYPE, all[i].type);
      if (all[i].size >= 0)
        cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SIZE, (double) all[i].size);
      if (all[i].ways > 0)
        cJSON_AddNumberToObject (o, DOC_SYS_CACHES_WAYS, (double) all[i].ways);
      if (all[i].line > 0)
        cJSON_AddNumberToObject (o, DOC_SYS_CACHES_LINE, (double) all[i].line);
      if (all[i].shared_by > 0)
        cJSON_AddNumberToObject (o, DOC_SYS_CACHES_SHARED_BY, all[i].shared_by);
      cJSON_AddNumberToObject (o, DOC_SYS_CACHES_INSTANCES, count);
      cJSON_AddItemToArray (arr, o);
    }
  free (done);
  si_put_item (L->system, DOC_SYS_CACHES, arr, "sysfs cpu*/cache/index*");
}

/* system.cache: the sizes one CPU of the biggest kind sees. */
static void
put_summary (struct si_linux *L, int cpu)
{
  cJSON *sum = si_section (L->system, DOC_SYS_CACHE);
  struct cache c;
  int idx;

  for (idx = 0; load_index (L, cpu, idx, &c); idx++)
    {
      const char *key = NULL;

      if (c.level == 1 && strcmp (c.type, "Data") == 0)
        key = DOC_SYS_CACHE_L1D;
      else if (c.level == 1 && strcmp (c.type, "Instruction") == 0)
        key = DOC_SYS_CACHE_L1I;
      else if (c.level == 2)
        key = DOC_SYS_CACHE_L2;
      else if (c.level == 3)
        key = DOC_SYS_CACHE_L3;
      else if (c.level == 4)
        key = DOC_SYS_CACHE_L4;
      if (key != NULL && c.size >= 0)
        si_put_num (sum, key, (double) c.size, "sysfs cache/index*/size");
      free (c.shared);
    }
}

void
si_linux_caches (struct si_linux *L)
{
  struct cache *all = NULL, c;
  int n = 0, cap = 0, cpu, idx, i, probe = -1;

  for (cpu = 0; cpu < L->ncpu; cpu++)
    {
      if (!L->online[cpu])
        continue;
      if (probe < 0 && (L->nkinds == 0 || L->kinds[0].cpus[cpu]))
        probe = cpu;
      for (idx = 0; load_index (L, cpu, idx, &c); idx++)
        {
          for (i = 0; i < n && !same_instance (&all[i], &c); i++)
            ;
          if (i < n)
            {
              free (c.shared);
              continue;
            }
          if (n == cap)
            {
              cap = cap ? 2 * cap : 16;
              all = gb_xrealloc (all, (size_t) cap * sizeof *all);
            }
          all[n++] = c;
        }
    }
  if (n > 0)
    {
      put_list (L, all, n);
      put_summary (L, probe);
    }
  for (i = 0; i < n; i++)
    free (all[i].shared);
  free (all);
}
