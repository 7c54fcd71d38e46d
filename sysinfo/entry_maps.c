/* entry_maps.c: where GMP's timed functions really are, by the kernel's
 * mappings rather than by dladdr (docs/sysinfo.md).
 *
 * The libgmp is the one file with a name "libgmp.*" that the kernel maps
 * executable into this process (self_maps.h), or the executable itself
 * when none is (GMP linked statically); two such files are two GMPs, and
 * a library.path that names another file than that one misleads.  Each
 * timed function must then lie in that file's code: its address as the
 * executable takes it, and what every slot of the executable bound to it
 * holds (exe_slots.h: the GOT and PLT entries its calls jump through).  A
 * slot or address inside the executable itself, with GMP in a library,
 * is a lazy PLT slot not bound yet or the PLT stub a non-PIE executable
 * takes as a function's address: the calls reach the function through the
 * executable's bound slots, which are checked.  Nothing here asks the C
 * library where anything is. */
#include "sysinfo/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "sysinfo/exe_slots.h"
#include "sysinfo/self_maps.h"

#define MAX_SLOTS 16

/* Adds "WHAT" to FOREIGN with home directories hidden. */
static void
add_line (cJSON *foreign, const char *what)
{
  char *shown = si_public_text (what, getenv ("HOME"));
  cJSON_AddItemToArray (foreign, cJSON_CreateString (shown));
  free (shown);
}

static int
is_libgmp (const char *path)
{
  const char *base = strrchr (path, '/');
  return strncmp (base ? base + 1 : path, "libgmp.", 7) == 0;
}

/* The libgmp file the kernel maps (or EXE when none is) into WANT;
 * the number of distinct "libgmp.*" files mapped, each one past the first
 * listed in FOREIGN. */
static int
mapped_libgmp (const struct self_maps *maps, const char *exe, char *want, size_t n,
               cJSON *foreign)
{
  int files = 0;
  snprintf (want, n, "%s", exe);
  for (size_t i = 0; i < maps->n; i++)
    {
      const char *path = maps->map[i].path;
      if (!maps->map[i].exec || !is_libgmp (path) || (files > 0 && strcmp (path, want) == 0))
        continue;
      if (files++ == 0)
        snprintf (want, n, "%s", path);
      else
        {
          char line[8300];
          snprintf (line, sizeof line, "a second libgmp mapped beside %s: %s "
                    "(/proc/self/maps)", want, path);
          add_line (foreign, line);
        }
    }
  return files;
}

/* Whether ADDRESS lies in the code of WANT, or says nothing (inside the
 * executable EXE while GMP is a library); else puts the file that holds
 * it into *FILE. */
static int
in_libgmp (const struct self_maps *maps, const void *address, const char *want,
           const char *exe, const char **file)
{
  const struct self_map *m = self_maps_code_at (maps, address);
  *file = m ? (m->path[0] ? m->path : "anonymous memory") : "no code mapping";
  return m && (strcmp (m->path, want) == 0 || strcmp (m->path, exe) == 0);
}

/* Checks POINT (its address, then its slots) against WANT; 1 after adding
 * a line for it to FOREIGN, else 0. */
static int
check_point (const struct self_maps *maps, const struct si_entry_point *point,
             const char *want, const char *exe, cJSON *foreign)
{
  const void *at[1 + MAX_SLOTS];
  int slots = exe_slots_of (point->name, at + 1, MAX_SLOTS);
  int count = 1 + (slots < 0 ? 0 : slots < MAX_SLOTS ? slots : MAX_SLOTS);
  at[0] = point->address;
  for (int k = 0; k < count; k++)
    {
      const char *file;
      if (in_libgmp (maps, at[k], want, exe, &file))
        continue;
      char line[4400];
      snprintf (line, sizeof line, "%s: %s (/proc/self/maps, %s)", point->name, file,
                k == 0 ? "its address" : "a GOT slot of the executable");
      add_line (foreign, line);
      return 1;
    }
  return 0;
}

int
si_entry_points_maps (cJSON *foreign, const char *libgmp, const struct si_entry_point *points,
                      size_t n)
{
  struct self_maps maps;
  char exe[4096], want[4096], named[4096];
  if (self_maps_read (&maps) != 0)
    return -1;
  if (self_maps_file_name ("", exe, sizeof exe) != 0)
    {
      self_maps_free (&maps);
      return -1;
    }
  int added = mapped_libgmp (&maps, exe, want, sizeof want, foreign);
  added = added > 1 ? added - 1 : 0;
  if (libgmp[0] != '\0' && self_maps_file_name (libgmp, named, sizeof named) == 0
      && strcmp (named, want) != 0)
    {
      char line[8300];
      snprintf (line, sizeof line, "library.path names %s, the kernel maps %s "
                "(/proc/self/maps)", named, want);
      add_line (foreign, line);
      added++;
    }
  for (size_t i = 0; i < n; i++)
    added += check_point (&maps, &points[i], want, exe, foreign);
  self_maps_free (&maps);
  return added;
}
