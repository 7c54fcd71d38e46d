/* got-patch-gmp.c: a library that takes the program's calls to mpz_mul
 * over without interposing any symbol, for tests/t0130-stale-work.sh.
 *
 * Loaded with LD_PRELOAD, its constructor finds the executable's own PLT
 * slot for __gmpz_mul (the first object dl_iterate_phdr lists, its
 * DT_JMPREL relocations) and writes the address of a function of its own
 * there, which only calls GMP's.  The symbol __gmpz_mul still binds to
 * the real libgmp, and so dladdr on the address the program takes of it
 * names libgmp: only the slot shows where the calls go.  On x86-64 and
 * aarch64 (64-bit RELA relocations); elsewhere it does nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <gmp.h>

#if defined(__x86_64__) || defined(__aarch64__)
typedef void mul_fn (mpz_ptr, mpz_srcptr, mpz_srcptr);

static mul_fn *real_mul;

static void
patched_mul (mpz_ptr r, mpz_srcptr u, mpz_srcptr v)
{
  real_mul (r, u, v);
}

/* A dynamic entry's address: relocated in place by the dynamic linker on
 * most systems, not on all. */
static uintptr_t
address_of (uintptr_t value, uintptr_t base)
{
  return value < base ? value + base : value;
}

/* Writes PATCHED_MUL into the slot at SLOT, the page made writable. */
static void
overwrite (uintptr_t slot)
{
  long page = sysconf (_SC_PAGESIZE);
  uintptr_t start = slot & ~(uintptr_t) (page - 1);
  if (mprotect ((void *) start, (size_t) page, PROT_READ | PROT_WRITE) == 0)
    *(mul_fn **) slot = patched_mul;
}

static int
patch_executable (struct dl_phdr_info *info, size_t size, void *data)
{
  const ElfW(Dyn) *dyn = NULL;
  const ElfW(Sym) *symtab = NULL;
  const char *strtab = NULL;
  const ElfW(Rela) *jmprel = NULL;
  size_t bytes = 0;
  (void) size, (void) data;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *) (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  for (; dyn && dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == DT_SYMTAB)
      symtab = (const ElfW(Sym) *) address_of (dyn->d_un.d_ptr, info->dlpi_addr);
    else if (dyn->d_tag == DT_STRTAB)
      strtab = (const char *) address_of (dyn->d_un.d_ptr, info->dlpi_addr);
    else if (dyn->d_tag == DT_JMPREL)
      jmprel = (const ElfW(Rela) *) address_of (dyn->d_un.d_ptr, info->dlpi_addr);
    else if (dyn->d_tag == DT_PLTRELSZ)
      bytes = dyn->d_un.d_val;
  for (size_t i = 0; symtab && strtab && jmprel && i < bytes / sizeof *jmprel; i++)
    if (strcmp (strtab + symtab[ELF64_R_SYM (jmprel[i].r_info)].st_name, "__gmpz_mul") == 0)
      overwrite (info->dlpi_addr + jmprel[i].r_offset);
  return 1;                     /* the executable only */
}

__attribute__ ((constructor)) static void
patch (void)
{
  real_mul = (mul_fn *) dlsym (RTLD_DEFAULT, "__gmpz_mul");
  if (real_mul)
    dl_iterate_phdr (patch_executable, NULL);
}
#endif
