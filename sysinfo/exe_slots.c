/* exe_slots.c: the executable's slots bound to a symbol (see exe_slots.h):
 * its program headers give the load bias (where _DYNAMIC is against where
 * PT_DYNAMIC says it was linked), its dynamic section the symbol and
 * string tables and the two relocation tables (DT_RELA, DT_JMPREL), and
 * each relocation of a pointer naming the symbol a slot to read. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sysinfo/exe_slots.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

extern ElfW(Dyn) _DYNAMIC[] __attribute__ ((weak));
/* The executable's ELF header, its program headers after it: declared
 * as bytes of unknown length, which is what they are to this file. */
extern const unsigned char __ehdr_start[] __attribute__ ((weak, visibility ("hidden")));

/* Whether a relocation of TYPE fills a pointer-sized slot with the
 * symbol's address. */
static int
fills_pointer (unsigned long type)
{
#if defined(__x86_64__)
  return type == R_X86_64_GLOB_DAT || type == R_X86_64_JUMP_SLOT || type == R_X86_64_64;
#else
  return type == R_AARCH64_GLOB_DAT || type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_ABS64;
#endif
}

struct exe_tables
{
  uintptr_t bias;
  const ElfW(Sym) *symtab;
  const char *strtab;
  const ElfW(Rela) *rela, *jmprel;
  size_t rela_bytes, jmprel_bytes;
};

/* A dynamic entry's address: the dynamic linker has relocated most of
 * them in place, but not on every system. */
static uintptr_t
address_of (uintptr_t value, uintptr_t bias)
{
  return value < bias ? value + bias : value;
}

/* Reads the executable's tables into T; 0, or -1 without them. */
static int
read_tables (struct exe_tables *t)
{
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *) __ehdr_start;
  int found = 0;
  memset (t, 0, sizeof *t);
  if (!_DYNAMIC || !eh)
    return -1;
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *) ((const char *) eh + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; i++)
    if (ph[i].p_type == PT_DYNAMIC)
      {
        t->bias = (uintptr_t) _DYNAMIC - ph[i].p_vaddr;
        found = 1;
      }
  int plt_rela = 1;
  for (const ElfW(Dyn) *d = _DYNAMIC; found && d->d_tag != DT_NULL; d++)
    switch (d->d_tag)
      {
      case DT_SYMTAB:
        t->symtab = (const ElfW(Sym) *) address_of (d->d_un.d_ptr, t->bias);
        break;
      case DT_STRTAB:
        t->strtab = (const char *) address_of (d->d_un.d_ptr, t->bias);
        break;
      case DT_RELA:
        t->rela = (const ElfW(Rela) *) address_of (d->d_un.d_ptr, t->bias);
        break;
      case DT_RELASZ:
        t->rela_bytes = d->d_un.d_val;
        break;
      case DT_JMPREL:
        t->jmprel = (const ElfW(Rela) *) address_of (d->d_un.d_ptr, t->bias);
        break;
      case DT_PLTRELSZ:
        t->jmprel_bytes = d->d_un.d_val;
        break;
      case DT_PLTREL:
        plt_rela = d->d_un.d_val == DT_RELA;
        break;
      }
  if (!plt_rela)
    t->jmprel = NULL;
  return found && t->symtab && t->strtab ? 0 : -1;
}

/* Counts, from COUNT on, the relocations of the BYTES at R that fill a
 * slot with SYMBOL, storing what the slots hold into SLOTS[0..MAX). */
static int
scan (const struct exe_tables *t, const ElfW(Rela) *r, size_t bytes, const char *symbol,
      const void **slots, size_t max, int count)
{
  for (size_t i = 0; r && i < bytes / sizeof *r; i++)
    {
      size_t sym = ELF64_R_SYM (r[i].r_info);
      if (sym == 0 || !fills_pointer (ELF64_R_TYPE (r[i].r_info))
          || strcmp (t->strtab + t->symtab[sym].st_name, symbol) != 0)
        continue;
      if ((size_t) count < max)
        slots[count] = *(const void *const *) (r[i].r_offset + t->bias);
      count++;
    }
  return count;
}

int
exe_slots_of (const char *symbol, const void **slots, size_t max)
{
  struct exe_tables t;
  if (read_tables (&t) != 0)
    return -1;
  int count = scan (&t, t.rela, t.rela_bytes, symbol, slots, max, 0);
  return scan (&t, t.jmprel, t.jmprel_bytes, symbol, slots, max, count);
}
#else
int
exe_slots_of (const char *symbol, const void **slots, size_t max)
{
  (void) symbol, (void) slots, (void) max;
  return -1;
}
#endif
