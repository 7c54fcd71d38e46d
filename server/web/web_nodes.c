/* web_nodes.c: the tree order of the hierarchy's nodes and the medians
 * of a CPU's node scores (see web_nodes.h).
 *
 * The node list is built once from the registry: each prefix of a test's
 * name, placed by where each of its own prefixes first appears in run
 * order (the registry need not list a node's tests together: the largest
 * ext.rsa sizes come after the others' verify tests), with an index by
 * name.  The scores come from the `scores` column of the newest results
 * in the store (one JSON object per result), collected into an array per
 * node (each score finds its node by a binary search) with its result's
 * source as the snapshot has it, and their medians, each source's
 * scores reduced to their median first (store.h, "Sources"), are kept with the snapshot's entries of the CPU
 * (board_cpu_memo) until one of its results changes: reading and parsing
 * the newest 200 results' scores took most of the CPU page's time, 0.6 s
 * at 100,000 whole runs on a busy machine, for every view.  Each
 * result's scores, once parsed, are kept by seq (parsed_scores), so that
 * the medians made again after a change parse the new results only. */
#include "server/web/web_nodes.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/machine_kind.h"
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

/* A node score of one result, and that result's source. */
struct sourced_score
{
  uint64_t source;
  double value;
};

/* The node scores of the newest results, collected: for the node at
 * place i of the tree order, COUNT[i] scores from VALUES[i * NODE_RESULTS]. */
struct load
{
  struct sourced_score *values;
  size_t *count;
  int results;
  double *row;                  /* one result's, by place (NAN: none) */
  uint64_t row_source;          /* the source of the result in ROW */
  const struct board_entry *known;      /* node_known's, for the sources of the store's rows */
  size_t nknown;
};

/* The node scores of results already parsed, by seq, in tree order (NAN:
 * none): a result's scores never change, so a CPU's medians made again
 * after one of its results changed parse only the new ones (parsing 200
 * results' scores for each of a page's build kinds made most of a CPU
 * page's 40-60 ms at 10,000 results).  A slot per seq modulo
 * PARSED_SLOTS, the newest parsed taking it: some 4.5 MB at most. */
#define PARSED_SLOTS 8192

static struct parsed
{
  int64_t seq;
  double *value;                /* NULL: empty */
} parsed[PARSED_SLOTS];
static pthread_mutex_t parsed_lock = PTHREAD_MUTEX_INITIALIZER;

/* The kept scores of the result SEQ into OUT (nnodes of them, by
 * place); 0 when they are not kept. */
static int
parsed_find (int64_t seq, double *out)
{
  const struct parsed *slot = &parsed[(uint64_t) seq % PARSED_SLOTS];
  int found = 0;

  pthread_mutex_lock (&parsed_lock);
  if (slot->value && slot->seq == seq)
    {
      memcpy (out, slot->value, nnodes * sizeof *out);
      found = 1;
    }
  pthread_mutex_unlock (&parsed_lock);
  return found;
}

/* The scores of the result SEQ, whose stored scores are TEXT, into OUT
 * (nnodes of them, by place), parsed unless kept. */
static void
parsed_scores (int64_t seq, const char *text, double *out)
{
  struct parsed *slot = &parsed[(uint64_t) seq % PARSED_SLOTS];

  if (parsed_find (seq, out))
    return;
  for (size_t i = 0; i < nnodes; i++)
    out[i] = NAN;
  cJSON *scores = text ? cJSON_Parse (text) : NULL, *s;
  cJSON_ArrayForEach (s, scores)
    {
      long i = cJSON_IsNumber (s) ? place (s->string) : -1;
      if (i >= 0)
        out[i] = s->valuedouble;
    }
  cJSON_Delete (scores);
  pthread_mutex_lock (&parsed_lock);
  if (!slot->value)
    slot->value = gb_xmalloc ((nnodes ? nnodes : 1) * sizeof *slot->value);
  slot->seq = seq;
  memcpy (slot->value, out, nnodes * sizeof *out);
  pthread_mutex_unlock (&parsed_lock);
}

/* Adds the scores in L's ROW, of the source L->ROW_SOURCE, to its values. */
static void
load_row (struct load *l)
{
  for (size_t i = 0; i < nnodes; i++)
    if (!isnan (l->row[i]) && l->count[i] < NODE_RESULTS)
      l->values[i * NODE_RESULTS + l->count[i]++] = (struct sourced_score) {
        l->row_source, l->row[i]
      };
  l->results++;
}

