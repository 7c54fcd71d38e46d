/* web_nodes.c: the tree order of the hierarchy's nodes and the medians
 * of a CPU's node scores (see web_nodes.h).
 *
 * The node list is built once from the registry: for each test in run
 * order, each of its prefixes not seen before, outermost first.  The
 * scores come from the `scores` column of the newest results in the
 * store (one JSON object per result), collected node by node. */
#include "server/web_nodes.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "model/registry.h"

static char **nodes;
static int *depths;
static size_t nnodes;
static pthread_once_t nodes_once = PTHREAD_ONCE_INIT;

static int
seen (const char *name, size_t len)
{
  for (size_t i = 0; i < nnodes; i++)
    if (strlen (nodes[i]) == len && strncmp (nodes[i], name, len) == 0)
      return 1;
  return 0;
}

static void
make_nodes (void)
{
  size_t cap = 0;
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      int depth = 0;
      for (const char *dot = strchr (name, '.'); dot; dot = strchr (dot + 1, '.'), depth++)
        {
          size_t len = (size_t) (dot - name);
          if (seen (name, len))
            continue;
          if (nnodes == cap)
            {
              cap = cap ? 2 * cap : 128;
              nodes = gb_xrealloc (nodes, cap * sizeof *nodes);
              depths = gb_xrealloc (depths, cap * sizeof *depths);
            }
          nodes[nnodes] = gb_xmalloc (len + 1);
          memcpy (nodes[nnodes], name, len);
          nodes[nnodes][len] = '\0';
          depths[nnodes++] = depth;
        }
    }
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
  *depth = depths[i];
  return nodes[i];
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
      if (!cJSON_IsNumber (s))
        continue;
      cJSON *arr = cJSON_GetObjectItemCaseSensitive (l->s->values, s->string);
      if (!arr)
        arr = cJSON_AddArrayToObject (l->s->values, s->string);
      cJSON_AddItemToArray (arr, cJSON_CreateNumber (s->valuedouble));
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

int
node_scores_load (struct store *st, const struct board_filter *f, store_list_fn also,
                  void *ctx, struct node_scores *s)
{
  struct store_filter sf = { 0 };
  struct load l = { s, also, ctx };

  s->results = 0;
  s->values = cJSON_CreateObject ();
  if (!s->values)
    return -1;
  sf.cpu = or_null (f->value[BF_CPU]);
  sf.arch = or_null (f->value[BF_ARCH]);
  sf.os = or_null (f->value[BF_OS]);
  sf.gmp = or_null (f->value[BF_GMP]);
  sf.compiler = or_null (f->value[BF_COMPILER]);
  sf.mode = or_null (f->value[BF_MODE]);
  sf.build = or_null (f->value[BF_BUILD]);
  sf.verified_only = f->verified_only;
  sf.unflagged_only = !f->include_flagged;
  sf.limit = NODE_RESULTS;
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
  const cJSON *arr = cJSON_GetObjectItemCaseSensitive (s->values, node);
  size_t m = (size_t) cJSON_GetArraySize (arr), j = 0;
  double *v, median;

  *n = 0;
  if (m == 0 || !(v = malloc (m * sizeof *v)))
    return NAN;
  for (const cJSON *c = arr->child; c; c = c->next)
    v[j++] = c->valuedouble;
  qsort (v, m, sizeof *v, by_value);
  median = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
  free (v);
  *n = m;
  return median;
}

void
node_scores_free (struct node_scores *s)
{
  cJSON_Delete (s->values);
  s->values = NULL;
}
