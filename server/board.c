/* board.c: the leaderboard snapshot, and the threads that build it and
 * keep it up to date (see board.h).
 *
 * Strings are interned per field in open-addressing hash tables, so an
 * entry holds small integers and a filter is resolved to integers once.
 * Entries are stored grouped by CPU, best GMPbench score first, so that
 * a scan reads memory in order; GROUP gives each CPU's range.  SEQS lists
 * the upload order and POS where each of those entries went; a score
 * row's seq is found in SEQS through BY_SEQ, a direct map, when the seqs
 * are dense (they are, but for retracted and unlisted results), else by
 * binary search.  The RSA-2048 ratio is GMP's signatures per second over
 * OpenSSL's (openssl.rsa.sign.2048, constant-time) in the same result,
 * GMP's constant-time signature (ext.rsa.sign-sec.2048) when the result
 * has it, else GMPbench's (gmpbench.app.rsa.2048): the rule of the
 * document's own comparison table; score per GHz and per core are
 * computed once.
 *
 * INFO summarizes each CPU's results: the values they all share, how
 * many are verified, and the CPU's rows over its unflagged and over all
 * its results.  A filter that all of a CPU's results match (an
 * architecture or vendor, flagged results included or not) takes that
 * row without scanning them; one that matches none skips the CPU.
 *
 * A view is the rows of one filter (and node column), by CPU; it keeps
 * the order of its rows by each key once asked.  A snapshot keeps up to
 * MAX_VIEWS, dropping the least asked for when full.  Readers find
 * columns and views under the snapshot's lock and copy what they need,
 * so a view can be dropped while a page is being written.
 *
 * An update (derive) copies the string tables (their indexes stay
 * valid), takes the changed results' entries out (their counts too),
 * merges the changed results as they are now into the sorted entries in
 * one pass, indexes the seqs again, carries the node columns over by
 * where each entry came from, and names and summarizes again only the
 * CPUs it touched; a CPU left without results keeps its index, with an
 * empty group, and is shown nowhere.
 *
 * The keeper holds the current snapshot, the journal and the three
 * threads (the updater, the full builder, and the follower, which puts
 * other processes' changes in the journal).  Under its mutex: the pointer to the current snapshot
 * (swapped, never modified) and the journal position it includes, the
 * journal, whether an update or a full build is wanted or under way, a
 * full build done and not yet brought up to date, and how many builds
 * failed.  A reader retains the snapshot under the mutex and releases it
 * when done; the last release frees it.  The threads work without the
 * mutex on snapshots nobody else sees, and the abandon flag is checked in
 * every row callback, so stopping the server does not wait for a whole
 * build.  The full builder runs at a lower priority (Linux), so that
 * pages go first on a busy machine.
 */
#include "server/board.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include "common/util.h"
#include "server/log.h"
#include "server/plausible.h"
#include "server/store.h"

/* The home page asks for the eight category columns (docs/leaderboard.md)
 * and a view of each per filter, so a few sort nodes and filters fit. */
#define MAX_COLUMNS 12
#define MAX_VIEWS 64
#define CARRIED_VIEWS 24       /* the most asked for, given to the next snapshot */
#define FIRST_WAIT 2            /* seconds a page waits for the first snapshot */
/* Seconds a page waits at most for the update that brings the changes
 * made before it arrived (a fraction of a second at a million results). */
#define FRESH_WAIT 2
/* Ids the journal keeps at most; beyond, they are dropped and a full
 * build brings the snapshot up to date. */
#define JOURNAL_MAX 1000000
/* A full build merges the changes made while it ran itself until this
 * few are left for the updater. */
#define CATCH_UP_LEFT 1000
#define BUILDER_NICE 10         /* pages before snapshots, on a busy machine */
/* Milliseconds the follower waits at most for other processes' changes
 * at a time (store_follow), and after the store failed. */
#define FOLLOW_WAIT_MS 200
#define FOLLOW_RETRY_MS 1000
#define SCORE_NODE "gmpbench"
#define RSA_GMP "gmpbench.app.rsa.2048"
#define RSA_GMP_SEC "ext.rsa.sign-sec.2048"
#define RSA_OPENSSL "openssl.rsa.sign.2048"

struct strtab
{
  char **names;                 /* in order of first appearance */
  size_t *counts;
  size_t n, cap;
  uint32_t *slots;              /* index + 1, 0 when free */
  size_t nslots;
  const char **sorted;          /* the names with results, sorted, with their counts */
  size_t *sorted_counts;
  size_t nsorted;
};

struct item
{
  int64_t seq;
  uint32_t f[BF_COUNT];
  uint32_t name;
  uint8_t verified, flagged;
  double score, rsa;
  double per_ghz, per_core;     /* NAN without a score, a clock, cores */
};

struct column
{
  char *node;
  double *v;                    /* per item, NAN when absent */
};

/* A filter resolved to indexes: -1 for any value. */
struct resolved
{
  int64_t f[BF_COUNT];
  int verified_only, include_flagged;
};

struct view
{
  struct resolved r;
  char *value[BF_COUNT];        /* the filter as given (NULL: any) */
  char *node;                   /* NULL, or its node column's */
  struct board_row *rows;       /* by CPU */
  size_t nrows;
  uint32_t *order[BK_COUNT];    /* rows by each key, once asked */
  unsigned long hits;
};

/* What a filter needs to know of one CPU's results as a whole. */
struct group_info
{
  uint32_t uniform[BF_COUNT];   /* the value all share, or UINT32_MAX */
  size_t verified;              /* how many are from verified publishers */
  struct board_row rows[2];     /* over the unflagged ones, over all (n 0: none) */
};

struct board
{
  atomic_int refs;
  double built;                 /* when its build or update began (wall clock) */
  double base_built;            /* when the full build it descends from began */
  struct strtab tab[BF_COUNT], names;
  struct item *items;
  size_t n, cap;
  int64_t *seqs;                /* every seq, ascending */
  uint32_t *pos;                /* the item of seqs[i] */
  uint32_t *by_seq;             /* i of seqs[i] at seqs[i] - seqs[0], or NULL */
  size_t span;                  /* its length */
  size_t *group;                /* CPU i is items[group[i] .. group[i+1]) */
  uint32_t *newest;             /* per CPU: its newest item */
  uint32_t *cpu_name;           /* per CPU: the name shown (index into NAMES) */
  int64_t kind[2];              /* the most common mode, and build kind among them, or -1 */
  size_t *pairs;                /* results per run mode (row) and build kind (column) */
  size_t pair_builds;           /* its columns */
  struct group_info *info;      /* per CPU */
  pthread_mutex_t lock;         /* guards the columns and the views */
  pthread_cond_t loaded;        /* a column loaded by a request */
  struct column cols[MAX_COLUMNS];
  size_t ncols;
  const char *loading[MAX_COLUMNS];     /* the nodes requests are loading */
  size_t nloading;
  struct view *views[MAX_VIEWS];
  size_t nviews;
};

struct board_keeper
{
  struct server *srv;
  pthread_mutex_t lock;
  pthread_cond_t wake;          /* the updater waits for work */
  pthread_cond_t full_wake;     /* the full builder waits for work */
  pthread_cond_t done;          /* pages wait for a snapshot (monotonic clock) */
  pthread_t updater, full, follower;
  struct board *current;
  /* The journal: the ids of the results changed, entry i at position
   * FIRST + i, kept from the oldest position a snapshot may still need. */
  char **journal;
  size_t njournal, cap;
  uint64_t first;
  uint64_t applied;             /* the position the current snapshot includes */
  int want_update, updating, want_full, full_running;
  double full_begun;            /* when the running full build began */
  uint64_t full_from;           /* the position then */
  struct board *base;           /* a full build done, not yet brought up to date */
  uint64_t base_from;
  unsigned long failures;
  atomic_int abandon;
};

static void summarize (struct board *b, const uint8_t *affected);

/* ------------------------------------------------------------ interning */

/* The slot of S in T: where it is, or the free one where it would go. */
static uint32_t *
slot_of (const struct strtab *t, const char *s)
{
  size_t mask = t->nslots - 1, i = (size_t) gb_hash_string (s) & mask;
  while (t->slots[i] && strcmp (t->names[t->slots[i] - 1], s) != 0)
    i = (i + 1) & mask;
  return &t->slots[i];
}

static void
grow_slots (struct strtab *t)
{
  free (t->slots);
  t->nslots = t->nslots ? 2 * t->nslots : 64;
  t->slots = gb_xcalloc (t->nslots, sizeof *t->slots);
  for (size_t i = 0; i < t->n; i++)
    *slot_of (t, t->names[i]) = (uint32_t) i + 1;
}

static uint32_t
intern (struct strtab *t, const char *s)
{
  if (2 * (t->n + 1) > t->nslots)
    grow_slots (t);
  uint32_t *slot = slot_of (t, s);
  if (!*slot)
    {
      if (t->n == t->cap)
        {
          t->cap = t->cap ? 2 * t->cap : 16;
          t->names = gb_xrealloc (t->names, t->cap * sizeof *t->names);
          t->counts = gb_xrealloc (t->counts, t->cap * sizeof *t->counts);
        }
      t->names[t->n] = gb_xstrdup (s);
      t->counts[t->n] = 0;
      *slot = (uint32_t) ++t->n;
    }
  t->counts[*slot - 1]++;
  return *slot - 1;
}

/* The index of S in T, or -1. */
static int64_t
lookup (const struct strtab *t, const char *s)
{
  if (!t->nslots)
    return -1;
  uint32_t slot = *slot_of (t, s);
  return slot ? (int64_t) slot - 1 : -1;
}

struct named
{
  const char *name;
  size_t count;
};

