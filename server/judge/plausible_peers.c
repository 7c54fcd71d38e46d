/* plausible_peers.c: the peers' judgement of results (see plausible.h
 * and docs/protocol.md, "Plausibility").
 *
 * At each upload, every result of its category (CPU identity, run mode,
 * GMP build kind; the newest PLAUSIBLE_MAX_PEERS), fed in by the store
 * inside the upload's transaction, is judged again at every node and test
 * against the category's median, in log space, over its sources: each
 * source's values (store.h, "Sources") reduce to their median first, so
 * that a source counts once however many keys and results it sends (a
 * large category once it
 * grew by a quarter, the uploads between alone against its last
 * statistics, kept in memory), so that an early outlier is flagged once
 * peers arrive and a flag falls when the population shows it was honest;
 * a retraction judges its category the same way.  A stored result's
 * flags judged again (plausible_own_again) keep its outlier flag for the
 * category's next judgement to decide.  A node above key
 * generation is judged by its score without it (plausible_steady.h).
 * Nothing here calls the store: rows and values come in, verdicts go
 * out. */
#include "server/judge/plausible.h"
#include "server/judge/plausible_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "model/order_stats.h"
#include "server/judge/plausible_steady.h"

double
plausible_cutoff (double scale, enum plausible_kind kind, int faster)
{
  static const double fast[] = {
    [PLAUSIBLE_NODE] = PLAUSIBLE_NODE_FAST,
    [PLAUSIBLE_TEST] = PLAUSIBLE_TEST_FAST,
    [PLAUSIBLE_RANDOM] = PLAUSIBLE_RANDOM_FAST,
  };
  if (!faster && kind != PLAUSIBLE_NODE)
    return INFINITY;
  return fmax (PLAUSIBLE_K * scale, faster ? fast[kind] : PLAUSIBLE_NODE_SLOW);
}

/* The median of V (N > 0 values, sorted in place) and its scaled MAD. */
static void
robust (double *v, size_t n, double *median, double *scale)
{
  stats_sort (v, n);
  *median = stats_median_sorted (v, n);
  double *dev = gb_xmalloc (n * sizeof *dev);
  for (size_t i = 0; i < n; i++)
    dev[i] = fabs (v[i] - *median);
  stats_sort (dev, n);
  *scale = 1.4826 * stats_median_sorted (dev, n);
  free (dev);
}

int
plausible_outlier (double x, double *v, size_t n, enum plausible_kind kind)
{
  double median, scale;
  if (n < PLAUSIBLE_MIN_PEERS || x <= 0)
    return 0;
  for (size_t i = 0; i < n; i++)
    v[i] = log (v[i]);
  robust (v, n, &median, &scale);
  double dev = log (x) - median;
  return fabs (dev) > plausible_cutoff (scale, kind, dev > 0);
}

/* Whether NODE is judged by its score without the key generation below it
 * (plausible_steady.h). */
static int
judged_steady (const char *node)
{
  long i = steady_find (node);
  return i >= 0 && steady_mixed ((size_t) i);
}

/* The median and scale of one node over a category, in log space. */
struct node_stats
{
  char *node;
  double median, scale;
  size_t n;                     /* values */
};

/* One result of a category under review. */
struct judged
{
  char *id, *flags, *notes;
  uint32_t source;              /* its source's number in the review */
  double excess;                /* by how much the worst value passes its cutoff, or 0 */
  const char *node;             /* that value's node */
  double ratio, cutoff;         /* its value over the median, the cutoff as a ratio */
  size_t peers;
};

/* Records in J the deviation LOG_SCORE - S->median if it is the worst. */
static void
judge_value (struct judged *j, const struct node_stats *s, double log_score, size_t peers)
{
  double dev = log_score - s->median;
  double cutoff = plausible_cutoff (s->scale, plausible_kind_of (s->node), dev > 0);
  double excess = fabs (dev) - cutoff;
  if (excess > 0 && excess > j->excess)
    {
      j->excess = excess;
      j->node = s->node;
      j->ratio = exp (dev);
      j->cutoff = exp (cutoff);
      j->peers = peers;
    }
}

