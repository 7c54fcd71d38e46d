/* linux_kinds.c: core kinds of heterogeneous processors.  On Arm the
 * kinds are the distinct MIDRs (big.LITTLE and DynamIQ mixes), ranked by
 * the kernel's cpu_capacity and then by maximum frequency; the identity of
 * the machine is that of the biggest kind.  On Intel hybrid parts the
 * kernel's perf PMUs (/sys/devices/cpu_core, /sys/devices/cpu_atom) name
 * the performance and efficiency cores.  Homogeneous machines get one
 * kind, so readers can always count on system.cpu.kinds. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
same_midr (const struct si_midr *a, const struct si_midr *b)
{
  return a->implementer == b->implementer && a->part == b->part
    && a->variant == b->variant && a->revision == b->revision;
}

static void
group_arm (struct si_linux *L, struct si_midr *ids)
{
  int i, k;

  for (i = 0; i < L->ncpu; i++)
    {
      struct si_lcpu *c = &L->cpu[i];

      if (!L->online[i] || !c->has_midr)
        continue;
      for (k = 0; k < L->nkinds && !same_midr (&ids[k], &c->midr); k++)
        ;
      if (k == L->nkinds)
        {
          if (k == SI_MAXKINDS)
            continue;
          ids[k] = c->midr;
          si_arm_identity (L->kinds[k].identity, sizeof L->kinds[k].identity, &c->midr);
          L->kinds[k].name = si_arm_part_name (c->midr.implementer, c->midr.part);
          L->kinds[k].uarch = si_arm_uarch (c->midr.implementer, c->midr.part);
          L->nkinds++;
        }
      L->kinds[k].cpus[i] = 1;
      L->kinds[k].count++;
      if (c->capacity > L->kinds[k].capacity)
        L->kinds[k].capacity = c->capacity;
      if (c->max_khz > L->kinds[k].max_khz)
        L->kinds[k].max_khz = c->max_khz;
    }
}

/* Index of the biggest kind from START on: capacity, then frequency, then
 * first seen. */
static int
biggest_from (struct si_linux *L, int start)
{
  int k, best = start;

  for (k = start + 1; k < L->nkinds; k++)
    {
      const struct si_kind *a = &L->kinds[k], *b = &L->kinds[best];
      if (a->capacity > b->capacity
          || (a->capacity == b->capacity && a->max_khz > b->max_khz))
        best = k;
    }
  return best;
}

static void
put_arm_identity (struct si_linux *L, const struct si_midr *ids, int big)
{
  const struct si_kind *k = &L->kinds[big];
  const char *vendor = si_arm_implementer_name (ids[big].implementer);
  char raw[16];
  cJSON *midrs = cJSON_CreateArray ();
  int i;

  si_put_str (L->cpusec, DOC_SYS_CPU_IDENTITY, k->identity, "/proc/cpuinfo MIDR fields");
  if (vendor == NULL)
    {
      snprintf (raw, sizeof raw, "0x%02x", ids[big].implementer);
      vendor = raw;
    }
  si_put_str (L->cpusec, DOC_SYS_CPU_VENDOR, vendor, "MIDR implementer table");
  if (k->name != NULL)
    si_put_str (L->cpusec, DOC_SYS_CPU_NAME, k->name, "MIDR part table");
  else
    {
      char name[64];
      snprintf (name, sizeof name, "%s part 0x%03x", vendor, ids[big].part);
      si_put_str (L->cpusec, DOC_SYS_CPU_NAME, name, "MIDR (part not in table)");
    }
  si_put_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE, k->uarch, "MIDR part table");
  for (i = 0; i < L->ncpu; i++)
    if (L->online[i] && L->cpu[i].has_midr)
      {
        const struct si_midr *m = &L->cpu[i].midr;
        char buf[16];
        snprintf (buf, sizeof buf, "0x%08x", m->implementer << 24
                  | m->variant << 20 | 0xfu << 16 | m->part << 4 | m->revision);
        cJSON_AddItemToArray (midrs, cJSON_CreateString (buf));
      }
  si_put_item (L->cpusec, DOC_SYS_CPU_MIDR, midrs, "/proc/cpuinfo, one per CPU");
}

/* A CPU list back to text ("0-3,8"). */
static void
cpus_text (const unsigned char *set, int n, char *buf, size_t len)
{
  size_t used = 0;
  int i = 0;

  buf[0] = '\0';
  while (i < n && used + 24 < len)
    {
      int j;
      if (!set[i])
        {
          i++;
          continue;
        }
      for (j = i; j + 1 < n && set[j + 1]; j++)
        ;
      used += (size_t) snprintf (buf + used, len - used, used ? ",%d" : "%d", i);
      if (j > i)
        used += (size_t) snprintf (buf + used, len - used, "-%d", j);
      i = j + 1;
    }
}

