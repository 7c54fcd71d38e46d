/* registry.c: the list of all tests and the weights of the hierarchy.
 *
 * The order of suites here is the order in which `gmpbench run` runs them:
 * GMPbench's own tests first (base, then app), then the extensions and the
 * other libraries.  The weights are GMPbench 0.2's: within base, multiply
 * and divide weigh 1, gcd and gcdext 0.5; within app, rsa and pi weigh 1.
 */
#include "suites/suites.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suites/registry_id.h"
#include "suites/registry_libs.h"

/* GMP's suites; those of the ext tree whose names share a prefix are
 * adjacent (every ext.rsa test, key generation and the large sizes
 * included), so that listings show each branch once. */
static const struct bench_suite *const gmp_suites[] = {
  &suite_gmp_multiply,
  &suite_gmp_divide,
  &suite_gmp_gcd,
  &suite_gmp_rsa,
  &suite_gmp_pi,
  &suite_gmp_rsa_ext,
  &suite_gmp_rsa_large,
  &suite_gmp_keygen,
  &suite_gmp_ext,
};

static const struct
{
  const char *node;
  double weight;
} node_weights[] = {
  { "gmpbench.base.multiply", 1.0 },
  { "gmpbench.base.divide", 1.0 },
  { "gmpbench.base.gcd", 0.5 },
  { "gmpbench.base.gcdext", 0.5 },
  { "gmpbench.app.rsa", 1.0 },
  { "gmpbench.app.pi", 1.0 },
};

/* GMP's suites first, then the other libraries' (registry_libs.c). */
static const struct bench_suite *
suite_at (size_t s)
{
  if (s < GB_ARRAY_SIZE (gmp_suites))
    return gmp_suites[s];
  s -= GB_ARRAY_SIZE (gmp_suites);
  return s < library_suites_count ? library_suites[s] : NULL;
}

size_t
registry_count (void)
{
  size_t n = 0;
  for (size_t s = 0; suite_at (s); s++)
    n += suite_at (s)->ntests;
  return n;
}

static const struct bench_suite *
locate (size_t *i)
{
  for (size_t s = 0; suite_at (s); s++)
    {
      if (*i < suite_at (s)->ntests)
        return suite_at (s);
      *i -= suite_at (s)->ntests;
    }
  return NULL;
}

const struct bench_test *
registry_test (size_t i)
{
  const struct bench_suite *s = locate (&i);
  return s ? &s->tests[i] : NULL;
}

const char *
registry_suite_name (size_t i)
{
  const struct bench_suite *s = locate (&i);
  return s ? s->name : NULL;
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
  for (size_t i = 0; i < GB_ARRAY_SIZE (node_weights); i++)
    if (strcmp (node_weights[i].node, node) == 0)
      return node_weights[i].weight;
  return 1.0;
}

double
registry_test_weight (const char *test_name)
{
  const char *last = strrchr (test_name, '.');
  if (!last)
    return 1.0;
  size_t len = (size_t) (last - test_name);
  for (size_t i = 0; i < GB_ARRAY_SIZE (node_weights); i++)
    if (strlen (node_weights[i].node) == len
        && strncmp (node_weights[i].node, test_name, len) == 0)
      return node_weights[i].weight;
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

/* One line per test of the suites every build has, sorted by name:
 * "NAME FLAGS W1 W2 ..." with the weight of each node from the root down
 * to the test itself. */
static void
compute_id (void)
{
  size_t n = 0, cap = registry_count ();
  const char **names = gb_xmalloc ((cap ? cap : 1) * sizeof *names);
  struct gb_sha256 h;
  unsigned char md[32];
  char line[64], node[256];

  for (size_t s = 0; suite_at (s); s++)
    if (!registry_suite_optional (suite_at (s)))
      for (size_t i = 0; i < suite_at (s)->ntests; i++)
        names[n++] = suite_at (s)->tests[i].name;
  qsort (names, n, sizeof *names, compare_strings);
  gb_sha256_init (&h);
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
