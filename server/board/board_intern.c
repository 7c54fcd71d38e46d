/* board_intern.c: the snapshot's string tables.
 *
 * Strings are interned per field in open-addressing hash tables, so an
 * entry holds small integers and a filter is resolved to integers once.
 * A table keeps its names in order of first appearance (an index never
 * changes, so an update copies the tables and the old indexes stay
 * valid) with how many listed results have each, and, once the snapshot
 * is made, the names with results sorted for the pages' choices.
 */
#include "server/board/board_internal.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* The slot of S in T: where it is, or the free one where it would go. */
static uint32_t *
slot_of (const struct strtab *t, const char *s)
{
  size_t mask = t->nslots - 1, i = (size_t) gb_hash_string (s) & mask;
  while (t->slots[i] && strcmp (t->names[t->slots[i] - 1], s) != 0)
    i = (i + 1) & mask;
  return &t->slots[i];
}

static void
grow_slots (struct strtab *t)
{
  free (t->slots);
  t->nslots = t->nslots ? 2 * t->nslots : 64;
  t->slots = gb_xcalloc (t->nslots, sizeof *t->slots);
  for (size_t i = 0; i < t->n; i++)
    *slot_of (t, t->names[i]) = (uint32_t) i + 1;
}

uint32_t
board_intern (struct strtab *t, const char *s)
{
  if (2 * (t->n + 1) > t->nslots)
    grow_slots (t);
  uint32_t *slot = slot_of (t, s);
  if (!*slot)
    {
      if (t->n == t->cap)
        {
          t->cap = t->cap ? 2 * t->cap : 16;
          t->names = gb_xrealloc (t->names, t->cap * sizeof *t->names);
          t->counts = gb_xrealloc (t->counts, t->cap * sizeof *t->counts);
        }
      t->names[t->n] = gb_xstrdup (s);
      t->counts[t->n] = 0;
      *slot = (uint32_t) ++t->n;
    }
  t->counts[*slot - 1]++;
  return *slot - 1;
}

/* The index of S in T, or -1. */
int64_t
board_lookup (const struct strtab *t, const char *s)
{
  if (!t->nslots)
    return -1;
  uint32_t slot = *slot_of (t, s);
  return slot ? (int64_t) slot - 1 : -1;
}

struct named
{
  const char *name;
  size_t count;
};

static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct named *) a)->name, ((const struct named *) b)->name);
}

/* Fills T's sorted view. */
void
board_sort_names (struct strtab *t)
{
  struct named *v = gb_xmalloc ((t->n + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->counts[i])
      v[n++] = (struct named) { t->names[i], t->counts[i] };
  qsort (v, n, sizeof *v, by_name);
  t->sorted = gb_xmalloc ((n + 1) * sizeof *t->sorted);
  t->sorted_counts = gb_xmalloc ((n + 1) * sizeof *t->sorted_counts);
  for (size_t i = 0; i < n; i++)
    {
      t->sorted[i] = v[i].name;
      t->sorted_counts[i] = v[i].count;
    }
  t->nsorted = n;
  free (v);
}

void
board_strtab_free (struct strtab *t)
{
  for (size_t i = 0; i < t->n; i++)
    free (t->names[i]);
  free (t->names);
  free (t->counts);
  free (t->slots);
  free (t->sorted);
  free (t->sorted_counts);
}

/* A copy of FROM, its counts included. */
void
board_strtab_copy (struct strtab *to, const struct strtab *from)
{
  memset (to, 0, sizeof *to);
  to->n = from->n;
  to->cap = from->n + 16;
  to->names = gb_xmalloc (to->cap * sizeof *to->names);
  to->counts = gb_xmalloc (to->cap * sizeof *to->counts);
  for (size_t i = 0; i < from->n; i++)
    {
      to->names[i] = gb_xstrdup (from->names[i]);
      to->counts[i] = from->counts[i];
    }
  to->nslots = from->nslots;
  to->slots = gb_xcalloc (to->nslots + 1, sizeof *to->slots);
  for (size_t i = 0; i < to->nslots; i++)
    to->slots[i] = from->slots[i];
}