static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct named *) a)->name, ((const struct named *) b)->name);
}

/* Fills T's sorted view. */
static void
sort_names (struct strtab *t)
{
  struct named *v = gb_xmalloc ((t->n + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->counts[i])
      v[n++] = (struct named) { t->names[i], t->counts[i] };
  qsort (v, n, sizeof *v, by_name);
  t->sorted = gb_xmalloc ((n + 1) * sizeof *t->sorted);
  t->sorted_counts = gb_xmalloc ((n + 1) * sizeof *t->sorted_counts);
  for (size_t i = 0; i < n; i++)
    {
      t->sorted[i] = v[i].name;
      t->sorted_counts[i] = v[i].count;
    }
  t->nsorted = n;
  free (v);
}

static void
strtab_free (struct strtab *t)
{
  for (size_t i = 0; i < t->n; i++)
    free (t->names[i]);
  free (t->names);
  free (t->counts);
  free (t->slots);
  free (t->sorted);
  free (t->sorted_counts);
}

/* ------------------------------------------------------------ building */

/* What a build needs besides the snapshot. */
struct build
{
  struct board *b;
  float *mhz;                   /* per item in upload order, until scored */
  int32_t *cores;
  const atomic_int *abandon;    /* NULL, or set when the build is abandoned */
};

static int
abandoned (const atomic_int *abandon)
{
  return abandon && atomic_load (abandon);
}

/* IT from ROW, its strings interned in B; its scores not yet known. */
static void
fill_item (struct board *b, struct item *it, const struct store_board_row *row)
{
  const char *values[BF_COUNT] = {
    row->cpu, row->arch, row->vendor, row->os, row->gmp, row->compiler, row->mode, row->build
  };
  for (int f = 0; f < BF_COUNT; f++)
    it->f[f] = intern (&b->tab[f], values[f]);
  it->name = intern (&b->names, row->cpu_name);
  it->seq = row->seq;
  it->verified = row->verified != 0;
  it->flagged = row->flagged != 0;
  it->score = it->rsa = it->per_ghz = it->per_core = NAN;
}

/* IT's RSA ratio and score per GHz and per core, from the ops/s of GMP's
 * RSA-2048 signature (the constant-time one when the result has it) and
 * OpenSSL's (NAN when absent), its clock and cores (0: unknown). */
static void
finish_item (struct item *it, double gmp, double ossl, float mhz, int32_t cores)
{
  it->rsa = gmp / ossl;         /* NAN when either is absent */
  if (!isnan (it->score) && mhz > 0)
    it->per_ghz = it->score / (mhz / 1000.0);
  if (!isnan (it->score) && cores > 0)
    it->per_core = it->score / cores;
}

static int
add_item (void *ctx, const struct store_board_row *row)
{
  struct build *bd = ctx;
  struct board *b = bd->b;

  if (abandoned (bd->abandon))
    return 1;
  if (b->n == b->cap)
    {
      b->cap = b->cap ? 2 * b->cap : 1024;
      b->items = gb_xrealloc (b->items, b->cap * sizeof *b->items);
      bd->mhz = gb_xrealloc (bd->mhz, b->cap * sizeof *bd->mhz);
      bd->cores = gb_xrealloc (bd->cores, b->cap * sizeof *bd->cores);
    }
  bd->mhz[b->n] = (float) row->mhz;
  bd->cores[b->n] = row->cores;
  fill_item (b, &b->items[b->n++], row);
  return 0;
}

/* Where SEQ is in SEQS, or -1. */
static int64_t
seq_slot (const struct board *b, int64_t seq)
{
  if (b->by_seq)
    {
      uint64_t i = (uint64_t) (seq - b->seqs[0]);
      return i < b->span && b->by_seq[i] != UINT32_MAX ? (int64_t) b->by_seq[i] : -1;
    }
  size_t lo = 0, hi = b->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (b->seqs[mid] < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < b->n && b->seqs[lo] == seq ? (int64_t) lo : -1;
}

/* The item with SEQ, or -1. */
static int64_t
find_seq (const struct board *b, int64_t seq)
{
  int64_t i = seq_slot (b, seq);
  return i < 0 ? -1 : (int64_t) b->pos[i];
}

/* BY_SEQ for SEQS (ascending), when they are dense enough. */
static void
index_dense (struct board *b)
{
  if (b->n == 0 || (uint64_t) (b->seqs[b->n - 1] - b->seqs[0]) >= 4 * (uint64_t) b->n + 1024)
    return;
  b->span = (size_t) (b->seqs[b->n - 1] - b->seqs[0]) + 1;
  b->by_seq = gb_xmalloc (b->span * sizeof *b->by_seq);
  memset (b->by_seq, 0xff, b->span * sizeof *b->by_seq);
  for (size_t i = 0; i < b->n; i++)
    b->by_seq[b->seqs[i] - b->seqs[0]] = (uint32_t) i;
}

/* SEQS and POS for the items in upload order (before grouping), and
 * BY_SEQ. */
static void
index_seqs (struct board *b)
{
  b->seqs = gb_xmalloc ((b->n + 1) * sizeof *b->seqs);
  b->pos = gb_xmalloc ((b->n + 1) * sizeof *b->pos);
  for (size_t i = 0; i < b->n; i++)
    {
      b->seqs[i] = b->items[i].seq;
      b->pos[i] = (uint32_t) i;
    }
  index_dense (b);
}

struct column_load
{
  const struct board *b;
  double *v;
  const atomic_int *abandon;
};

static int
take_score (void *ctx, int64_t seq, double score)
{
  struct column_load *l = ctx;
  int64_t i = find_seq (l->b, seq);
  if (i >= 0)
    l->v[i] = score;
  return abandoned (l->abandon);
}

/* NODE's score per item (malloc'ed), or NULL on a database error or when
 * the build is abandoned. */
static double *
load_column (const struct board *b, struct store *st, const char *node,
             const atomic_int *abandon)
{
  struct column_load l = { b, gb_xmalloc ((b->n + 1) * sizeof (double)), abandon };
  for (size_t i = 0; i < b->n; i++)
    l.v[i] = NAN;
  if (store_node_column (st, node, take_score, &l) != STORE_OK || abandoned (abandon))
    {
      free (l.v);
      return NULL;
    }
  return l.v;
}

/* An item's place in ORDER: by CPU, then best score first (none last),
 * then newest first. */
struct place
{
  uint32_t cpu, item;
  double score;
  int64_t seq;
};

static int
by_cpu_score (const void *pa, const void *pb)
{
  const struct place *a = pa, *b = pb;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  if (isnan (a->score) != isnan (b->score))
    return isnan (a->score) ? 1 : -1;
  if (a->score != b->score)
    return a->score > b->score ? -1 : 1;
  return a->seq > b->seq ? -1 : a->seq < b->seq;
}

/* One result's vote for its CPU's name (see name_group). */
struct vote
{
  uint32_t name;
  uint8_t verified, flagged;
  int64_t seq;
};

static int
by_name_seq (const void *pa, const void *pb)
{
  const struct vote *a = pa, *b = pb;
  if (a->name != b->name)
    return a->name < b->name ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* How a name ranks: by the votes of verified publishers' unflagged
 * results, then of all unflagged results, then of all, then the oldest. */
struct tally
{
  size_t verified, unflagged, all;
  uint32_t name;
  int64_t first;
};

static int
tally_beats (const struct tally *a, const struct tally *b)
{
  if (a->verified != b->verified)
    return a->verified > b->verified;
  if (a->unflagged != b->unflagged)
    return a->unflagged > b->unflagged;
  if (a->all != b->all)
    return a->all > b->all;
  return a->first < b->first;
}

/* CPU C's shown name (docs/leaderboard.md): the brand string most
 * verified publishers' unflagged results give it, else most unflagged
 * results, else most results, ties going to the oldest.  A brand that
 * does not fit the CPU identity never counts; a CPU none of whose
 * results names it fittingly is shown by its identity (UNNAMED, "").
 * V has room for the group's votes. */
static uint32_t
name_group (const struct board *b, size_t c, uint32_t unnamed, struct vote *v)
{
  size_t n = 0;
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (plausible_brand_fits (b->tab[BF_CPU].names[it->f[BF_CPU]],
                                b->tab[BF_VENDOR].names[it->f[BF_VENDOR]],
                                b->names.names[it->name]))
        v[n++] = (struct vote) { it->name, it->verified, it->flagged, it->seq };
    }
  qsort (v, n, sizeof *v, by_name_seq);
  struct tally best = { 0, 0, 0, unnamed, 0 };
  for (size_t k = 0; k < n;)
    {
      struct tally t = { 0, 0, 0, v[k].name, v[k].seq };
      size_t j = k;
      for (; j < n && v[j].name == v[k].name; j++)
        {
          t.verified += v[j].verified && !v[j].flagged;
          t.unflagged += !v[j].flagged;
          t.all++;
        }
      if (k == 0 || tally_beats (&t, &best))
        best = t;
      k = j;
    }
  return best.name;
}

/* The most results any CPU has, at least 1. */
static size_t
biggest_group (const struct board *b)
{
  size_t biggest = 1;
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (b->group[c + 1] - b->group[c] > biggest)
      biggest = b->group[c + 1] - b->group[c];
  return biggest;
}

/* Names every CPU of B (grouped) whose AFFECTED entry is set (all when
 * AFFECTED is NULL); the others keep the name they have. */
static void
name_cpus (struct board *b, const uint8_t *affected)
{
  int64_t found = lookup (&b->names, "");
  uint32_t unnamed = found >= 0 ? (uint32_t) found : intern (&b->names, "");
  struct vote *v = gb_xmalloc (biggest_group (b) * sizeof *v);
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (!affected || affected[c])
      b->cpu_name[c] = name_group (b, c, unnamed, v);
  free (v);
}

static void
group_items (struct board *b)
{
  size_t ncpu = b->tab[BF_CPU].n;

  struct place *p = gb_xmalloc ((b->n + 1) * sizeof *p);
  for (size_t i = 0; i < b->n; i++)
    p[i] = (struct place) { b->items[i].f[BF_CPU], (uint32_t) i, b->items[i].score,
                            b->items[i].seq };
  qsort (p, b->n, sizeof *p, by_cpu_score);
  struct item *grouped = gb_xmalloc ((b->n + 1) * sizeof *grouped);
  for (size_t k = 0; k < b->n; k++)
    {
      grouped[k] = b->items[p[k].item];
      b->pos[p[k].item] = (uint32_t) k;
    }
  free (p);
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  b->newest = gb_xcalloc (ncpu + 1, sizeof *b->newest);
  for (size_t i = 0; i < b->n; i++)             /* upload order: the last is newest */
    {
      b->group[b->items[i].f[BF_CPU] + 1]++;
      b->newest[b->items[i].f[BF_CPU]] = b->pos[i];
    }
  for (size_t c = 0; c < ncpu; c++)
    b->group[c + 1] += b->group[c];
  free (b->items);
  b->items = grouped;
}

static void
view_free (struct view *v)
{
  for (int f = 0; f < BF_COUNT; f++)
    free (v->value[f]);
  for (int k = 0; k < BK_COUNT; k++)
    free (v->order[k]);
  free (v->node);
  free (v->rows);
  free (v);
}

static void
board_free (struct board *b)
{
  for (int f = 0; f < BF_COUNT; f++)
    strtab_free (&b->tab[f]);
  strtab_free (&b->names);
  for (size_t i = 0; i < b->ncols; i++)
    {
      free (b->cols[i].node);
      free (b->cols[i].v);
    }
  for (size_t i = 0; i < b->nviews; i++)
    view_free (b->views[i]);
  pthread_mutex_destroy (&b->lock);
  pthread_cond_destroy (&b->loaded);
  free (b->items);
  free (b->seqs);
  free (b->pos);
  free (b->by_seq);
  free (b->group);
  free (b->newest);
  free (b->cpu_name);
  free (b->info);
  free (b->pairs);
  free (b);
}

/* The scores, the RSA ratio and the scores per GHz and per core of every
 * item (still in upload order); -1 on a database error. */
static int
load_scores (struct build *bd, struct store *st)
{
  struct board *b = bd->b;
  double *score = load_column (b, st, SCORE_NODE, bd->abandon);
  double *gmp = score ? load_column (b, st, RSA_GMP, bd->abandon) : NULL;
  double *sec = gmp ? load_column (b, st, RSA_GMP_SEC, bd->abandon) : NULL;
  double *ossl = sec ? load_column (b, st, RSA_OPENSSL, bd->abandon) : NULL;
  for (size_t i = 0; ossl && i < b->n; i++)
    {
      b->items[i].score = score[i];
      finish_item (&b->items[i], isnan (sec[i]) ? gmp[i] : sec[i], ossl[i], bd->mhz[i],
                   bd->cores[i]);
    }
  free (score);
  free (gmp);
  free (sec);
  int ok = ossl != NULL;
  free (ossl);
  return ok ? 0 : -1;
}

static struct board *
board_new (void)
{
  struct board *b = gb_xcalloc (1, sizeof *b);
  atomic_init (&b->refs, 1);
  pthread_mutex_init (&b->lock, NULL);
  pthread_cond_init (&b->loaded, NULL);
  return b;
}

/* The most common value of FIELD among items [FROM, TO) whose mode is
 * MODE (-1: any), ties going to the first seen; -1 when there are none. */
static int64_t
most_common (const struct board *b, size_t from, size_t to, int field, int64_t mode)
{
  size_t nvalues = b->tab[field].n;
  size_t *count = gb_xcalloc (nvalues + 1, sizeof *count);
  int64_t best = -1;
  for (size_t k = from; k < to; k++)
    if (mode < 0 || b->items[k].f[BF_MODE] == mode)
      count[b->items[k].f[field]]++;
  for (size_t i = 0; i < nvalues; i++)
    if (count[i] && (best < 0 || count[i] > count[best]))
      best = (int64_t) i;
  free (count);
  return best;
}

static void
choose_kinds (const struct board *b, size_t from, size_t to, int64_t kind[2])
{
  kind[0] = most_common (b, from, to, BF_MODE, -1);
  kind[1] = kind[0] < 0 ? -1 : most_common (b, from, to, BF_BUILD, kind[0]);
}

/* B's PAIRS for its string tables as they are, with OLD's counts (OLD may
 * be NULL: none). */
static void
pairs_new (struct board *b, const struct board *old)
{
  size_t modes = b->tab[BF_MODE].n, builds = b->tab[BF_BUILD].n;
  b->pair_builds = builds;
  b->pairs = gb_xcalloc (modes * builds + 1, sizeof *b->pairs);
  for (size_t m = 0; old && m < old->tab[BF_MODE].n; m++)
    for (size_t k = 0; k < old->pair_builds; k++)
      b->pairs[m * builds + k] = old->pairs[m * old->pair_builds + k];
}

static void
pair_add (struct board *b, const struct item *it, int delta)
{
  b->pairs[it->f[BF_MODE] * b->pair_builds + it->f[BF_BUILD]] += (size_t) delta;
}

/* KIND as choose_kinds gives it over all of B's results, from PAIRS: the
 * most common mode, then build kind among its results, the first
 * interned winning ties. */
static void
kinds_of_pairs (struct board *b)
{
  size_t modes = b->tab[BF_MODE].n, builds = b->pair_builds, best = 0;
  b->kind[0] = b->kind[1] = -1;
  for (size_t m = 0; m < modes; m++)
    {
      size_t n = 0;
      for (size_t k = 0; k < builds; k++)
        n += b->pairs[m * builds + k];
      if (n > best)
        best = n, b->kind[0] = (int64_t) m;
    }
  best = 0;
  for (size_t k = 0; b->kind[0] >= 0 && k < builds; k++)
    if (b->pairs[(size_t) b->kind[0] * builds + k] > best)
      best = b->pairs[(size_t) b->kind[0] * builds + k], b->kind[1] = (int64_t) k;
}

/* A snapshot of the store, without columns or views; NULL on a database
 * error or when abandoned. */
static struct board *
build (struct store *st, const atomic_int *abandon)
{
  struct build bd = { board_new (), NULL, NULL, abandon };
  struct board *b = bd.b;

  int ok = store_board_rows (st, add_item, &bd) == STORE_OK && !abandoned (abandon);
  if (ok)
    {
      index_seqs (b);
      ok = load_scores (&bd, st) == 0;
    }
  free (bd.mhz);
  free (bd.cores);
  if (!ok)
    {
      board_free (b);
      return NULL;
    }
  group_items (b);
  b->cpu_name = gb_xmalloc ((b->tab[BF_CPU].n + 1) * sizeof *b->cpu_name);
  name_cpus (b, NULL);
  pairs_new (b, NULL);
  for (size_t k = 0; k < b->n; k++)
    pair_add (b, &b->items[k], 1);
  kinds_of_pairs (b);
  b->info = gb_xcalloc (b->tab[BF_CPU].n + 1, sizeof *b->info);
  summarize (b, NULL);
  for (int f = 0; f < BF_COUNT; f++)
    sort_names (&b->tab[f]);
  return b;
}

/* ------------------------------------------------------------ queries */

size_t
board_size (const struct board *b)
{
  return b->n;
}

size_t
board_values (const struct board *b, enum board_field field, const char *const **names,
              const size_t **counts)
{
  *names = b->tab[field].sorted;
  *counts = b->tab[field].sorted_counts;
  return b->tab[field].nsorted;
}

const char *
board_cpu_name (const struct board *b, const char *cpu)
{
  int64_t c = lookup (&b->tab[BF_CPU], cpu);
  return c < 0 || b->group[c] == b->group[c + 1] ? NULL : b->names.names[b->cpu_name[c]];
}

const char *
board_value (const struct board *b, enum board_field field, uint32_t i)
{
  return i < b->tab[field].n ? b->tab[field].names[i] : "";
}

/* 0, or -1 when some value is not in the snapshot (nothing matches). */
static int
resolve (const struct board *b, const struct board_filter *f, struct resolved *r)
{
  r->verified_only = f->verified_only != 0;
  r->include_flagged = f->include_flagged != 0;
  for (int i = 0; i < BF_COUNT; i++)
    {
      r->f[i] = -1;
      if (f->value[i] && *f->value[i] && (r->f[i] = lookup (&b->tab[i], f->value[i])) < 0)
        return -1;
    }
  return 0;
}

static int
same_filter (const struct resolved *a, const struct resolved *b)
{
  for (int i = 0; i < BF_COUNT; i++)
    if (a->f[i] != b->f[i])
      return 0;
  return a->verified_only == b->verified_only && a->include_flagged == b->include_flagged;
}

static int
matches (const struct item *it, const struct resolved *r)
{
  for (int i = 0; i < BF_COUNT; i++)
    if (r->f[i] >= 0 && it->f[i] != (uint32_t) r->f[i])
      return 0;
  return (!r->verified_only || it->verified) && (r->include_flagged || !it->flagged);
}

/* The K-th smallest of V[0..N) (which it reorders), by Hoare's selection. */
static double
select_kth (double *v, size_t n, size_t k)
{
  size_t lo = 0, hi = n - 1;
  while (lo < hi)
    {
      double pivot = v[lo + (hi - lo) / 2];
      size_t i = lo, j = hi;
      for (;;)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i >= j)
            break;
          double t = v[i];
          v[i++] = v[j];
          v[j--] = t;
        }
      if (k <= j)
        hi = j;
      else
        lo = j + 1;
    }
  return v[k];
}