static int
by_seq (const void *pa, const void *pb)
{
  const struct board_entry *a = pa, *b = pb;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

size_t
node_known (const struct board *b, const struct board_filter *f, struct board_entry *out)
{
  size_t n = f->value[BF_CPU] ? board_cpu_newest_entries (b, f, NODE_RESULTS, out) : 0;
  qsort (out, n, sizeof *out, by_seq);
  return n;
}

uint64_t
node_source (const struct board_entry *known, size_t n, int64_t seq)
{
  struct board_entry key = { .seq = seq };
  const struct board_entry *e = n ? bsearch (&key, known, n, sizeof *known, by_seq) : NULL;
  return e ? e->source : ~(uint64_t) seq;
}

static int
take_row (void *ctx, const struct store_row *row, double score)
{
  struct load *l = ctx;
  (void) score;
  parsed_scores (row->seq, row->scores, l->row);
  l->row_source = node_source (l->known, l->nknown, row->seq);
  load_row (l);
  return 0;
}

static const char *
or_null (const char *s)
{
  return s && *s ? s : NULL;
}

void
node_store_filter (const struct board *b, const struct board_filter *f, struct store_filter *sf)
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
  if (machine_kind_parse (f->value[BF_MACHINE], &sf->machine) < 0)
    sf->machine = MACHINE_ANY;  /* web_read_filter let no other value through */
  sf->verified_only = f->verified_only;
  sf->unflagged_only = !f->include_flagged;
  sf->limit = NODE_RESULTS;
  sf->has_cursor = sf->cpu != NULL;
  sf->cursor_seq = sf->cpu ? board_cpu_newest (b, sf->cpu) + 1 : 0;
}

char *
node_memo_key (const char *what, const struct board_filter *f)
{
  char *key = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&key, &len);
  if (!out)
    return NULL;
  fprintf (out, "%s %d %d", what, f->verified_only, f->include_flagged);
  for (int i = 0; i < BF_COUNT; i++)
    {
      const char *v = f->value[i] ? f->value[i] : "";
      fprintf (out, " %zu:%s", strlen (v), v);
    }
  if (fclose (out) != 0)
    {
      free (key);
      return NULL;
    }
  return key;
}

static int
by_value (const void *pa, const void *pb)
{
  double x = ((const struct sourced_score *) pa)->value;
  double y = ((const struct sourced_score *) pb)->value;
  return x < y ? -1 : x > y;
}

static int
by_source_value (const void *pa, const void *pb)
{
  const struct sourced_score *a = pa, *b = pb;
  if (a->source != b->source)
    return a->source < b->source ? -1 : 1;
  return by_value (pa, pb);
}

/* The median of the M values V, sorted by value (M > 0). */
static double
sorted_median (const struct sourced_score *v, size_t m)
{
  return m % 2 ? v[m / 2].value : (v[m / 2 - 1].value + v[m / 2].value) / 2;
}

/* The median of one node's M scores V, each source's scores reduced to
 * their median first, so that a source counts once however many results
 * it sent (store.h, "Sources"); NAN when M is 0.  *SOURCES: how many
 * sources.  V is reordered and overwritten. */
static double
median_by_source (struct sourced_score *v, size_t m, size_t *sources)
{
  size_t k = 0;

  qsort (v, m, sizeof *v, by_source_value);
  for (size_t i = 0, j; i < m; i = j)
    {
      for (j = i; j < m && v[j].source == v[i].source; j++)
        ;
      double median = sorted_median (v + i, j - i);
      v[k++].value = median;    /* k <= i: a source's scores are read before */
    }
  *sources = k;
  qsort (v, k, sizeof *v, by_value);
  return k ? sorted_median (v, k) : NAN;
}

/* Where medians_make reads: the snapshot B's results of F's CPU, and
 * the store for their scores not parsed before; without a CPU, the
 * store's newest results of SF. */
struct medians_source
{
  struct board *b;
  const struct board_filter *f;
  struct store *st;
  struct store_filter sf;
};

#define FEW_UNPARSED 16         /* read one by one; more: the newest all at once */

/* The result a one-row read of the store is for, and whether it came. */
struct one_row
{
  int64_t seq;
  struct load *l;
  int found;
};

static int
take_one (void *ctx, const struct store_row *row)
{
  struct one_row *o = ctx;
  if (row->seq == o->seq)
    {
      parsed_scores (row->seq, row->scores, o->l->row);
      o->found = 1;
    }
  return 1;
}

/* The scores of the newest NODE_RESULTS results of FROM's CPU into L,
 * as the snapshot has them (L->KNOWN; so the store reads only the scores
 * not parsed before: after a change to the CPU's results, the new ones).
 * 1 when too many were never parsed (the caller reads the newest from
 * the store at once), 0, or -1 when the store fails. */
