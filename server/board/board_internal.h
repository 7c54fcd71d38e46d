/* board_internal.h: what the files of the leaderboard snapshot share and
 * the pages need not see (they use board.h): the snapshot's parts, its
 * keeper, and the functions one file gives the others.
 *
 *   board.c          the snapshot's lifetime (references shared by its
 *                    parts), the keeper and its threads: the updater, the
 *                    full builder, the follower; board_acquire;
 *   board_journal.c  the ids of the results changed since a snapshot;
 *   board_intern.c   the string tables;
 *   board_build.c    a full build from the store, the blocks of entries,
 *                    the CPUs' names, the counts of modes and builds;
 *   board_column.c   node columns: a node's scores by entry, a segment
 *                    per CPU;
 *   board_rows.c     a filter resolved, a CPU's row under it, the CPUs'
 *                    summaries;
 *   board_view.c     the views a snapshot keeps (board_rank), and those a
 *                    new snapshot is given;
 *   board_query.c    the other questions: values, names, board_ranked, a
 *                    CPU's entries;
 *   board_memo.c     what pages computed from a CPU's results
 *                    (board_cpu_memo);
 *   board_standing.c where one result stands in its CPU row and
 *                    architecture (board_standing);
 *   board_derive.c   an update: a snapshot derived from another and the
 *                    changes since.
 */
#ifndef GB_SERVER_BOARD_INTERNAL_H
#define GB_SERVER_BOARD_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "server/board/board.h"
#include "server/store/store.h"
#include "model/test_pairing.h"

/* The home page asks for the eight category columns (docs/leaderboard.md)
 * and a view of each per filter, so a few sort nodes and filters fit. */
#define MAX_COLUMNS 12
#define MAX_VIEWS 64
#define MAX_MEMOS 32            /* values kept per CPU (board_cpu_memo) */

/* The reference count a snapshot and each part the snapshots share (a
 * CPU's block of entries, the memos kept with it, a node column's
 * segment) begin with: board_ref_retain and board_ref_release (below)
 * take any of them, and the last release frees the part by the function
 * it is given. */
struct board_ref
{
  atomic_int refs;
};

/* A field's distinct values, interned (board_intern.c). */
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

/* A listed result's entry: its values as indexes into the snapshot's
 * string tables, its flags and scores. */
struct item
{
  int64_t seq;
  uint64_t source;              /* the first 64 bits of its source's hash (store.h,
                                 * "Sources"), or ~seq for a result without one */
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
  struct board_ref ref;
  double v[];
};

/* A node's column: a segment per CPU of its snapshot. */
struct column
{
  char *node;
  struct segment **seg;
};

/* A filter resolved to indexes: -1 for any value; the fields it fixes
 * (FIELD[0..NFIELDS), to VALUE[i]) listed for board_matches. */
struct resolved
{
  int64_t f[BF_COUNT];
  int verified_only, include_flagged;
  int nfields;
  int field[BF_COUNT];
  uint32_t value[BF_COUNT];
};

/* The rows of a filter, and node column, kept (board_view.c). */
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
  int shared_source;            /* whether two come from one source */
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

struct memos
{
  struct board_ref ref;
  pthread_mutex_t lock;         /* guards N and M */
  size_t n;
  struct memo m[MAX_MEMOS];
};

/* The entries of one CPU, best first (see board_build.c). */
struct block
{
  struct board_ref ref;
  struct memos *memos;
  size_t n;
  size_t newest;                /* its newest entry (when N > 0) */
  int64_t kind[2];              /* its most common mode and build kind (choose_kinds) */
  struct item items[];
};