/* The median of V[0..N) in linear time (V is reordered); NAN for none. */
static double
median (double *v, size_t n)
{
  if (n == 0)
    return NAN;
  double upper = select_kth (v, n, n / 2);
  if (n % 2)
    return upper;
  double lower = v[0];
  for (size_t i = 1; i < n / 2; i++)
    if (v[i] > lower)
      lower = v[i];
  return (lower + upper) / 2;
}

/* The Q-quantile (linear interpolation) of V[0..N) sorted best first. */
static double
quantile_desc (const double *v, size_t n, double q)
{
  double pos = (1 - q) * (double) (n - 1);
  size_t i = (size_t) pos;
  double frac = pos - (double) i;
  return i + 1 < n ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

/* ROW's strings, those of CPU C in B: its identity and name, and the
 * architecture and vendor of its newest result. */
static void
name_row (const struct board *b, size_t c, struct board_row *row)
{
  const struct item *newest = &b->items[b->newest[c]];
  row->cpu = b->tab[BF_CPU].names[c];
  row->cpu_name = b->names.names[b->cpu_name[c]];
  row->arch = b->tab[BF_ARCH].names[newest->f[BF_ARCH]];
  row->vendor = b->tab[BF_VENDOR].names[newest->f[BF_VENDOR]];
}

/* Per-group scratch: the values of the matching results. */
struct scratch
{
  double *score, *ghz, *core, *rsa, *node, *clock;
  size_t nscore, nghz, ncore, nrsa, nnode, nclock;
};

/* The most common of a few values (GMP versions, compilers of one CPU):
 * the first COUNTED distinct ones are counted, later new ones ignored. */
#define COUNTED 8
struct most
{
  uint32_t value[COUNTED];
  size_t count[COUNTED], n;
};

static void
most_add (struct most *t, uint32_t v)
{
  size_t i = 0;
  while (i < t->n && t->value[i] != v)
    i++;
  if (i == t->n && t->n < COUNTED)
    t->value[t->n++] = v;
  if (i < t->n)
    t->count[i]++;
}

/* The most counted value, the first counted on a tie; UINT32_MAX for none. */
static uint32_t
most_common_of (const struct most *t)
{
  size_t top = 0;
  for (size_t i = 1; i < t->n; i++)
    if (t->count[i] > t->count[top])
      top = i;
  return t->n ? t->value[top] : UINT32_MAX;
}

/* The row of CPU C under R, or 0 when no result matches. */
static int
rank_group (const struct board *b, size_t c, const struct resolved *r, const double *node,
            struct scratch *s, struct board_row *row)
{
  size_t n = 0;
  struct most gmp = { { 0 }, { 0 }, 0 }, compiler = { { 0 }, { 0 }, 0 };
  s->nscore = s->nghz = s->ncore = s->nrsa = s->nnode = s->nclock = 0;
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (!matches (it, r))
        continue;
      n++;
      most_add (&gmp, it->f[BF_GMP]);
      most_add (&compiler, it->f[BF_COMPILER]);
      if (!isnan (it->score))
        s->score[s->nscore++] = it->score;
      if (!isnan (it->per_ghz))
        {
          s->ghz[s->nghz++] = it->per_ghz;
          s->clock[s->nclock++] = it->score / it->per_ghz;
        }
      if (!isnan (it->per_core))
        s->core[s->ncore++] = it->per_core;
      if (!isnan (it->rsa))
        s->rsa[s->nrsa++] = it->rsa;
      if (node && !isnan (node[k]))
        s->node[s->nnode++] = node[k];
    }
  if (n == 0)
    return 0;
  name_row (b, c, row);
  row->n = n;
  row->median = s->nscore ? quantile_desc (s->score, s->nscore, 0.5) : NAN;
  row->q1 = s->nscore ? quantile_desc (s->score, s->nscore, 0.25) : NAN;
  row->q3 = s->nscore ? quantile_desc (s->score, s->nscore, 0.75) : NAN;
  row->best = s->nscore ? s->score[0] : NAN;
  row->per_ghz = median (s->ghz, s->nghz);
  row->per_core = median (s->core, s->ncore);
  row->rsa = median (s->rsa, s->nrsa);
  row->ghz = median (s->clock, s->nclock);
  row->gmp = most_common_of (&gmp);
  row->compiler = most_common_of (&compiler);
  row->node = median (s->node, s->nnode);
  row->key = NAN;
  return 1;
}

