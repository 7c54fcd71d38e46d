/* unit-self-maps.c: this process's mappings as sysinfo reads them
 * (sysinfo/self_maps.h), its executable's slots bound to GMP's functions
 * (sysinfo/exe_slots.h), and the check of the timed functions against
 * them (sysinfo/entry_maps.c): the real libgmp passes, an address outside
 * any code is reported, and so is a library.path that names another file.
 * Linux on x86-64 and aarch64; elsewhere the readers say they cannot, and
 * that is checked instead. */
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "sysinfo/exe_slots.h"
#include "sysinfo/internal.h"
#include "sysinfo/self_maps.h"
#include "tests/check.h"

/* Whether PATH's file name starts with "libgmp.". */
static int
named_libgmp (const char *path)
{
  const char *base = strrchr (path, '/');
  return strncmp (base ? base + 1 : path, "libgmp.", 7) == 0;
}

static void
test_mappings (void)
{
  struct self_maps maps;
  char exe[4096];
  int status = self_maps_read (&maps);
  check (status == 0 && maps.n > 3, "/proc/self/maps is read (%zu mappings)", maps.n);
  check (self_maps_file_name ("", exe, sizeof exe) == 0 && strstr (exe, "unit-self-maps"),
         "the executable is named as the kernel names it (%s)", exe);
  const struct self_map *code = self_maps_code_at (&maps, (const void *) test_mappings);
  check (code && strcmp (code->path, exe) == 0, "this function lies in the executable's code");
  code = self_maps_code_at (&maps, (const void *) __gmpz_mul);
  check (code && named_libgmp (code->path), "mpz_mul lies in a libgmp's code (%s)",
         code ? code->path : "none");
  int local = 0;
  check (self_maps_code_at (&maps, &local) == NULL, "the stack is no code");
  char named[4096];
  check (code && self_maps_file_name (code->path, named, sizeof named) == 0
         && strcmp (named, code->path) == 0,
         "a mapped file's name, opened again, is the name the mappings give");

  const void *slots[8];
  mpz_t a, b;
  mpz_inits (a, b, NULL);
  mpz_mul (a, b, b);            /* binds a lazy slot, if there is one */
  mpz_clears (a, b, NULL);
  int n = exe_slots_of ("__gmpz_mul", slots, 8);
  int in_gmp = n > 0;
  for (int i = 0; i < n && i < 8; i++)
    {
      const struct self_map *m = self_maps_code_at (&maps, slots[i]);
      in_gmp &= m && (named_libgmp (m->path) || strcmp (m->path, exe) == 0);
    }
  check (in_gmp, "the executable's slots bound to mpz_mul point into libgmp (%d)", n);
  check (exe_slots_of ("no_such_symbol_here", slots, 8) == 0, "a symbol it does not use has none");
  self_maps_free (&maps);
}

static void
test_entry_points (void)
{
  struct self_maps maps;
  self_maps_read (&maps);
  const struct self_map *code = self_maps_code_at (&maps, (const void *) __gmpz_mul);
  char libgmp[4096];
  snprintf (libgmp, sizeof libgmp, "%s", code ? code->path : "");
  self_maps_free (&maps);

  struct si_entry_point real[] = { { "__gmpz_mul", (const void *) __gmpz_mul } };
  cJSON *foreign = cJSON_CreateArray ();
  int lines = si_entry_points_maps (foreign, libgmp, real, 1);
  check (lines == 0 && cJSON_GetArraySize (foreign) == 0, "the real mpz_mul is not foreign (%d)",
         lines);

  char *heap = malloc (64);
  struct si_entry_point data[] = { { "__gmpz_mul", heap } };
  lines = si_entry_points_maps (foreign, libgmp, data, 1);
  const cJSON *line = cJSON_GetArrayItem (foreign, 0);
  check (lines == 1 && cJSON_IsString (line)
         && strcmp (line->valuestring,
                    "__gmpz_mul: no code mapping (/proc/self/maps, its address)") == 0,
         "an address outside any code is foreign (%s)",
         cJSON_IsString (line) ? line->valuestring : "no line");
  free (heap);
  cJSON_Delete (foreign);

  foreign = cJSON_CreateArray ();
  lines = si_entry_points_maps (foreign, "/proc/self/exe", real, 1);
  line = cJSON_GetArrayItem (foreign, 0);
  check (lines == 1 && cJSON_IsString (line)
         && strncmp (line->valuestring, "library.path names ", 19) == 0,
         "a library.path naming another file than the mapped libgmp is reported (%s)",
         cJSON_IsString (line) ? line->valuestring : "no line");
  cJSON_Delete (foreign);
}

int
main (void)
{
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
  test_mappings ();
  test_entry_points ();
#else
  struct self_maps maps;
  const void *slots[1];
  check (self_maps_read (&maps) == -1 || exe_slots_of ("__gmpz_mul", slots, 1) == -1,
         "without /proc or ELF slots the readers say they cannot");
#endif
  return check_exit_status ();
}
