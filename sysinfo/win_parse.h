/* win_parse.h: the pure parts of the Windows reader, kept free of
 * <windows.h> and cJSON so that they build and are tested on any host
 * (tests/unit-sysinfo-windows.c, natively and as a MinGW executable under
 * Wine).  The buffer of GetLogicalProcessorInformationEx is read by byte
 * offsets as Microsoft documents the structures, because the MinGW headers
 * of Debian 12 predate PROCESSOR_RELATIONSHIP.EfficiencyClass. */
#ifndef GB_SYSINFO_WIN_PARSE_H
#define GB_SYSINFO_WIN_PARSE_H

#include <stddef.h>

#define SI_WIN_MAXKINDS 8
#define SI_WIN_MAXCACHES 16

/* Cores of one EfficiencyClass (higher is faster). */
struct si_win_kind
{
  unsigned efficiency_class;
  int cores, threads;
};

/* One distinct kind of cache. */
struct si_win_cache
{
  unsigned level;
  const char *type;             /* "Data", "Instruction", "Unified", "Trace" */
  unsigned long size;
  unsigned ways;                /* 0 for fully associative */
  unsigned line, shared_by;     /* shared_by: logical CPUs per instance */
  int instances;
  int seen_by_biggest;          /* a CPU of the fastest kind uses it */
};

struct si_win_topology
{
  int logical, physical, packages, smt_cores;
  int nkinds;                   /* fastest first */
  struct si_win_kind kinds[SI_WIN_MAXKINDS];
  int ncaches;
  struct si_win_cache caches[SI_WIN_MAXCACHES];
};

/* Parses the LEN bytes that GetLogicalProcessorInformationEx (RelationAll)
 * returned.  AFFINITY_BYTES is sizeof (KAFFINITY) of the process that
 * made the call: 8 on 64-bit Windows, 4 on 32-bit.  Returns 0, or -1 when
 * a record does not fit the buffer or the buffer names no core. */
int si_win_parse_topology (const unsigned char *buf, size_t len,
                           size_t affinity_bytes, struct si_win_topology *out);

/* The product name ("Windows 11", "Windows Server 2022") of the version
 * that RtlGetVersion reports; WORKSTATION is wProductType ==
 * VER_NT_WORKSTATION.  Writes at most N bytes to BUF and returns it. */
const char *si_win_product_name (char *buf, size_t n, unsigned major,
                                 unsigned minor, unsigned build, int workstation);

/* The architecture ("x86_64", "aarch64") of an IMAGE_FILE_MACHINE_*
 * number, such as the native machine IsWow64Process2 reports; NULL when
 * unknown. */
const char *si_win_machine_arch (unsigned machine);

#endif
