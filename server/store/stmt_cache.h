/* stmt_cache.h: prepared statements of one connection, found by SQL text.
 *
 * Both drivers prepare each distinct statement once per connection and
 * keep it.  The set of statements is finite (the store composes SQL
 * only from fixed fragments), so the cache never evicts; it is a small
 * open hash table keyed by the text. */
#ifndef GB_SERVER_STMT_CACHE_H
#define GB_SERVER_STMT_CACHE_H

#include <stddef.h>

struct stmt_cache
{
  struct stmt_entry *slots;
  size_t size, used;
  unsigned next;                /* the index of the next new entry */
};

struct stmt_entry
{
  char *sql;                    /* NULL for an empty slot */
  void *stmt;                   /* the driver's handle */
  unsigned index;               /* unique per cache: 0, 1, 2... */
};

/* The entry for SQL: found (stmt != NULL), or a new one with stmt NULL
 * that the caller fills in (or removes with stmt_cache_drop). */
struct stmt_entry *stmt_cache_get (struct stmt_cache *c, const char *sql);
void stmt_cache_drop (struct stmt_cache *c, struct stmt_entry *e);
/* Calls FREE on every stored handle, then releases the table. */
void stmt_cache_clear (struct stmt_cache *c, void (*free_stmt) (void *stmt));

#endif
