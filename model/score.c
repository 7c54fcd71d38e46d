/* score.c: weighted geometric means up the hierarchy (see score.h).
 *
 * The shape of the hierarchy is fixed by the registry, so it is built once
 * (under pthread_once, since the server scores from many threads): every
 * node in pre-order, each with its parent, its weight among its siblings
 * and, for a leaf, its test.  Scoring a run is then one pass in reverse
 * pre-order, children before parents, after looking each result's name up
 * in a sorted index of the leaves. */
#include "model/score.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "model/registry.h"

struct tree_node
{
  char *name;
  int parent;                   /* index, -1 for a root */
  int depth;
  double weight;
  const struct bench_test *test;        /* leaves only */
};

static struct tree_node *tree;
static size_t tree_size;
static size_t *leaf_index;      /* node indices of the leaves, sorted by name */
static size_t nleaves;
static pthread_once_t tree_once = PTHREAD_ONCE_INIT;

/* The node named by the first LEN characters of NAME, added if new. */
static int
node_for (const char *name, size_t len, int parent, size_t *cap)
{
  for (size_t i = tree_size; i-- > 0;)
    {
      if (tree[i].parent != parent)
        continue;
      if (strlen (tree[i].name) == len && strncmp (tree[i].name, name, len) == 0)
        return (int) i;
    }
  if (tree_size == *cap)
    tree = gb_xrealloc (tree, (*cap *= 2) * sizeof *tree);
  struct tree_node *n = &tree[tree_size];
  n->name = gb_xmalloc (len + 1);
  memcpy (n->name, name, len);
  n->name[len] = '\0';
  n->parent = parent;
  n->depth = parent < 0 ? 0 : tree[parent].depth + 1;
  n->weight = registry_node_weight (n->name);
  n->test = NULL;
  return (int) tree_size++;
}

static int
by_leaf_name (const void *a, const void *b)
{
  return strcmp (tree[*(const size_t *) a].name, tree[*(const size_t *) b].name);
}

static void
build_tree (void)
{
  size_t ntests = registry_count (), cap = 64;
  tree = gb_xmalloc (cap * sizeof *tree);
  leaf_index = gb_xmalloc ((ntests ? ntests : 1) * sizeof *leaf_index);
  for (size_t i = 0; i < ntests; i++)
    {
      const struct bench_test *t = registry_test (i);
      int parent = -1;
      for (const char *dot = strchr (t->name, '.'); dot; dot = strchr (dot + 1, '.'))
        parent = node_for (t->name, (size_t) (dot - t->name), parent, &cap);
      int leaf = node_for (t->name, strlen (t->name), parent, &cap);
      tree[leaf].test = t;
      leaf_index[nleaves++] = (size_t) leaf;
    }
  qsort (leaf_index, nleaves, sizeof *leaf_index, by_leaf_name);
}

/* The node of test NAME, or -1. */
static long
find_leaf (const char *name)
{
  size_t lo = 0, hi = nleaves;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = strcmp (name, tree[leaf_index[mid]].name);
      if (c == 0)
        return (long) leaf_index[mid];
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return -1;
}

/* The state of a node while scoring. */
enum node_state
{
  NODE_EXCLUDED = 0,            /* nothing below it counts (not required) */
  NODE_SCORED,
  NODE_MISSING                  /* some test below it has no result */
};

struct node_acc
{
  enum node_state state;
  double value;                 /* ops/s of a leaf, score of a node */
  double log_sum, weight_sum;   /* over the scored children so far */
};

size_t
score_compute (const struct score_input *in, size_t n, struct score_node **out)
{
  return score_compute_run (in, n, 0, out);
}

size_t
score_compute_run (const struct score_input *in, size_t n, unsigned not_required,
                   struct score_node **out)
{
  pthread_once (&tree_once, build_tree);
  struct node_acc *acc = gb_xcalloc (tree_size ? tree_size : 1, sizeof *acc);

  for (size_t i = 0; i < tree_size; i++)
    if (tree[i].test && !(tree[i].test->flags & not_required))
      acc[i].state = NODE_MISSING;
  for (size_t i = 0; i < n; i++)
    {
      long leaf = find_leaf (in[i].name);
      if (leaf >= 0 && acc[leaf].state == NODE_MISSING && in[i].ops_per_sec > 0
          && isfinite (in[i].ops_per_sec))
        {
          acc[leaf].state = NODE_SCORED;
          acc[leaf].value = in[i].ops_per_sec;
        }
    }
  /* Children come after their parent in pre-order: walking backwards
   * finishes every node before its parent reads it. */
  size_t count = 0;
  for (size_t i = tree_size; i-- > 0;)
    {
      if (!tree[i].test)
        {
          if (acc[i].state == NODE_SCORED)
            {
              acc[i].value = exp (acc[i].log_sum / acc[i].weight_sum);
              count++;
            }
        }
      int p = tree[i].parent;
      if (p < 0 || acc[p].state == NODE_MISSING || acc[i].state == NODE_EXCLUDED)
        continue;
      if (acc[i].state == NODE_MISSING)
        acc[p].state = NODE_MISSING;
      else
        {
          acc[p].state = NODE_SCORED;
          acc[p].log_sum += tree[i].weight * log (acc[i].value);
          acc[p].weight_sum += tree[i].weight;
        }
    }
  struct score_node *nodes = gb_xmalloc ((count ? count : 1) * sizeof *nodes);
  size_t k = 0;
  for (size_t i = 0; i < tree_size; i++)
    if (!tree[i].test && acc[i].state == NODE_SCORED)
      {
        nodes[k].name = gb_xstrdup (tree[i].name);
        nodes[k].score = acc[i].value;
        nodes[k].depth = tree[i].depth;
        k++;
      }
  free (acc);
  *out = nodes;
  return k;
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
