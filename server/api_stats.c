/* api_stats.c: aggregates per CPU identity, and the health check.
 *
 * /api/v1/cpus summarises the headline nodes (the registry's nodes of
 * depth 0 and 1: gmpbench, gmpbench.base, ext, openssl, ...) per CPU
 * identity, run mode and GMP build kind, which are never pooled.  The
 * kind of every listed result is read first (from one index, kept as a
 * sorted array of seqs); then for each node the store delivers the listed
 * scores grouped by CPU identity and sorted within each group, straight
 * from one index, so each kind's median and quartiles are read off as the
 * group ends and only one group is in memory at a time.  The answers are
 * cached for --aggregate-ttl seconds. */
#include "server/api.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "build_config.h"
#include "model/registry.h"
#include "model/order_stats.h"

/* The run mode and build kind of every listed result: KIND[i] of the
 * result SEQ[i] (ascending), an index into MODE and BUILD; and when the
 * seqs are dense (they are, but for retracted and unlisted results), the
 * same as DIRECT[seq - FIRST] (UINT32_MAX: none), since a million
 * results' scores of every headline node look their kind up. */
struct kinds
{
  struct seq_kind
  {
    int64_t seq;
    uint32_t kind;
  } *of;
  size_t n, cap;
  char **mode, **build;
  size_t nkinds;
  uint32_t *direct;
  int64_t first;
  size_t span;
};

static int
take_kind (void *ctx, int64_t seq, const char *mode, const char *build)
{
  struct kinds *k = ctx;
  size_t i = 0;
  mode = mode ? mode : "";
  build = build ? build : "";
  while (i < k->nkinds && (strcmp (k->mode[i], mode) != 0 || strcmp (k->build[i], build) != 0))
    i++;
  if (i == k->nkinds)
    {
      k->mode = gb_xrealloc (k->mode, (i + 1) * sizeof *k->mode);
      k->build = gb_xrealloc (k->build, (i + 1) * sizeof *k->build);
      k->mode[i] = gb_xstrdup (mode);
      k->build[i] = gb_xstrdup (build);
      k->nkinds++;
    }
  if (k->n == k->cap)
    k->of = gb_xrealloc (k->of, (k->cap = k->cap ? 2 * k->cap : 1024) * sizeof *k->of);
  k->of[k->n++] = (struct seq_kind) { seq, (uint32_t) i };
  return 0;
}

static int
by_seq (const void *a, const void *b)
{
  int64_t x = ((const struct seq_kind *) a)->seq, y = ((const struct seq_kind *) b)->seq;
  return (x > y) - (x < y);
}

/* Sorts K's kinds by seq, and maps them directly when dense enough. */
static void
kinds_index (struct kinds *k)
{
  qsort (k->of, k->n, sizeof *k->of, by_seq);
  if (k->n == 0 || (uint64_t) (k->of[k->n - 1].seq - k->of[0].seq) >= 4 * (uint64_t) k->n)
    return;
  k->first = k->of[0].seq;
  k->span = (size_t) (k->of[k->n - 1].seq - k->first) + 1;
  k->direct = gb_xmalloc (k->span * sizeof *k->direct);
  memset (k->direct, 0xff, k->span * sizeof *k->direct);
  for (size_t i = 0; i < k->n; i++)
    k->direct[k->of[i].seq - k->first] = k->of[i].kind;
}

/* The kind of the result SEQ, or -1 (stored after the kinds were read). */
static int64_t
kind_of (const struct kinds *k, int64_t seq)
{
  if (k->direct)
    {
      uint32_t kind = seq >= k->first && (uint64_t) (seq - k->first) < k->span
        ? k->direct[seq - k->first] : UINT32_MAX;
      return kind == UINT32_MAX ? -1 : (int64_t) kind;
    }
  struct seq_kind probe = { seq, 0 };
  const struct seq_kind *found = bsearch (&probe, k->of, k->n, sizeof *k->of, by_seq);
  return found ? (int64_t) found->kind : -1;
}

static void
kinds_free (struct kinds *k)
{
  for (size_t i = 0; i < k->nkinds; i++)
    {
      free (k->mode[i]);
      free (k->build[i]);
    }
  free (k->mode);
  free (k->build);
  free (k->of);
  free (k->direct);
}

/* The rows by key, "CPU\nKIND": open addressing, at most half full (a
 * cJSON object looks its members up one by one, and there is a row for
 * every CPU and kind). */
struct row_index
{
  char **keys;
  cJSON **rows;
  size_t n, nslots;
};

/* The slot of KEY in X: where it is, or the free one where it would go. */
static size_t
row_slot (const struct row_index *x, const char *key)
{
  size_t mask = x->nslots - 1, i = (size_t) gb_hash_string (key) & mask;
  while (x->keys[i] && strcmp (x->keys[i], key) != 0)
    i = (i + 1) & mask;
  return i;
}

