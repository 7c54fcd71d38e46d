/* unit-sysinfo-windows.c: the pure parts of the Windows reader
 * (sysinfo/win_parse.c).  It builds GetLogicalProcessorInformationEx
 * buffers in the layout Microsoft documents (a hybrid Intel part with
 * SMT P-cores and shared E-core L2, a 32-bit process on Windows 8, a
 * cache spanning two processor groups, malformed buffers) and checks what
 * the parser makes of them, then the product names and machine numbers.
 * It needs only the C library, so it is built natively by `make check`
 * and with MinGW-w64 by tests/cross/check-cross.sh, which runs it under Wine;
 * there it also parses the live buffer and checks it against
 * GetActiveProcessorCount and RtlGetVersion. */
#include "tests/check.h"
#include "sysinfo/win_parse.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>
#endif

/* A buffer being built, record by record. */
struct buf
{
  unsigned char b[8192];
  size_t len;
  size_t abytes;                /* sizeof (KAFFINITY) of the recorded process */
};

static void
put (unsigned char *p, unsigned long long v, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

/* Appends a record with room for NMASKS group affinities at offset AT. */
static unsigned char *
record (struct buf *b, unsigned rel, size_t at, unsigned nmasks)
{
  unsigned char *r = b->b + b->len;
  size_t size = at + nmasks * (b->abytes + 8);

  memset (r, 0, size);
  put (r, rel, 4);
  put (r + 4, size, 4);
  b->len += size;
  return r;
}

static void
mask (struct buf *b, unsigned char *r, size_t at, unsigned i, unsigned long long m, unsigned group)
{
  unsigned char *p = r + at + i * (b->abytes + 8);

  put (p, m, b->abytes);
  put (p + b->abytes, group, 2);
}

/* A core of efficiency class CLS on the CPUs of M (group 0). */
static void
core (struct buf *b, unsigned cls, unsigned long long m)
{
  unsigned char *r = record (b, 0, 32, 1);

  r[8] = (m & (m - 1)) != 0;    /* LTP_PC_SMT */
  r[9] = (unsigned char) cls;
  put (r + 30, 1, 2);
  mask (b, r, 32, 0, m, 0);
}

static void
package (struct buf *b, unsigned long long m)
{
  unsigned char *r = record (b, 3, 32, 1);

  put (r + 30, 1, 2);
  mask (b, r, 32, 0, m, 0);
}

/* A cache; GROUPS 0 writes the pre-Windows 11 record (GroupCount 0). */
static unsigned char *
cache (struct buf *b, unsigned level, unsigned type, unsigned long size,
       unsigned ways, unsigned groups)
{
  unsigned char *r = record (b, 2, 40, groups ? groups : 1);

  r[8] = (unsigned char) level;
  r[9] = (unsigned char) ways;
  put (r + 10, 64, 2);
  put (r + 12, size, 4);
  put (r + 16, type, 4);
  put (r + 38, groups, 2);
  return r;
}

enum { UNIFIED = 0, INSTRUCTION = 1, DATA = 2 };

static const struct si_win_cache *
find_cache (const struct si_win_topology *t, unsigned level, const char *type, int biggest)
{
  int i;

  for (i = 0; i < t->ncaches; i++)
    if (t->caches[i].level == level && strcmp (t->caches[i].type, type) == 0
        && t->caches[i].seen_by_biggest == biggest)
      return &t->caches[i];
  return NULL;
}

/* 8 P-cores with SMT (CPUs 0-15, class 1) and 4 E-cores (16-19, class 0)
 * sharing one L2, as an i7-12700 reports itself. */
static void
test_hybrid (void)
{
  struct buf b = { .len = 0, .abytes = 8 };
  struct si_win_topology t;
  const struct si_win_cache *c;
  int i;

  for (i = 0; i < 8; i++)
    core (&b, 1, 3ULL << (2 * i));
  for (i = 16; i < 20; i++)
    core (&b, 0, 1ULL << i);
  for (i = 0; i < 8; i++)
    {
      mask (&b, cache (&b, 1, DATA, 49152, 12, 1), 40, 0, 3ULL << (2 * i), 0);
      mask (&b, cache (&b, 1, INSTRUCTION, 32768, 8, 1), 40, 0, 3ULL << (2 * i), 0);
      mask (&b, cache (&b, 2, UNIFIED, 1310720, 10, 1), 40, 0, 3ULL << (2 * i), 0);
    }
  for (i = 16; i < 20; i++)
    {
      mask (&b, cache (&b, 1, DATA, 32768, 8, 1), 40, 0, 1ULL << i, 0);
      mask (&b, cache (&b, 1, INSTRUCTION, 65536, 8, 1), 40, 0, 1ULL << i, 0);
    }
  mask (&b, cache (&b, 2, UNIFIED, 2097152, 16, 1), 40, 0, 0xfULL << 16, 0);
  mask (&b, cache (&b, 3, UNIFIED, 26214400, 10, 1), 40, 0, 0xfffffULL, 0);
  package (&b, 0xfffffULL);

  check (si_win_parse_topology (b.b, b.len, 8, &t) == 0, "hybrid: buffer parses");
  check (t.logical == 20 && t.physical == 12 && t.packages == 1 && t.smt_cores == 8,
         "hybrid: 20 logical, 12 physical, 1 package, 8 SMT cores (got %d %d %d %d)",
         t.logical, t.physical, t.packages, t.smt_cores);
  check (t.nkinds == 2 && t.kinds[0].efficiency_class == 1 && t.kinds[0].cores == 8
         && t.kinds[0].threads == 16 && t.kinds[1].cores == 4 && t.kinds[1].threads == 4,
         "hybrid: kinds fastest first, 8 P-cores with 16 threads, 4 E-cores");
  c = find_cache (&t, 2, "Unified", 1);
  check (c != NULL && c->size == 1310720 && c->instances == 8 && c->shared_by == 2 && c->ways == 10,
         "hybrid: a P-core sees its own 1.25 MiB L2, 8 instances shared by 2 threads");
  c = find_cache (&t, 2, "Unified", 0);
  check (c != NULL && c->size == 2097152 && c->instances == 1 && c->shared_by == 4,
         "hybrid: one 2 MiB L2 shared by the 4 E-cores");
  c = find_cache (&t, 1, "Data", 1);
  check (c != NULL && c->size == 49152, "hybrid: the P-core L1d is 48 KiB");
  c = find_cache (&t, 3, "Unified", 1);
  check (c != NULL && c->shared_by == 20 && c->instances == 1, "hybrid: L3 shared by all 20 CPUs");
}

/* A 32-bit process (4-byte KAFFINITY) on Windows 8: two cores without
 * SMT, cache records with GroupCount 0, and a fully associative cache. */
static void
test_32bit_old (void)
{
  struct buf b = { .len = 0, .abytes = 4 };
  struct si_win_topology t;
  const struct si_win_cache *c;

  core (&b, 0, 1);
  core (&b, 0, 2);
  mask (&b, cache (&b, 1, DATA, 32768, 0xff, 0), 40, 0, 1, 0);
  mask (&b, cache (&b, 1, DATA, 32768, 0xff, 0), 40, 0, 2, 0);
  mask (&b, cache (&b, 2, UNIFIED, 4194304, 16, 0), 40, 0, 3, 0);
  package (&b, 3);

  check (si_win_parse_topology (b.b, b.len, 4, &t) == 0, "32-bit: buffer parses");
  check (t.logical == 2 && t.physical == 2 && t.smt_cores == 0 && t.nkinds == 1,
         "32-bit: 2 cores, no SMT, one kind");
  c = find_cache (&t, 1, "Data", 1);
  check (c != NULL && c->instances == 2 && c->ways == 0 && c->shared_by == 1,
         "32-bit: GroupCount 0 means one group; fully associative gives 0 ways");
  c = find_cache (&t, 2, "Unified", 1);
  check (c != NULL && c->shared_by == 2, "32-bit: the L2 is shared by both CPUs");
  check (si_win_parse_topology (b.b, b.len, 8, &t) == -1,
         "32-bit records read with a 64-bit mask size are rejected");
}

/* 128 CPUs in two processor groups of 64, one cache across both. */
static void
test_two_groups (void)
{
  struct buf b = { .len = 0, .abytes = 8 };
  struct si_win_topology t;
  unsigned char *r;

  core (&b, 0, ~0ULL);
  r = cache (&b, 3, UNIFIED, 268435456, 16, 2);
  mask (&b, r, 40, 0, ~0ULL, 0);
  mask (&b, r, 40, 1, ~0ULL, 1);
  check (si_win_parse_topology (b.b, b.len, 8, &t) == 0 && t.ncaches == 1
         && t.caches[0].shared_by == 128, "a cache across two processor groups is shared by 128 CPUs");
}

static void
test_malformed (void)
{
  struct buf b = { .len = 0, .abytes = 8 };
  struct si_win_topology t;

  core (&b, 0, 1);
  check (si_win_parse_topology (b.b, b.len - 1, 8, &t) == -1, "a truncated buffer is rejected");
  put (b.b + 4, 0, 4);
  check (si_win_parse_topology (b.b, b.len, 8, &t) == -1, "a record of size 0 is rejected");
  b.len = 0;
  package (&b, 1);
  check (si_win_parse_topology (b.b, b.len, 8, &t) == -1, "a buffer without cores is rejected");
}

static void
test_names (void)
{
  char n[64];

  check (strcmp (si_win_product_name (n, sizeof n, 10, 0, 22631, 1), "Windows 11") == 0,
         "10.0.22631 workstation is Windows 11");
  check (strcmp (si_win_product_name (n, sizeof n, 10, 0, 19045, 1), "Windows 10") == 0,
         "10.0.19045 workstation is Windows 10");
  check (strcmp (si_win_product_name (n, sizeof n, 10, 0, 20348, 0), "Windows Server 2022") == 0,
         "10.0.20348 server is Windows Server 2022");
  check (strcmp (si_win_product_name (n, sizeof n, 6, 1, 7601, 1), "Windows 7") == 0,
         "6.1 workstation is Windows 7");
  check (strcmp (si_win_product_name (n, sizeof n, 5, 2, 3790, 0), "Windows NT 5.2") == 0,
         "an unknown version is named by its numbers");
  check (strcmp (si_win_machine_arch (0xaa64), "aarch64") == 0
         && strcmp (si_win_machine_arch (0x8664), "x86_64") == 0
         && si_win_machine_arch (0x1234) == NULL, "IMAGE_FILE_MACHINE numbers");
}

#if defined(_WIN32)
/* The running Windows (or Wine): its own buffer must parse and agree
 * with the processor count. */
static void
test_live (void)
{
  typedef LONG (WINAPI *rtl_get_version) (OSVERSIONINFOW *);
  DWORD len = 0, active = GetActiveProcessorCount (ALL_PROCESSOR_GROUPS);
  unsigned char *buf;
  struct si_win_topology t;
  rtl_get_version get = (rtl_get_version) (void (*) (void))
    GetProcAddress (GetModuleHandleA ("ntdll.dll"), "RtlGetVersion");
  OSVERSIONINFOW v = { .dwOSVersionInfoSize = sizeof v };
  char name[64];
  int ok;

  GetLogicalProcessorInformationEx (RelationAll, NULL, &len);
  buf = malloc (len);
  check (buf != NULL && GetLogicalProcessorInformationEx (RelationAll, (void *) buf, &len)
         && si_win_parse_topology (buf, len, sizeof (KAFFINITY), &t) == 0,
         "live: GetLogicalProcessorInformationEx buffer parses (%lu bytes)", (unsigned long) len);
  check (t.logical == (int) active && t.physical >= 1 && t.physical <= t.logical && t.packages >= 1,
         "live: %d logical (GetActiveProcessorCount says %lu), %d physical, %d packages",
         t.logical, (unsigned long) active, t.physical, t.packages);
  ok = get != NULL && get (&v) == 0;
  check (ok && v.dwMajorVersion >= 6, "live: RtlGetVersion gives %lu.%lu.%lu (%s)", v.dwMajorVersion, v.dwMinorVersion,
         v.dwBuildNumber, si_win_product_name (name, sizeof name, v.dwMajorVersion,
                                               v.dwMinorVersion, v.dwBuildNumber, 1));
  free (buf);
}
#endif

int
main (void)
{
  test_hybrid ();
  test_32bit_old ();
  test_two_groups ();
  test_malformed ();
  test_names ();
#if defined(_WIN32)
  test_live ();
#endif
  return check_exit_status ();
}
