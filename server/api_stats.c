/* api_stats.c: aggregates per CPU identity, and the health check.
 *
 * /api/v1/cpus summarises the headline nodes (the registry's nodes of
 * depth 0 and 1: gmpbench, gmpbench.base, ext, openssl, ...).  For each
 * node the store delivers the listed scores grouped by CPU identity and
 * sorted within each group, straight from one index, so a group's median
 * and quartiles are read off as it ends and only one group is in memory
 * at a time.  The answers are cached for --aggregate-ttl seconds. */
#include "server/api.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "build_config.h"
#include "model/registry.h"
#include "model/order_stats.h"

struct groups
{
  cJSON *by_cpu;                /* cpu identity -> its object */
  const char *node;
  char *cpu;                    /* the group being read */
  double *scores;
  size_t n, cap;
};

/* The registry's nodes of depth 0 and 1, each once, in registry order. */
static size_t
headline_nodes (char ***out)
{
  size_t ntests = registry_count (), n = 0;
  char **nodes = gb_xmalloc (2 * ntests * sizeof *nodes);

  for (size_t i = 0; i < ntests; i++)
    {
      const char *name = registry_test (i)->name;
      const char *dot = strchr (name, '.');
      for (int depth = 0; depth < 2 && dot; depth++, dot = strchr (dot + 1, '.'))
        {
          size_t len = (size_t) (dot - name), k;
          for (k = 0; k < n; k++)
            if (strlen (nodes[k]) == len && strncmp (nodes[k], name, len) == 0)
              break;
          if (k < n)
            continue;
          nodes[n] = gb_xmalloc (len + 1);
          memcpy (nodes[n], name, len);
          nodes[n++][len] = '\0';
        }
    }
  *out = nodes;
  return n;
}

/* Adds the statistics of the finished group to its CPU's object. */
static void
flush_group (struct groups *g)
{
  if (!g->cpu || g->n == 0)
    return;
  /* Best first from the store; the quantiles want ascending order. */
  for (size_t i = 0; i < g->n / 2; i++)
    {
      double t = g->scores[i];
      g->scores[i] = g->scores[g->n - 1 - i];
      g->scores[g->n - 1 - i] = t;
    }
  cJSON *cpu = cJSON_GetObjectItemCaseSensitive (g->by_cpu, g->cpu);
  if (!cpu)
    {
      cpu = cJSON_AddObjectToObject (g->by_cpu, g->cpu);
      cJSON_AddObjectToObject (cpu, "scores");
    }
  cJSON *s = cJSON_AddObjectToObject (cJSON_GetObjectItemCaseSensitive (cpu, "scores"), g->node);
  double q1 = stats_quantile_sorted (g->scores, g->n, 0.25);
  double q3 = stats_quantile_sorted (g->scores, g->n, 0.75);
  cJSON_AddNumberToObject (s, "n", (double) g->n);
  cJSON_AddNumberToObject (s, "median", stats_median_sorted (g->scores, g->n));
  cJSON_AddNumberToObject (s, "q1", q1);
  cJSON_AddNumberToObject (s, "q3", q3);
  cJSON_AddNumberToObject (s, "iqr", q3 - q1);
  free (g->cpu);
  g->cpu = NULL;
  g->n = 0;
}

static int
add_score (void *ctx, const char *cpu, double score)
{
  struct groups *g = ctx;

  if (!cpu)
    return 0;
  if (!g->cpu || strcmp (g->cpu, cpu) != 0)
    {
      flush_group (g);
      g->cpu = gb_xstrdup (cpu);
    }
  if (g->n == g->cap)
    g->scores = gb_xrealloc (g->scores, (g->cap = g->cap ? 2 * g->cap : 64) * sizeof *g->scores);
  g->scores[g->n++] = score;
  return 0;
}

/* The CPU objects as an array, each with its name, architecture and n
 * (the count of its best-covered node). */
