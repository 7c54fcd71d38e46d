/* self_maps.h: this process's own mappings as the kernel lists them.
 *
 * dladdr and dl_iterate_phdr answer from the C library, and a preloaded
 * library can wrap them to say whatever it likes ("this address is in
 * libgmp").  /proc/self/maps is the kernel's list of what is mapped where,
 * each range with its permissions and the file it maps.  On Linux x86-64
 * and aarch64 it is read here with the system calls themselves (openat,
 * read, readlinkat, close issued by instruction, not through the C
 * library's wrappers), so that a library would have to patch this
 * program's code, not just define a function of the same name, to change
 * the answer; on other Linux architectures through the C library.  Other
 * systems have no /proc/self/maps: self_maps_read says so and the callers
 * rely on dladdr alone there (FreeBSD's procstat -v and kinfo_getvmmap,
 * macOS's mach_vm_region, Windows' VirtualQuery give the same information
 * and are not used yet). */
#ifndef GB_SELF_MAPS_H
#define GB_SELF_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct self_map
{
  uintptr_t start, end;         /* [start, end) */
  int exec;                     /* mapped executable */
  const char *path;             /* the file, "" for anonymous memory */
};

struct self_maps
{
  struct self_map *map;
  size_t n;
  char *text;                   /* the file's contents, which PATHs point into */
};

/* Reads the mappings into MAPS: 0, or -1 where this system has none to
 * read (MAPS is then empty). */
int self_maps_read (struct self_maps *maps);
void self_maps_free (struct self_maps *maps);

/* The executable mapping that holds ADDRESS, or NULL. */
const struct self_map *self_maps_code_at (const struct self_maps *maps, const void *address);

/* PATH's file as the kernel names it in the mappings (symbolic links
 * resolved), into OUT: 0, or -1 if it cannot be opened.  "" stands for
 * the running executable. */
int self_maps_file_name (const char *path, char *out, size_t n);

#endif