/* Scratch for the largest group into S; returns what to free. */
static double *
scratch_new (const struct board *b, struct scratch *s)
{
  size_t biggest = biggest_group (b);
  double *all = gb_xmalloc (6 * biggest * sizeof *all);
  s->score = all, s->ghz = all + biggest, s->core = all + 2 * biggest;
  s->rsa = all + 3 * biggest, s->node = all + 4 * biggest, s->clock = all + 5 * biggest;
  return all;
}

/* Fills CPU C's INFO: the values all its results share, how many are
 * verified, and its rows over its unflagged and over all its results. */
static void
summarize_group (struct board *b, size_t c, struct scratch *s)
{
  struct group_info *g = &b->info[c];
  memset (g, 0, sizeof *g);
  if (b->group[c] == b->group[c + 1])
    return;                     /* every result of it left; whole_group skips it */
  memcpy (g->uniform, b->items[b->group[c]].f, sizeof g->uniform);
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      for (int f = 0; f < BF_COUNT; f++)
        if (b->items[k].f[f] != g->uniform[f])
          g->uniform[f] = UINT32_MAX;
      g->verified += b->items[k].verified;
    }
  for (int flagged = 0; flagged < 2; flagged++)
    {
      struct resolved r;
      for (int f = 0; f < BF_COUNT; f++)
        r.f[f] = -1;
      r.verified_only = 0;
      r.include_flagged = flagged;
      rank_group (b, c, &r, NULL, s, &g->rows[flagged]);
    }
}

/* Fills INFO for every CPU whose AFFECTED entry is set (all when NULL). */
static void
summarize (struct board *b, const uint8_t *affected)
{
  struct scratch s;
  double *all = scratch_new (b, &s);
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (!affected || affected[c])
      summarize_group (b, c, &s);
  free (all);
}

/* Whether R matches none of CPU C's results (-1), all those of the set
 * one of C's rows covers (1), or some (0), by C's summary. */
static int
whole_group (const struct board *b, size_t c, const struct resolved *r)
{
  const struct group_info *g = &b->info[c];
  int all = 1;

  if ((r->f[BF_CPU] >= 0 && (size_t) r->f[BF_CPU] != c) || b->group[c] == b->group[c + 1])
    return -1;
  for (int f = BF_ARCH; f < BF_COUNT; f++)
    if (r->f[f] >= 0 && g->uniform[f] != (uint32_t) r->f[f])
      {
        if (g->uniform[f] != UINT32_MAX)
          return -1;
        all = 0;
      }
  if (r->verified_only && g->verified < b->group[c + 1] - b->group[c])
    return g->verified ? 0 : -1;
  return all;
}

/* The row of CPU C under R with the median of NODE (a column, or NULL),
 * into ROW: from C's summary when all its results match and NODE is not
 * needed, else by a scan; 0 when none matches. */
static int
group_row (const struct board *b, size_t c, const struct resolved *r, const double *node,
           struct scratch *s, struct board_row *row)
{
  int whole = whole_group (b, c, r);
  if (whole < 0)
    return 0;
  if (whole > 0 && !node)
    {
      *row = b->info[c].rows[r->include_flagged];
      return row->n > 0;
    }
  return rank_group (b, c, r, node, s, row);
}

/* The rows of every CPU some result of which matches R, by CPU, with the
 * median of NODE (a column, or NULL); *ROWS is malloc'ed.  A CPU whose
 * results all match (a tab, a vendor, flagged results included) takes
 * its summary's row without a scan, unless NODE is needed. */
static size_t
compute_rows (const struct board *b, const struct resolved *r, const double *node,
              struct board_row **rows)
{
  size_t ncpu = b->tab[BF_CPU].n, n = 0;
  struct scratch s;
  double *all = scratch_new (b, &s);

  *rows = gb_xcalloc (ncpu + 1, sizeof **rows);
  for (size_t c = 0; c < ncpu; c++)
    n += (size_t) group_row (b, c, r, node, &s, &(*rows)[n]);
  free (all);
  return n;
}

/* The value rows are sorted by (0 for all when sorting by name). */
static double
key_value (const struct board_row *r, enum board_key key)
{
  switch (key)
    {
    case BK_N:
      return (double) r->n;
    case BK_IQR:
      return r->q3 - r->q1;
    case BK_BEST:
      return r->best;
    case BK_GHZ:
      return r->per_ghz;
    case BK_CORE:
      return r->per_core;
    case BK_RSA:
      return r->rsa;
    case BK_NODE:
      return r->node;
    case BK_NAME:
      return 0;
    default:
      return r->median;
    }
}

/* Largest key first, rows without one last, then by name. */
static int
by_key (const void *pa, const void *pb)
{
  const struct board_row *a = pa, *b = pb;
  if (isnan (a->key) != isnan (b->key))
    return isnan (a->key) ? 1 : -1;
  if (a->key != b->key && !isnan (a->key))
    return a->key > b->key ? -1 : 1;
  int c = strcmp (a->cpu_name, b->cpu_name);
  return c ? c : strcmp (a->cpu, b->cpu);
}

/* A row and where it came from, for sorting a view's rows by reference. */
struct keyed
{
  struct board_row row;
  uint32_t i;
};

