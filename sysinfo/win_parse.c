/* win_parse.c: the Windows facts that are pure functions of recorded
 * data (see win_parse.h): the processor topology from the records of
 * GetLogicalProcessorInformationEx, the product name of a version number
 * and the architecture of a machine number.
 *
 * A record is { DWORD Relationship; DWORD Size; union }, the union at
 * offset 8.  For cores and packages the union is PROCESSOR_RELATIONSHIP:
 * Flags (8), EfficiencyClass (9), GroupCount (30), GroupMask[] (32); for
 * caches CACHE_RELATIONSHIP: Level (8), Associativity (9), LineSize (10),
 * CacheSize (12), Type (16), GroupCount (38, 0 before Windows 11 meaning
 * one), GroupMask[] (40).  A GROUP_AFFINITY is a KAFFINITY mask followed by
 * the WORD group number and three reserved WORDs.  All little-endian. */
#include "sysinfo/win_parse.h"

#include <stdio.h>
#include <string.h>

enum
{
  REL_CORE = 0, REL_CACHE = 2, REL_PACKAGE = 3,
  LTP_PC_SMT = 1, CACHE_FULLY_ASSOCIATIVE = 0xff
};

static unsigned long long
le (const unsigned char *p, size_t n)
{
  unsigned long long v = 0;

  while (n-- > 0)
    v = v << 8 | p[n];
  return v;
}

static int
popcount (unsigned long long v)
{
  int n = 0;

  for (; v != 0; v &= v - 1)
    n++;
  return n;
}

/* One GROUP_AFFINITY: mask and group. */
struct affinity
{
  unsigned long long mask;
  unsigned group;
};

/* The I-th GROUP_AFFINITY of the array at offset AT of record REC. */
static struct affinity
affinity_at (const unsigned char *rec, size_t at, size_t abytes, int i)
{
  struct affinity a;
  const unsigned char *p = rec + at + (size_t) i * (abytes + 8);

  a.mask = le (p, abytes);
  a.group = (unsigned) le (p + abytes, 2);
  return a;
}

/* Whether the GroupCount masks at offset AT fit in a record of SIZE. */
static int
masks_fit (size_t size, size_t at, size_t abytes, unsigned count)
{
  return at + (size_t) count * (abytes + 8) <= size;
}

struct state
{
  struct si_win_topology *t;
  size_t abytes;
  unsigned big_class;           /* highest EfficiencyClass so far */
  struct affinity big;          /* the first core of that class */
};

static void
add_core (struct state *s, const unsigned char *rec)
{
  struct si_win_topology *t = s->t;
  unsigned cls = rec[9];
  struct affinity a = affinity_at (rec, 32, s->abytes, 0);
  int threads = popcount (a.mask), k;

  t->physical++;
  t->logical += threads;
  t->smt_cores += (rec[8] & LTP_PC_SMT) != 0;
  if (t->physical == 1 || cls > s->big_class)
    {
      s->big_class = cls;
      s->big = a;
    }
  for (k = 0; k < t->nkinds && t->kinds[k].efficiency_class != cls; k++)
    ;
  if (k == t->nkinds)
    {
      if (k == SI_WIN_MAXKINDS)
        return;
      t->nkinds++;
      t->kinds[k].efficiency_class = cls;
    }
  t->kinds[k].cores++;
  t->kinds[k].threads += threads;
}

static const char *
cache_type (unsigned type)
{
  static const char *const names[] = { "Unified", "Instruction", "Data", "Trace" };
  return type < 4 ? names[type] : "Unknown";
}

/* Adds one cache instance, merged with an equal kind already seen. */
static void
add_cache (struct state *s, const unsigned char *rec, unsigned ngroups)
{
  struct si_win_topology *t = s->t;
  struct si_win_cache c;
  unsigned g;
  int i;

  memset (&c, 0, sizeof c);
  c.level = rec[8];
  c.ways = rec[9] == CACHE_FULLY_ASSOCIATIVE ? 0 : rec[9];
  c.line = (unsigned) le (rec + 10, 2);
  c.size = (unsigned long) le (rec + 12, 4);
  c.type = cache_type ((unsigned) le (rec + 16, 4));
  for (g = 0; g < ngroups; g++)
    {
      struct affinity a = affinity_at (rec, 40, s->abytes, (int) g);
      c.shared_by += popcount (a.mask);
      c.seen_by_biggest |= a.group == s->big.group && (a.mask & s->big.mask) != 0;
    }
  for (i = 0; i < t->ncaches; i++)
    {
      struct si_win_cache *o = &t->caches[i];
      if (o->level == c.level && o->type == c.type && o->size == c.size
          && o->ways == c.ways && o->line == c.line && o->shared_by == c.shared_by)
        {
          o->instances++;
          o->seen_by_biggest |= c.seen_by_biggest;
          return;
        }
    }
  if (t->ncaches < SI_WIN_MAXCACHES)
    {
      c.instances = 1;
      t->caches[t->ncaches++] = c;
    }
}

