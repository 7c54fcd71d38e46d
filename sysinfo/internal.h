/* internal.h: what the files of sysinfo/ share and nothing outside uses.
 *
 * Values are written straight into the cJSON "system" object, under the
 * names of model/doc_system.h, through the si_put_* helpers, which also
 * record where each value came from in a "sources" object beside it
 * (system.cpu.sources.identity = "cpuid", ...).
 * A later put replaces an earlier one, so a collector runs its readers from
 * the least to the most trustworthy.  The decoders (x86, ARM MIDR, RISC-V,
 * POWER, s390) are pure functions of recorded numbers, so the tests can
 * exercise them on any host. */
#ifndef GB_SYSINFO_INTERNAL_H
#define GB_SYSINFO_INTERNAL_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "model/cpu_names.h"
#include "model/doc_system.h"

/* ---- json.c: members with sources ---------------------------------- */

/* The object KEY of PARENT, created when absent. */
cJSON *si_section (cJSON *parent, const char *key);
/* Set KEY of SEC (replacing any previous value) and its source; a NULL
 * SOURCE leaves no source entry. */
void si_put_str (cJSON *sec, const char *key, const char *val, const char *source);
void si_put_num (cJSON *sec, const char *key, double val, const char *source);
void si_put_bool (cJSON *sec, const char *key, int val, const char *source);
void si_put_null (cJSON *sec, const char *key);
/* Unless KEY of SEC holds a value: null, with the source "not reported:
 * WHAT", or WHAT added to such a source ("; WHAT"). */
void si_put_absent (cJSON *sec, const char *key, const char *what);
void si_put_item (cJSON *sec, const char *key, cJSON *item, const char *source);
/* CPU.emulated_cpu, created when absent: the processor an emulator
 * presents, kept apart from the machine's own identity. */
cJSON *si_emulated_cpu (cJSON *cpu);
/* Whether KEY holds something other than null. */
int si_has (const cJSON *sec, const char *key);
const char *si_get_str (const cJSON *sec, const char *key);
double si_get_num (const cJSON *sec, const char *key, double fallback);

/* ---- gmp_build.c: the kind of the loaded GMP ------------------------ */

/* Adds "build" (fat, distribution, native, unknown) to GMP, and on x86-64
 * "code" {mulx, adcx_adox}; LIBRARY_PATH is the loaded libgmp's file ("" or
 * NULL when unknown). */
void si_gmp_build (cJSON *gmp, const char *library_path);

/* ---- entry_maps.c: the timed functions by the kernel's mappings ------ */

/* A function the tests time, as this program calls it. */
struct si_entry_point
{
  const char *name;             /* its symbol, "__gmpz_mul" */
  const void *address;          /* its address as the executable takes it */
};

/* Adds to FOREIGN a line for each of POINTS[0..N) that lies, or whose
 * slots in the executable point, outside the code of the libgmp file
 * /proc/self/maps shows (the executable when none: static GMP), for a
 * second libgmp mapped, and for a LIBGMP (library.path, "" when none)
 * that names another file; returns how many lines, or -1 where the
 * mappings cannot be read (not Linux). */
int si_entry_points_maps (cJSON *foreign, const char *libgmp,
                          const struct si_entry_point *points, size_t n);

/* ---- rootfs.c: files under a root directory ------------------------- */

struct si_root
{
  char dir[4096];               /* "" for the live system */
  int live;
};

void si_root_init (struct si_root *r, const char *root);
/* The whole file ROOT/REL, NUL-terminated, trailing white space removed;
 * NULL when it cannot be read.  The caller frees it. */
char *si_read (const struct si_root *r, const char *rel);
/* The whole file ROOT/REL as it is, its length in *N (a NUL after it);
 * NULL when it cannot be read.  The caller frees it. */
char *si_read_bytes (const struct si_root *r, const char *rel, size_t *n);
int si_read_long (const struct si_root *r, const char *rel, long *out);
int si_exists (const struct si_root *r, const char *rel);
/* Parses a kernel CPU list ("0-3,8,10-11") into SET (MAX entries, one byte
 * per CPU); returns the number of CPUs in it, or -1 when malformed. */
int si_cpulist (const char *s, unsigned char *set, int max);

/* /proc/cpuinfo and /proc/sysinfo style "key : value" text, split into
 * blocks at blank lines. */
struct si_kv
{
  char *key;
  char *val;
};
struct si_block
{
  struct si_kv *kv;
  int n;
};
struct si_kvfile
{
  struct si_block *blocks;
  int nblocks;
};
int si_kvfile_parse (const char *text, struct si_kvfile *out);
void si_kvfile_free (struct si_kvfile *f);
const char *si_block_get (const struct si_block *b, const char *key);
/* The first value of KEY in any block. */
const char *si_kvfile_get (const struct si_kvfile *f, const char *key);

/* ---- decoders ------------------------------------------------------- */

/* model/x86_models.c, model/arm_midr.c: the names of model/cpu_names.h */