static int
by_keyed (const void *a, const void *b)
{
  return by_key (&((const struct keyed *) a)->row, &((const struct keyed *) b)->row);
}

/* The order of V's rows by KEY (malloc'ed). */
static uint32_t *
order_rows (const struct view *v, enum board_key key)
{
  struct keyed *k = gb_xmalloc ((v->nrows + 1) * sizeof *k);
  uint32_t *order = gb_xmalloc ((v->nrows + 1) * sizeof *order);
  for (size_t i = 0; i < v->nrows; i++)
    {
      k[i].row = v->rows[i];
      k[i].row.key = key_value (&v->rows[i], key);
      k[i].i = (uint32_t) i;
    }
  qsort (k, v->nrows, sizeof *k, by_keyed);
  for (size_t i = 0; i < v->nrows; i++)
    order[i] = k[i].i;
  free (k);
  return order;
}

/* The view of R (with NODE's column, or none for NULL), under B's lock. */
static struct view *
find_view (struct board *b, const struct resolved *r, const char *node)
{
  for (size_t i = 0; i < b->nviews; i++)
    {
      struct view *v = b->views[i];
      if (same_filter (&v->r, r) && (node ? v->node && strcmp (v->node, node) == 0 : !v->node))
        return v;
    }
  return NULL;
}

/* Copies the rows of the view of R and NODE sorted by KEY into *ROWS
 * (malloc'ed); 0 when the snapshot has no such view. */
static int
take_view (struct board *b, const struct resolved *r, const char *node, enum board_key key,
           struct board_row **rows, size_t *nrows)
{
  pthread_mutex_lock (&b->lock);
  struct view *v = find_view (b, r, node);
  if (v)
    {
      v->hits++;
      if (!v->order[key])
        v->order[key] = order_rows (v, key);
      *rows = gb_xmalloc ((v->nrows + 1) * sizeof **rows);
      for (size_t i = 0; i < v->nrows; i++)
        {
          (*rows)[i] = v->rows[v->order[key][i]];
          (*rows)[i].key = key_value (&(*rows)[i], key);
        }
      *nrows = v->nrows;
    }
  pthread_mutex_unlock (&b->lock);
  return v != NULL;
}

/* Keeps ROWS (which it takes) as the view of F (resolved to R) and NODE,
 * unless B has it already; when B keeps MAX_VIEWS, the least asked for
 * goes. */
static void
add_view (struct board *b, const struct board_filter *f, const struct resolved *r,
          const char *node, struct board_row *rows, size_t nrows)
{
  pthread_mutex_lock (&b->lock);
  if (find_view (b, r, node))
    {
      pthread_mutex_unlock (&b->lock);
      free (rows);
      return;
    }
  if (b->nviews == MAX_VIEWS)
    {
      size_t least = 0;
      for (size_t i = 1; i < b->nviews; i++)
        if (b->views[i]->hits < b->views[least]->hits)
          least = i;
      view_free (b->views[least]);
      b->views[least] = b->views[--b->nviews];
    }
  struct view *v = gb_xcalloc (1, sizeof *v);
  v->r = *r;
  for (int i = 0; i < BF_COUNT; i++)
    v->value[i] = f->value[i] && *f->value[i] ? gb_xstrdup (f->value[i]) : NULL;
  v->node = node ? gb_xstrdup (node) : NULL;
  v->rows = rows;
  v->nrows = nrows;
  b->views[b->nviews++] = v;
  pthread_mutex_unlock (&b->lock);
}

size_t
board_views (struct board *b)
{
  pthread_mutex_lock (&b->lock);
  size_t n = b->nviews;
  pthread_mutex_unlock (&b->lock);
  return n;
}

/* NODE's column in B, or NULL, under B's lock. */
static const double *
find_column (const struct board *b, const char *node)
{
  for (size_t i = 0; i < b->ncols; i++)
    if (strcmp (b->cols[i].node, node) == 0)
      return b->cols[i].v;
  return NULL;
}

/* Whether a request is loading NODE's column into B, under B's lock. */
static int
loading (const struct board *b, const char *node)
{
  for (size_t i = 0; i < b->nloading; i++)
    if (strcmp (b->loading[i], node) == 0)
      return 1;
  return 0;
}

/* NODE's column from the snapshot, loading it (and keeping it when there
 * is room) if needed; a request that finds another loading it waits for
 * that.  *OWNED is set when the caller must free it. */
static const double *
node_column (struct board *b, struct store *st, const char *node, int *owned)
{
  const double *kept;

  *owned = 0;
  pthread_mutex_lock (&b->lock);
  while (!(kept = find_column (b, node)) && loading (b, node))
    pthread_cond_wait (&b->loaded, &b->lock);
  int mark = !kept && b->nloading < MAX_COLUMNS;
  if (mark)
    b->loading[b->nloading++] = node;
  pthread_mutex_unlock (&b->lock);
  if (kept)
    return kept;

  double *v = load_column (b, st, node, NULL);
  pthread_mutex_lock (&b->lock);
  for (size_t i = 0; mark && i < b->nloading; i++)
    if (b->loading[i] == node)
      b->loading[i] = b->loading[--b->nloading];
  pthread_cond_broadcast (&b->loaded);
  if (v && (kept = find_column (b, node)))
    {
      free (v);
      v = (double *) kept;
    }
  else if (v && b->ncols < MAX_COLUMNS)
    {
      b->cols[b->ncols].node = gb_xstrdup (node);
      b->cols[b->ncols++].v = v;
    }
  else
    *owned = v != NULL;
  pthread_mutex_unlock (&b->lock);
  return v;
}

int
board_rank (struct board *b, struct store *st, const struct board_filter *f,
            enum board_key key, const char *node, struct board_row **rows, size_t *nrows)
{
  struct resolved r;
  int owned = 0;
  const double *column = NULL;

  *rows = NULL;
  *nrows = 0;
  if (key != BK_NODE)
    node = NULL;
  if (resolve (b, f, &r) < 0)
    {
      *rows = gb_xmalloc (sizeof **rows);
      return 0;
    }
  if (take_view (b, &r, node, key, rows, nrows))
    return 0;
  if (node && !(column = node_column (b, st, node, &owned)))
    {
      *rows = gb_xmalloc (sizeof **rows);
      return -1;
    }
  struct board_row *computed;
  size_t n = compute_rows (b, &r, column, &computed);
  if (!owned)
    {
      add_view (b, f, &r, node, computed, n);
      if (take_view (b, &r, node, key, rows, nrows))
        return 0;
      n = compute_rows (b, &r, column, &computed);      /* dropped meanwhile */
    }
  else
    free ((double *) column);
  for (size_t i = 0; i < n; i++)
    computed[i].key = key_value (&computed[i], key);
  qsort (computed, n, sizeof *computed, by_key);
  *rows = computed;
  *nrows = n;
  return 0;
}

size_t
board_cpu_entries (const struct board *b, const struct board_filter *f, struct board_entry **out)
{
  struct resolved r;
  size_t n = 0;

  *out = NULL;
  if (resolve (b, f, &r) < 0 || r.f[BF_CPU] < 0)
    return 0;
  size_t c = (size_t) r.f[BF_CPU];
  *out = gb_xmalloc ((b->group[c + 1] - b->group[c] + 1) * sizeof **out);
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (!matches (it, &r))
        continue;
      struct board_entry *e = &(*out)[n++];
      e->seq = it->seq;
      e->gmp = b->tab[BF_GMP].names[it->f[BF_GMP]];
      e->compiler = b->tab[BF_COMPILER].names[it->f[BF_COMPILER]];
      e->verified = it->verified;
      e->flagged = it->flagged;
      e->score = it->score;
    }
  return n;
}

void
board_default_kinds (const struct board *b, const char *cpu, struct board_filter *f)
{
  int64_t kind[2] = { b->kind[0], b->kind[1] };
  int64_t c = cpu ? lookup (&b->tab[BF_CPU], cpu) : -1;
  if (c >= 0)
    choose_kinds (b, b->group[c], b->group[c + 1], kind);
  static const int fields[2] = { BF_MODE, BF_BUILD };
  for (int i = 0; i < 2; i++)
    if ((!f->value[fields[i]] || !*f->value[fields[i]]) && kind[i] >= 0)
      f->value[fields[i]] = b->tab[fields[i]].names[kind[i]];
}

/* ------------------------------------------------------------ deriving */

/* A copy of FROM, its counts included. */
static void
strtab_copy (struct strtab *to, const struct strtab *from)
{
  memset (to, 0, sizeof *to);
  to->n = from->n;
  to->cap = from->n + 16;
  to->names = gb_xmalloc (to->cap * sizeof *to->names);
  to->counts = gb_xmalloc (to->cap * sizeof *to->counts);
  for (size_t i = 0; i < from->n; i++)
    {
      to->names[i] = gb_xstrdup (from->names[i]);
      to->counts[i] = from->counts[i];
    }
  to->nslots = from->nslots;
  to->slots = gb_xcalloc (to->nslots + 1, sizeof *to->slots);
  for (size_t i = 0; i < to->nslots; i++)
    to->slots[i] = from->slots[i];
}

/* A changed result as the store has it now. */
struct change
{
  struct item it;               /* interned in the new snapshot, when listed */
  int listed;
  float mhz;
  int32_t cores;
  double gmp, sec, ossl;        /* the RSA-2048 tests' ops/s, NAN when absent */
  double *col;                  /* per node column of the old snapshot, NAN when absent */
};

/* The changes read for a new snapshot B. */
struct delta
{
  struct board *b;
  struct change *ch;
  size_t n, cap;
  const char *const *cols;      /* the node columns' nodes */
  size_t ncols;
  const atomic_int *abandon;
};

