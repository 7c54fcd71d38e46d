/* board.c: the leaderboard snapshot, and the threads that build it and
 * keep it up to date (see board.h).
 *
 * Strings are interned per field in open-addressing hash tables, so an
 * entry holds small integers and a filter is resolved to integers once.
 * Entries are stored grouped by CPU, best GMPbench score first, each
 * CPU's in a block of its own, so that a scan reads memory in order; a
 * block is never changed once made, and is shared (reference-counted)
 * by the snapshots in which its CPU did not change.  GROUP numbers the
 * entries of all blocks in CPU order, which indexes the node columns.  A
 * score row's seq is found among the entries through a SEQ_INDEX made
 * when a column is loaded: a direct map when the seqs are dense (they
 * are, but for retracted and unlisted results), else a binary search.
 * The RSA-2048 ratio is GMP's signatures per second over
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
 * A block also holds the memos of its CPU (board_cpu_memo), under a lock
 * of their own: an update shares them with the blocks it shares, and a
 * full build gives them to the blocks whose results (seqs, verified,
 * flagged) it finds as the snapshot before had them, when that snapshot
 * included every change journaled before the build began.
 *
 * A view is the rows of one filter (and node column), by CPU; it keeps
 * the order of its rows by each key once asked.  A snapshot keeps up to
 * MAX_VIEWS, dropping the least asked for when full.  Readers find
 * columns and views under the snapshot's lock and copy what they need,
 * so a view can be dropped while a page is being written.
 *
 * An update (derive) copies the string tables (their indexes stay
 * valid), shares the blocks of the CPUs the changes do not touch, and
 * makes the touched CPUs' blocks again: the changed results' entries
 * taken out (their counts too), the changed results as they are now
 * merged in; it carries the node columns over (each column a segment
 * per CPU: the untouched CPUs' shared, the others' made entry by entry,
 * by where each came from), and names and summarizes again only the
 * touched CPUs.  So it copies the entries of those CPUs and their
 * segments, not every entry.  A
 * CPU left without results keeps its index, with an empty block, and is
 * shown nowhere.
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
#include "server/board/board.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "model/cpu_brand.h"
#include "server/log.h"
#include "server/store/store.h"

/* The home page asks for the eight category columns (docs/leaderboard.md)
 * and a view of each per filter, so a few sort nodes and filters fit. */
#define MAX_COLUMNS 12
#define MAX_VIEWS 64
#define CARRIED_VIEWS 24       /* the most asked for, given to the next snapshot */
#define MAX_MEMOS 32            /* values kept per CPU (board_cpu_memo) */
#define MEMO_BUDGET ((size_t) 128 << 20)        /* bytes they keep in all, at most */
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

/* A node's scores of one CPU's entries, in the order of its block (NAN
 * where absent): the snapshots that share the block share it too. */
struct segment
{
  atomic_int refs;
  double v[];
};

/* A node's column: a segment per CPU of its snapshot. */
struct column
{
  char *node;
  struct segment **seg;
};

/* A filter resolved to indexes: -1 for any value; the fields it fixes
 * (FIELD[0..NFIELDS), to VALUE[i]) listed for matches. */
struct resolved
{
  int64_t f[BF_COUNT];
  int verified_only, include_flagged;
  int nfields;
  int field[BF_COUNT];
  uint32_t value[BF_COUNT];
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

/* Values the pages computed from one CPU's results (board_cpu_memo),
 * shared by the blocks of those same results. */
struct memo
{
  char *key;
  void *value;
  void (*drop) (void *value);
  size_t bytes;
};

static atomic_size_t memo_bytes;        /* of every memo kept, in all snapshots */

struct memos
{
  atomic_int refs;
  pthread_mutex_t lock;         /* guards N and M */
  size_t n;
  struct memo m[MAX_MEMOS];
};

/* The entries of one CPU, best first (see the top of the file). */
struct block
{
  atomic_int refs;
  struct memos *memos;
  size_t n;
  size_t newest;                /* its newest entry (when N > 0) */
  int64_t kind[2];              /* its most common mode and build kind (choose_kinds) */
  struct item items[];
};

struct board
{
  atomic_int refs;
  double built;                 /* when its build or update began (wall clock) */
  double base_built;            /* when the full build it descends from began */
  struct strtab tab[BF_COUNT], names;
  struct block **blocks;        /* per CPU */
  size_t n;                     /* entries */
  size_t *group;                /* CPU i has entries group[i] .. group[i+1] */
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
  struct item *items;           /* in upload order, until grouped */
  size_t n, cap;
  float *mhz;                   /* per item, until scored */
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

