/* board.c: the leaderboard snapshot and the thread that rebuilds it (see
 * board.h).
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
 * The keeper holds the current snapshot and the builder thread.  Under
 * its mutex: the pointer to the current snapshot (swapped, never
 * modified), whether a build is wanted or under way, when the last build
 * that finished began, and how many failed.  A reader retains the
 * snapshot under the mutex and releases it when done; the last release
 * frees it.  The builder works without the mutex on a snapshot nobody
 * else sees, and the abandon flag is checked in every row callback, so
 * stopping the server does not wait for a whole build.  It runs at a
 * lower priority (Linux), so that pages go first on a busy machine.
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

#define MAX_COLUMNS 8
#define MAX_VIEWS 32
#define CARRIED_VIEWS 16        /* the most asked for, given to the next snapshot */
#define FIRST_WAIT 2            /* seconds a page waits for the first snapshot */
/* Up to this many results, a page that finds the snapshot older than the
 * last change waits for a rebuild (which takes a fraction of a second);
 * above, it asks for one, which begins once the builder has rested as
 * long as it last worked, and is served from the current one.  Changes
 * alone start no rebuild: a server nobody reads does not rebuild. */
#define FRESH_WAIT_MAX 20000
#define BUILDER_NICE 10         /* pages before rebuilds, on a busy machine */
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
  double built;                 /* monotonic seconds when its build began */
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
  pthread_cond_t wake;          /* the builder waits for work */
  pthread_cond_t done;          /* readers wait for a build (monotonic clock) */
  pthread_t thread;
  struct board *current;
  int want, building;
  double last_begun;            /* when the last finished build began */
  double last_took;             /* how long it took */
  double changed;               /* when a result was last stored or its flags changed */
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

static int
add_item (void *ctx, const struct store_board_row *row)
{
  struct build *bd = ctx;
  struct board *b = bd->b;
  const char *values[BF_COUNT] = {
    row->cpu, row->arch, row->vendor, row->os, row->gmp, row->compiler, row->mode, row->build
  };

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
  struct item *it = &b->items[b->n++];
  for (int f = 0; f < BF_COUNT; f++)
    it->f[f] = intern (&b->tab[f], values[f]);
  it->name = intern (&b->names, row->cpu_name);
  it->seq = row->seq;
  it->verified = row->verified != 0;
  it->flagged = row->flagged != 0;
  it->score = it->rsa = it->per_ghz = it->per_core = NAN;
  return 0;
}

