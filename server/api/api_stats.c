/* api_stats.c: aggregates per CPU identity, and the health check.
 *
 * /api/v1/cpus summarises the headline nodes (the registry's nodes of
 * depth 0 and 1: gmpbench, gmpbench.base, ext, openssl, ...) per CPU
 * identity, run mode and GMP build kind, which are never pooled.  The
 * kind of every listed result is read first (from one index, kept as a
 * sorted array of seqs); then for each node the store delivers the listed
 * scores grouped by CPU identity and sorted within each group, straight
 * from one index, so each kind's median and quartiles are read off as the
 * group ends and only one group is in memory at a time.  The rows are
 * printed once, sorted by CPU, mode and build, and kept for
 * --aggregate-ttl seconds; a request copies those of its page (filters,
 * limit, and a cursor naming the last row of the page before).
 *
 * A thread of low priority computes the rows (11 s at a million
 * results) when the server starts, and again when a request finds them
 * older than --aggregate-ttl; every request meanwhile gets the rows it
 * has.  A request that finds none (the first ones after a start, or the
 * first with flagged results) waits for the rows being computed, or
 * computes them itself; with --aggregate-ttl 0 every request computes
 * its own. */
#include "server/api/api.h"
#include "server/api/api_handlers.h"
#include "server/api/api_json.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "build_config.h"
#include "model/registry.h"
#include "model/order_stats.h"
#include "server/log.h"

#define CPUS_DEFAULT_LIMIT 50
#define CPUS_MAX_LIMIT 500
#define REFRESHER_NICE 10       /* as the leaderboard's builder (board.c) */

/* The run mode, build kind and source of every listed result: OF[i]
 * of the result OF[i].seq (ascending), its kind an index into MODE and
 * BUILD; and when the seqs are dense (they are, but for retracted and
 * unlisted results), i as DIRECT[seq - FIRST] (UINT32_MAX: none), since a
 * million results' scores of every headline node look their kind up. */