struct value
{
  uint32_t node, result, source;        /* the source: the result's */
  double log_score;
};

/* What a review reads, with the nodes' names interned, and the
 * statistics it computes. */
struct review
{
  int64_t *seqs;                /* newest first */
  struct judged *results;
  size_t nresults, cap;
  struct value *values;
  size_t nvalues, vcap;
  char **names;
  uint32_t *slots;              /* index + 1, 0 when free */
  size_t nnames, nslots;
  struct node_stats *stats;     /* by node name, of the nodes with enough values */
  size_t nstats;
  char **sources;               /* by number; the results' sources, each once */
  size_t nsources;
};

static uint32_t
intern_node (struct review *rv, const char *name)
{
  for (size_t i = gb_hash_string (name) % rv->nslots;; i = (i + 1) % rv->nslots)
    {
      if (!rv->slots[i])
        {
          if (2 * (rv->nnames + 1) > rv->nslots)
            break;
          rv->names = gb_xrealloc (rv->names, (rv->nnames + 1) * sizeof *rv->names);
          rv->names[rv->nnames] = gb_xstrdup (name);
          rv->slots[i] = (uint32_t) ++rv->nnames;
          return (uint32_t) (rv->nnames - 1);
        }
      if (strcmp (rv->names[rv->slots[i] - 1], name) == 0)
        return rv->slots[i] - 1;
    }
  /* Full: twice the slots, every name placed again. */
  free (rv->slots);
  rv->nslots *= 2;
  rv->slots = gb_xcalloc (rv->nslots, sizeof *rv->slots);
  size_t n = rv->nnames;
  rv->nnames = 0;
  char **old = rv->names;
  rv->names = NULL;
  for (size_t k = 0; k < n; k++)
    {
      intern_node (rv, old[k]);
      free (old[k]);
    }
  free (old);
  return intern_node (rv, name);
}

/* The number of SOURCE among RV's sources, given one when new (a
 * category has at most PLAUSIBLE_MAX_PEERS results). */
static uint32_t
source_number (struct review *rv, const char *source)
{
  for (size_t i = 0; i < rv->nsources; i++)
    if (strcmp (rv->sources[i], source) == 0)
      return (uint32_t) i;
  rv->sources = gb_xrealloc (rv->sources, (rv->nsources + 1) * sizeof *rv->sources);
  rv->sources[rv->nsources] = gb_xstrdup (source);
  return (uint32_t) rv->nsources++;
}

static int
take_result (void *ctx, int64_t seq, const char *id, const char *source, const char *flags,
             const char *notes)
{
  struct review *rv = ctx;
  if (rv->nresults == rv->cap)
    {
      rv->cap = rv->cap ? 2 * rv->cap : 64;
      rv->results = gb_xrealloc (rv->results, rv->cap * sizeof *rv->results);
      rv->seqs = gb_xrealloc (rv->seqs, rv->cap * sizeof *rv->seqs);
    }
  rv->seqs[rv->nresults] = seq;
  rv->results[rv->nresults++] = (struct judged) {
    gb_xstrdup (id), gb_xstrdup (flags), gb_xstrdup (notes), source_number (rv, source), 0, NULL,
    0, 0, 0
  };
  return 0;
}