static enum store_status
finish (struct store *st, cJSON *by_cpu, cJSON *list)
{
  while (by_cpu->child)
    {
      cJSON *cpu = cJSON_DetachItemViaPointer (by_cpu, by_cpu->child);
      char *name, *arch;
      double n = 0;
      if (store_cpu_info (st, cpu->string, &name, &arch) == STORE_ERROR)
        {
          cJSON_Delete (cpu);
          return STORE_ERROR;
        }
      for (cJSON *s = cJSON_GetObjectItemCaseSensitive (cpu, "scores")->child; s; s = s->next)
        if (cJSON_GetObjectItemCaseSensitive (s, "n")->valuedouble > n)
          n = cJSON_GetObjectItemCaseSensitive (s, "n")->valuedouble;
      cJSON *row = cJSON_CreateObject ();
      cJSON_AddStringToObject (row, "cpu", cpu->string);
      cJSON_AddStringToObject (row, "cpu_name", name ? name : "");
      cJSON_AddStringToObject (row, "arch", arch ? arch : "");
      cJSON_AddNumberToObject (row, "n", n);
      cJSON_AddItemToObject (row, "scores", cJSON_DetachItemFromObject (cpu, "scores"));
      cJSON_AddItemToArray (list, row);
      cJSON_Delete (cpu);
      free (name);
      free (arch);
    }
  return STORE_OK;
}

/* The aggregates as JSON text (malloc'ed), or NULL on a database error. */
static char *
aggregate (struct store *store, int include_flagged)
{
  struct groups g = { cJSON_CreateObject (), NULL, NULL, NULL, 0, 0 };
  enum store_status st = STORE_OK;
  char **nodes;
  size_t nnodes = headline_nodes (&nodes);

  for (size_t i = 0; i < nnodes && st == STORE_OK; i++)
    {
      g.node = nodes[i];
      st = store_node_scores (store, nodes[i], include_flagged, add_score, &g);
      flush_group (&g);
    }
  for (size_t i = 0; i < nnodes; i++)
    free (nodes[i]);
  free (nodes);
  free (g.scores);
  free (g.cpu);
  cJSON *list = cJSON_CreateArray ();
  if (st == STORE_OK)
    st = finish (store, g.by_cpu, list);
  cJSON_Delete (g.by_cpu);
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddItemToObject (body, "cpus", list);
  char *text = st == STORE_OK ? cJSON_PrintUnformatted (body) : NULL;
  cJSON_Delete (body);
  return text;
}

/* A copy of the cached answer if it is fresh enough, else NULL. */
static char *
cached (struct server *srv, int variant)
{
  char *copy = NULL;
  pthread_mutex_lock (&srv->aggregate_lock);
  if (srv->aggregate_body[variant]
      && gb_wall_seconds () - srv->aggregate_at[variant] < srv->aggregate_ttl)
    copy = gb_xstrdup (srv->aggregate_body[variant]);
  pthread_mutex_unlock (&srv->aggregate_lock);
  return copy;
}

static void
remember (struct server *srv, int variant, const char *text)
{
  pthread_mutex_lock (&srv->aggregate_lock);
  free (srv->aggregate_body[variant]);
  srv->aggregate_body[variant] = gb_xstrdup (text);
  srv->aggregate_at[variant] = gb_wall_seconds ();
  pthread_mutex_unlock (&srv->aggregate_lock);
}

enum MHD_Result
api_cpus (struct http_request *r)
{
  const char *flagged = http_arg (r, "flagged");

  if (flagged && strcmp (flagged, "0") != 0 && strcmp (flagged, "1") != 0)
    return http_error (r, 400, "query", "flagged", "flagged must be 0 or 1");
  int variant = flagged && flagged[0] == '1';
  char *text = cached (r->srv, variant);
  if (!text)
    {
      text = aggregate (r->srv->store, variant);
      if (!text)
        return api_unavailable (r);
      remember (r->srv, variant, text);
    }
  return http_bytes_owned (r, 200, "application/json", text, strlen (text));
}

enum MHD_Result
api_health (struct http_request *r)
{
  if (store_ping (r->srv->store) != STORE_OK)
    return api_unavailable (r);
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "status", "ok");
  cJSON_AddNumberToObject (body, "schema", store_schema_version (r->srv->store));
  cJSON_AddStringToObject (body, "version", GB_VERSION);
  cJSON_AddStringToObject (body, "registry", registry_id ());
  return http_json (r, 200, body);
}