struct kinds
{
  struct seq_kind
  {
    int64_t seq;
    uint64_t source;            /* store_source_bits */
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
take_kind (void *ctx, int64_t seq, const char *mode, const char *build, const char *source)
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
  k->of[k->n++] = (struct seq_kind) { seq, store_source_bits (source, seq), (uint32_t) i };
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
  if (k->n == 0)                /* an empty store: of is NULL */
    return;
  qsort (k->of, k->n, sizeof *k->of, by_seq);
  if ((uint64_t) (k->of[k->n - 1].seq - k->of[0].seq) >= 4 * (uint64_t) k->n)
    return;
  k->first = k->of[0].seq;
  k->span = (size_t) (k->of[k->n - 1].seq - k->first) + 1;
  k->direct = gb_xmalloc (k->span * sizeof *k->direct);
  memset (k->direct, 0xff, k->span * sizeof *k->direct);
  for (size_t i = 0; i < k->n; i++)
    k->direct[k->of[i].seq - k->first] = (uint32_t) i;
}

/* The kind and source of the result SEQ, or NULL (stored after the
 * kinds were read). */
static const struct seq_kind *
kind_of (const struct kinds *k, int64_t seq)
{
  if (k->direct)
    {
      uint32_t i = seq >= k->first && (uint64_t) (seq - k->first) < k->span
        ? k->direct[seq - k->first] : UINT32_MAX;
      return i == UINT32_MAX ? NULL : &k->of[i];
    }
  if (k->n == 0)
    return NULL;
  struct seq_kind probe = { seq, 0, 0 };
  return bsearch (&probe, k->of, k->n, sizeof *k->of, by_seq);
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
  struct sourced_score
  {
    double score;
    uint64_t source;
  } **scores;                   /* per kind, best first */
  size_t *n, *cap;
  const atomic_int *abandon;    /* set: stop reading (the server stops) */
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

static int
by_source_score (const void *pa, const void *pb)
{
  const struct sourced_score *a = pa, *b = pb;
  if (a->source != b->source)
    return (a->source > b->source) - (a->source < b->source);
  return (a->score > b->score) - (a->score < b->score);
}

/* The median of each source's scores among the N of S (reordered) into
 * V, ascending: how many sources (store.h, "Sources": a source counts
 * once, however many results it sent). */
static size_t
source_medians (struct sourced_score *s, size_t n, double *v)
{
  size_t m = 0;
  qsort (s, n, sizeof *s, by_source_score);
  for (size_t i = 0; i < n;)
    {
      size_t j = i;
      while (j < n && s[j].source == s[i].source)
        j++;
      v[m++] = (s[i + (j - i - 1) / 2].score + s[i + (j - i) / 2].score) / 2;
      i = j;
    }
  stats_sort (v, m);
  return m;
}

/* Adds the statistics of the finished group, one per kind, to the rows. */
static void
flush_group (struct groups *g)
{
  for (size_t kind = 0; g->cpu && kind < g->kinds->nkinds; kind++)
    {
      size_t n = g->n[kind];
      if (n == 0)
        continue;
      double *v = gb_xmalloc (n * sizeof *v);
      size_t m = source_medians (g->scores[kind], n, v);
      cJSON *scores = cJSON_GetObjectItemCaseSensitive (row_of (g, kind), "scores");
      cJSON *s = cJSON_AddObjectToObject (scores, g->node);
      double q1 = stats_quantile_sorted (v, m, 0.25);
      double q3 = stats_quantile_sorted (v, m, 0.75);
      cJSON_AddNumberToObject (s, "n", (double) n);
      cJSON_AddNumberToObject (s, "sources", (double) m);
      cJSON_AddNumberToObject (s, "median", stats_median_sorted (v, m));
      cJSON_AddNumberToObject (s, "q1", q1);
      cJSON_AddNumberToObject (s, "q3", q3);
      cJSON_AddNumberToObject (s, "iqr", q3 - q1);
      free (v);
      g->n[kind] = 0;
    }
  free (g->cpu);
  g->cpu = NULL;
}

static int
add_score (void *ctx, const char *cpu, int64_t seq, double score)
{
  struct groups *g = ctx;
  const struct seq_kind *of = kind_of (g->kinds, seq);

  if (atomic_load (g->abandon))
    return 1;
  if (!cpu || !of)
    return 0;
  if (!g->cpu || strcmp (g->cpu, cpu) != 0)
    {
      flush_group (g);
      g->cpu = gb_xstrdup (cpu);
    }
  size_t k = of->kind;
  if (g->n[k] == g->cap[k])
    g->scores[k] = gb_xrealloc (g->scores[k], (g->cap[k] = g->cap[k] ? 2 * g->cap[k] : 64)
                                * sizeof **g->scores);
  g->scores[k][g->n[k]++] = (struct sourced_score) { score, of->source };
  return 0;
}

/* One row of the answer, printed and hashed once per computation (a
 * page's ETag is a hash of its rows' hashes: page_text), and what a
 * request filters and pages it by: its CPU, run mode and build kind (the
 * order of the rows, and the cursor) and its architecture. */
struct cpu_row
{
  char *cpu, *mode, *build, *arch;
  char *json;
  size_t len;
  unsigned char sha256[32];
};

/* The rows of one computation, sorted, shared by the requests that page
 * through them (REFS, under the keeper's lock; the keeper holds one),
 * and how long computing them took. */
struct cpu_rows
{
  struct cpu_row *row;
  size_t n;
  unsigned refs;
  double seconds;
};

static void
cpu_rows_free (struct cpu_rows *rows)
{
  for (size_t i = 0; rows && i < rows->n; i++)
    {
      free (rows->row[i].cpu);
      free (rows->row[i].mode);
      free (rows->row[i].build);
      free (rows->row[i].arch);
      free (rows->row[i].json);
    }
  if (rows)
    free (rows->row);
  free (rows);
}

/* The order of rows (and cursors): by CPU, run mode, build kind. */
static int
row_order (const char *cpu, const char *mode, const char *build, const struct cpu_row *row)
{
  int c = strcmp (cpu, row->cpu);
  if (c == 0)
    c = strcmp (mode, row->mode);
  return c ? c : strcmp (build, row->build);
}

static int
by_row (const void *a, const void *b)
{
  const struct cpu_row *x = a;
  return row_order (x->cpu, x->mode, x->build, b);
}

/* Prints OUT (consumed) as the next row of ROWS. */
static void
rows_add (struct cpu_rows *rows, cJSON *out, const char *arch)
{
  struct cpu_row *row;
  rows->row = gb_xrealloc (rows->row, (rows->n + 1) * sizeof *rows->row);
  row = &rows->row[rows->n++];
  row->cpu = gb_xstrdup (cJSON_GetObjectItemCaseSensitive (out, "cpu")->valuestring);
  row->mode = gb_xstrdup (cJSON_GetObjectItemCaseSensitive (out, "mode")->valuestring);
  row->build = gb_xstrdup (cJSON_GetObjectItemCaseSensitive (out, "build")->valuestring);
  row->arch = gb_xstrdup (arch);
  row->json = cJSON_PrintUnformatted (out);
  row->len = strlen (row->json);
  cJSON_Delete (out);
  struct gb_sha256 h;
  gb_sha256_init (&h);
  gb_sha256_update (&h, row->json, row->len);
  gb_sha256_final (&h, row->sha256);
}

static int
take_verified (void *ctx, const char *cpu, const char *mode, const char *build)
{
  struct row_index *x = ctx;
  size_t size = strlen (cpu) + strlen (mode) + strlen (build) + 3;
  char *key = gb_xmalloc (size);
  snprintf (key, size, "%s\n%s\n%s", cpu, mode, build);
  row_index_add (x, key, NULL);
  return 0;
}

/* Whether the CPU row of ITEM (its cpu, mode and build) is among the
 * VERIFIED ones. */
static int
verified_row (const struct row_index *verified, const cJSON *item)
{
  const char *f[3];
  static const char *const names[3] = { "cpu", "mode", "build" };
  for (int i = 0; i < 3; i++)
    f[i] = cJSON_GetObjectItemCaseSensitive (item, names[i])->valuestring;
  size_t size = strlen (f[0]) + strlen (f[1]) + strlen (f[2]) + 3;
  char *key = gb_xmalloc (size);
  snprintf (key, size, "%s\n%s\n%s", f[0], f[1], f[2]);
  int found = verified->nslots && verified->keys[row_slot (verified, key)];
  free (key);
  return found;
}

/* The rows, each with its CPU's name and architecture, n (the count of
 * its best-covered node), its sources (of its best-covered node) and
 * whether it is confirmed (that many sources, or a row of VERIFIED),
 * printed into OUT and sorted.  A CPU's rows come one after the other
 * (but for a kind without the first node), so its name is read once for
 * them. */
static enum store_status
finish (struct store *st, cJSON *rows, const struct row_index *verified, struct cpu_rows *out)
{
  char *name = NULL, *arch = NULL, *named = NULL;       /* NAMED: their CPU */
  enum store_status status = STORE_OK;

  while (rows->child)
    {
      cJSON *row = cJSON_DetachItemViaPointer (rows, rows->child);
      const char *cpu = cJSON_GetObjectItemCaseSensitive (row, "cpu")->valuestring;
      double n = 0, sources = 0;
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
        {
          n = fmax (n, cJSON_GetObjectItemCaseSensitive (s, "n")->valuedouble);
          sources = fmax (sources, cJSON_GetObjectItemCaseSensitive (s, "sources")->valuedouble);
        }
      cJSON *item = cJSON_CreateObject ();
      cJSON_AddStringToObject (item, "cpu", cpu);
      cJSON_AddStringToObject (item, "cpu_name", name ? name : "");
      cJSON_AddStringToObject (item, "arch", arch ? arch : "");
      cJSON_AddItemToObject (item, "mode", cJSON_DetachItemFromObject (row, "mode"));
      cJSON_AddItemToObject (item, "build", cJSON_DetachItemFromObject (row, "build"));
      cJSON_AddNumberToObject (item, "n", n);
      cJSON_AddNumberToObject (item, "sources", sources);
      cJSON_AddBoolToObject (item, "confirmed", sources >= STORE_CONFIRMING_SOURCES
                             || verified_row (verified, item));
      cJSON_AddItemToObject (item, "scores", cJSON_DetachItemFromObject (row, "scores"));
      rows_add (out, item, arch ? arch : "");
      cJSON_Delete (row);
    }
  free (name);
  free (arch);
  free (named);
  if (out->n > 0)
    qsort (out->row, out->n, sizeof *out->row, by_row);
  return status;
}

/* The aggregates as printed rows, or NULL on a database error or when
 * ABANDON is set: one row per CPU identity, run mode and GMP build kind,
 * never pooled. */
static struct cpu_rows *
aggregate (struct store *store, int include_flagged, const atomic_int *abandon)
{
  double begun = gb_wall_seconds ();
  struct kinds kinds = { 0 };
  enum store_status st = store_kinds (store, take_kind, &kinds);
  kinds_index (&kinds);
  struct groups g = {
    cJSON_CreateObject (), { NULL, NULL, 0, 0 }, &kinds, NULL, NULL,
    gb_xcalloc (kinds.nkinds + 1, sizeof *g.scores), gb_xcalloc (kinds.nkinds + 1, sizeof *g.n),
    gb_xcalloc (kinds.nkinds + 1, sizeof *g.cap), abandon
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
  struct cpu_rows *rows = gb_xcalloc (1, sizeof *rows);
  if (st == STORE_OK && atomic_load (abandon))
    st = STORE_ERROR;
  struct row_index verified = { NULL, NULL, 0, 0 };
  if (st == STORE_OK)
    st = store_verified_rows (store, take_verified, &verified);
  if (st == STORE_OK)
    st = finish (store, g.rows, &verified, rows);
  row_index_free (&verified);
  cJSON_Delete (g.rows);
  row_index_free (&g.index);
  kinds_free (&kinds);
  if (st != STORE_OK)
    {
      cpu_rows_free (rows);
      return NULL;
    }
  rows->refs = 1;
  rows->seconds = gb_wall_seconds () - begun;
  return rows;
}

/* What /api/v1/cpus keeps between requests: the rows of each variant
 * (without and with flagged results), when they were computed, whether
 * they are being computed (BUSY) and whether the refresher is asked to
 * (WANT); DONE is signalled when a computation ends, WAKE wakes the
 * refresher. */
struct cpus_keeper
{
  struct server *srv;
  pthread_mutex_t lock;
  pthread_cond_t done, wake;
  struct cpu_rows *rows[2];
  double at[2];
  int busy[2], want[2];
  atomic_int abandon;
  pthread_t refresher;
};

/* The rows kept for VARIANT, retained: fresh ones, or (with a TTL) older
 * ones while the refresher computes the next, which it is woken to do
 * if nobody is yet.  NULL when there are none or the TTL is 0: the
 * caller computes them, and calls remember; requests arriving meanwhile
 * without rows wait for those. */
static struct cpu_rows *
cached (struct cpus_keeper *k, int variant)
{
  double ttl = k->srv->aggregate_ttl;
  struct cpu_rows *rows = NULL;

  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      struct cpu_rows *kept = k->rows[variant];
      if (kept && ttl > 0)
        {
          if (gb_wall_seconds () - k->at[variant] >= ttl && !k->busy[variant])
            {
              k->busy[variant] = k->want[variant] = 1;
              pthread_cond_signal (&k->wake);
            }
          kept->refs++;
          rows = kept;
          break;
        }
      if (kept || !k->busy[variant])
        {
          k->busy[variant] = 1;
          break;
        }
      pthread_cond_wait (&k->done, &k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return rows;
}

/* Lets go of ROWS, freed with their last holder. */
static void
release (struct cpus_keeper *k, struct cpu_rows *rows)
{
  pthread_mutex_lock (&k->lock);
  int last = rows && --rows->refs == 0;
  pthread_mutex_unlock (&k->lock);
  if (last)
    cpu_rows_free (rows);
}

/* The rows computed, ROWS (retained for the keeper; NULL: it failed,
 * and the rows kept before stay). */
static void
remember (struct cpus_keeper *k, int variant, struct cpu_rows *rows)
{
  struct cpu_rows *old = NULL;
  pthread_mutex_lock (&k->lock);
  if (rows)
    {
      old = k->rows[variant];
      rows->refs++;
      k->rows[variant] = rows;
      k->at[variant] = gb_wall_seconds ();
    }
  k->busy[variant] = 0;
  pthread_cond_broadcast (&k->done);
  pthread_mutex_unlock (&k->lock);
  release (k, old);
}

/* The refresher: computes the rows of each variant it is asked for, at
 * the lowest priority, since requests are served the older rows
 * meanwhile. */
static void *
refresher (void *arg)
{
  struct cpus_keeper *k = arg;

  gb_thread_lower_priority (REFRESHER_NICE);
  pthread_mutex_lock (&k->lock);
  while (!atomic_load (&k->abandon))
    {
      int variant = k->want[0] ? 0 : k->want[1] ? 1 : -1;
      if (variant < 0)
        {
          pthread_cond_wait (&k->wake, &k->lock);
          continue;
        }
      k->want[variant] = 0;
      pthread_mutex_unlock (&k->lock);
      struct cpu_rows *rows = aggregate (k->srv->store, variant, &k->abandon);
      if (rows)
        log_info ("/api/v1/cpus: %zu rows%s computed in the background in %.1f s", rows->n,
                  variant ? " with flagged results" : "", rows->seconds);
      remember (k, variant, rows);
      release (k, rows);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

int
api_cpus_start (struct server *srv)
{
  struct cpus_keeper *k = gb_xcalloc (1, sizeof *k);

  k->srv = srv;
  k->busy[0] = k->want[0] = srv->aggregate_ttl > 0;     /* without flagged results */
  atomic_init (&k->abandon, 0);
  pthread_mutex_init (&k->lock, NULL);
  pthread_cond_init (&k->done, NULL);
  pthread_cond_init (&k->wake, NULL);
  if (pthread_create (&k->refresher, NULL, refresher, k) != 0)
    {
      pthread_cond_destroy (&k->wake);
      pthread_cond_destroy (&k->done);
      pthread_mutex_destroy (&k->lock);
      free (k);
      return -1;
    }
  srv->cpus = k;
  return 0;
}

void
api_cpus_stop (struct server *srv)
{
  struct cpus_keeper *k = srv->cpus;

  if (!k)
    return;
  pthread_mutex_lock (&k->lock);
  atomic_store (&k->abandon, 1);
  pthread_cond_signal (&k->wake);
  pthread_mutex_unlock (&k->lock);
  pthread_join (k->refresher, NULL);
  for (int variant = 0; variant < 2; variant++)
    release (k, k->rows[variant]);
  pthread_cond_destroy (&k->wake);
  pthread_cond_destroy (&k->done);
  pthread_mutex_destroy (&k->lock);
  free (k);
  srv->cpus = NULL;
}

/* A page of /api/v1/cpus: the rows after the cursor's position that
 * match the filters (NULL: any), at most LIMIT. */
struct cpus_page
{
  const char *cpu, *arch, *mode, *build;
  int has_cursor;
  char *after[3];               /* the cursor's CPU, run mode, build kind */
  size_t limit;
};

/* The cursor TEXT (the hex of the last row's CPU, mode and build, each
 * ended by a NUL) into P->after; 0, or -1 when it is not one. */
static int
parse_cursor (const char *text, struct cpus_page *p)
{
  size_t len = strlen (text), part = 0;
  char *bytes = gb_xmalloc (len / 2 + 1);

  if (len == 0 || len % 2)
    goto bad;
  for (size_t i = 0; i < len / 2; i++)
    {
      unsigned v;
      if (!strchr ("0123456789abcdef", text[2 * i]) || !strchr ("0123456789abcdef", text[2 * i + 1])
          || sscanf (text + 2 * i, "%2x", &v) != 1)
        goto bad;
      bytes[i] = (char) v;
    }
  for (size_t i = 0, from = 0; i < len / 2; i++)
    if (bytes[i] == '\0')
      {
        if (part == 3)
          goto bad;
        p->after[part++] = gb_xstrdup (bytes + from);
        from = i + 1;
      }
  if (part != 3 || bytes[len / 2 - 1] != '\0')
    goto bad;
  free (bytes);
  p->has_cursor = 1;
  return 0;
bad:
  free (bytes);
  return -1;
}

/* The cursor after ROW, malloc'ed. */
static char *
make_cursor (const struct cpu_row *row)
{
  size_t a = strlen (row->cpu) + 1, b = strlen (row->mode) + 1, c = strlen (row->build) + 1;
  unsigned char *bytes = gb_xmalloc (a + b + c);
  char *hex = gb_xmalloc (2 * (a + b + c) + 1);
  memcpy (bytes, row->cpu, a);
  memcpy (bytes + a, row->mode, b);
  memcpy (bytes + a + b, row->build, c);
  gb_hex (bytes, a + b + c, hex);
  free (bytes);
  return hex;
}

static int
page_matches (const struct cpus_page *p, const struct cpu_row *row)
{
  return (!p->cpu || strcmp (p->cpu, row->cpu) == 0)
    && (!p->arch || strcmp (p->arch, row->arch) == 0)
    && (!p->mode || strcmp (p->mode, row->mode) == 0)
    && (!p->build || strcmp (p->build, row->build) == 0);
}

/* The index of the first row after P's cursor, and of the first of its
 * CPU when filtered by one. */
static size_t
page_start (const struct cpu_rows *rows, const struct cpus_page *p)
{
  size_t lo = 0, hi = rows->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      int after = p->has_cursor
        && row_order (p->after[0], p->after[1], p->after[2], &rows->row[mid]) >= 0;
      if (after || (p->cpu && strcmp (p->cpu, rows->row[mid].cpu) > 0))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The answer for P from ROWS: {"cpus": [...], "next_cursor": ... or
 * null}, the rows' printed bytes copied as they are; and into DIGEST
 * (hex) the SHA-256 of its rows' SHA-256s and of its text after them,
 * which tell its bytes apart as its own hash would, for a page's worth
 * of hashing instead of its 1.6 MB (docs/server.md, "Caching"). */
static char *
page_text (const struct cpu_rows *rows, const struct cpus_page *p, size_t *len,
           char digest[65])
{
  size_t i = page_start (rows, p), count = 0, size = 64, used;
  const struct cpu_row *last = NULL;
  char *next = NULL;
  struct gb_sha256 h;
  unsigned char sum[32];

  for (size_t j = i; j < rows->n && count < p->limit; j++)
    if (page_matches (p, &rows->row[j]))
      size += rows->row[j].len + 1, count++;
  char *text = gb_xmalloc (size);
  gb_sha256_init (&h);
  used = (size_t) snprintf (text, size, "{\"cpus\":[");
  for (count = 0; i < rows->n && (!p->cpu || strcmp (p->cpu, rows->row[i].cpu) == 0); i++)
    {
      if (!page_matches (p, &rows->row[i]))
        continue;
      if (count == p->limit)
        {
          next = make_cursor (last);
          break;
        }
      if (count++)
        text[used++] = ',';
      memcpy (text + used, rows->row[i].json, rows->row[i].len);
      used += rows->row[i].len;
      gb_sha256_update (&h, rows->row[i].sha256, sizeof rows->row[i].sha256);
      last = &rows->row[i];
    }
  const char *tail = "],\"next_cursor\":";
  size_t more = strlen (tail) + (next ? strlen (next) + 2 : 4) + 2, end = used;
  text = gb_xrealloc (text, used + more);
  used += (size_t) snprintf (text + used, more, next ? "%s\"%s\"}" : "%snull}", tail, next);
  free (next);
  gb_sha256_update (&h, text + end, used - end);
  gb_sha256_final (&h, sum);
  gb_hex (sum, sizeof sum, digest);
  *len = used;
  return text;
}

/* The page P asks for from the query; 0, or -1 with the offending
 * argument in *BAD. */
static int
page_args (struct http_request *r, struct cpus_page *p, const char **bad)
{
  const char *limit = http_arg (r, "limit"), *cursor = http_arg (r, "cursor");

  p->cpu = http_arg (r, "cpu");
  p->arch = http_arg (r, "arch");
  p->mode = http_arg (r, "mode");
  p->build = http_arg (r, "build");
  p->limit = CPUS_DEFAULT_LIMIT;
  if (limit)
    {
      char *end;
      long v = strtol (limit, &end, 10);
      if (end == limit || *end || v < 1 || v > CPUS_MAX_LIMIT)
        return *bad = "limit", -1;
      p->limit = (size_t) v;
    }
  if (cursor && parse_cursor (cursor, p) < 0)
    return *bad = "cursor", -1;
  return 0;
}

enum MHD_Result
api_cpus (struct http_request *r)
{
  const char *flagged = http_arg (r, "flagged"), *bad = NULL;
  struct cpus_page page = { 0 };
  enum MHD_Result rc;

  if (flagged && strcmp (flagged, "0") != 0 && strcmp (flagged, "1") != 0)
    return http_error (r, 400, "query", "flagged", "flagged must be 0 or 1");
  if (page_args (r, &page, &bad) < 0)
    rc = http_error (r, 400, "query", bad, "bad value for query parameter %s", bad);
  else
    {
      int variant = flagged && flagged[0] == '1';
      struct cpus_keeper *k = r->srv->cpus;
      struct cpu_rows *rows = cached (k, variant);
      if (!rows)
        {
          rows = aggregate (r->srv->store, variant, &k->abandon);
          if (rows && rows->seconds >= 1)
            log_info ("/api/v1/cpus: %zu rows computed in %.1f s", rows->n, rows->seconds);
          remember (k, variant, rows);
        }
      if (!rows)
        rc = api_unavailable (r);
      else
        {
          size_t len;
          char digest[65];
          char *text = page_text (rows, &page, &len, digest);
          release (k, rows);
          rc = http_bytes_tagged (r, 200, "application/json", text, len, digest);
        }
    }
  for (int i = 0; i < 3; i++)
    free (page.after[i]);
  return rc;
}

enum MHD_Result
api_health (struct http_request *r)
{
  r->cache = HTTP_CACHE_NONE;   /* what a monitor asks is now, never a cache's copy */
  if (store_ping (r->srv->store) != STORE_OK)
    return api_unavailable (r);
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "status", "ok");
  cJSON_AddNumberToObject (body, "schema", store_schema_version (r->srv->store));
  cJSON_AddStringToObject (body, "version", GB_VERSION);
  cJSON_AddStringToObject (body, "registry", registry_id ());
  return http_json (r, 200, body);
}