static int
load_from_board (const struct medians_source *from, struct load *l)
{
  const struct board_entry *e = l->known;
  size_t n = l->nknown, unparsed = 0;
  struct store_filter any = { 0 };
  int rc = 0;

  for (size_t i = 0; i < n && unparsed <= FEW_UNPARSED; i++)
    unparsed += !parsed_find (e[i].seq, l->row);
  for (size_t i = 0; i < n && unparsed <= FEW_UNPARSED; i++)
    {
      struct one_row o = { e[i].seq, l, parsed_find (e[i].seq, l->row) };
      if (!o.found && store_page (from->st, 0, &any, e[i].seq - 1, 1, take_one, &o) != STORE_OK)
        {
          rc = -1;
          break;
        }
      l->row_source = e[i].source;
      if (o.found)              /* else retracted since the snapshot */
        load_row (l);
    }
  return unparsed > FEW_UNPARSED ? 1 : rc;
}

static void
medians_drop (void *value)
{
  node_scores_free (value);
  free (value);
}

/* The medians of the newest results of the store filter CTX, malloc'ed
 * (*BYTES: their size); NULL when the store fails.  The sources of the
 * results read from the store are the snapshot's (node_known); a result
 * it does not have counts as a source of its own. */
static void *
medians_make (void *ctx, size_t *bytes)
{
  struct board_entry known[NODE_RESULTS];
  const struct medians_source *from = ctx;
  struct load l = {
    gb_xmalloc ((nnodes ? nnodes : 1) * NODE_RESULTS * sizeof *l.values),
    gb_xcalloc (nnodes ? nnodes : 1, sizeof *l.count), 0,
    gb_xmalloc ((nnodes ? nnodes : 1) * sizeof *l.row), 0, known,
    from->f ? node_known (from->b, from->f, known) : 0
  };
  struct node_scores *s = NULL;
  int rc = from->f && from->f->value[BF_CPU] ? load_from_board (from, &l) : 1;
  if (rc > 0)
    rc = store_list (from->st, &from->sf, take_row, &l) == STORE_OK ? 0 : -1;
  if (rc == 0)
    {
      s = gb_xmalloc (sizeof *s);
      s->median = gb_xmalloc ((nnodes ? nnodes : 1) * sizeof *s->median);
      s->sources = gb_xcalloc (nnodes ? nnodes : 1, sizeof *s->sources);
      s->count = l.count;
      s->results = l.results;
      *bytes = sizeof *s + nnodes * (sizeof *s->median + 2 * sizeof *s->count);
      l.count = NULL;
      for (size_t i = 0; i < nnodes; i++)
        s->median[i] = median_by_source (l.values + i * NODE_RESULTS, s->count[i],
                                         &s->sources[i]);
    }
  free (l.values);
  free (l.count);
  free (l.row);
  return s;
}

int
node_scores_load (struct board *b, struct store *st, const struct board_filter *f,
                  struct node_scores *s)
{
  struct medians_source from = { b, f, st, { 0 } };
  char *key = f->value[BF_CPU] ? node_memo_key ("nodes", f) : NULL;
  int owned = 1;
  struct node_scores *kept;

  pthread_once (&nodes_once, make_nodes);
  node_store_filter (b, f, &from.sf);
  if (key)
    kept = board_cpu_memo (b, f->value[BF_CPU], key, medians_make, &from, medians_drop, &owned);
  else
    {
      size_t bytes;
      kept = medians_make (&from, &bytes);
    }
  free (key);
  s->results = kept ? kept->results : 0;
  s->median = gb_xmalloc ((nnodes ? nnodes : 1) * sizeof *s->median);
  s->count = gb_xcalloc (nnodes ? nnodes : 1, sizeof *s->count);
  s->sources = gb_xcalloc (nnodes ? nnodes : 1, sizeof *s->sources);
  if (kept)
    {
      memcpy (s->median, kept->median, nnodes * sizeof *s->median);
      memcpy (s->count, kept->count, nnodes * sizeof *s->count);
      memcpy (s->sources, kept->sources, nnodes * sizeof *s->sources);
    }
  if (kept && owned)
    medians_drop (kept);
  return kept ? 0 : -1;
}

double
node_scores_median (const struct node_scores *s, const char *node, size_t *n)
{
  long i = place (node);
  *n = i >= 0 ? s->count[i] : 0;
  return *n ? s->median[i] : NAN;
}

size_t
node_scores_sources (const struct node_scores *s, const char *node)
{
  long i = place (node);
  return i >= 0 ? s->sources[i] : 0;
}

void
node_scores_free (struct node_scores *s)
{
  free (s->median);
  free (s->count);
  free (s->sources);
  s->median = NULL;
  s->count = NULL;
  s->sources = NULL;
}
