/* plausible_steady.c: node scores with the key generation below them left
 * out (see plausible_steady.h).
 *
 * The mixed nodes and their children are read from the registry once
 * (under pthread_once: the server judges from many threads): every
 * ancestor of a key generation node, and each one's children but key
 * generation, with their weights.  A result's steady scores are then one
 * pass over the mixed nodes, deepest first, so that a mixed child (rsa
 * under openssl) counts with its own steady score. */
#include "server/judge/plausible_steady.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "model/registry.h"

struct mixed
{
  size_t node;                  /* index of its name */
  size_t *children;             /* indices of its children but key generation */
  double *weights;              /* their weights among siblings */
  size_t nchildren;
};

static char **names;            /* sorted */
static size_t nnames;
static unsigned char *is_mixed; /* by index */
static struct mixed *mixed;     /* deepest first */
static size_t nmixed;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* Whether one of the dotted components of the first LEN characters of S
 * is "keygen". */
static int
has_keygen (const char *s, size_t len)
{
  static const char word[] = "keygen";
  const size_t wlen = sizeof word - 1;
  for (size_t i = 0; i + wlen <= len; i++)
    if ((i == 0 || s[i - 1] == '.') && memcmp (s + i, word, wlen) == 0
        && (i + wlen == len || s[i + wlen] == '.'))
      return 1;
  return 0;
}

int
steady_key_generation (const char *name)
{
  return has_keygen (name, strlen (name));
}

/* The index of the first LEN characters of S in the list *LIST of *N
 * names, added if new. */
static size_t
add_unique (char ***list, size_t *n, const char *s, size_t len)
{
  for (size_t i = 0; i < *n; i++)
    if (strlen ((*list)[i]) == len && strncmp ((*list)[i], s, len) == 0)
      return i;
  *list = gb_xrealloc (*list, (*n + 1) * sizeof **list);
  char *copy = gb_xmalloc (len + 1);
  memcpy (copy, s, len);
  copy[len] = '\0';
  (*list)[*n] = copy;
  return (*n)++;
}

static size_t
dots (const char *s)
{
  size_t n = 0;
  for (; *s; s++)
    n += *s == '.';
  return n;
}

static int
by_name (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
deepest_first (const void *pa, const void *pb)
{
  size_t a = dots (names[((const struct mixed *) pa)->node]);
  size_t b = dots (names[((const struct mixed *) pb)->node]);
  return (a < b) - (a > b);
}

/* Every ancestor of a key generation node: the prefixes of its tests'
 * names that end at a dot before the "keygen" component. */
static void
find_mixed (char ***list, size_t *n)
{
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *t = registry_test (i)->name;
      if (!steady_key_generation (t))
        continue;
      for (const char *dot = strchr (t, '.'); dot; dot = strchr (dot + 1, '.'))
        {
          if (has_keygen (t, (size_t) (dot - t)))
            break;
          add_unique (list, n, t, (size_t) (dot - t));
        }
    }
}

/* The children of the mixed node NODE but key generation, into *LIST. */
static void
find_children (const char *node, char ***list, size_t *n)
{
  size_t len = strlen (node);
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *t = registry_test (i)->name;
      if (strncmp (t, node, len) != 0 || t[len] != '.')
        continue;
      const char *dot = strchr (t + len + 1, '.');
      size_t end = dot ? (size_t) (dot - t) : strlen (t);
      if (!has_keygen (t, end))
        add_unique (list, n, t, end);
    }
}

static int
by_key (const void *key, const void *elem)
{
  return strcmp (key, *(char *const *) elem);
}

/* The index of NAME in the sorted NAMES, or -1. */
static long
find_name (const char *name)
{
  char **hit = nnames ? bsearch (name, names, nnames, sizeof *names, by_key) : NULL;
  return hit ? (long) (hit - names) : -1;
}

static void
build_tables (void)
{
  char **mixed_names = NULL;
  size_t nmixed_names = 0;
  find_mixed (&mixed_names, &nmixed_names);

  /* Each mixed node's children but key generation, as names for now. */
  char ***kids = gb_xcalloc (nmixed_names + 1, sizeof *kids);
  size_t *nkids = gb_xcalloc (nmixed_names + 1, sizeof *nkids);
  for (size_t m = 0; m < nmixed_names; m++)
    find_children (mixed_names[m], &kids[m], &nkids[m]);

  /* Every name, sorted, then the mixed nodes by index. */
  for (size_t m = 0; m < nmixed_names; m++)
    {
      add_unique (&names, &nnames, mixed_names[m], strlen (mixed_names[m]));
      for (size_t k = 0; k < nkids[m]; k++)
        add_unique (&names, &nnames, kids[m][k], strlen (kids[m][k]));
    }
  if (nnames)
    qsort (names, nnames, sizeof *names, by_name);
  is_mixed = gb_xcalloc (nnames + 1, 1);
  mixed = gb_xmalloc ((nmixed_names + 1) * sizeof *mixed);
  for (size_t m = 0; m < nmixed_names; m++)
    {
      struct mixed *x = &mixed[nmixed++];
      x->node = (size_t) find_name (mixed_names[m]);
      is_mixed[x->node] = 1;
      x->nchildren = nkids[m];
      x->children = gb_xmalloc ((nkids[m] + 1) * sizeof *x->children);
      x->weights = gb_xmalloc ((nkids[m] + 1) * sizeof *x->weights);
      for (size_t k = 0; k < nkids[m]; k++)
        {
          x->children[k] = (size_t) find_name (kids[m][k]);
          x->weights[k] = registry_node_weight (kids[m][k]);
          free (kids[m][k]);
        }
      free (kids[m]);
      free (mixed_names[m]);
    }
  qsort (mixed, nmixed, sizeof *mixed, deepest_first);
  free (kids);
  free (nkids);
  free (mixed_names);
}

size_t
steady_count (void)
{
  pthread_once (&tables_once, build_tables);
  return nnames;
}

long
steady_find (const char *name)
{
  pthread_once (&tables_once, build_tables);
  return find_name (name);
}

int
steady_mixed (size_t i)
{
  pthread_once (&tables_once, build_tables);
  return i < nnames && is_mixed[i];
}

void
steady_apply (double *v)
{
  pthread_once (&tables_once, build_tables);
  for (size_t m = 0; m < nmixed; m++)
    {
      const struct mixed *x = &mixed[m];
      double sum = 0, weight = 0;
      if (isnan (v[x->node]))
        continue;
      for (size_t k = 0; k < x->nchildren; k++)
        if (!isnan (v[x->children[k]]))
          {
            sum += x->weights[k] * v[x->children[k]];
            weight += x->weights[k];
          }
      if (weight > 0)
        v[x->node] = sum / weight;
    }
}
