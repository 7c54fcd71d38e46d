/* api_stats.c: aggregates per CPU identity, and the health check.
 *
 * /api/v1/cpus reads the headline scores of listed results ordered by CPU
 * identity, node and score, so each group arrives sorted and its median
 * and quartiles are read off directly; only one group is in memory at a
 * time. */
#include "server/api.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "suites/stats.h"

struct cpus
{
  cJSON *list;
  cJSON *cpu;                   /* the object being filled */
  char *cpu_key, *node;
  double *scores;
  size_t n, cap;
  int max_n;
};

static void
flush_node (struct cpus *c)
{
  if (!c->node || c->n == 0)
    return;
  cJSON *scores = cJSON_GetObjectItemCaseSensitive (c->cpu, "scores");
  cJSON *s = cJSON_AddObjectToObject (scores, c->node);
  double q1 = stats_quantile_sorted (c->scores, c->n, 0.25);
  double q3 = stats_quantile_sorted (c->scores, c->n, 0.75);
  cJSON_AddNumberToObject (s, "n", (double) c->n);
  cJSON_AddNumberToObject (s, "median", stats_median_sorted (c->scores, c->n));
  cJSON_AddNumberToObject (s, "q1", q1);
  cJSON_AddNumberToObject (s, "q3", q3);
  cJSON_AddNumberToObject (s, "iqr", q3 - q1);
  if ((int) c->n > c->max_n)
    c->max_n = (int) c->n;
  free (c->node);
  c->node = NULL;
  c->n = 0;
}

static void
flush_cpu (struct cpus *c)
{
  flush_node (c);
  if (c->cpu)
    cJSON_AddNumberToObject (c->cpu, "n", c->max_n);
  c->cpu = NULL;
  c->max_n = 0;
  free (c->cpu_key);
  c->cpu_key = NULL;
}

static int
add_score (void *ctx, const char *cpu, const char *cpu_name, const char *arch,
           const char *node, double score)
{
  struct cpus *c = ctx;

  if (!cpu || !node)
    return 0;
  if (!c->cpu_key || strcmp (c->cpu_key, cpu) != 0)
    {
      flush_cpu (c);
      c->cpu_key = gb_xstrdup (cpu);
      c->cpu = cJSON_CreateObject ();
      cJSON_AddStringToObject (c->cpu, "cpu", cpu);
      cJSON_AddStringToObject (c->cpu, "cpu_name", cpu_name ? cpu_name : "");
      cJSON_AddStringToObject (c->cpu, "arch", arch ? arch : "");
      cJSON_AddObjectToObject (c->cpu, "scores");
      cJSON_AddItemToArray (c->list, c->cpu);
    }
  if (!c->node || strcmp (c->node, node) != 0)
    {
      flush_node (c);
      c->node = gb_xstrdup (node);
    }
  if (c->n == c->cap)
    c->scores = gb_xrealloc (c->scores, (c->cap = c->cap ? 2 * c->cap : 64) * sizeof *c->scores);
  c->scores[c->n++] = score;
  return 0;
}

enum MHD_Result
api_cpus (struct http_request *r)
{
  const char *flagged = http_arg (r, "flagged");
  struct cpus c = { cJSON_CreateArray (), NULL, NULL, NULL, NULL, 0, 0, 0 };

  if (flagged && strcmp (flagged, "0") != 0 && strcmp (flagged, "1") != 0)
    {
      cJSON_Delete (c.list);
      return http_error (r, 400, "query", "flagged", "flagged must be 0 or 1");
    }
  enum store_status st = store_headline_scores (r->srv->store, flagged && flagged[0] == '1',
                                                add_score, &c);
  flush_cpu (&c);
  free (c.scores);
  if (st != STORE_OK)
    {
      cJSON_Delete (c.list);
      return api_unavailable (r);
    }
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddItemToObject (body, "cpus", c.list);
  return http_json (r, 200, body);
}

enum MHD_Result
api_health (struct http_request *r)
{
  if (store_ping (r->srv->store) != STORE_OK)
    return api_unavailable (r);
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "status", "ok");
  cJSON_AddNumberToObject (body, "schema", store_schema_version (r->srv->store));
  return http_json (r, 200, body);
}