/* The item with SEQ, or -1. */
static int64_t
find_seq (const struct board *b, int64_t seq)
{
  if (b->by_seq)
    {
      uint64_t i = (uint64_t) (seq - b->seqs[0]);
      return i < b->span && b->by_seq[i] != UINT32_MAX ? (int64_t) b->pos[b->by_seq[i]] : -1;
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
  return lo < b->n && b->seqs[lo] == seq ? (int64_t) b->pos[lo] : -1;
}

/* SEQS and POS for the items in upload order (before grouping), and
 * BY_SEQ when the seqs are dense enough. */
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
  if (b->n == 0 || (uint64_t) (b->seqs[b->n - 1] - b->seqs[0]) >= 4 * (uint64_t) b->n + 1024)
    return;
  b->span = (size_t) (b->seqs[b->n - 1] - b->seqs[0]) + 1;
  b->by_seq = gb_xmalloc (b->span * sizeof *b->by_seq);
  memset (b->by_seq, 0xff, b->span * sizeof *b->by_seq);
  for (size_t i = 0; i < b->n; i++)
    b->by_seq[b->seqs[i] - b->seqs[0]] = (uint32_t) i;
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
      struct item *it = &b->items[i];
      it->score = score[i];
      it->rsa = (isnan (sec[i]) ? gmp[i] : sec[i]) / ossl[i];   /* NAN when absent */
      if (!isnan (it->score) && bd->mhz[i] > 0)
        it->per_ghz = it->score / (bd->mhz[i] / 1000.0);
      if (!isnan (it->score) && bd->cores[i] > 0)
        it->per_core = it->score / bd->cores[i];
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
  choose_kinds (b, 0, b->n, b->kind);
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

/* Per-group scratch: the values of the matching results. */
struct scratch
{
  double *score, *ghz, *core, *rsa, *node;
  size_t nscore, nghz, ncore, nrsa, nnode;
};

/* The row of CPU C under R, or 0 when no result matches. */
static int
rank_group (const struct board *b, size_t c, const struct resolved *r, const double *node,
            struct scratch *s, struct board_row *row)
{
  size_t n = 0;
  s->nscore = s->nghz = s->ncore = s->nrsa = s->nnode = 0;
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (!matches (it, r))
        continue;
      n++;
      if (!isnan (it->score))
        s->score[s->nscore++] = it->score;
      if (!isnan (it->per_ghz))
        s->ghz[s->nghz++] = it->per_ghz;
      if (!isnan (it->per_core))
        s->core[s->ncore++] = it->per_core;
      if (!isnan (it->rsa))
        s->rsa[s->nrsa++] = it->rsa;
      if (node && !isnan (node[k]))
        s->node[s->nnode++] = node[k];
    }
  if (n == 0)
    return 0;
  const struct item *newest = &b->items[b->newest[c]];
  row->cpu = b->tab[BF_CPU].names[c];
  row->cpu_name = b->names.names[b->cpu_name[c]];
  row->arch = b->tab[BF_ARCH].names[newest->f[BF_ARCH]];
  row->vendor = b->tab[BF_VENDOR].names[newest->f[BF_VENDOR]];
  row->n = n;
  row->median = s->nscore ? quantile_desc (s->score, s->nscore, 0.5) : NAN;
  row->q1 = s->nscore ? quantile_desc (s->score, s->nscore, 0.25) : NAN;
  row->q3 = s->nscore ? quantile_desc (s->score, s->nscore, 0.75) : NAN;
  row->best = s->nscore ? s->score[0] : NAN;
  row->per_ghz = median (s->ghz, s->nghz);
  row->per_core = median (s->core, s->ncore);
  row->rsa = median (s->rsa, s->nrsa);
  row->node = median (s->node, s->nnode);
  row->key = NAN;
  return 1;
}

/* Scratch for the largest group into S; returns what to free. */
static double *
scratch_new (const struct board *b, struct scratch *s)
{
  size_t biggest = biggest_group (b);
  double *all = gb_xmalloc (5 * biggest * sizeof *all);
  s->score = all, s->ghz = all + biggest, s->core = all + 2 * biggest;
  s->rsa = all + 3 * biggest, s->node = all + 4 * biggest;
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
    {
      int whole = whole_group (b, c, r);
      if (whole > 0 && !node)
        {
          if (b->info[c].rows[r->include_flagged].n)
            (*rows)[n++] = b->info[c].rows[r->include_flagged];
        }
      else if (whole == 0 || (whole > 0 && node))
        n += (size_t) rank_group (b, c, r, node, &s, &(*rows)[n]);
    }
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

/* Gives B (not yet published) the most asked-for views of OLD, with the
 * node columns they need, and the default view.  A view nobody asked for
 * while OLD was current is not carried, nor its column. */
static void
carry (struct board *b, struct store *st, struct board *old, const atomic_int *abandon)
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
        }
      pthread_mutex_unlock (&old->lock);
    }
  qsort (specs, nspecs, sizeof *specs, by_hits);
  for (; nspecs > CARRIED_VIEWS; nspecs--)
    {
      for (int k = 0; k < BF_COUNT; k++)
        free (specs[nspecs - 1].value[k]);
      free (specs[nspecs - 1].node);
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
      if (!abandoned (abandon))
        make_view (b, &specs[i].filter, specs[i].node);
      for (int k = 0; k < BF_COUNT; k++)
        free (specs[i].value[k]);
      free (specs[i].node);
    }
}

/* The builder thread: builds a snapshot whenever one is wanted and makes
 * it current. */