static int
take_change (void *ctx, const struct store_board_row *row)
{
  struct delta *d = ctx;
  if (abandoned (d->abandon))
    return 1;
  if (d->n == d->cap)
    d->ch = gb_xrealloc (d->ch, (d->cap = d->cap ? 2 * d->cap : 64) * sizeof *d->ch);
  struct change *c = &d->ch[d->n++];
  memset (c, 0, sizeof *c);
  c->listed = row->listed;
  c->mhz = (float) row->mhz;
  c->cores = row->cores;
  c->gmp = c->sec = c->ossl = NAN;
  c->col = gb_xmalloc ((d->ncols + 1) * sizeof *c->col);
  for (size_t i = 0; i < d->ncols; i++)
    c->col[i] = NAN;
  if (c->listed)
    fill_item (d->b, &c->it, row);
  else
    c->it.seq = row->seq;
  return 0;
}

static int
take_change_score (void *ctx, int64_t seq, const char *node, double score)
{
  struct delta *d = ctx;
  if (d->n == 0 || d->ch[d->n - 1].it.seq != seq)
    return 0;
  struct change *c = &d->ch[d->n - 1];
  if (strcmp (node, SCORE_NODE) == 0)
    c->it.score = score;
  else if (strcmp (node, RSA_GMP) == 0)
    c->gmp = score;
  else if (strcmp (node, RSA_GMP_SEC) == 0)
    c->sec = score;
  else if (strcmp (node, RSA_OPENSSL) == 0)
    c->ossl = score;
  for (size_t i = 0; i < d->ncols; i++)
    if (strcmp (node, d->cols[i]) == 0)
      c->col[i] = score;
  return 0;
}

/* Whether A goes before B in a snapshot: by CPU, then best score first
 * (none last), then newest first (as by_cpu_score). */
static int
item_before (const struct item *a, const struct item *b)
{
  if (a->f[BF_CPU] != b->f[BF_CPU])
    return a->f[BF_CPU] < b->f[BF_CPU];
  if (isnan (a->score) != isnan (b->score))
    return !isnan (a->score);
  if (a->score != b->score)
    return a->score > b->score;
  return a->seq > b->seq;
}

/* A new item and the change it came from. */
struct arrival
{
  struct item it;
  uint32_t change;
};

static int
by_arrival (const void *pa, const void *pb)
{
  const struct item *a = &((const struct arrival *) pa)->it, *b = &((const struct arrival *) pb)->it;
  return item_before (a, b) ? -1 : item_before (b, a);
}

static int
by_seq_value (const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *) pa, b = *(const int64_t *) pb;
  return (a > b) - (a < b);
}

/* Takes OLD's items out of B's counts (and PAIRS) where GONE says,
 * marking their CPUs AFFECTED, and counts the arrivals of the listed
 * changes in; those into *NEW, sorted. */
static size_t
sort_changes (struct board *b, const struct board *old, const struct delta *d, uint8_t *gone,
              uint8_t *affected, struct arrival **new_items)
{
  size_t n = 0;
  *new_items = gb_xmalloc ((d->n + 1) * sizeof **new_items);
  for (size_t j = 0; j < d->n; j++)
    {
      struct change *c = &d->ch[j];
      int64_t i = find_seq (old, c->it.seq);
      if (i >= 0 && !gone[i])
        {
          const struct item *o = &old->items[i];
          gone[i] = 1;
          pair_add (b, o, -1);
          for (int f = 0; f < BF_COUNT; f++)
            b->tab[f].counts[o->f[f]]--;
          b->names.counts[o->name]--;
          affected[o->f[BF_CPU]] = 1;
        }
      if (c->listed)
        {
          finish_item (&c->it, isnan (c->sec) ? c->gmp : c->sec, c->ossl, c->mhz, c->cores);
          pair_add (b, &c->it, 1);
          affected[c->it.f[BF_CPU]] = 1;
          (*new_items)[n++] = (struct arrival) { c->it, (uint32_t) j };
        }
    }
  qsort (*new_items, n, sizeof **new_items, by_arrival);
  return n;
}

/* B's items: OLD's but those GONE, merged in order with the N new ones;
 * ORIGIN[k] is where item k came from: OLD's index, or -1 - its change. */
static void
merge_items (struct board *b, const struct board *old, const uint8_t *gone,
             const struct arrival *add, size_t n, int64_t *origin)
{
  size_t i = 0, j = 0;
  b->items = gb_xmalloc ((b->n + 1) * sizeof *b->items);
  b->cap = b->n;
  for (size_t k = 0; k < b->n; k++)
    {
      while (i < old->n && gone[i])
        i++;
      if (j < n && (i >= old->n || item_before (&add[j].it, &old->items[i])))
        {
          b->items[k] = add[j].it;
          origin[k] = -1 - (int64_t) add[j++].change;
        }
      else
        {
          b->items[k] = old->items[i];
          origin[k] = (int64_t) i++;
        }
    }
}

/* B's GROUP, NEWEST, SEQS, BY_SEQ and POS for its merged items; the seqs
 * are OLD's but those GONE, and those of the N arrivals ADD. */
static void
index_merged (struct board *b, const struct board *old, const uint8_t *gone,
              const struct arrival *add, size_t n)
{
  size_t ncpu = b->tab[BF_CPU].n;
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  b->newest = gb_xcalloc (ncpu + 1, sizeof *b->newest);
  for (size_t k = 0; k < b->n; k++)
    b->group[b->items[k].f[BF_CPU] + 1]++;
  for (size_t c = 0; c < ncpu; c++)
    b->group[c + 1] += b->group[c];
  for (size_t k = 0; k < b->n; k++)
    {
      uint32_t c = b->items[k].f[BF_CPU];
      if (k == b->group[c] || b->items[k].seq > b->items[b->newest[c]].seq)
        b->newest[c] = (uint32_t) k;
    }

  int64_t *added = gb_xmalloc ((n + 1) * sizeof *added);
  for (size_t j = 0; j < n; j++)
    added[j] = add[j].it.seq;
  qsort (added, n, sizeof *added, by_seq_value);
  b->seqs = gb_xmalloc ((b->n + 1) * sizeof *b->seqs);
  size_t i = 0, j = 0, k = 0;
  while (k < b->n)
    {
      while (i < old->n && gone[old->pos[i]])
        i++;
      if (j < n && (i >= old->n || added[j] < old->seqs[i]))
        b->seqs[k++] = added[j++];
      else
        b->seqs[k++] = old->seqs[i++];
    }
  free (added);
  index_dense (b);
  b->pos = gb_xmalloc ((b->n + 1) * sizeof *b->pos);
  for (k = 0; k < b->n; k++)
    b->pos[seq_slot (b, b->items[k].seq)] = (uint32_t) k;
}

/* OLD's node columns for B's items, the changes' values for new ones. */
static void
carry_columns (struct board *b, const struct delta *d, const double *const *v,
               const int64_t *origin)
{
  for (size_t i = 0; i < d->ncols; i++)
    {
      double *col = gb_xmalloc ((b->n + 1) * sizeof *col);
      for (size_t k = 0; k < b->n; k++)
        col[k] = origin[k] >= 0 ? v[i][origin[k]] : d->ch[-1 - origin[k]].col[i];
      b->cols[b->ncols].node = gb_xstrdup (d->cols[i]);
      b->cols[b->ncols++].v = col;
    }
}

static void
delta_free (struct delta *d)
{
  for (size_t j = 0; j < d->n; j++)
    free (d->ch[j].col);
  free (d->ch);
}

/* A snapshot of OLD with the results of the N distinct ids IDS as the store has
 * them now (each stored, retracted, unlisted or with new flags since
 * OLD), without views; NULL on a database error or when abandoned.  Its
 * cost is a pass over OLD's items (copied, merged with the changes,
 * indexed again) and the CPUs the changes touch (named and summarized
 * again; *TOUCHED, malloc'ed, says which); OLD's node columns are
 * carried over. */
static struct board *
derive (struct board *old, struct store *st, const char *const *ids, size_t nids,
        const atomic_int *abandon, uint8_t **touched)
{
  struct board *b = board_new ();
  const char *nodes[MAX_COLUMNS];
  const double *values[MAX_COLUMNS];
  struct delta d = { b, NULL, 0, 0, nodes, 0, abandon };

  for (int f = 0; f < BF_COUNT; f++)
    strtab_copy (&b->tab[f], &old->tab[f]);
  strtab_copy (&b->names, &old->names);
  pthread_mutex_lock (&old->lock);      /* columns are only ever added */
  for (; d.ncols < old->ncols; d.ncols++)
    {
      nodes[d.ncols] = old->cols[d.ncols].node;
      values[d.ncols] = old->cols[d.ncols].v;
    }
  pthread_mutex_unlock (&old->lock);
  if (store_board_changes (st, ids, nids, take_change, take_change_score, &d) != STORE_OK
      || abandoned (abandon))
    {
      delta_free (&d);
      board_free (b);
      return NULL;
    }

  size_t old_cpus = old->tab[BF_CPU].n, ncpu = b->tab[BF_CPU].n, ngone = 0;
  uint8_t *gone = gb_xcalloc (old->n + 1, 1), *affected = gb_xcalloc (ncpu + 1, 1);
  struct arrival *add;
  pairs_new (b, old);
  size_t nadd = sort_changes (b, old, &d, gone, affected, &add);
  for (size_t i = 0; i < old->n; i++)
    ngone += gone[i];
  b->n = old->n - ngone + nadd;
  int64_t *origin = gb_xmalloc ((b->n + 1) * sizeof *origin);
  merge_items (b, old, gone, add, nadd, origin);
  index_merged (b, old, gone, add, nadd);
  carry_columns (b, &d, values, origin);
  free (origin);
  free (add);
  free (gone);
  delta_free (&d);

  b->cpu_name = gb_xmalloc ((ncpu + 1) * sizeof *b->cpu_name);
  for (size_t c = 0; c < old_cpus; c++)
    b->cpu_name[c] = old->cpu_name[c];
  name_cpus (b, affected);
  kinds_of_pairs (b);
  b->info = gb_xcalloc (ncpu + 1, sizeof *b->info);
  for (size_t c = 0; c < old_cpus; c++)
    if (!affected[c])
      {
        b->info[c] = old->info[c];
        name_row (b, c, &b->info[c].rows[0]);
        name_row (b, c, &b->info[c].rows[1]);
      }
  summarize (b, affected);
  *touched = affected;
  for (int f = 0; f < BF_COUNT; f++)
    sort_names (&b->tab[f]);
  return b;
}