/* A snapshot (board.h). */
struct board
{
  struct board_ref ref;
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

/* What makes the snapshots: the server's boards (board.c). */
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

/* Per-group scratch: the values of the matching results. */
struct scratch
{
  double *score, *ghz, *core, *rsa, *node, *clock;
  size_t nscore, nghz, ncore, nrsa, nnode, nclock;
};

/* Whether ABANDON (NULL, or set when a build is abandoned) is set. */
static inline int
board_abandoned (const atomic_int *abandon)
{
  return abandon && atomic_load (abandon);
}

/* Whether IT is one of the results R selects. */
static inline int
board_matches (const struct item *it, const struct resolved *r)
{
  for (int i = 0; i < r->nfields; i++)
    if (it->f[r->field[i]] != r->value[i])
      return 0;
  return (!r->verified_only || it->verified) && (r->include_flagged || !it->flagged);
}

/* REF with one reference: the maker's of the part it begins. */
static inline void
board_ref_init (struct board_ref *ref)
{
  atomic_init (&ref->refs, 1);
}

/* PART (a snapshot or a part of one, which begins with its struct
 * board_ref; NULL: none) with one reference more; returns PART. */
static inline void *
board_ref_retain (void *part)
{
  if (part)
    atomic_fetch_add (&((struct board_ref *) part)->refs, 1);
  return part;
}

/* Lets go of a reference to PART (as board_ref_retain's; NULL: none):
 * the last one DESTROYs it. */
static inline void
board_ref_release (void *part, void (*destroy) (void *part))
{
  if (part && atomic_fetch_sub (&((struct board_ref *) part)->refs, 1) == 1)
    destroy (part);
}

/* Functions one file gives the others, by the file they are in. */

/* board.c */
struct board *board_new (void);
void board_free (void *snapshot);

/* board_journal.c: under the keeper's lock, but for board_journal_add
 * (the store's watcher). */
void board_journal_drop (struct board_keeper *k, size_t n);
void board_journal_trim (struct board_keeper *k);
void board_want_full (struct board_keeper *k);
void board_journal_add (void *ctx, const char *id);
size_t board_journal_since (const struct board_keeper *k, uint64_t from, char ***ids);
void board_ids_free (char **ids, size_t n);

/* board_intern.c */
uint32_t board_intern (struct strtab *t, const char *s);
int64_t board_lookup (const struct strtab *t, const char *s);
void board_sort_names (struct strtab *t);
void board_strtab_free (struct strtab *t);
void board_strtab_copy (struct strtab *to, const struct strtab *from);

/* board_build.c */
struct board *board_build (struct store *st, const atomic_int *abandon);
void board_fill_item (struct board *b, struct item *it, const struct store_board_row *row);
void board_finish_item (struct item *it, double gmp, double ossl, float mhz, int32_t cores);
struct block *board_block_new (size_t n);
void board_block_free (void *block);
void board_block_finish (const struct board *b, struct block *blk);
size_t board_biggest_group (const struct board *b);
void board_name_cpus (struct board *b, const uint8_t *affected);
void board_pairs_new (struct board *b, const struct board *old);
void board_pair_add (struct board *b, const struct item *it, int delta);
void board_kinds_of_pairs (struct board *b);

/* board_column.c */
void board_seq_index_items (struct seq_index *x, const struct item *items, size_t n);
void board_seq_index_free (struct seq_index *x);
double *board_load_column (const struct seq_index *x, size_t n, struct store *st,
                           const char *node, const atomic_int *abandon);
struct segment *board_segment_new (size_t n);
void board_segments_free (struct segment **seg, size_t ncpu);
struct segment **board_load_segments (const struct board *b, struct store *st, const char *node,
                                      const atomic_int *abandon);
struct segment *const *board_find_column (const struct board *b, const char *node);
struct segment *const *board_node_column (struct board *b, struct store *st, const char *node,
                                          int *owned);

/* board_rows.c */
void board_list_fields (struct resolved *r, int skip);
int board_resolve (const struct board *b, const struct board_filter *f, struct resolved *r);
double board_median (double *v, size_t n);
void board_name_row (const struct board *b, size_t c, struct board_row *row);
double *board_scratch_new (const struct board *b, struct scratch *s);
void board_summarize (struct board *b, const uint8_t *affected);
int board_whole_group (const struct board *b, size_t c, const struct resolved *r);
int board_group_row (const struct board *b, size_t c, const struct resolved *r,
                     struct segment *const *column, struct scratch *s, struct board_row *row);
int board_row_values (const struct board *b, size_t c, const struct resolved *r,
                      struct scratch *s, struct board_row *row);
size_t board_compute_rows (const struct board *b, const struct resolved *r,
                           struct segment *const *node, struct board_row **rows);

/* board_view.c */
void board_view_free (struct view *v);
void board_carry_views (struct board *b, struct store *st, struct board *old,
                        const uint8_t *affected, const atomic_int *abandon);

/* board_memo.c */
struct memos *board_memos_new (void);
void board_memos_free (void *memos);
void board_carry_memos (struct board *b, const struct board *old);

/* board_derive.c */
struct board *board_derive (struct board *old, struct store *st, const char *const *ids,
                            size_t nids, const atomic_int *abandon, uint8_t **touched);

#endif
