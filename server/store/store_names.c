/* store_names.c: the numbers of names known to be committed (see
 * store_names.h). */
#include "server/store/store_names.h"

#include <stdlib.h>
#include <string.h>

void
store_names_init (struct store_names *k)
{
  pthread_mutex_init (&k->lock, NULL);
  k->known = NULL;
  k->n = 0;
}

static void
free_numbers (struct name_number *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (v[i].name);
  free (v);
}

void
store_names_destroy (struct store_names *k)
{
  free_numbers (k->known, k->n);
  pthread_mutex_destroy (&k->lock);
}

static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct name_number *) a)->name, ((const struct name_number *) b)->name);
}

int64_t
store_names_find (struct store_names *k, const char *name)
{
  struct name_number key = { (char *) name, 0 };
  int64_t id = 0;

  if (!name)
    return 0;
  pthread_mutex_lock (&k->lock);
  const struct name_number *hit = k->n ? bsearch (&key, k->known, k->n, sizeof *k->known, by_name)
    : NULL;
  if (hit)
    id = hit->id;
  pthread_mutex_unlock (&k->lock);
  return id;
}

void
store_names_replace (struct store_names *k, struct name_number *v, size_t n)
{
  if (n)
    qsort (v, n, sizeof *v, by_name);
  pthread_mutex_lock (&k->lock);
  struct name_number *old = k->known;
  size_t nold = k->n;
  k->known = v;
  k->n = n;
  pthread_mutex_unlock (&k->lock);
  free_numbers (old, nold);
}