static void *
builder (void *arg)
{
  struct board_keeper *k = arg;

#ifdef __linux__
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), BUILDER_NICE);  /* this thread */
#endif
  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      while (!k->want && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->wake, &k->lock);
      if (atomic_load (&k->abandon))
        break;
      k->want = 0;
      k->building = 1;
      double begun = gb_wall_seconds ();
      struct board *old = retain (k->current);
      pthread_mutex_unlock (&k->lock);

      struct board *fresh = build (k->srv->store, &k->abandon);
      if (fresh)
        {
          carry (fresh, k->srv->store, old, &k->abandon);
          fresh->built = begun;
          if (gb_wall_seconds () - begun >= 1)
            log_info ("leaderboard snapshot of %zu results built in %.1f s", fresh->n,
                      gb_wall_seconds () - begun);
        }
      board_release (old);

      pthread_mutex_lock (&k->lock);
      old = NULL;
      if (fresh)
        {
          old = k->current;
          k->current = fresh;
        }
      else
        k->failures++;
      k->building = 0;
      k->last_begun = begun;
      k->last_took = gb_wall_seconds () - begun;
      pthread_cond_broadcast (&k->done);
      pthread_mutex_unlock (&k->lock);
      board_release (old);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

int
board_start (struct server *srv)
{
  struct board_keeper *k = gb_xcalloc (1, sizeof *k);
  pthread_condattr_t attr;

  k->srv = srv;
  k->want = 1;
  k->last_begun = -HUGE_VAL;
  atomic_init (&k->abandon, 0);
  pthread_mutex_init (&k->lock, NULL);
  pthread_cond_init (&k->wake, NULL);
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&k->done, &attr);
  pthread_condattr_destroy (&attr);
  if (pthread_create (&k->thread, NULL, builder, k) != 0)
    {
      pthread_cond_destroy (&k->done);
      pthread_cond_destroy (&k->wake);
      pthread_mutex_destroy (&k->lock);
      free (k);
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
  pthread_mutex_lock (&k->lock);
  atomic_store (&k->abandon, 1);
  pthread_cond_broadcast (&k->wake);
  pthread_cond_broadcast (&k->done);
  pthread_mutex_unlock (&k->lock);
  pthread_join (k->thread, NULL);
  board_release (k->current);
  pthread_cond_destroy (&k->done);
  pthread_cond_destroy (&k->wake);
  pthread_mutex_destroy (&k->lock);
  free (k);
  srv->boards = NULL;
}

/* Asks the builder for a snapshot, under K's lock. */
static void
want (struct board_keeper *k)
{
  k->want = 1;
  pthread_cond_signal (&k->wake);
}

void
board_changed (struct server *srv)
{
  struct board_keeper *k = srv->boards;
  if (!k)
    return;
  pthread_mutex_lock (&k->lock);
  k->changed = gb_wall_seconds ();
  pthread_mutex_unlock (&k->lock);
}

struct board *
board_acquire (struct server *srv, int *preparing)
{
  struct board_keeper *k = srv->boards;
  double now = gb_wall_seconds ();

  *preparing = 0;
  pthread_mutex_lock (&k->lock);
  int stale = k->current && k->changed >= k->current->built;
  if (srv->aggregate_ttl <= 0 || (stale && k->current->n < FRESH_WAIT_MAX))
    {
      double since = srv->aggregate_ttl <= 0 ? now : k->changed;
      if (!k->building)
        want (k);
      while (k->last_begun < since && !atomic_load (&k->abandon))
        {
          if (!k->building && !k->want)
            want (k);
          pthread_cond_wait (&k->done, &k->lock);
        }
    }
  else if (!k->current)
    {
      unsigned long failures = k->failures;
      struct timespec until;
      clock_gettime (CLOCK_MONOTONIC, &until);
      until.tv_sec += FIRST_WAIT;
      if (!k->building)
        want (k);
      while (!k->current && k->failures == failures && !atomic_load (&k->abandon)
             && pthread_cond_timedwait (&k->done, &k->lock, &until) != ETIMEDOUT)
        ;
      *preparing = !k->current && k->failures == failures;
    }
  else if (!k->building && (now - k->current->built >= srv->aggregate_ttl
                            || (stale && now - k->last_begun >= 2 * k->last_took)))
    want (k);
  struct board *b = retain (k->current);
  pthread_mutex_unlock (&k->lock);
  return b;
}