/* ------------------------------------------------------------ lifetime */

static struct board *
retain (struct board *b)
{
  if (b)
    atomic_fetch_add (&b->refs, 1);
  return b;
}

void
board_release (struct board *b)
{
  if (b && atomic_fetch_sub (&b->refs, 1) == 1)
    board_free (b);
}

/* A view of the old snapshot to make again in the new one. */
struct spec
{
  struct board_filter filter;
  char *value[BF_COUNT];
  char *node;
  unsigned long hits;
  struct board_row *rows;       /* its rows, for update_view */
  size_t nrows;
};

static int
by_hits (const void *a, const void *b)
{
  unsigned long x = ((const struct spec *) a)->hits, y = ((const struct spec *) b)->hits;
  return x > y ? -1 : x < y;
}

/* Computes the view of F with NODE (whose column B must have, unless
 * NULL) and keeps it in B. */
static void
make_view (struct board *b, const struct board_filter *f, const char *node)
{
  struct resolved r;
  const double *column = NULL;

  if (node)
    column = find_column (b, node);
  if (resolve (b, f, &r) < 0 || (node && !column))
    return;
  struct board_row *rows;
  size_t n = compute_rows (b, &r, column, &rows);
  add_view (b, f, &r, node, rows, n);
}

/* Like make_view, for a snapshot derived from another whose view of F
 * and NODE had the NPREV rows PREV: the rows of the CPUs AFFECTED
 * (AFFECTED[c]) are computed, the others copied. */
static void
update_view (struct board *b, const struct board_filter *f, const char *node,
             const struct board_row *prev, size_t nprev, const uint8_t *affected)
{
  struct resolved r;
  const double *column = NULL;
  struct scratch s;

  if (node)
    column = find_column (b, node);
  if (resolve (b, f, &r) < 0 || (node && !column))
    return;
  size_t ncpu = b->tab[BF_CPU].n, n = 0, j = 0;
  struct board_row *rows = gb_xcalloc (ncpu + 1, sizeof *rows);
  double *all = scratch_new (b, &s);
  for (size_t c = 0; c < ncpu; c++)
    {
      int64_t at = -1;          /* the CPU of the next previous row */
      while (j < nprev && (at = lookup (&b->tab[BF_CPU], prev[j].cpu)) < (int64_t) c)
        j++;
      if (affected[c])
        n += (size_t) group_row (b, c, &r, column, &s, &rows[n]);
      else if (j < nprev && at == (int64_t) c)
        {
          rows[n] = prev[j];
          name_row (b, c, &rows[n++]);
        }
    }
  free (all);
  add_view (b, f, &r, node, rows, n);
}

/* Gives B (not yet published) the most asked-for views of OLD, with the
 * node columns they need, and the default view.  A view nobody asked for
 * while OLD was current is not carried, nor its column.  When B was
 * derived from OLD, AFFECTED says which CPUs changed, and the views'
 * rows of the others are copied; otherwise (NULL) they are computed. */
static void
carry (struct board *b, struct store *st, struct board *old, const uint8_t *affected,
       const atomic_int *abandon)
{
  struct board_filter none = { { NULL }, 0, 0 };
  struct spec specs[MAX_VIEWS];
  size_t nspecs = 0;

  if (old)
    {
      pthread_mutex_lock (&old->lock);
      for (size_t i = 0; i < old->nviews; i++)
        {
          const struct view *v = old->views[i];
          if (!v->hits)
            continue;
          struct spec *s = &specs[nspecs++];
          for (int k = 0; k < BF_COUNT; k++)
            s->filter.value[k] = s->value[k] = v->value[k] ? gb_xstrdup (v->value[k]) : NULL;
          s->filter.verified_only = v->r.verified_only;
          s->filter.include_flagged = v->r.include_flagged;
          s->node = v->node ? gb_xstrdup (v->node) : NULL;
          s->hits = v->hits;
          s->rows = NULL;
          s->nrows = affected ? v->nrows : 0;
          if (affected)
            {
              s->rows = gb_xmalloc ((v->nrows + 1) * sizeof *s->rows);
              memcpy (s->rows, v->rows, v->nrows * sizeof *s->rows);
            }
        }
      pthread_mutex_unlock (&old->lock);
    }
  qsort (specs, nspecs, sizeof *specs, by_hits);
  for (; nspecs > CARRIED_VIEWS; nspecs--)
    {
      for (int k = 0; k < BF_COUNT; k++)
        free (specs[nspecs - 1].value[k]);
      free (specs[nspecs - 1].node);
      free (specs[nspecs - 1].rows);
    }
  for (size_t i = 0; i < nspecs; i++)
    {
      const char *node = specs[i].node;
      if (node && !find_column (b, node) && b->ncols < MAX_COLUMNS && !abandoned (abandon))
        {
          double *v = load_column (b, st, node, abandon);
          if (v)
            {
              b->cols[b->ncols].node = gb_xstrdup (node);
              b->cols[b->ncols++].v = v;
            }
        }
    }
  make_view (b, &none, NULL);
  for (size_t i = 0; i < nspecs; i++)
    {
      if (abandoned (abandon))
        ;
      else if (affected)
        update_view (b, &specs[i].filter, specs[i].node, specs[i].rows, specs[i].nrows,
                     affected);
      else
        make_view (b, &specs[i].filter, specs[i].node);
      for (int k = 0; k < BF_COUNT; k++)
        free (specs[i].value[k]);
      free (specs[i].node);
      free (specs[i].rows);
    }
}

/* Runs the calling thread at BUILDER_NICE (Linux: a thread's own). */
static void
lower_priority (void)
{
#ifdef __linux__
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), BUILDER_NICE);
#endif
}

/* ------------------------------------------------------------ the journal */

/* Frees the journal's N oldest entries, under K's lock. */
static void
journal_drop (struct board_keeper *k, size_t n)
{
  if (n == 0)
    return;
  for (size_t i = 0; i < n; i++)
    free (k->journal[i]);
  memmove (k->journal, k->journal + n, (k->njournal - n) * sizeof *k->journal);
  k->njournal -= n;
  k->first += n;
}

/* Drops the entries no snapshot needs any more, under K's lock: those
 * before the current snapshot's position, and before the position of a
 * full build running or done. */
static void
journal_trim (struct board_keeper *k)
{
  uint64_t keep = k->applied;
  if (k->full_running && k->full_from < keep)
    keep = k->full_from;
  if (k->base && k->base_from < keep)
    keep = k->base_from;
  if (keep > k->first)
    journal_drop (k, (size_t) (keep - k->first));
}

/* Asks for a full build, under K's lock. */
static void
want_full (struct board_keeper *k)
{
  k->want_full = 1;
  pthread_cond_signal (&k->full_wake);
}

/* The store's watcher: ID changed (NULL: any result may have).  When the
 * journal cannot keep it, every entry goes and a full build is asked
 * for: the snapshots older than it cannot be brought up to date. */
static void
journal_add (void *ctx, const char *id)
{
  struct board_keeper *k = ctx;
  pthread_mutex_lock (&k->lock);
  if (!id || k->njournal == JOURNAL_MAX)
    {
      journal_drop (k, k->njournal);
      want_full (k);
    }
  else
    {
      if (k->njournal == k->cap)
        k->journal = gb_xrealloc (k->journal, (k->cap = k->cap ? 2 * k->cap : 256)
                                  * sizeof *k->journal);
      k->journal[k->njournal++] = gb_xstrdup (id);
    }
  pthread_mutex_unlock (&k->lock);
}