/* The result with SEQ (newest first), or -1. */
static int64_t
find_result (const struct review *rv, int64_t seq)
{
  size_t lo = 0, hi = rv->nresults;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (rv->seqs[mid] == seq)
        return (int64_t) mid;
      if (rv->seqs[mid] > seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

static int
take_value (void *ctx, int64_t seq, const char *node, double score)
{
  struct review *rv = ctx;
  int64_t r = find_result (rv, seq);
  if (r < 0 || !(score > 0))
    return 0;
  if (rv->nvalues == rv->vcap)
    {
      rv->vcap = rv->vcap ? 2 * rv->vcap : 4096;
      rv->values = gb_xrealloc (rv->values, rv->vcap * sizeof *rv->values);
    }
  rv->values[rv->nvalues++] = (struct value) {
    intern_node (rv, node), (uint32_t) r, rv->results[r].source, log (score)
  };
  return 0;
}

static int
by_stats_name (const void *pa, const void *pb)
{
  return strcmp (((const struct node_stats *) pa)->node, ((const struct node_stats *) pb)->node);
}

/* Replaces the value of every mixed node of RV by its steady one
 * (plausible_steady.h), result by result. */
static void
steady_values (struct review *rv)
{
  size_t nw = steady_count ();
  long *index = gb_xmalloc ((rv->nnames + 1) * sizeof *index);
  double *v = gb_xmalloc ((rv->nresults * nw + 1) * sizeof *v);
  for (size_t i = 0; i < rv->nnames; i++)
    index[i] = steady_find (rv->names[i]);
  for (size_t i = 0; i < rv->nresults * nw; i++)
    v[i] = NAN;
  for (size_t i = 0; i < rv->nvalues; i++)
    if (index[rv->values[i].node] >= 0)
      v[rv->values[i].result * nw + (size_t) index[rv->values[i].node]] = rv->values[i].log_score;
  for (size_t r = 0; r < rv->nresults; r++)
    steady_apply (v + r * nw);
  for (size_t i = 0; i < rv->nvalues; i++)
    {
      long k = index[rv->values[i].node];
      if (k >= 0 && steady_mixed ((size_t) k))
        rv->values[i].log_score = v[rv->values[i].result * nw + (size_t) k];
    }
  free (index);
  free (v);
}

/* By node, then by source, then by value. */
static int
by_node_source (const void *pa, const void *pb)
{
  const struct value *a = pa, *b = pb;
  if (a->node != b->node)
    return (a->node > b->node) - (a->node < b->node);
  if (a->source != b->source)
    return (a->source > b->source) - (a->source < b->source);
  return (a->log_score > b->log_score) - (a->log_score < b->log_score);
}

/* The median of each source's values among V[0..N) (sorted by source,
 * then value) into OUT: how many sources. */
static size_t
source_medians (const struct value *v, size_t n, double *out)
{
  size_t m = 0;
  for (size_t k = 0; k < n;)
    {
      size_t j = k;
      while (j < n && v[j].source == v[k].source)
        j++;
      size_t mid = k + (j - k - 1) / 2;
      out[m++] = (v[mid].log_score + v[k + (j - k) / 2].log_score) / 2;
      k = j;
    }
  return m;
}

/* The statistics of every node with enough sources, over each source's
 * median (so that a source counts once however many results it sent),
 * then each result's worst excess over them. */
static void
judge_all (struct review *rv)
{
  steady_values (rv);
  /* A retraction can leave a category without values (and rv->values NULL). */
  if (rv->nvalues > 1)
    qsort (rv->values, rv->nvalues, sizeof *rv->values, by_node_source);
  double *scratch = gb_xmalloc ((rv->nresults + 1) * sizeof *scratch);
  rv->stats = gb_xmalloc ((rv->nnames + 1) * sizeof *rv->stats);
  for (size_t k = 0; k < rv->nvalues;)
    {
      size_t j = k;
      while (j < rv->nvalues && rv->values[j].node == rv->values[k].node)
        j++;
      size_t n = source_medians (rv->values + k, j - k, scratch);
      if (n >= PLAUSIBLE_MIN_PEERS + 1)
        {
          struct node_stats *s = &rv->stats[rv->nstats++];
          s->node = rv->names[rv->values[k].node];
          s->n = n;
          robust (scratch, n, &s->median, &s->scale);
          for (size_t i = k; i < j; i++)
            judge_value (&rv->results[rv->values[i].result], s, rv->values[i].log_score, n - 1);
        }
      k = j;
    }
  free (scratch);
  qsort (rv->stats, rv->nstats, sizeof *rv->stats, by_stats_name);
}

/* The flags and notes of J after it was judged, into FLAGS and NOTES:
 * its outlier flag and note replaced. */
static void
judged_flags (const struct judged *j, char *flags, size_t fsize, char *notes, size_t nsize)
{
  char *copy = gb_xstrdup (j->flags);
  flags[0] = notes[0] = '\0';
  for (char *save, *f = strtok_r (copy, ",", &save); f; f = strtok_r (NULL, ",", &save))
    if (strcmp (f, "outlier") != 0)
      plausible_add_flag (flags, fsize, f);
  free (copy);
  copy = gb_xstrdup (j->notes);
  for (char *save, *l = strtok_r (copy, "\n", &save); l; l = strtok_r (NULL, "\n", &save))
    if (strncmp (l, "outlier:", 8) != 0)
      plausible_add_note (notes, nsize, "%s", l);
  free (copy);
  if (j->excess > 0)
    {
      plausible_add_flag (flags, fsize, "outlier");
      plausible_add_note (notes, nsize, "outlier: %s%s is %.0f%% %s the median of its %zu peers "
                          "(other sources of the same CPU, run mode and GMP build; the cutoff "
                          "is %.0f%%)", j->node,
                          judged_steady (j->node) ? " without its key generation" : "",
                          100 * fabs (j->ratio - 1), j->ratio > 1 ? "above" : "below", j->peers,
                          100 * (j->ratio > 1 ? j->cutoff - 1 : 1 - 1 / j->cutoff));
    }
}

int
plausible_own_again (const void *scope, const struct doc_summary *doc,
                     const struct plausible_best_reader *read, const char *old_flags,
                     const char *old_notes, char *flags, size_t fsize, char *notes,
                     size_t nsize)
{
  if (plausible_flags (scope, doc, read, flags, fsize, notes, nsize) < 0)
    return -1;
  char *copy = gb_xstrdup (old_flags);
  for (char *save, *f = strtok_r (copy, ",", &save); f; f = strtok_r (NULL, ",", &save))
    if (strcmp (f, "outlier") == 0)
      plausible_add_flag (flags, fsize, f);
  free (copy);
  copy = gb_xstrdup (old_notes);
  for (char *save, *l = strtok_r (copy, "\n", &save); l; l = strtok_r (NULL, "\n", &save))
    if (strncmp (l, "outlier:", 8) == 0)
      plausible_add_note (notes, nsize, "%s", l);
  free (copy);
  return 0;
}

static void
review_free (struct review *rv)
{
  for (size_t i = 0; i < rv->nresults; i++)
    {
      free (rv->results[i].id);
      free (rv->results[i].flags);
      free (rv->results[i].notes);
    }
  for (size_t i = 0; i < rv->nnames; i++)
    free (rv->names[i]);
  free (rv->names);
  for (size_t i = 0; i < rv->nsources; i++)
    free (rv->sources[i]);
  free (rv->sources);
  free (rv->slots);
  free (rv->seqs);
  free (rv->results);
  free (rv->values);
  free (rv->stats);
}

/* The flags and notes of RV's results after the review, in TEXT; those
 * that changed into CHANGES (both with room for every result), their
 * number returned; the result ID's flags into FLAGS (unless ID is NULL). */
static size_t
judged_changes (const struct review *rv, char (*text)[2][PLAUSIBLE_NOTES],
                struct store_flags *changes, const char *id, char *flags, size_t fsize)
{
  size_t n = 0;
  for (size_t i = 0; i < rv->nresults; i++)
    {
      const struct judged *r = &rv->results[i];
      judged_flags (r, text[n][0], PLAUSIBLE_FLAGS, text[n][1], PLAUSIBLE_NOTES);
      if (id && strcmp (r->id, id) == 0)       /* flags fit PLAUSIBLE_FLAGS */
        snprintf (flags, fsize, "%.*s", PLAUSIBLE_FLAGS - 1, text[n][0]);
      if (strcmp (text[n][0], r->flags) != 0 || strcmp (text[n][1], r->notes) != 0)
        {
          changes[n] = (struct store_flags) { r->id, text[n][0], text[n][1] };
          n++;
        }
    }
  return n;
}

/* ------------------------------------------------------------ category cache */

/* A category's node statistics from its last whole review, by scope and
 * category (a hash; a collision drops the older entry).  A category of
 * n results is judged whole again once n / REVIEW_GROWTH uploads came
 * since, or after CATEGORY_TTL seconds; the uploads between are judged
 * against these statistics alone.  Below 2 * REVIEW_GROWTH results, every
 * upload brings a whole judgement. */
#define CATEGORY_SLOTS 256
#define CATEGORY_TTL 600
#define REVIEW_GROWTH 4

struct category_slot
{
  const void *scope;
  char *key;                    /* "CPU\nMODE\nBUILD" */
  struct node_stats *stats;     /* by node name; the names owned */
  size_t nstats, size, since;
  time_t taken;
};

static struct category_slot categories[CATEGORY_SLOTS];
static pthread_mutex_t category_lock = PTHREAD_MUTEX_INITIALIZER;

static struct category_slot *
category_slot (const void *scope, const char *key)
{
  return &categories[plausible_slot_of (scope, key, CATEGORY_SLOTS)];
}

static void
slot_clear (struct category_slot *s)
{
  for (size_t i = 0; i < s->nstats; i++)
    free (s->stats[i].node);
  free (s->stats);
  free (s->key);
  memset (s, 0, sizeof *s);
}

/* Keeps the statistics of a whole review RV of KEY. */
static void
category_keep (const void *scope, const char *key, const struct review *rv)
{
  struct node_stats *stats = gb_xmalloc ((rv->nstats + 1) * sizeof *stats);
  for (size_t i = 0; i < rv->nstats; i++)
    {
      stats[i] = rv->stats[i];
      stats[i].node = gb_xstrdup (rv->stats[i].node);
    }
  pthread_mutex_lock (&category_lock);
  struct category_slot *s = category_slot (scope, key);
  slot_clear (s);
  *s = (struct category_slot) { scope, gb_xstrdup (key), stats, rv->nstats, rv->nresults, 0,
                                time (NULL) };
  pthread_mutex_unlock (&category_lock);
}

/* The log scores of DOC as the peers judge them, by its scores' order:
 * each mixed node's steady one (plausible_steady.h), NAN for a score not
 * above 0.  Free it. */
static double *
doc_steady (const struct doc_summary *doc)
{
  size_t nw = steady_count ();
  double *v = gb_xmalloc ((nw + 1) * sizeof *v);
  double *out = gb_xmalloc ((doc->nscores + 1) * sizeof *out);
  for (size_t k = 0; k < nw; k++)
    v[k] = NAN;
  for (size_t i = 0; i < doc->nscores; i++)
    {
      out[i] = doc->scores[i].score > 0 ? log (doc->scores[i].score) : NAN;
      long k = steady_find (doc->scores[i].name);
      if (k >= 0)
        v[k] = out[i];
    }
  steady_apply (v);
  for (size_t i = 0; i < doc->nscores; i++)
    {
      long k = steady_find (doc->scores[i].name);
      if (k >= 0 && steady_mixed ((size_t) k))
        out[i] = v[k];
    }
  free (v);
  return out;
}

/* Judges DOC alone against the kept statistics of KEY into *J: 1, or 0
 * when a whole review is due.  The upload is counted against them once
 * stored (category_count). */
static int
category_judge (const void *scope, const char *key, const struct doc_summary *doc,
                struct judged *j)
{
  int hit = 0;
  double *steady = doc_steady (doc);
  pthread_mutex_lock (&category_lock);
  struct category_slot *s = category_slot (scope, key);
  if (s->key && s->scope == scope && strcmp (s->key, key) == 0
      && s->since + 1 < s->size / REVIEW_GROWTH && time (NULL) - s->taken < CATEGORY_TTL)
    {
      hit = 1;
      for (size_t i = 0; i < doc->nscores; i++)
        {
          struct node_stats probe = { doc->scores[i].name, 0, 0, 0 };
          const struct node_stats *n = bsearch (&probe, s->stats, s->nstats, sizeof *s->stats,
                                                by_stats_name);
          double before = j->excess;
          if (n && doc->scores[i].score > 0)
            judge_value (j, n, steady[i], n->n);
          if (j->excess != before)
            j->node = doc->scores[i].name;     /* the slot's may go once unlocked */
        }
    }
  pthread_mutex_unlock (&category_lock);
  free (steady);
  return hit;
}


/* Counts an upload judged alone against the kept statistics of KEY. */
static void
category_count (const void *scope, const char *key)
{
  pthread_mutex_lock (&category_lock);
  struct category_slot *s = category_slot (scope, key);
  if (s->key && s->scope == scope && strcmp (s->key, key) == 0)
    s->since++;
  pthread_mutex_unlock (&category_lock);
}

static void
category_key (char *key, size_t size, const char *cpu, const char *mode, const char *build)
{
  snprintf (key, size, "%s\n%s\n%s", cpu, mode, build);
}

/* ------------------------------------------------------------ verdicts */

int
plausible_alone (const void *scope, const struct doc_summary *doc, const char *build,
                 char *flags, size_t fsize, char *notes, size_t nsize)
{
  char key[768], new_flags[PLAUSIBLE_FLAGS], new_notes[PLAUSIBLE_NOTES];
  struct judged j = { NULL, flags, notes, 0, 0, NULL, 0, 0, 0 };

  category_key (key, sizeof key, doc->cpu, doc->mode, build);
  if (!category_judge (scope, key, doc, &j))
    return 0;
  judged_flags (&j, new_flags, sizeof new_flags, new_notes, sizeof new_notes);
  snprintf (flags, fsize, "%s", new_flags);
  snprintf (notes, nsize, "%s", new_notes);
  return 1;
}

void
plausible_stored (const void *scope, const struct doc_summary *doc, const char *build,
                  int alone, const char *flags, int confirmed)
{
  char key[768];

  category_key (key, sizeof key, doc->cpu, doc->mode, build);
  if (alone)
    category_count (scope, key);
  if (!flags[0] && confirmed)
    plausible_raise_best (scope, doc);
}

/* A category judged whole, inside the transaction that changed it. */
struct plausible_category
{
  struct review rv;             /* first: take_result and take_value's context */
  const void *scope;
  char key[768];                /* the category's, once decided */
  struct store_flags *changes;
  char (*text)[2][PLAUSIBLE_NOTES];
  char flags[PLAUSIBLE_FLAGS];  /* the stored result's, once decided */
};

/* The store's rejudge decision (store_verdict.h): the category judged
 * whole from the rows fed to it, its flags that change returned. */
static void
decide (void *ctx, const char *id, const char *cpu, const char *mode, const char *build,
        const struct store_flags **changes, size_t *n)
{
  struct plausible_category *cat = ctx;
  category_key (cat->key, sizeof cat->key, cpu, mode, build);
  judge_all (&cat->rv);
  cat->changes = gb_xmalloc ((cat->rv.nresults + 1) * sizeof *cat->changes);
  cat->text = gb_xmalloc ((cat->rv.nresults + 1) * sizeof *cat->text);
  *n = judged_changes (&cat->rv, cat->text, cat->changes, id, cat->flags, sizeof cat->flags);
  *changes = cat->changes;
}

struct plausible_category *
plausible_category_new (const void *scope, struct store_rejudge *rj)
{
  struct plausible_category *cat = gb_xcalloc (1, sizeof *cat);
  cat->scope = scope;
  cat->rv.nslots = 1024;
  cat->rv.slots = gb_xcalloc (cat->rv.nslots, sizeof *cat->rv.slots);
  *rj = (struct store_rejudge) { PLAUSIBLE_MAX_PEERS, PLAUSIBLE_PER_SOURCE, take_result, take_value,
                                  decide, cat };
  return cat;
}

const char *
plausible_category_kept (struct plausible_category *cat)
{
  if (!cat->key[0])
    return NULL;
  category_keep (cat->scope, cat->key, &cat->rv);
  return cat->flags;
}

void
plausible_category_free (struct plausible_category *cat)
{
  if (!cat)
    return;
  review_free (&cat->rv);
  free (cat->changes);
  free (cat->text);
  free (cat);
}