/* x86.c */
void si_x86_identity (char *buf, size_t n, const char *vendor_id,
                      int family, int model, int stepping);
/* Puts what CPUID says (vendor string of leaf 0, EAX of leaf 1, the
 * brand string of leaves 0x80000002-4 or NULL) into CPU: identity,
 * vendor, family, model, stepping, microarchitecture, code name, brand,
 * name.  Under an EMULATOR (not NULL) they describe the emulator's
 * synthetic processor and go to CPU.emulated_cpu instead; CPU keeps the
 * native reader's values, and an identity missing there becomes
 * "emulated:EMULATOR:" followed by the CPUID key. */
void si_x86_put_cpuid (cJSON *cpu, const char *emulator, const char *vendor,
                       unsigned leaf1_eax, const char *brand);
/* The "@ 2.40GHz" clock of a brand string, in MHz, or 0. */
double si_brand_mhz (const char *brand);

/* arm.c */
struct si_midr
{
  unsigned implementer, variant, part, revision;
};
void si_arm_identity (char *buf, size_t n, const struct si_midr *m);

/* riscv.c */
const char *si_riscv_vendor_name (unsigned long long mvendorid);
const char *si_riscv_uarch (unsigned long long mvendorid,
                            unsigned long long marchid, const char *uarch);
/* Adds the extensions of an ISA string ("rv64imafdcv_zba_zbb") that
 * matter to bignum code to FEATURES. */
void si_riscv_isa_features (const char *isa, cJSON *features, const char *source);

/* power.c */
const char *si_power_pvr_name (unsigned pvr);

/* s390.c */
const char *si_s390_machine_name (unsigned type);
const char *si_s390_uarch (unsigned type);

/* ---- platform readers ----------------------------------------------- */

/* linux.c: everything /proc, /sys and /etc/os-release tell. */
void si_linux_collect (cJSON *system, const struct si_root *r);
/* Only the "os" section of si_linux_collect: the distribution of R's
 * os-release and its kernel. */
void si_linux_os (cJSON *system, const struct si_root *r);

/* arm_live.c: HWCAPs and MIDR_EL1 of the running AArch64 core (a no-op
 * elsewhere). */
void si_arm_live_collect (cJSON *system);

/* riscv_live.c: AT_HWCAP and riscv_hwprobe of the running RISC-V hart (a
 * no-op elsewhere). */
void si_riscv_live_collect (cJSON *system);

/* x86_cpuid.c: the live CPUID view (x86 builds only; a no-op elsewhere). */
void si_x86_cpuid_collect (cJSON *system);
/* The timestamp counter, for clock.c; 0 where there is none. */
unsigned long long si_tsc_read (void);

/* bsd_sysctl.c: macOS and FreeBSD, from a sysctl provider that the real
 * reader (sysctl_live.c) and the unit tests' mocks implement. */
struct si_sysctl
{
  /* Both return 0 on success and -1 when NAME does not exist. */
  int (*get_str) (void *ctx, const char *name, char *buf, size_t len);
  int (*get_i64) (void *ctx, const char *name, long long *out);
  void *ctx;
};
void si_darwin_from_sysctl (cJSON *system, const struct si_sysctl *s);
void si_freebsd_from_sysctl (cJSON *system, const struct si_sysctl *s);
void si_sysctl_collect (cJSON *system);   /* the live OS's sysctls */

/* windows.c: Windows (built only there); its parsers are in win_parse.h. */
void si_windows_collect (cJSON *system);

/* os.c: kernel, libc, emulation. */
void si_os_collect (cJSON *system);
/* The architecture this executable was built for ("aarch64"). */
const char *si_built_arch (void);
/* The user-mode emulator this process runs under ("qemu-user"), or NULL;
 * decided once and cached. */
const char *si_emulator (void);

/* clock.c: a timed trial of the add chain, and the estimate of the clock
 * from N of them (T is reordered); a pure function, for the tests. */
struct si_clock_trial
{
  double wall, cpu;             /* seconds; cpu < 0: not known */
  double mhz;
  unsigned long long tsc;
};
struct si_clock_estimate
{
  double mhz, spread, tsc_mhz;
  int trials, clean, agreeing;
  const char *reason;           /* NULL when valid */
  char why[96];
};
void si_clock_estimate (struct si_clock_trial *t, int n, struct si_clock_estimate *e);

/* collect.c: the emulator this process runs under by the verdict of
 * every live reader (qemu-user, QEMU TCG, Rosetta 2, x86 emulation on
 * Windows on Arm), or NULL; from the last live sysinfo_collect, else from
 * a collection of its own, once. */
const char *si_live_emulator (void);

/* build.c: compiler, GMP, OpenSSL, executable. */
cJSON *si_build_collect (void);
/* TEXT (a path or a line of compiler flags) with every home directory in
 * it (HOME, /home/USER, /usr/home/USER, /Users/USER, C:\Users\USER)
 * replaced by "~"; the caller frees it. */
char *si_public_text (const char *text, const char *home);

#endif