static void
row_index_add (struct row_index *x, char *key, cJSON *row)
{
  if (2 * (x->n + 1) > x->nslots)
    {
      struct row_index bigger = { gb_xcalloc (x->nslots ? 2 * x->nslots : 256, sizeof (char *)),
                                  gb_xcalloc (x->nslots ? 2 * x->nslots : 256, sizeof (cJSON *)),
                                  x->n, x->nslots ? 2 * x->nslots : 256 };
      for (size_t i = 0; i < x->nslots; i++)
        if (x->keys[i])
          {
            size_t j = row_slot (&bigger, x->keys[i]);
            bigger.keys[j] = x->keys[i];
            bigger.rows[j] = x->rows[i];
          }
      free (x->keys);
      free (x->rows);
      *x = bigger;
    }
  size_t i = row_slot (x, key);
  x->keys[i] = key;
  x->rows[i] = row;
  x->n++;
}

static void
row_index_free (struct row_index *x)
{
  for (size_t i = 0; i < x->nslots; i++)
    free (x->keys[i]);
  free (x->keys);
  free (x->rows);
}

/* One node's scores of one CPU, by kind, as the store delivers them. */
struct groups
{
  cJSON *rows;                  /* "CPU\nKIND" -> its row, in order of appearance */
  struct row_index index;       /* the same, found fast */
  const struct kinds *kinds;
  const char *node;
  char *cpu;                    /* the group being read */
  double **scores;              /* per kind, best first */
  size_t *n, *cap;
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

/* The row of the current CPU and KIND, made when new. */
static cJSON *
row_of (struct groups *g, size_t kind)
{
  size_t size = strlen (g->cpu) + 24;
  char *key = gb_xmalloc (size);
  snprintf (key, size, "%s\n%zu", g->cpu, kind);
  size_t slot = g->index.nslots ? row_slot (&g->index, key) : 0;
  if (g->index.nslots && g->index.keys[slot])
    {
      free (key);
      return g->index.rows[slot];
    }
  cJSON *row = cJSON_AddObjectToObject (g->rows, key);
  cJSON_AddStringToObject (row, "cpu", g->cpu);
  cJSON_AddStringToObject (row, "mode", g->kinds->mode[kind]);
  cJSON_AddStringToObject (row, "build", g->kinds->build[kind]);
  cJSON_AddObjectToObject (row, "scores");
  row_index_add (&g->index, key, row);
  return row;
}

/* Adds the statistics of the finished group, one per kind, to the rows. */
static void
flush_group (struct groups *g)
{
  for (size_t kind = 0; g->cpu && kind < g->kinds->nkinds; kind++)
    {
      double *v = g->scores[kind];
      size_t n = g->n[kind];
      if (n == 0)
        continue;
      /* Best first from the store; the quantiles want ascending order. */
      for (size_t i = 0; i < n / 2; i++)
        {
          double t = v[i];
          v[i] = v[n - 1 - i];
          v[n - 1 - i] = t;
        }
      cJSON *scores = cJSON_GetObjectItemCaseSensitive (row_of (g, kind), "scores");
      cJSON *s = cJSON_AddObjectToObject (scores, g->node);
      double q1 = stats_quantile_sorted (v, n, 0.25);
      double q3 = stats_quantile_sorted (v, n, 0.75);
      cJSON_AddNumberToObject (s, "n", (double) n);
      cJSON_AddNumberToObject (s, "median", stats_median_sorted (v, n));
      cJSON_AddNumberToObject (s, "q1", q1);
      cJSON_AddNumberToObject (s, "q3", q3);
      cJSON_AddNumberToObject (s, "iqr", q3 - q1);
      g->n[kind] = 0;
    }
  free (g->cpu);
  g->cpu = NULL;
}

static int
add_score (void *ctx, const char *cpu, int64_t seq, double score)
{
  struct groups *g = ctx;
  int64_t kind = kind_of (g->kinds, seq);

  if (!cpu || kind < 0)
    return 0;
  if (!g->cpu || strcmp (g->cpu, cpu) != 0)
    {
      flush_group (g);
      g->cpu = gb_xstrdup (cpu);
    }
  size_t k = (size_t) kind;
  if (g->n[k] == g->cap[k])
    g->scores[k] = gb_xrealloc (g->scores[k],
                                (g->cap[k] = g->cap[k] ? 2 * g->cap[k] : 64) * sizeof (double));
  g->scores[k][g->n[k]++] = score;
  return 0;
}

/* The rows as an array, each with its CPU's name and architecture and n
 * (the count of its best-covered node).  A CPU's rows come one after
 * the other (but for a kind without the first node), so its name is
 * read once for them. */
static enum store_status
finish (struct store *st, cJSON *rows, cJSON *list)
{
  char *name = NULL, *arch = NULL, *named = NULL;       /* NAMED: their CPU */
  enum store_status status = STORE_OK;

  while (rows->child)
    {
      cJSON *row = cJSON_DetachItemViaPointer (rows, rows->child);
      const char *cpu = cJSON_GetObjectItemCaseSensitive (row, "cpu")->valuestring;
      double n = 0;
      if (!named || strcmp (named, cpu) != 0)
        {
          free (name);
          free (arch);
          free (named);
          named = gb_xstrdup (cpu);
          if (store_cpu_info (st, cpu, &name, &arch) == STORE_ERROR)
            {
              cJSON_Delete (row);
              status = STORE_ERROR;
              break;
            }
        }
      for (cJSON *s = cJSON_GetObjectItemCaseSensitive (row, "scores")->child; s; s = s->next)
        if (cJSON_GetObjectItemCaseSensitive (s, "n")->valuedouble > n)
          n = cJSON_GetObjectItemCaseSensitive (s, "n")->valuedouble;
      cJSON *out = cJSON_CreateObject ();
      cJSON_AddStringToObject (out, "cpu", cpu);
      cJSON_AddStringToObject (out, "cpu_name", name ? name : "");
      cJSON_AddStringToObject (out, "arch", arch ? arch : "");
      cJSON_AddItemToObject (out, "mode", cJSON_DetachItemFromObject (row, "mode"));
      cJSON_AddItemToObject (out, "build", cJSON_DetachItemFromObject (row, "build"));
      cJSON_AddNumberToObject (out, "n", n);
      cJSON_AddItemToObject (out, "scores", cJSON_DetachItemFromObject (row, "scores"));
      cJSON_AddItemToArray (list, out);
      cJSON_Delete (row);
    }
  free (name);
  free (arch);
  free (named);
  return status;
}

/* The aggregates as JSON text (malloc'ed), or NULL on a database error:
 * one row per CPU identity, run mode and GMP build kind, never pooled. */
static char *
aggregate (struct store *store, int include_flagged)
{
  struct kinds kinds = { 0 };
  enum store_status st = store_kinds (store, take_kind, &kinds);
  kinds_index (&kinds);
  struct groups g = {
    cJSON_CreateObject (), { NULL, NULL, 0, 0 }, &kinds, NULL, NULL,
    gb_xcalloc (kinds.nkinds + 1, sizeof *g.scores), gb_xcalloc (kinds.nkinds + 1, sizeof *g.n),
    gb_xcalloc (kinds.nkinds + 1, sizeof *g.cap)
  };
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
  for (size_t k = 0; k < kinds.nkinds; k++)
    free (g.scores[k]);
  free (g.scores);
  free (g.n);
  free (g.cap);
  free (g.cpu);
  cJSON *list = cJSON_CreateArray ();
  if (st == STORE_OK)
    st = finish (store, g.rows, list);
  cJSON_Delete (g.rows);
  row_index_free (&g.index);
  kinds_free (&kinds);
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddItemToObject (body, "cpus", list);
  char *text = st == STORE_OK ? cJSON_PrintUnformatted (body) : NULL;
  cJSON_Delete (body);
  return text;
}

/* A copy of the cached answer if it is fresh enough, or (with a TTL)
 * while another request computes the next one: a few seconds at 100,000
 * results, which the requests arriving meanwhile would otherwise all
 * spend computing it too.  Else NULL: the caller computes it, and calls
 * remember. */
static char *
cached (struct server *srv, int variant)
{
  char *copy = NULL;
  pthread_mutex_lock (&srv->aggregate_lock);
  const char *body = srv->aggregate_body[variant];
  if (body && (gb_wall_seconds () - srv->aggregate_at[variant] < srv->aggregate_ttl
               || (srv->aggregate_busy[variant] && srv->aggregate_ttl > 0)))
    copy = gb_xstrdup (body);
  else
    srv->aggregate_busy[variant] = 1;
  pthread_mutex_unlock (&srv->aggregate_lock);
  return copy;
}

/* The answer computed, TEXT (NULL: it failed). */
static void
remember (struct server *srv, int variant, const char *text)
{
  pthread_mutex_lock (&srv->aggregate_lock);
  if (text)
    {
      free (srv->aggregate_body[variant]);
      srv->aggregate_body[variant] = gb_xstrdup (text);
      srv->aggregate_at[variant] = gb_wall_seconds ();
    }
  srv->aggregate_busy[variant] = 0;
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
      remember (r->srv, variant, text);
      if (!text)
        return api_unavailable (r);
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
