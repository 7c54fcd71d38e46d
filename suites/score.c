/* score.c: weighted geometric means up the hierarchy (see score.h). */
#include "suites/score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "suites/stats.h"
#include "suites/suites.h"

static const struct score_input *
find_input (const struct score_input *in, size_t n, const char *name)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (in[i].name, name) == 0)
      return &in[i];
  return NULL;
}

static int
under (const char *node, const char *name)
{
  size_t len = strlen (node);
  return strncmp (node, name, len) == 0 && name[len] == '.';
}

/* The score of NODE, or 0 when some test below it has no result.  With
 * QUICK, full-only tests do not count as below it. */
static double
node_score (const char *node, const struct score_input *in, size_t n, int quick)
{
  size_t ntests = registry_count ();
  size_t len = strlen (node);
  size_t nchildren = 0;
  double *values = gb_xmalloc (ntests * sizeof *values);
  double *weights = gb_xmalloc (ntests * sizeof *weights);
  char **children = gb_xmalloc (ntests * sizeof *children);
  double result = 0;
  int complete = 1;

  const struct score_input *leaf = find_input (in, n, node);
  if (registry_find (node))
    {
      result = leaf && leaf->ops_per_sec > 0 ? leaf->ops_per_sec : 0;
      goto done;
    }
  for (size_t i = 0; i < ntests && complete; i++)
    {
      const char *name = registry_test (i)->name;
      if (!under (node, name) || (quick && (registry_test (i)->flags & BENCH_FULL_ONLY)))
        continue;
      const char *end = strchr (name + len + 1, '.');
      size_t clen = end ? (size_t) (end - name) : strlen (name);
      size_t c;
      for (c = 0; c < nchildren; c++)
        if (strlen (children[c]) == clen && strncmp (children[c], name, clen) == 0)
          break;
      if (c < nchildren)
        continue;
      children[nchildren] = gb_xmalloc (clen + 1);
      memcpy (children[nchildren], name, clen);
      children[nchildren][clen] = '\0';
      values[nchildren] = node_score (children[nchildren], in, n, quick);
      weights[nchildren] = registry_node_weight (children[nchildren]);
      complete = values[nchildren] > 0;
      nchildren++;
    }
  if (complete && nchildren > 0)
    result = stats_weighted_geomean (values, weights, nchildren);
  for (size_t c = 0; c < nchildren; c++)
    free (children[c]);
done:
  free (values);
  free (weights);
  free (children);
  return result;
}

static int
depth_of (const char *name)
{
  int d = 0;
  for (; *name; name++)
    d += *name == '.';
  return d;
}

static int
listed (struct score_node *nodes, size_t count, const char *name, size_t len)
{
  for (size_t i = 0; i < count; i++)
    if (strlen (nodes[i].name) == len && strncmp (nodes[i].name, name, len) == 0)
      return 1;
  return 0;
}

size_t
score_compute (const struct score_input *in, size_t n, struct score_node **out)
{
  return score_compute_run (in, n, 0, out);
}

size_t
score_compute_run (const struct score_input *in, size_t n, int quick,
                   struct score_node **out)
{
  size_t ntests = registry_count ();
  size_t count = 0, cap = 16;
  struct score_node *nodes = gb_xmalloc (cap * sizeof *nodes);

  for (size_t i = 0; i < ntests; i++)
    {
      const char *name = registry_test (i)->name;
      /* Every proper prefix ending before a dot is an inner node. */
      for (const char *dot = strchr (name, '.'); dot; dot = strchr (dot + 1, '.'))
        {
          size_t len = (size_t) (dot - name);
          if (listed (nodes, count, name, len))
            continue;
          if (count == cap)
            nodes = gb_xrealloc (nodes, (cap *= 2) * sizeof *nodes);
          nodes[count].name = gb_xmalloc (len + 1);
          memcpy (nodes[count].name, name, len);
          nodes[count].name[len] = '\0';
          nodes[count].score = 0;
          nodes[count].depth = depth_of (nodes[count].name);
          count++;
        }
    }
  size_t kept = 0;
  for (size_t i = 0; i < count; i++)
    {
      nodes[i].score = node_score (nodes[i].name, in, n, quick);
      if (nodes[i].score > 0)
        nodes[kept++] = nodes[i];
      else
        free (nodes[i].name);
    }
  *out = nodes;
  return kept;
}

void
score_free (struct score_node *nodes, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (nodes[i].name);
  free (nodes);
}

int
score_equal (double a, double b)
{
  double scale = fabs (a) > fabs (b) ? fabs (a) : fabs (b);
  return fabs (a - b) <= 5e-6 * scale;
}
