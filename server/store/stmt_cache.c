/* stmt_cache.c: open addressing with linear probing over FNV-1a hashes
 * (see stmt_cache.h).  The table doubles when half full. */
#include "server/store/stmt_cache.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

static struct stmt_entry *
probe (struct stmt_entry *slots, size_t size, const char *sql)
{
  size_t i = gb_hash_string (sql) & (size - 1);
  while (slots[i].sql && strcmp (slots[i].sql, sql) != 0)
    i = (i + 1) & (size - 1);
  return &slots[i];
}

static void
grow (struct stmt_cache *c)
{
  size_t size = c->size ? c->size * 2 : 64;
  struct stmt_entry *slots = gb_xcalloc (size, sizeof *slots);
  for (size_t i = 0; i < c->size; i++)
    if (c->slots[i].sql)
      *probe (slots, size, c->slots[i].sql) = c->slots[i];
  free (c->slots);
  c->slots = slots;
  c->size = size;
}

struct stmt_entry *
stmt_cache_get (struct stmt_cache *c, const char *sql)
{
  if (2 * (c->used + 1) > c->size)
    grow (c);
  struct stmt_entry *e = probe (c->slots, c->size, sql);
  if (!e->sql)
    {
      e->sql = gb_xstrdup (sql);
      e->stmt = NULL;
      e->index = c->next++;
      c->used++;
    }
  return e;
}

void
stmt_cache_drop (struct stmt_cache *c, struct stmt_entry *e)
{
  /* Rebuild without E: deletion from a linear-probing table must not
   * leave a hole in another key's probe sequence. */
  struct stmt_entry *old = c->slots;
  size_t size = c->size;
  free (e->sql);
  e->sql = NULL;
  c->slots = gb_xcalloc (size, sizeof *c->slots);
  for (size_t i = 0; i < size; i++)
    if (old[i].sql)
      *probe (c->slots, size, old[i].sql) = old[i];
  free (old);
  c->used--;
}

void
stmt_cache_clear (struct stmt_cache *c, void (*free_stmt) (void *stmt))
{
  for (size_t i = 0; i < c->size; i++)
    if (c->slots[i].sql)
      {
        if (c->slots[i].stmt)
          free_stmt (c->slots[i].stmt);
        free (c->slots[i].sql);
      }
  free (c->slots);
  memset (c, 0, sizeof *c);
}
