/* store_names.h: the numbers of names (table names, migrations 13 and
 * 14) that the store knows to be committed, so that an upload's rows
 * take their numbers from memory instead of a lookup each in the writer's
 * transaction.  Only what was read outside any write transaction goes
 * in: a name given its number by a transaction that then failed is never
 * known.  Names are never renumbered, so what is known stays true. */
#ifndef GB_SERVER_STORE_NAMES_H
#define GB_SERVER_STORE_NAMES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct name_number
{
  char *name;
  int64_t id;
};

struct store_names
{
  pthread_mutex_t lock;
  struct name_number *known;    /* sorted by name */
  size_t n;
};

void store_names_init (struct store_names *k);
void store_names_destroy (struct store_names *k);

/* The number of NAME, or 0 when it is not known (or NAME is NULL). */
int64_t store_names_find (struct store_names *k, const char *name);

/* What is known becomes the N names of V (malloc'ed, names too; taken
 * over by K). */
void store_names_replace (struct store_names *k, struct name_number *v, size_t n);

#endif