/* Orders the kinds fastest first (insertion sort: at most 8). */
static void
sort_kinds (struct si_win_topology *t)
{
  int i, j;

  for (i = 1; i < t->nkinds; i++)
    {
      struct si_win_kind k = t->kinds[i];
      for (j = i; j > 0 && t->kinds[j - 1].efficiency_class < k.efficiency_class; j--)
        t->kinds[j] = t->kinds[j - 1];
      t->kinds[j] = k;
    }
}

/* Checks one record of SIZE bytes and adds what it tells.  Caches come
 * after the cores in Windows' order, but the biggest core must be known
 * first, so this runs in two passes: PASS 0 cores and packages, PASS 1
 * caches. */
static int
add_record (struct state *s, const unsigned char *rec, size_t size, int pass)
{
  unsigned rel = (unsigned) le (rec, 4), count;

  if ((rel == REL_CORE || rel == REL_PACKAGE) && pass == 0)
    {
      count = size >= 32 ? (unsigned) le (rec + 30, 2) : 0;
      if (count < 1 || !masks_fit (size, 32, s->abytes, count))
        return -1;
      if (rel == REL_CORE)
        add_core (s, rec);
      else
        s->t->packages++;
    }
  else if (rel == REL_CACHE && pass == 1)
    {
      if (size < 40)
        return -1;
      count = (unsigned) le (rec + 38, 2);
      count += count == 0;
      if (!masks_fit (size, 40, s->abytes, count))
        return -1;
      add_cache (s, rec, count);
    }
  return 0;
}

int
si_win_parse_topology (const unsigned char *buf, size_t len, size_t affinity_bytes,
                       struct si_win_topology *out)
{
  struct state s;
  int pass;

  memset (out, 0, sizeof *out);
  memset (&s, 0, sizeof s);
  s.t = out;
  s.abytes = affinity_bytes;
  if (affinity_bytes != 4 && affinity_bytes != 8)
    return -1;
  for (pass = 0; pass < 2; pass++)
    {
      size_t off = 0;
      while (off + 8 <= len)
        {
          size_t size = (size_t) le (buf + off + 4, 4);
          if (size < 8 || size > len - off || add_record (&s, buf + off, size, pass) != 0)
            return -1;
          off += size;
        }
      if (off != len)
        return -1;
    }
  sort_kinds (out);
  return out->physical > 0 ? 0 : -1;
}

/* Windows Server releases by build number. */
static const char *
server_name (unsigned build)
{
  static const struct
  {
    unsigned build;
    const char *name;
  } servers[] = {
    {26100, "Windows Server 2025"}, {20348, "Windows Server 2022"},
    {17763, "Windows Server 2019"}, {14393, "Windows Server 2016"},
  };
  size_t i;

  for (i = 0; i < sizeof servers / sizeof servers[0]; i++)
    if (build == servers[i].build)
      return servers[i].name;
  return "Windows Server";
}

const char *
si_win_product_name (char *buf, size_t n, unsigned major, unsigned minor,
                     unsigned build, int workstation)
{
  static const struct
  {
    unsigned major, minor;
    const char *client, *server;
  } older[] = {
    {6, 3, "Windows 8.1", "Windows Server 2012 R2"},
    {6, 2, "Windows 8", "Windows Server 2012"},
    {6, 1, "Windows 7", "Windows Server 2008 R2"},
  };
  size_t i;

  if (major == 10 && minor == 0)
    snprintf (buf, n, "%s", !workstation ? server_name (build)
              : build >= 22000 ? "Windows 11" : "Windows 10");
  else
    {
      snprintf (buf, n, "Windows NT %u.%u", major, minor);
      for (i = 0; i < sizeof older / sizeof older[0]; i++)
        if (older[i].major == major && older[i].minor == minor)
          snprintf (buf, n, "%s", workstation ? older[i].client : older[i].server);
    }
  return buf;
}

const char *
si_win_machine_arch (unsigned machine)
{
  switch (machine)
    {
    case 0x8664:
      return "x86_64";
    case 0x014c:
      return "i686";
    case 0xaa64:
      return "aarch64";
    case 0x01c0:
    case 0x01c4:
      return "arm";
    default:
      return NULL;
    }
}
