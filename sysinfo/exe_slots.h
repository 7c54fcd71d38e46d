/* exe_slots.h: where this executable's calls to a library function go.
 *
 * A call from the executable to a shared library's function jumps through
 * a slot that the dynamic linker fills at start-up or at the first call:
 * a GOT or PLT entry, found from the executable's own relocations (its
 * dynamic section, which the linker's _DYNAMIC and __ehdr_start point at,
 * no C library function asked).  What a slot holds is what the calls
 * run, whatever dladdr says of it; a library that overwrote a slot after
 * start-up shows there too.  ELF executables on x86-64 and aarch64 (the
 * relocation types that fill a pointer: GLOB_DAT, JUMP_SLOT, the absolute
 * 64-bit word); elsewhere exe_slots_of says it cannot tell. */
#ifndef GB_EXE_SLOTS_H
#define GB_EXE_SLOTS_H

#include <stddef.h>

/* Puts into SLOTS[0..MAX) the addresses that the executable's slots bound
 * to SYMBOL hold (a slot not yet bound, still pointing into the
 * executable's own PLT, holds what its first call will bind, not a
 * target: it is left out by the caller, which sees it inside the
 * executable).  Returns how many slots there are (more than MAX are
 * counted, not stored), or -1 where this cannot be read. */
int exe_slots_of (const char *symbol, const void **slots, size_t max);

#endif