static int
by_string (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Copies of the entries from position FROM on, each id once, into *IDS
 * (malloc'ed, sorted), under K's lock. */
static size_t
journal_since (const struct board_keeper *k, uint64_t from, char ***ids)
{
  size_t n = (size_t) (k->first + k->njournal - from), unique = 0;
  *ids = gb_xmalloc ((n + 1) * sizeof **ids);
  for (size_t i = 0; i < n; i++)
    (*ids)[i] = gb_xstrdup (k->journal[from - k->first + i]);
  qsort (*ids, n, sizeof **ids, by_string);
  for (size_t i = 0; i < n; i++)
    if (unique > 0 && strcmp ((*ids)[unique - 1], (*ids)[i]) == 0)
      free ((*ids)[i]);
    else
      (*ids)[unique++] = (*ids)[i];
  return unique;
}

static void
ids_free (char **ids, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (ids[i]);
  free (ids);
}

/* ------------------------------------------------------------ threads */

/* The updater: brings the newest snapshot (a full build just done, else
 * the current one) up to date with the journal whenever asked, and makes
 * the result current.  Pages wait for it, so it runs at their priority. */
static void *
updater (void *arg)
{
  struct board_keeper *k = arg;

  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      while (!k->want_update && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->wake, &k->lock);
      if (atomic_load (&k->abandon))
        break;
      k->want_update = 0;
      uint64_t end = k->first + k->njournal, from;
      struct board *start;
      if (k->base)
        {
          start = k->base;
          from = k->base_from;
          k->base = NULL;
        }
      else if (k->current && k->applied >= k->first && k->applied < end)
        {
          start = retain (k->current);
          from = k->applied;
        }
      else
        continue;
      char **ids = NULL;
      size_t nids = from >= k->first ? journal_since (k, from, &ids) : 0;
      k->updating = 1;
      double begun = gb_wall_seconds ();
      pthread_mutex_unlock (&k->lock);

      struct board *next = retain (start);
      if (nids)
        {
          board_release (next);
          uint8_t *touched = NULL;
          next = derive (start, k->srv->store, (const char *const *) ids, nids, &k->abandon,
                         &touched);
          if (next)
            {
              next->built = begun;
              next->base_built = start->base_built;
              carry (next, k->srv->store, start, touched, &k->abandon);
            }
          free (touched);
        }
      ids_free (ids, nids);

      pthread_mutex_lock (&k->lock);
      struct board *old = NULL;
      k->updating = 0;
      if (next)
        {
          old = k->current;
          k->current = next;
          k->applied = from >= k->first ? end : from;
        }
      else
        k->failures++;
      journal_trim (k);
      pthread_cond_broadcast (&k->done);
      pthread_mutex_unlock (&k->lock);
      board_release (old);
      board_release (start);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

/* Brings the full build FRESH (begun at BEGUN) up to date with the
 * journal while more than CATCH_UP_LEFT changes came since it began, so
 * that the updater, which pages wait for, merges only the last ones;
 * returns it (NULL when an update failed). */
static struct board *
catch_up (struct board_keeper *k, struct board *fresh, double begun)
{
  for (;;)
    {
      pthread_mutex_lock (&k->lock);
      uint64_t end = k->first + k->njournal;
      if (!fresh || k->full_from < k->first || end - k->full_from <= CATCH_UP_LEFT)
        {
          pthread_mutex_unlock (&k->lock);
          return fresh;
        }
      char **ids;
      size_t nids = journal_since (k, k->full_from, &ids);
      pthread_mutex_unlock (&k->lock);
      uint8_t *touched = NULL;
      struct board *next = derive (fresh, k->srv->store, (const char *const *) ids, nids,
                                   &k->abandon, &touched);
      if (next)
        {
          next->built = next->base_built = begun;
          carry (next, k->srv->store, fresh, touched, &k->abandon);
        }
      free (touched);
      ids_free (ids, nids);
      board_release (fresh);
      fresh = next;
      pthread_mutex_lock (&k->lock);
      k->full_from = end;
      pthread_mutex_unlock (&k->lock);
    }
}

/* The full builder: reads every listed result from the store whenever a
 * full build is wanted (the first snapshot, --aggregate-ttl, a journal
 * that dropped entries) and hands the snapshot to the updater, which
 * brings it up to date with the changes made while it was built. */
static void *
full_builder (void *arg)
{
  struct board_keeper *k = arg;

  lower_priority ();
  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      while (!k->want_full && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->full_wake, &k->lock);
      if (atomic_load (&k->abandon))
        break;
      k->want_full = 0;
      k->full_running = 1;
      k->full_from = k->first + k->njournal;
      double begun = k->full_begun = gb_wall_seconds ();
      struct board *old = retain (k->current);
      pthread_mutex_unlock (&k->lock);

      struct board *fresh = build (k->srv->store, &k->abandon);
      if (fresh)
        {
          carry (fresh, k->srv->store, old, NULL, &k->abandon);
          fresh->built = fresh->base_built = begun;
          if (gb_wall_seconds () - begun >= 1)
            log_info ("leaderboard snapshot of %zu results built in %.1f s", fresh->n,
                      gb_wall_seconds () - begun);
        }
      board_release (old);
      fresh = catch_up (k, fresh, begun);

      pthread_mutex_lock (&k->lock);
      struct board *dropped = NULL;
      k->full_running = 0;
      if (fresh)
        {
          dropped = k->base;
          k->base = fresh;
          k->base_from = k->full_from;
          k->want_update = 1;
          pthread_cond_signal (&k->wake);
        }
      else
        {
          k->failures++;
          pthread_cond_broadcast (&k->done);
        }
      journal_trim (k);
      pthread_mutex_unlock (&k->lock);
      board_release (dropped);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

/* The follower: puts the changes other processes make (key commands,
 * other servers on the database) in the journal as the store learns of
 * them; when some may have been missed, asks for a full build. */
static void *
follower (void *arg)
{
  struct board_keeper *k = arg;
  while (!atomic_load (&k->abandon))
    if (store_follow (k->srv->store, FOLLOW_WAIT_MS, journal_add, k) != STORE_OK)
      {
        pthread_mutex_lock (&k->lock);
        want_full (k);
        pthread_mutex_unlock (&k->lock);
        for (int waited = 0; waited < FOLLOW_RETRY_MS && !atomic_load (&k->abandon);
             waited += FOLLOW_WAIT_MS)
          nanosleep (&(struct timespec) { 0, FOLLOW_WAIT_MS * 1000000L }, NULL);
      }
  return NULL;
}

static void
keeper_free (struct board_keeper *k)
{
  journal_drop (k, k->njournal);
  free (k->journal);
  board_release (k->current);
  board_release (k->base);
  pthread_cond_destroy (&k->done);
  pthread_cond_destroy (&k->full_wake);
  pthread_cond_destroy (&k->wake);
  pthread_mutex_destroy (&k->lock);
  free (k);
}

/* Stops K's threads (those started: UPDATER, FULL, FOLLOWER). */
static void
stop_threads (struct board_keeper *k, int updater_started, int full_started,
              int follower_started)
{
  pthread_mutex_lock (&k->lock);
  atomic_store (&k->abandon, 1);
  pthread_cond_broadcast (&k->wake);
  pthread_cond_broadcast (&k->full_wake);
  pthread_cond_broadcast (&k->done);
  pthread_mutex_unlock (&k->lock);
  if (updater_started)
    pthread_join (k->updater, NULL);
  if (full_started)
    pthread_join (k->full, NULL);
  if (follower_started)
    pthread_join (k->follower, NULL);
}

int
board_start (struct server *srv)
{
  struct board_keeper *k = gb_xcalloc (1, sizeof *k);
  pthread_condattr_t attr;

  k->srv = srv;
  k->want_full = 1;
  atomic_init (&k->abandon, 0);
  pthread_mutex_init (&k->lock, NULL);
  pthread_cond_init (&k->wake, NULL);
  pthread_cond_init (&k->full_wake, NULL);
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&k->done, &attr);
  pthread_condattr_destroy (&attr);
  store_watch (srv->store, journal_add, k);
  store_follow_start (srv->store);      /* else the follower tries again */
  int updater_started = pthread_create (&k->updater, NULL, updater, k) == 0;
  int full_started = updater_started && pthread_create (&k->full, NULL, full_builder, k) == 0;
  int follower_started = full_started
    && pthread_create (&k->follower, NULL, follower, k) == 0;
  if (!follower_started)
    {
      store_watch (srv->store, NULL, NULL);
      stop_threads (k, updater_started, full_started, 0);
      keeper_free (k);
      return -1;
    }
  srv->boards = k;
  return 0;
}

void
board_stop (struct server *srv)
{
  struct board_keeper *k = srv->boards;

  if (!k)
    return;
  stop_threads (k, 1, 1, 1);
  store_watch (srv->store, NULL, NULL);
  keeper_free (k);
  srv->boards = NULL;
}

/* Waits on K's DONE until UNTIL (monotonic), under K's lock: 0 at the
 * deadline. */
static int
wait_until (struct board_keeper *k, const struct timespec *until)
{
  return pthread_cond_timedwait (&k->done, &k->lock, until) != ETIMEDOUT;
}

static struct timespec
deadline (int seconds)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  t.tv_sec += seconds;
  return t;
}

struct board *
board_acquire (struct server *srv, int *preparing)
{
  struct board_keeper *k = srv->boards;
  double now = gb_wall_seconds ();

  *preparing = 0;
  pthread_mutex_lock (&k->lock);
  unsigned long failures = k->failures;
  if (srv->aggregate_ttl <= 0)
    {
      /* Every page a snapshot of its own, read after it arrived. */
      if (!(k->full_running && k->full_begun >= now))
        want_full (k);
      while (!(k->current && k->current->base_built >= now) && k->failures == failures
             && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->done, &k->lock);
    }
  else if (!k->current && failures && !k->full_running && !k->want_full && !k->base)
    want_full (k);              /* the first build failed: the next page may have it */
  else if (!k->current)
    {
      struct timespec until = deadline (FIRST_WAIT);
      while (!k->current && k->failures == failures && !atomic_load (&k->abandon)
             && wait_until (k, &until))
        ;
      *preparing = !k->current && k->failures == failures;
    }
  else
    {
      /* The changes made before this page arrived, when the journal has
       * them all since the current snapshot; else a full build is on its
       * way (journal_add). */
      uint64_t need = k->first + k->njournal;
      struct timespec until = deadline (FRESH_WAIT);
      while (k->applied < need && k->applied >= k->first && k->failures == failures
             && !atomic_load (&k->abandon))
        {
          if (!k->updating && !k->want_update)
            {
              k->want_update = 1;
              pthread_cond_signal (&k->wake);
            }
          if (!wait_until (k, &until))
            break;
        }
      if (now - k->current->base_built >= srv->aggregate_ttl && !k->full_running
          && !k->want_full && !k->base)
        want_full (k);
    }
  struct board *b = retain (k->current);
  pthread_mutex_unlock (&k->lock);
  return b;
}
