/* registry.c: looking tests and weights up in the registry's table
 * (registry_table.c), and the registry's identity (see registry.h). */
#include "model/registry.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The suite of test *I; *I becomes the test's index within it. */
static const struct bench_suite *
locate (size_t *i)
{
  for (size_t s = 0; s < registry_nsuites; s++)
    {
      if (*i < registry_suites[s].ntests)
        return &registry_suites[s];
      *i -= registry_suites[s].ntests;
    }
  return NULL;
}

size_t
registry_count (void)
{
  size_t n = 0;
  for (size_t s = 0; s < registry_nsuites; s++)
    n += registry_suites[s].ntests;
  return n;
}

const struct bench_test *
registry_test (size_t i)
{
  const struct bench_suite *s = locate (&i);
  return s ? &s->tests[i] : NULL;
}

const struct bench_suite *
registry_suite (size_t i)
{
  return locate (&i);
}

/* Tests sorted by name, for registry_find; built once, thread-safely. */
static const struct bench_test **by_name;
static size_t nby_name;
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int
compare_names (const void *a, const void *b)
{
  return strcmp ((*(const struct bench_test *const *) a)->name,
                 (*(const struct bench_test *const *) b)->name);
}

static void
sort_by_name (void)
{
  nby_name = registry_count ();
  by_name = gb_xmalloc ((nby_name ? nby_name : 1) * sizeof *by_name);
  for (size_t i = 0; i < nby_name; i++)
    by_name[i] = registry_test (i);
  qsort (by_name, nby_name, sizeof *by_name, compare_names);
}

const struct bench_test *
registry_find (const char *name)
{
  pthread_once (&by_name_once, sort_by_name);
  size_t lo = 0, hi = nby_name;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = strcmp (name, by_name[mid]->name);
      if (c == 0)
        return by_name[mid];
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}

double
registry_node_weight (const char *node)
{
  for (size_t i = 0; i < registry_nweights; i++)
    if (strcmp (registry_weights[i].node, node) == 0)
      return registry_weights[i].weight;
  return 1.0;
}

double
registry_test_weight (const char *test_name)
{
  const char *last = strrchr (test_name, '.');
  if (!last)
    return 1.0;
  size_t len = (size_t) (last - test_name);
  for (size_t i = 0; i < registry_nweights; i++)
    if (strlen (registry_weights[i].node) == len
        && strncmp (registry_weights[i].node, test_name, len) == 0)
      return registry_weights[i].weight;
  return 1.0;
}

int
registry_match (const char *pattern, const char *name)
{
  size_t len = strlen (pattern);
  if (fnmatch (pattern, name, 0) == 0)
    return 1;
  /* A node name selects its whole subtree: "gmpbench.app" matches
   * "gmpbench.app.rsa.512". */
  return strncmp (pattern, name, len) == 0 && name[len] == '.';
}

/* ------------------------------------------------------------ identity */

static char id_text[REGISTRY_ID_LEN + 1];
static pthread_once_t id_once = PTHREAD_ONCE_INIT;

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* "definitions N" (from generation 2 on), then one line per test of the
 * suites every build has, sorted by name: "NAME FLAGS W1 W2 ..." with the
 * weight of each node from the root down to the test itself. */
static void
compute_id (void)
{
  size_t n = 0, cap = registry_count ();
  const char **names = gb_xmalloc ((cap ? cap : 1) * sizeof *names);
  struct gb_sha256 h;
  unsigned char md[32];
  char line[64], node[256];

  for (size_t s = 0; s < registry_nsuites; s++)
    if (!registry_suites[s].optional)
      for (size_t i = 0; i < registry_suites[s].ntests; i++)
        names[n++] = registry_suites[s].tests[i].name;
  qsort (names, n, sizeof *names, compare_strings);
  gb_sha256_init (&h);
  snprintf (line, sizeof line, "definitions %d\n", REGISTRY_DEFINITIONS);
  gb_sha256_update (&h, line, strlen (line));
  snprintf (line, sizeof line, "digests %d\n", REGISTRY_DIGESTS);
  gb_sha256_update (&h, line, strlen (line));
  for (size_t i = 0; i < n; i++)
    {
      const struct bench_test *t = registry_find (names[i]);
      snprintf (line, sizeof line, " %u", t->flags & (BENCH_COMPAT | BENCH_FULL_ONLY));
      gb_sha256_update (&h, t->name, strlen (t->name));
      gb_sha256_update (&h, line, strlen (line));
      for (const char *end = t->name;; end++)
        if (*end == '.' || *end == '\0')
          {
            snprintf (node, sizeof node, "%.*s", (int) (end - t->name), t->name);
            snprintf (line, sizeof line, " %.17g", registry_node_weight (node));
            gb_sha256_update (&h, line, strlen (line));
            if (*end == '\0')
              break;
          }
      gb_sha256_update (&h, "\n", 1);
    }
  gb_sha256_final (&h, md);
  for (int i = 0; i < REGISTRY_ID_LEN / 2; i++)
    snprintf (id_text + 2 * i, 3, "%02x", md[i]);
  free (names);
}

const char *
registry_id (void)
{
  pthread_once (&id_once, compute_id);
  return id_text;
}
