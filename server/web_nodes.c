/* web_nodes.c: the tree order of the hierarchy's nodes and the medians
 * of a CPU's node scores (see web_nodes.h).
 *
 * The node list is built once from the registry: each prefix of a test's
 * name, placed by where each of its own prefixes first appears in run
 * order (the registry need not list a node's tests together: the largest
 * ext.rsa sizes come after the others' verify tests), with an index by
 * name.  The scores come from the `scores` column of the newest results
 * in the store (one JSON object per result), collected into an array per
 * node: the CPU page loads a few hundred results each time, so each
 * score is found its node by a binary search and stored as a double
 * (kept as cJSON objects, looked up key by key, the loads took most of
 * the page's 50-70 ms at 10,000 whole runs). */
#include "server/web_nodes.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/registry.h"

#define MAX_DEPTH 16

/* A node and its place in tree order: the place of first appearance of
 * each of its prefixes, outermost first, itself last. */
struct node
{
  char *name;
  int depth;
  size_t key[MAX_DEPTH];
};

static struct node *nodes;
static size_t nnodes;
static size_t *by_name;         /* places in tree order, sorted by name */
static pthread_once_t nodes_once = PTHREAD_ONCE_INIT;

/* The place of the node named by the first LEN bytes of NAME, or NNODES. */
static size_t
find (const char *name, size_t len)
{
  for (size_t i = 0; i < nnodes; i++)
    if (strlen (nodes[i].name) == len && strncmp (nodes[i].name, name, len) == 0)
      return i;
  return nnodes;
}

static int
by_tree (const void *pa, const void *pb)
{
  const struct node *a = pa, *b = pb;
  for (int i = 0; i <= a->depth && i <= b->depth; i++)
    if (a->key[i] != b->key[i])
      return a->key[i] < b->key[i] ? -1 : 1;
  return a->depth - b->depth;
}

static int
by_node_name (const void *pa, const void *pb)
{
  return strcmp (nodes[*(const size_t *) pa].name, nodes[*(const size_t *) pb].name);
}

static void
make_nodes (void)
{
  size_t cap = 0;
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      int depth = 0;
      for (const char *dot = strchr (name, '.'); dot && depth < MAX_DEPTH;
           dot = strchr (dot + 1, '.'), depth++)
        {
          size_t len = (size_t) (dot - name);
          if (find (name, len) < nnodes)
            continue;
          if (nnodes == cap)
            nodes = gb_xrealloc (nodes, (cap = cap ? 2 * cap : 128) * sizeof *nodes);
          struct node *n = &nodes[nnodes];
          n->name = gb_xmalloc (len + 1);
          memcpy (n->name, name, len);
          n->name[len] = '\0';
          n->depth = depth;
          nnodes++;
        }
    }
  for (size_t i = 0; i < nnodes; i++)
    {
      const char *dot = nodes[i].name;
      for (int d = 0; d < nodes[i].depth; d++)
        {
          dot = strchr (dot, '.');
          nodes[i].key[d] = find (nodes[i].name, (size_t) (dot - nodes[i].name));
          dot++;
        }
      nodes[i].key[nodes[i].depth] = i;
    }
  qsort (nodes, nnodes, sizeof *nodes, by_tree);
  by_name = gb_xmalloc ((nnodes ? nnodes : 1) * sizeof *by_name);
  for (size_t i = 0; i < nnodes; i++)
    by_name[i] = i;
  qsort (by_name, nnodes, sizeof *by_name, by_node_name);
}

static int
name_vs_node (const void *name, const void *place)
{
  return strcmp (name, nodes[*(const size_t *) place].name);
}

/* The place in tree order of the node NAME, or -1. */
static long
place (const char *name)
{
  pthread_once (&nodes_once, make_nodes);
  const size_t *p = bsearch (name, by_name, nnodes, sizeof *by_name, name_vs_node);
  return p ? (long) *p : -1;
}

size_t
web_node_count (void)
{
  pthread_once (&nodes_once, make_nodes);
  return nnodes;
}

const char *
web_node (size_t i, int *depth)
{
  pthread_once (&nodes_once, make_nodes);
  *depth = nodes[i].depth;
  return nodes[i].name;
}

struct load
{
  struct node_scores *s;
  store_list_fn also;
  void *ctx;
};

static int
take_row (void *ctx, const struct store_row *row, double score)
{
  struct load *l = ctx;
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL, *s;
  cJSON_ArrayForEach (s, scores)
    {
      long i = cJSON_IsNumber (s) ? place (s->string) : -1;
      if (i >= 0 && l->s->count[i] < NODE_RESULTS)
        l->s->values[(size_t) i * NODE_RESULTS + l->s->count[i]++] = s->valuedouble;
    }
  cJSON_Delete (scores);
  l->s->results++;
  return l->also ? l->also (l->ctx, row, score) : 0;
}

static const char *
or_null (const char *s)
{
  return s && *s ? s : NULL;
}

void
node_store_filter (const struct board_filter *f, struct store_filter *sf)
{
  memset (sf, 0, sizeof *sf);
  sf->cpu = or_null (f->value[BF_CPU]);
  sf->arch = or_null (f->value[BF_ARCH]);
  sf->vendor = or_null (f->value[BF_VENDOR]);
  sf->os = or_null (f->value[BF_OS]);
  sf->gmp = or_null (f->value[BF_GMP]);
  sf->compiler = or_null (f->value[BF_COMPILER]);
  sf->mode = or_null (f->value[BF_MODE]);
  sf->build = or_null (f->value[BF_BUILD]);
  sf->verified_only = f->verified_only;
  sf->unflagged_only = !f->include_flagged;
  sf->limit = NODE_RESULTS;
}

int
node_scores_load (struct store *st, const struct board_filter *f, store_list_fn also,
                  void *ctx, struct node_scores *s)
{
  struct store_filter sf;
  struct load l = { s, also, ctx };

  pthread_once (&nodes_once, make_nodes);
  s->results = 0;
  s->values = gb_xmalloc ((nnodes ? nnodes : 1) * NODE_RESULTS * sizeof *s->values);
  s->count = gb_xcalloc (nnodes ? nnodes : 1, sizeof *s->count);
  node_store_filter (f, &sf);
  return store_list (st, &sf, take_row, &l) == STORE_OK ? 0 : -1;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

double
node_scores_median (const struct node_scores *s, const char *node, size_t *n)
{
  long i = place (node);
  size_t m = i >= 0 ? s->count[i] : 0;
  double *v, median;

  *n = 0;
  if (m == 0 || !(v = malloc (m * sizeof *v)))
    return NAN;
  memcpy (v, s->values + (size_t) i * NODE_RESULTS, m * sizeof *v);
  qsort (v, m, sizeof *v, by_value);
  median = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
  free (v);
  *n = m;
  return median;
}

void
node_scores_free (struct node_scores *s)
{
  free (s->values);
  free (s->count);
  s->values = NULL;
  s->count = NULL;
}