static void
intel_hybrid (struct si_linux *L)
{
  static const char *const pmus[2][2] = {
    {"sys/devices/cpu_core/cpus", "performance"},
    {"sys/devices/cpu_atom/cpus", "efficiency"},
  };
  const char *vendor = si_get_str (L->cpusec, DOC_SYS_CPU_VENDOR_ID);
  int f = (int) si_get_num (L->cpusec, DOC_SYS_CPU_FAMILY, -1);
  int m = (int) si_get_num (L->cpusec, DOC_SYS_CPU_MODEL, -1);
  int s = (int) si_get_num (L->cpusec, DOC_SYS_CPU_STEPPING, -1);
  int p;

  for (p = 0; p < 2 && vendor != NULL; p++)
    {
      char *text = si_read (L->r, pmus[p][0]);
      struct si_kind *k = &L->kinds[L->nkinds];
      int n = text ? si_cpulist (text, k->cpus, SI_MAXCPU) : -1;

      free (text);
      if (n <= 0)
        continue;
      k->count = n;
      k->type = pmus[p][1];
      snprintf (k->identity, sizeof k->identity, "%s",
                si_get_str (L->cpusec, DOC_SYS_CPU_IDENTITY));
      k->uarch = p == 0 ? si_x86_uarch (vendor, f, m, s)
        : si_x86_uarch_e (vendor, f, m, s);
      L->nkinds++;
    }
}

static void
put_kinds (struct si_linux *L, const char *source)
{
  cJSON *arr = cJSON_CreateArray ();
  char *list = gb_xmalloc (SI_MAXCPU * 6);
  int k;

  for (k = 0; k < L->nkinds; k++)
    {
      const struct si_kind *kd = &L->kinds[k];
      cJSON *o = cJSON_CreateObject ();

      cpus_text (kd->cpus, L->ncpu > 0 ? L->ncpu : SI_MAXCPU, list, SI_MAXCPU * 6);
      cJSON_AddStringToObject (o, DOC_SYS_KINDS_IDENTITY, kd->identity);
      if (kd->type)
        cJSON_AddStringToObject (o, DOC_SYS_KINDS_TYPE, kd->type);
      if (kd->name)
        cJSON_AddStringToObject (o, DOC_SYS_KINDS_NAME, kd->name);
      if (kd->uarch)
        cJSON_AddStringToObject (o, DOC_SYS_KINDS_MICROARCHITECTURE, kd->uarch);
      cJSON_AddNumberToObject (o, DOC_SYS_KINDS_COUNT, kd->count);
      cJSON_AddStringToObject (o, DOC_SYS_KINDS_CPUS, list);
      if (kd->max_khz > 0)
        cJSON_AddNumberToObject (o, DOC_SYS_KINDS_MAX_MHZ, kd->max_khz / 1000.0);
      if (kd->capacity > 0)
        cJSON_AddNumberToObject (o, DOC_SYS_KINDS_CAPACITY, kd->capacity);
      cJSON_AddItemToArray (arr, o);
    }
  free (list);
  si_put_item (L->cpusec, DOC_SYS_CPU_KINDS, arr, source);
  si_put_bool (L->cpusec, DOC_SYS_CPU_HYBRID, L->nkinds > 1, source);
}

/* Sorts kinds biggest first, with their MIDRs. */
static void
sort_kinds (struct si_linux *L, struct si_midr *ids)
{
  int i;

  for (i = 0; i < L->nkinds; i++)
    {
      int b = biggest_from (L, i);
      if (b != i)
        {
          struct si_kind tk = L->kinds[i];
          struct si_midr tm = ids[i];
          L->kinds[i] = L->kinds[b];
          L->kinds[b] = tk;
          ids[i] = ids[b];
          ids[b] = tm;
        }
    }
}

void
si_linux_kinds (struct si_linux *L)
{
  struct si_midr ids[SI_MAXKINDS];

  L->nkinds = 0;
  group_arm (L, ids);
  if (L->nkinds > 0)
    {
      sort_kinds (L, ids);
      put_arm_identity (L, ids, 0);
      put_kinds (L, "/proc/cpuinfo MIDR, sysfs cpu_capacity");
      return;
    }
  intel_hybrid (L);
  if (L->nkinds > 0)
    {
      put_kinds (L, "sysfs /sys/devices/cpu_core, cpu_atom");
      return;
    }
  if (si_has (L->cpusec, DOC_SYS_CPU_IDENTITY))
    {
      struct si_kind *k = &L->kinds[0];
      int i;

      snprintf (k->identity, sizeof k->identity, "%s",
                si_get_str (L->cpusec, DOC_SYS_CPU_IDENTITY));
      k->name = si_get_str (L->cpusec, DOC_SYS_CPU_NAME);
      k->uarch = si_get_str (L->cpusec, DOC_SYS_CPU_MICROARCHITECTURE);
      for (i = 0; i < L->ncpu; i++)
        if (L->online[i])
          {
            k->cpus[i] = 1;
            k->count++;
            if (L->cpu[i].max_khz > k->max_khz)
              k->max_khz = L->cpu[i].max_khz;
          }
      L->nkinds = 1;
      put_kinds (L, "one kind: all online CPUs");
    }
}