  if (abandoned (bd->abandon))
    return 1;
  if (bd->n == bd->cap)
    {
      bd->cap = bd->cap ? 2 * bd->cap : 1024;
      bd->items = gb_xrealloc (bd->items, bd->cap * sizeof *bd->items);
      bd->mhz = gb_xrealloc (bd->mhz, bd->cap * sizeof *bd->mhz);
      bd->cores = gb_xrealloc (bd->cores, bd->cap * sizeof *bd->cores);
    }
  bd->mhz[bd->n] = (float) row->mhz;
  bd->cores[bd->n] = row->cores;
  fill_item (bd->b, &bd->items[bd->n++], row);
  return 0;
}

/* A seq and the entry (or item) it is. */
struct seq_pair
{
  int64_t seq;
  uint32_t at;
};

/* Where each seq is: DIRECT[seq - FIRST] (UINT32_MAX for none) when the
 * seqs are dense, else PAIRS sorted by seq. */
struct seq_index
{
  struct seq_pair *pairs;
  size_t n;
  uint32_t *direct;
  int64_t first;
  size_t span;
};

static int
by_pair_seq (const void *pa, const void *pb)
{
  int64_t a = ((const struct seq_pair *) pa)->seq, b = ((const struct seq_pair *) pb)->seq;
  return (a > b) - (a < b);
}

/* X over the N pairs P (malloc'ed; X takes them). */
static void
seq_index_make (struct seq_index *x, struct seq_pair *p, size_t n)
{
  memset (x, 0, sizeof *x);
  x->pairs = p;
  x->n = n;
  if (n == 0)
    return;
  int64_t lo = p[0].seq, hi = p[0].seq;
  for (size_t i = 1; i < n; i++)
    {
      lo = p[i].seq < lo ? p[i].seq : lo;
      hi = p[i].seq > hi ? p[i].seq : hi;
    }
  if ((uint64_t) (hi - lo) >= 4 * (uint64_t) n + 1024)
    {
      qsort (p, n, sizeof *p, by_pair_seq);
      return;
    }
  x->first = lo;
  x->span = (size_t) (hi - lo) + 1;
  x->direct = gb_xmalloc (x->span * sizeof *x->direct);
  memset (x->direct, 0xff, x->span * sizeof *x->direct);
  for (size_t i = 0; i < n; i++)
    x->direct[p[i].seq - lo] = p[i].at;
}

static void
seq_index_free (struct seq_index *x)
{
  free (x->pairs);
  free (x->direct);
}

/* Where SEQ is, or -1. */
static int64_t
seq_find (const struct seq_index *x, int64_t seq)
{
  if (x->direct)
    {
      uint64_t i = (uint64_t) (seq - x->first);
      return i < x->span && x->direct[i] != UINT32_MAX ? (int64_t) x->direct[i] : -1;
    }
  size_t lo = 0, hi = x->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (x->pairs[mid].seq < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < x->n && x->pairs[lo].seq == seq ? (int64_t) x->pairs[lo].at : -1;
}

/* The index of a build's items, in upload order. */
static void
seq_index_items (struct seq_index *x, const struct item *items, size_t n)
{
  struct seq_pair *p = gb_xmalloc ((n + 1) * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = (struct seq_pair) { items[i].seq, (uint32_t) i };
  seq_index_make (x, p, n);
}

/* The index of B's entries, numbered as GROUP does. */
static void
seq_index_board (struct seq_index *x, const struct board *b)
{
  struct seq_pair *p = gb_xmalloc ((b->n + 1) * sizeof *p);
  size_t k = 0;
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    for (size_t j = 0; j < b->blocks[c]->n; j++, k++)
      p[k] = (struct seq_pair) { b->blocks[c]->items[j].seq, (uint32_t) k };
  seq_index_make (x, p, k);
}

struct column_load
{
  const struct seq_index *x;
  double *v;
  const atomic_int *abandon;
};

static int
take_score (void *ctx, int64_t seq, double score)
{
  struct column_load *l = ctx;
  int64_t i = seq_find (l->x, seq);
  if (i >= 0)
    l->v[i] = score;
  return abandoned (l->abandon);
}

/* NODE's score per entry of X, N of them (malloc'ed), or NULL on a
 * database error or when the build is abandoned. */
static double *
load_column (const struct seq_index *x, size_t n, struct store *st, const char *node,
             const atomic_int *abandon)
{
  struct column_load l = { x, gb_xmalloc ((n + 1) * sizeof (double)), abandon };
  for (size_t i = 0; i < n; i++)
    l.v[i] = NAN;
  if (store_node_column (st, node, take_score, &l) != STORE_OK || abandoned (abandon))
    {
      free (l.v);
      return NULL;
    }
  return l.v;
}

static struct segment *
segment_new (size_t n)
{
  struct segment *sg = gb_xmalloc (sizeof *sg + (n + 1) * sizeof (double));
  atomic_init (&sg->refs, 1);
  return sg;
}

static struct segment *
segment_retain (struct segment *sg)
{
  atomic_fetch_add (&sg->refs, 1);
  return sg;
}

/* Lets go of the column SEG of a snapshot of NCPU CPUs. */
static void
segments_free (struct segment **seg, size_t ncpu)
{
  for (size_t c = 0; seg && c < ncpu; c++)
    if (atomic_fetch_sub (&seg[c]->refs, 1) == 1)
      free (seg[c]);
  free (seg);
}

/* NODE's column of B's entries (see load_column), a segment per CPU. */
static struct segment **
load_board_column (const struct board *b, struct store *st, const char *node,
                   const atomic_int *abandon)
{
  struct seq_index x;
  size_t ncpu = b->tab[BF_CPU].n;
  seq_index_board (&x, b);
  double *v = load_column (&x, b->n, st, node, abandon);
  seq_index_free (&x);
  if (!v)
    return NULL;
  struct segment **seg = gb_xmalloc ((ncpu + 1) * sizeof *seg);
  for (size_t c = 0; c < ncpu; c++)
    {
      seg[c] = segment_new (b->blocks[c]->n);
      memcpy (seg[c]->v, v + b->group[c], b->blocks[c]->n * sizeof *v);
    }
  free (v);
  return seg;
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

/* How a name ranks: by the votes of verified publishers' unflagged
 * results, then of all unflagged results, then of all, then the oldest;
 * and whether it fits the CPU identity with the vendor FIT_VENDOR - 1
 * (0: not asked yet). */
struct tally
{
  size_t verified, unflagged, all;
  uint32_t name;
  int64_t first;
  uint32_t fit_vendor;
  int fits;
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
 * T, indexed by name, is zeroed and left so; SEEN has room for the
 * group's names.  One pass over the group, not a sort, asking whether a
 * brand fits once per name and vendor: each update names again the
 * CPUs it touches, however many results they have. */
static uint32_t
name_group (const struct board *b, size_t c, uint32_t unnamed, struct tally *t,
            uint32_t *seen)
{
  size_t n = 0;
  const struct block *blk = b->blocks[c];
  for (size_t k = 0; k < blk->n; k++)
    {
      const struct item *it = &blk->items[k];
      struct tally *x = &t[it->name];
      if (x->fit_vendor != it->f[BF_VENDOR] + 1)
        {
          if (!x->fit_vendor && !x->all)
            seen[n++] = it->name;
          x->fit_vendor = it->f[BF_VENDOR] + 1;
          x->fits = cpu_brand_fits (b->tab[BF_CPU].names[it->f[BF_CPU]],
                                    b->tab[BF_VENDOR].names[it->f[BF_VENDOR]],
                                    b->names.names[it->name]);
        }
      if (!x->fits)
        continue;
      if (x->all++ == 0)
        {
          x->name = it->name;
          x->first = it->seq;
        }
      else if (it->seq < x->first)
        x->first = it->seq;
      x->verified += it->verified && !it->flagged;
      x->unflagged += !it->flagged;
    }
  struct tally best = { 0, 0, 0, unnamed, 0, 0, 0 };
  int found = 0;
  for (size_t k = 0; k < n; k++)
    {
      if (t[seen[k]].all && (!found++ || tally_beats (&t[seen[k]], &best)))
        best = t[seen[k]];
      t[seen[k]] = (struct tally) { 0, 0, 0, 0, 0, 0, 0 };
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
  struct tally *t = gb_xcalloc (b->names.n + 1, sizeof *t);
  uint32_t *seen = gb_xmalloc ((biggest_group (b) + 1) * sizeof *seen);
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (!affected || affected[c])
      b->cpu_name[c] = name_group (b, c, unnamed, t, seen);
  free (seen);
  free (t);
}

static struct memos *
memos_new (void)
{
  struct memos *ms = gb_xmalloc (sizeof *ms);
  atomic_init (&ms->refs, 1);
  pthread_mutex_init (&ms->lock, NULL);
  ms->n = 0;
  return ms;
}

static struct memos *
memos_retain (struct memos *ms)
{
  atomic_fetch_add (&ms->refs, 1);
  return ms;
}

static void
memos_release (struct memos *ms)
{
  if (atomic_fetch_sub (&ms->refs, 1) != 1)
    return;
  for (size_t i = 0; i < ms->n; i++)
    {
      free (ms->m[i].key);
      ms->m[i].drop (ms->m[i].value);
      atomic_fetch_sub (&memo_bytes, ms->m[i].bytes);
    }
  pthread_mutex_destroy (&ms->lock);
  free (ms);
}

static struct block *
block_new (size_t n)
{
  struct block *blk = gb_xmalloc (sizeof *blk + (n + 1) * sizeof *blk->items);
  atomic_init (&blk->refs, 1);
  blk->memos = memos_new ();
  blk->n = n;
  blk->newest = 0;
  return blk;
}

static struct block *
block_retain (struct block *blk)
{
  atomic_fetch_add (&blk->refs, 1);
  return blk;
}

static void
block_release (struct block *blk)
{
  if (blk && atomic_fetch_sub (&blk->refs, 1) == 1)
    {
      memos_release (blk->memos);
      free (blk);
    }
}

/* The most common value of FIELD among the N ITEMS whose mode is MODE
 * (-1: any), ties going to the first seen; -1 when there are none. */
static int64_t
most_common (const struct board *b, const struct item *items, size_t n, int field,
             int64_t mode)
{
  size_t nvalues = b->tab[field].n;
  size_t *count = gb_xcalloc (nvalues + 1, sizeof *count);
  int64_t best = -1;
  for (size_t k = 0; k < n; k++)
    if (mode < 0 || items[k].f[BF_MODE] == mode)
      count[items[k].f[field]]++;
  for (size_t i = 0; i < nvalues; i++)
    if (count[i] && (best < 0 || count[i] > count[best]))
      best = (int64_t) i;
  free (count);
  return best;
}

static void
choose_kinds (const struct board *b, const struct item *items, size_t n, int64_t kind[2])
{
  kind[0] = most_common (b, items, n, BF_MODE, -1);
  kind[1] = kind[0] < 0 ? -1 : most_common (b, items, n, BF_BUILD, kind[0]);
}

/* Sets BLK's newest entry and its kinds (B: the snapshot it is made
 * for, whose string tables name its items' values); a CPU page views
 * its kinds by default, and a block is shared by the snapshots in which
 * its CPU's results do not change, so they are counted once, here. */
static void
block_finish (const struct board *b, struct block *blk)
{
  blk->newest = 0;
  for (size_t k = 1; k < blk->n; k++)
    if (blk->items[k].seq > blk->items[blk->newest].seq)
      blk->newest = k;
  choose_kinds (b, blk->items, blk->n, blk->kind);
}

/* B's blocks and GROUP from its N ITEMS (in any order). */
static void
group_items (struct board *b, const struct item *items, size_t n)
{
  size_t ncpu = b->tab[BF_CPU].n;

  struct place *p = gb_xmalloc ((n + 1) * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = (struct place) { items[i].f[BF_CPU], (uint32_t) i, items[i].score, items[i].seq };
  qsort (p, n, sizeof *p, by_cpu_score);
  b->n = n;
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  for (size_t i = 0; i < n; i++)
    b->group[items[i].f[BF_CPU] + 1]++;
  for (size_t c = 0; c < ncpu; c++)
    b->group[c + 1] += b->group[c];
  b->blocks = gb_xcalloc (ncpu + 1, sizeof *b->blocks);
  for (size_t c = 0; c < ncpu; c++)
    b->blocks[c] = block_new (b->group[c + 1] - b->group[c]);
  for (size_t k = 0; k < n; k++)
    {
      uint32_t c = p[k].cpu;
      b->blocks[c]->items[k - b->group[c]] = items[p[k].item];
    }
  for (size_t c = 0; c < ncpu; c++)
    block_finish (b, b->blocks[c]);
  free (p);
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
      segments_free (b->cols[i].seg, b->tab[BF_CPU].n);
    }
  for (size_t i = 0; i < b->nviews; i++)
    view_free (b->views[i]);
  pthread_mutex_destroy (&b->lock);
  pthread_cond_destroy (&b->loaded);
  for (size_t c = 0; b->blocks && c < b->tab[BF_CPU].n; c++)
    block_release (b->blocks[c]);
  free (b->blocks);
  free (b->group);
  free (b->cpu_name);
  free (b->info);
  free (b->pairs);
  free (b);
}

/* The scores, the RSA ratio and the scores per GHz and per core of every
 * item of BD (in upload order); -1 on a database error. */
static int
load_scores (struct build *bd, struct store *st)
{
  struct seq_index x;
  seq_index_items (&x, bd->items, bd->n);
  double *score = load_column (&x, bd->n, st, BOARD_SCORE_NODE, bd->abandon);
  double *gmp = score ? load_column (&x, bd->n, st, RSA_GMP, bd->abandon) : NULL;
  double *sec = gmp ? load_column (&x, bd->n, st, RSA_GMP_SEC, bd->abandon) : NULL;
  double *ossl = sec ? load_column (&x, bd->n, st, RSA_OPENSSL, bd->abandon) : NULL;
  seq_index_free (&x);
  for (size_t i = 0; ossl && i < bd->n; i++)
    {
      bd->items[i].score = score[i];
      finish_item (&bd->items[i], isnan (sec[i]) ? gmp[i] : sec[i], ossl[i], bd->mhz[i],
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
  struct build bd = { board_new (), NULL, 0, 0, NULL, NULL, abandon };
  struct board *b = bd.b;

  int ok = store_board_rows (st, add_item, &bd) == STORE_OK && !abandoned (abandon)
    && load_scores (&bd, st) == 0;
  free (bd.mhz);
  free (bd.cores);
  if (!ok)
    {
      free (bd.items);
      board_free (b);
      return NULL;
    }
  group_items (b, bd.items, bd.n);
  b->cpu_name = gb_xmalloc ((b->tab[BF_CPU].n + 1) * sizeof *b->cpu_name);
  name_cpus (b, NULL);
  pairs_new (b, NULL);
  for (size_t k = 0; k < bd.n; k++)
    pair_add (b, &bd.items[k], 1);
  free (bd.items);
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

/* Lists the fields R fixes, but SKIP (-1: none), for matches. */
static void
list_fields (struct resolved *r, int skip)
{
  r->nfields = 0;
  for (int i = 0; i < BF_COUNT; i++)
    if (r->f[i] >= 0 && i != skip)
      {
        r->field[r->nfields] = i;
        r->value[r->nfields++] = (uint32_t) r->f[i];
      }
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
  list_fields (r, -1);
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
  for (int i = 0; i < r->nfields; i++)
    if (it->f[r->field[i]] != r->value[i])
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
  const struct block *blk = b->blocks[c];
  row->cpu = b->tab[BF_CPU].names[c];
  row->cpu_name = b->names.names[b->cpu_name[c]];
  row->arch = row->vendor = "";
  if (blk->n)
    {
      row->arch = b->tab[BF_ARCH].names[blk->items[blk->newest].f[BF_ARCH]];
      row->vendor = b->tab[BF_VENDOR].names[blk->items[blk->newest].f[BF_VENDOR]];
    }
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
rank_group (const struct board *b, size_t c, const struct resolved *r,
            const struct segment *seg, struct scratch *s, struct board_row *row)
{
  size_t n = 0;
  struct most gmp = { { 0 }, { 0 }, 0 }, compiler = { { 0 }, { 0 }, 0 };
  const struct block *blk = b->blocks[c];
  const double *node = seg ? seg->v : NULL;
  s->nscore = s->nghz = s->ncore = s->nrsa = s->nnode = s->nclock = 0;
  for (size_t k = 0; k < blk->n; k++)
    {
      const struct item *it = &blk->items[k];
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
  const struct block *blk = b->blocks[c];
  memset (g, 0, sizeof *g);
  if (blk->n == 0)
    return;                     /* every result of it left; whole_group skips it */
  memcpy (g->uniform, blk->items[0].f, sizeof g->uniform);
  for (size_t k = 0; k < blk->n; k++)
    {
      for (int f = 0; f < BF_COUNT; f++)
        if (blk->items[k].f[f] != g->uniform[f])
          g->uniform[f] = UINT32_MAX;
      g->verified += blk->items[k].verified;
    }
  for (int flagged = 0; flagged < 2; flagged++)
    {
      struct resolved r;
      for (int f = 0; f < BF_COUNT; f++)
        r.f[f] = -1;
      r.verified_only = 0;
      r.include_flagged = flagged;
      list_fields (&r, -1);
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
group_row (const struct board *b, size_t c, const struct resolved *r,
           struct segment *const *column, struct scratch *s, struct board_row *row)
{
  int whole = whole_group (b, c, r);
  if (whole < 0)
    return 0;
  if (whole > 0 && !column)
    {
      *row = b->info[c].rows[r->include_flagged];
      return row->n > 0;
    }
  return rank_group (b, c, r, column ? column[c] : NULL, s, row);
}

/* The rows of every CPU some result of which matches R, by CPU, with the
 * median of NODE (a column, or NULL); *ROWS is malloc'ed.  A CPU whose
 * results all match (a tab, a vendor, flagged results included) takes
 * its summary's row without a scan, unless NODE is needed. */
static size_t
compute_rows (const struct board *b, const struct resolved *r, struct segment *const *node,
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
static struct segment *const *
find_column (const struct board *b, const char *node)
{
  for (size_t i = 0; i < b->ncols; i++)
    if (strcmp (b->cols[i].node, node) == 0)
      return b->cols[i].seg;
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
static struct segment *const *
node_column (struct board *b, struct store *st, const char *node, int *owned)
{
  struct segment *const *kept;

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

  struct segment **v = load_board_column (b, st, node, NULL);
  pthread_mutex_lock (&b->lock);
  for (size_t i = 0; mark && i < b->nloading; i++)
    if (b->loading[i] == node)
      b->loading[i] = b->loading[--b->nloading];
  pthread_cond_broadcast (&b->loaded);
  if (v && (kept = find_column (b, node)))
    {
      segments_free (v, b->tab[BF_CPU].n);
      v = (struct segment **) kept;
    }
  else if (v && b->ncols < MAX_COLUMNS)
    {
      b->cols[b->ncols].node = gb_xstrdup (node);
      b->cols[b->ncols++].seg = v;
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
  struct segment *const *column = NULL;

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
    segments_free ((struct segment **) column, b->tab[BF_CPU].n);
  for (size_t i = 0; i < n; i++)
    computed[i].key = key_value (&computed[i], key);
  qsort (computed, n, sizeof *computed, by_key);
  *rows = computed;
  *nrows = n;
  return 0;
}

/* Whether A ranks before B in board_ranked's order. */
static int
ranks_before (const struct board_scored *a, const struct board_scored *b)
{
  return a->score > b->score || (a->score == b->score && a->seq > b->seq);
}

static int
by_rank (const void *a, const void *b)
{
  return ranks_before (b, a) - ranks_before (a, b);
}

static void
swap_scored (struct board_scored *a, struct board_scored *b)
{
  struct board_scored t = *a;
  *a = *b;
  *b = t;
}

/* The heap H[0..N), the last in rank at its root, made whole again after
 * H[I] was put below its place. */
static void
sift_down (struct board_scored *h, size_t n, size_t i)
{
  for (;;)
    {
      size_t last = i, left = 2 * i + 1, right = left + 1;
      if (left < n && ranks_before (&h[last], &h[left]))
        last = left;
      if (right < n && ranks_before (&h[last], &h[right]))
        last = right;
      if (last == i)
        return;
      swap_scored (&h[i], &h[last]);
      i = last;
    }
}

/* The same after H[I] was added. */
static void
sift_up (struct board_scored *h, size_t i)
{
  while (i > 0 && ranks_before (&h[(i - 1) / 2], &h[i]))
    {
      swap_scored (&h[(i - 1) / 2], &h[i]);
      i = (i - 1) / 2;
    }
}

int
board_ranked (struct board *b, struct store *st, const struct board_filter *f,
              const char *node, int after, double score, int64_t seq, size_t limit,
              struct board_scored **out, size_t *nout)
{
  struct resolved r;
  int owned = 0;
  size_t n = 0;

  *out = gb_xmalloc ((limit + 1) * sizeof **out);
  *nout = 0;
  if (resolve (b, f, &r) < 0 || limit == 0)
    return 0;
  /* The GMPbench score is each entry's own, and a block's entries are
   * sorted by it: a block is read until its scores fall below the heap's
   * last.  Any other node is a column. */
  int own = strcmp (node, BOARD_SCORE_NODE) == 0;
  struct segment *const *column = own ? NULL : node_column (b, st, node, &owned);
  if (!own && !column)
    return -1;
  struct board_scored *h = *out;
  double floor = -INFINITY;     /* the heap's last score once it is full */
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    {
      if (whole_group (b, c, &r) < 0)     /* none of its results matches */
        continue;
      const struct block *bl = b->blocks[c];
      const double *v = own ? NULL : column[c]->v;
      for (size_t k = 0; k < bl->n; k++)
        {
          double x = own ? bl->items[k].score : v[k];
          if (own && !(x >= floor))
            break;
          /* The score alone first (NAN fails): once the heap is full, few
           * results reach its last, and only those have their entry read
           * (the column is 8 bytes a result, an entry ten times that). */
          if (!(x >= floor) || (after && x > score))
            continue;
          struct board_scored e = { bl->items[k].seq, x };
          if ((n == limit && !ranks_before (&e, &h[0]))
              || (after && !(e.score < score || (e.score == score && e.seq < seq)))
              || !matches (&bl->items[k], &r))
            continue;
          if (n < limit)
            {
              h[n] = e;
              sift_up (h, n++);
            }
          else
            {
              h[0] = e;
              sift_down (h, n, 0);
            }
          if (n == limit)
            floor = h[0].score;
        }
    }
  if (owned)
    segments_free ((struct segment **) column, b->tab[BF_CPU].n);
  qsort (h, n, sizeof *h, by_rank);
  *nout = n;
  return 0;
}

/* The block of F's CPU, with F resolved into R (matching its entries:
 * all of them have its CPU, and SKIP, a field, or -1, is not checked);
 * NULL when F names no CPU of B. */
static const struct block *
cpu_block (const struct board *b, const struct board_filter *f, int skip, struct resolved *r)
{
  if (resolve (b, f, r) < 0 || r->f[BF_CPU] < 0)
    return NULL;
  if (skip >= 0)
    r->f[skip] = -1;
  list_fields (r, BF_CPU);
  return b->blocks[r->f[BF_CPU]];
}

/* The entry of IT, for the CPU page. */
static struct board_entry
entry_of (const struct board *b, const struct item *it)
{
  struct board_entry e = {
    it->seq, b->tab[BF_GMP].names[it->f[BF_GMP]], b->tab[BF_COMPILER].names[it->f[BF_COMPILER]],
    it->verified, it->flagged, it->score
  };
  return e;
}

void
board_cpu_tally (const struct board *b, const struct board_filter *f, enum board_field field,
                 size_t *counts)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, (int) field, &r);
  const struct strtab *t = &b->tab[field];
  size_t *by_index = gb_xcalloc (t->n + 1, sizeof *by_index);

  for (size_t k = 0; blk && k < blk->n; k++)
    if (matches (&blk->items[k], &r))
      by_index[blk->items[k].f[field]]++;
  for (size_t i = 0; i < t->nsorted; i++)
    counts[i] = by_index[lookup (t, t->sorted[i])];
  free (by_index);
}

/* Moves the entry at I of the min-heap by seq H (N entries) down to its
 * place. */
static void
seq_heap_down (struct board_entry *h, size_t n, size_t i)
{
  for (;;)
    {
      size_t least = i, l = 2 * i + 1, r = l + 1;
      if (l < n && h[l].seq < h[least].seq)
        least = l;
      if (r < n && h[r].seq < h[least].seq)
        least = r;
      if (least == i)
        return;
      struct board_entry t = h[i];
      h[i] = h[least];
      h[least] = t;
      i = least;
    }
}

size_t
board_cpu_newest_entries (const struct board *b, const struct board_filter *f, size_t k,
                          struct board_entry *out)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, -1, &r);
  size_t n = 0;

  for (size_t i = 0; blk && k > 0 && i < blk->n; i++)
    {
      const struct item *it = &blk->items[i];
      if (!matches (it, &r) || (n == k && it->seq <= out[0].seq))
        continue;
      if (n < k)
        {
          out[n++] = entry_of (b, it);
          if (n == k)
            for (size_t j = k / 2; j-- > 0;)
              seq_heap_down (out, n, j);
        }
      else
        {
          out[0] = entry_of (b, it);
          seq_heap_down (out, n, 0);
        }
    }
  return n;
}

size_t
board_cpu_entries (const struct board *b, const struct board_filter *f, struct board_entry **out)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, -1, &r);
  size_t n = 0;

  *out = NULL;
  if (!blk)
    return 0;
  *out = gb_xmalloc ((blk->n + 1) * sizeof **out);
  for (size_t k = 0; k < blk->n; k++)
    if (matches (&blk->items[k], &r))
      (*out)[n++] = entry_of (b, &blk->items[k]);
  return n;
}

void
board_default_kinds (const struct board *b, const char *cpu, struct board_filter *f)
{
  int64_t kind[2] = { b->kind[0], b->kind[1] };
  int64_t c = cpu ? lookup (&b->tab[BF_CPU], cpu) : -1;
  if (c >= 0)
    memcpy (kind, b->blocks[c]->kind, sizeof kind);
  static const int fields[2] = { BF_MODE, BF_BUILD };
  for (int i = 0; i < 2; i++)
    if ((!f->value[fields[i]] || !*f->value[fields[i]]) && kind[i] >= 0)
      f->value[fields[i]] = b->tab[fields[i]].names[kind[i]];
}

int64_t
board_cpu_newest (const struct board *b, const char *cpu)
{
  int64_t c = lookup (&b->tab[BF_CPU], cpu);
  const struct block *blk = c >= 0 ? b->blocks[c] : NULL;
  return blk && blk->n ? blk->items[blk->newest].seq : 0;
}

/* The value kept in MS for KEY, or NULL; under MS's lock. */
static void *
memo_find (const struct memos *ms, const char *key)
{
  for (size_t i = 0; i < ms->n; i++)
    if (strcmp (ms->m[i].key, key) == 0)
      return ms->m[i].value;
  return NULL;
}

void *
board_cpu_memo (struct board *b, const char *cpu, const char *key, board_memo_make make,
                void *ctx, void (*drop) (void *value), int *owned)
{
  int64_t c = lookup (&b->tab[BF_CPU], cpu);
  struct memos *ms = c >= 0 ? b->blocks[c]->memos : NULL;
  void *value = NULL, *kept = NULL;
  size_t bytes = 0;

  *owned = 0;
  if (ms)
    {
      pthread_mutex_lock (&ms->lock);
      value = memo_find (ms, key);
      pthread_mutex_unlock (&ms->lock);
    }
  if (value || !(value = make (ctx, &bytes)))
    return value;
  bytes += sizeof (struct memo) + strlen (key) + 1;
  if (ms)
    {
      pthread_mutex_lock (&ms->lock);
      kept = memo_find (ms, key);       /* made meanwhile by another page */
      if (!kept && ms->n < MAX_MEMOS
          && atomic_fetch_add (&memo_bytes, bytes) + bytes <= MEMO_BUDGET)
        {
          ms->m[ms->n++] = (struct memo) { gb_xstrdup (key), value, drop, bytes };
          kept = value;
        }
      else if (!kept)
        atomic_fetch_sub (&memo_bytes, bytes);
      pthread_mutex_unlock (&ms->lock);
    }
  if (kept == value)
    return value;
  if (kept)
    {
      drop (value);
      return kept;
    }
  *owned = 1;
  return value;
}

/* Whether blocks A and B hold the same results, as verified and flagged. */
static int
same_results (const struct block *a, const struct block *b)
{
  if (a->n != b->n)
    return 0;
  for (size_t k = 0; k < a->n; k++)
    if (a->items[k].seq != b->items[k].seq || a->items[k].verified != b->items[k].verified
        || a->items[k].flagged != b->items[k].flagged)
      return 0;
  return 1;
}

/* Gives the blocks of a full build B (not yet published) the values kept
 * with OLD's blocks of the same CPUs where their results are the same.
 * OLD must include every change the journal had when B's build began, so
 * that the changes after are the ones B is brought up to date with. */
static void
carry_memos (struct board *b, const struct board *old)
{
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    {
      int64_t o = lookup (&old->tab[BF_CPU], b->tab[BF_CPU].names[c]);
      if (o >= 0 && same_results (b->blocks[c], old->blocks[o]))
        {
          memos_release (b->blocks[c]->memos);
          b->blocks[c]->memos = memos_retain (old->blocks[o]->memos);
        }
    }
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
  int64_t cpu;                  /* the index of its CPU, or -1 (unlisted, unknown) */
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
  c->cpu = c->listed ? (int64_t) c->it.f[BF_CPU] : lookup (&d->b->tab[BF_CPU], row->cpu);
  return 0;
}

static int
take_change_score (void *ctx, int64_t seq, const char *node, double score)
{
  struct delta *d = ctx;
  if (d->n == 0 || d->ch[d->n - 1].it.seq != seq)
    return 0;
  struct change *c = &d->ch[d->n - 1];
  if (strcmp (node, BOARD_SCORE_NODE) == 0)
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

/* The arrivals of D's listed changes, counted in B's PAIRS, sorted (by
 * CPU first) into *ADD; the CPUs of all changes marked AFFECTED; the
 * changed seqs, sorted, into *GONE (N of them, as D's changes). */
static size_t
sort_changes (struct board *b, const struct delta *d, uint8_t *affected,
              struct arrival **add, int64_t **gone)
{
  size_t n = 0;
  *add = gb_xmalloc ((d->n + 1) * sizeof **add);
  *gone = gb_xmalloc ((d->n + 1) * sizeof **gone);
  for (size_t j = 0; j < d->n; j++)
    {
      struct change *c = &d->ch[j];
      (*gone)[j] = c->it.seq;
      if (c->cpu >= 0)
        affected[c->cpu] = 1;
      if (c->listed)
        {
          finish_item (&c->it, isnan (c->sec) ? c->gmp : c->sec, c->ossl, c->mhz, c->cores);
          pair_add (b, &c->it, 1);
          (*add)[n++] = (struct arrival) { c->it, (uint32_t) j };
        }
    }
  qsort (*add, n, sizeof **add, by_arrival);
  qsort (*gone, d->n, sizeof **gone, by_seq_value);
  return n;
}

/* Takes the old entry O out of B's counts (and PAIRS). */
static void
count_out (struct board *b, const struct item *o)
{
  pair_add (b, o, -1);
  for (int f = 0; f < BF_COUNT; f++)
    b->tab[f].counts[o->f[f]]--;
  b->names.counts[o->name]--;
}

/* CPU C's block in B, made from OLD's (none when C is new to B): its
 * entries but those of the NGONE changed seqs GONE (sorted; taken out of
 * B's counts), merged in order with the N arrivals ADD of C.  ORIGIN[k]
 * (malloc'ed) is where entry k came from: its index in OLD's block, or
 * -1 - its change. */
static struct block *
remake_block (struct board *b, const struct board *old, size_t c, const int64_t *gone,
              size_t ngone, const struct arrival *add, size_t n, int64_t **origin)
{
  const struct block *ob = c < old->tab[BF_CPU].n ? old->blocks[c] : NULL;
  size_t on = ob ? ob->n : 0, i = 0, j = 0, k = 0;
  struct block *blk = block_new (on + n);
  *origin = gb_xmalloc ((on + n + 1) * sizeof **origin);
  for (;;)
    {
      while (i < on && bsearch (&ob->items[i].seq, gone, ngone, sizeof *gone, by_seq_value))
        count_out (b, &ob->items[i++]);
      if (i >= on && j >= n)
        break;
      if (j < n && (i >= on || item_before (&add[j].it, &ob->items[i])))
        {
          blk->items[k] = add[j].it;
          (*origin)[k++] = -1 - (int64_t) add[j++].change;
        }
      else
        {
          blk->items[k] = ob->items[i];
          (*origin)[k++] = (int64_t) i++;
        }
    }
  blk->n = k;
  block_finish (b, blk);
  return blk;
}

/* OLD's node columns (V) for B's entries, the changes' values for new
 * ones: a CPU without ORIGIN (its block shared) shares its segment. */
static void
carry_columns (struct board *b, const struct delta *d, struct segment *const *const *v,
               int64_t *const *origin)
{
  for (size_t i = 0; i < d->ncols; i++)
    {
      struct segment **col = gb_xmalloc ((b->tab[BF_CPU].n + 1) * sizeof *col);
      for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
        {
          const int64_t *from = origin[c];
          if (!from)
            {
              col[c] = segment_retain (v[i][c]);
              continue;
            }
          col[c] = segment_new (b->blocks[c]->n);
          for (size_t k = 0; k < b->blocks[c]->n; k++)
            col[c]->v[k] = from[k] >= 0 ? v[i][c]->v[from[k]] : d->ch[-1 - from[k]].col[i];
        }
      b->cols[b->ncols].node = gb_xstrdup (d->cols[i]);
      b->cols[b->ncols++].seg = col;
    }
}

static void
delta_free (struct delta *d)
{
  for (size_t j = 0; j < d->n; j++)
    free (d->ch[j].col);
  free (d->ch);
}

/* A snapshot of OLD with the results of the N distinct ids IDS as the
 * store has them now (each stored, retracted, unlisted or with new flags
 * since OLD), without views; NULL on a database error or when abandoned.
 * It shares OLD's blocks of the CPUs the changes do not touch, and makes
 * the touched CPUs' again (*TOUCHED, malloc'ed, says which), names and
 * summarizes them again; OLD's node columns are carried over. */
static struct board *
derive (struct board *old, struct store *st, const char *const *ids, size_t nids,
        const atomic_int *abandon, uint8_t **touched)
{
  struct board *b = board_new ();
  const char *nodes[MAX_COLUMNS];
  struct segment *const *values[MAX_COLUMNS];
  struct delta d = { b, NULL, 0, 0, nodes, 0, abandon };

  for (int f = 0; f < BF_COUNT; f++)
    strtab_copy (&b->tab[f], &old->tab[f]);
  strtab_copy (&b->names, &old->names);
  pthread_mutex_lock (&old->lock);      /* columns are only ever added */
  for (; d.ncols < old->ncols; d.ncols++)
    {
      nodes[d.ncols] = old->cols[d.ncols].node;
      values[d.ncols] = old->cols[d.ncols].seg;
    }
  pthread_mutex_unlock (&old->lock);
  if (store_board_changes (st, ids, nids, take_change, take_change_score, &d) != STORE_OK
      || abandoned (abandon))
    {
      delta_free (&d);
      board_free (b);
      return NULL;
    }

  size_t old_cpus = old->tab[BF_CPU].n, ncpu = b->tab[BF_CPU].n, a = 0;
  uint8_t *affected = gb_xcalloc (ncpu + 1, 1);
  struct arrival *add;
  int64_t *gone, **origin = gb_xcalloc (ncpu + 1, sizeof *origin);
  pairs_new (b, old);
  size_t nadd = sort_changes (b, &d, affected, &add, &gone);
  b->blocks = gb_xcalloc (ncpu + 1, sizeof *b->blocks);
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  for (size_t c = 0; c < ncpu; c++)
    {
      size_t first = a;
      while (a < nadd && add[a].it.f[BF_CPU] == c)
        a++;
      if (c < old_cpus && !affected[c])
        b->blocks[c] = block_retain (old->blocks[c]);
      else
        b->blocks[c] = remake_block (b, old, c, gone, d.n, add + first, a - first, &origin[c]);
      b->group[c + 1] = b->group[c] + b->blocks[c]->n;
    }
  b->n = b->group[ncpu];
  carry_columns (b, &d, values, origin);
  for (size_t c = 0; c < ncpu; c++)
    free (origin[c]);
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
  struct segment *const *column = NULL;

  if (node)
    column = find_column (b, node);
  if (resolve (b, f, &r) < 0 || (node && !column))
    return;
  struct board_row *rows;
  size_t n = compute_rows (b, &r, column, &rows);
  add_view (b, f, &r, node, rows, n);
}

/* The rows of the CPUs an update touched, by filter, as the views made
 * again have them: the home page's views differ by their node alone
 * (its categories), and so share all of a row but the node's median. */
#define ROW_MEMOS 64
struct row_memos
{
  size_t n;
  struct row_memo
  {
    size_t c;
    struct resolved r;
    int found;                  /* whether a result of C matches R */
    struct board_row row;
  } m[ROW_MEMOS];
};

/* The median of SEG (CPU C's segment of a node column) over C's results
 * under R. */
static double
node_median (const struct board *b, size_t c, const struct resolved *r,
             const struct segment *seg, struct scratch *s)
{
  const struct block *blk = b->blocks[c];
  s->nnode = 0;
  for (size_t k = 0; k < blk->n; k++)
    if (!isnan (seg->v[k]) && matches (&blk->items[k], r))
      s->node[s->nnode++] = seg->v[k];
  return median (s->node, s->nnode);
}

/* CPU C's row under R with the median of COLUMN's node (or none) into
 * ROW, as group_row, from MEMOS when a view made again before had it. */
static int
memo_row (const struct board *b, size_t c, const struct resolved *r,
          struct segment *const *column, struct scratch *s, struct row_memos *memos,
          struct board_row *row)
{
  for (size_t i = 0; i < memos->n; i++)
    {
      const struct row_memo *m = &memos->m[i];
      if (m->c != c || !same_filter (&m->r, r))
        continue;
      if (!m->found)
        return 0;
      *row = m->row;
      row->node = column ? node_median (b, c, r, column[c], s) : NAN;
      return 1;
    }
  int found = group_row (b, c, r, column, s, row);
  if (memos->n < ROW_MEMOS)
    memos->m[memos->n++] = (struct row_memo) { c, *r, found, *row };
  return found;
}

/* Like make_view, for a snapshot derived from another whose view of F
 * and NODE had the NPREV rows PREV: the rows of the CPUs AFFECTED
 * (AFFECTED[c]) are computed (or taken from MEMOS), the others copied.
 * S is scratch for the largest group. */
static void
update_view (struct board *b, const struct board_filter *f, const char *node,
             const struct board_row *prev, size_t nprev, const uint8_t *affected,
             struct scratch *s, struct row_memos *memos)
{
  struct resolved r;
  struct segment *const *column = NULL;

  if (node)
    column = find_column (b, node);
  if (resolve (b, f, &r) < 0 || (node && !column))
    return;
  size_t ncpu = b->tab[BF_CPU].n, n = 0, j = 0;
  struct board_row *rows = gb_xcalloc (ncpu + 1, sizeof *rows);
  for (size_t c = 0; c < ncpu; c++)
    {
      int64_t at = -1;          /* the CPU of the next previous row */
      while (j < nprev && (at = lookup (&b->tab[BF_CPU], prev[j].cpu)) < (int64_t) c)
        j++;
      if (affected[c])
        n += (size_t) memo_row (b, c, &r, column, s, memos, &rows[n]);
      else if (j < nprev && at == (int64_t) c)
        {
          rows[n] = prev[j];
          name_row (b, c, &rows[n++]);
        }
    }
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
          struct segment **v = load_board_column (b, st, node, abandon);
          if (v)
            {
              b->cols[b->ncols].node = gb_xstrdup (node);
              b->cols[b->ncols++].seg = v;
            }
        }
    }
  make_view (b, &none, NULL);
  struct scratch s;
  struct row_memos *memos = gb_xmalloc (sizeof *memos);
  double *all = affected ? scratch_new (b, &s) : NULL;
  memos->n = 0;
  for (size_t i = 0; i < nspecs; i++)
    {
      if (abandoned (abandon))
        ;
      else if (affected)
        update_view (b, &specs[i].filter, specs[i].node, specs[i].rows, specs[i].nrows,
                     affected, &s, memos);
      else
        make_view (b, &specs[i].filter, specs[i].node);
      for (int k = 0; k < BF_COUNT; k++)
        free (specs[i].value[k]);
      free (specs[i].node);
      free (specs[i].rows);
    }
  free (all);
  free (memos);
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

  gb_thread_lower_priority (BUILDER_NICE);
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
      int old_current = old && k->applied == k->full_from;
      pthread_mutex_unlock (&k->lock);

      struct board *fresh = build (k->srv->store, &k->abandon);
      if (fresh)
        {
          carry (fresh, k->srv->store, old, NULL, &k->abandon);
          if (old_current)
            carry_memos (fresh, old);
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
