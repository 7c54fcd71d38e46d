/* board.h: the leaderboard's view of the listed results, in memory.
 *
 * The home page ranks CPU identities under any combination of filters
 * (architecture, vendor, OS, GMP version, compiler, verified publishers,
 * flagged results) and sorts them by any column or any node of the
 * hierarchy.  No index answers every such question with medians, so the
 * server keeps a snapshot of what the pages need from every listed result:
 * a few interned strings, two flags, the GMPbench score, score per GHz and
 * per core and the GMP/OpenSSL RSA-2048 ratio (96 bytes a result).
 * The entries are grouped by CPU and sorted by score within a group, so
 * one pass over them answers any filter; medians of the other columns
 * come from a linear-time selection.  The score of another node, once
 * asked for, is loaded as a column of its own and kept with the snapshot
 * (a few at most).  The rows of a view (a filter, and a node when sorting
 * by one) are kept with the snapshot once computed, with their order by
 * each key, so a page that was asked for before copies them.
 *
 * A snapshot is immutable (but for those columns and views, added under
 * its lock) and reference-counted; a page holds the one it started with.
 * Two threads of their own make the next ones.  The full builder reads
 * every listed result from the store: at start, when a page finds the
 * snapshot's data older than --aggregate-ttl, and when the journal lost
 * entries.  The updater brings the newest snapshot up to date with the
 * journal, the ids of the results changed (stored, retracted, flagged,
 * their key verified or banned) since: by this process (store_watch), or
 * by another (key commands, other servers on the database), which a third
 * thread, the follower, learns from the store (store_follow) within a
 * fraction of a second.  It reads only those results and makes a new
 * snapshot that shares the old one's entries of the CPUs they do not
 * touch (each CPU's entries are a block of their own) and makes the
 * touched CPUs' again.  A page waits for the update that brings every
 * change made before it arrived (so a result shows at once after its
 * 201); with a TTL of 0 it waits for a full build begun after
 * it arrived.  A new snapshot is given the views asked for while the old
 * one was current (the most asked for), with their node columns.
 *
 * Each CPU's entries also keep what pages computed from its results in
 * the store (board_cpu_memo: the CPU page's node medians and newest
 * results), so that a page asked for again reads nothing from the store
 * until one of the CPU's results changes.
 */
#ifndef GB_SERVER_BOARD_H
#define GB_SERVER_BOARD_H

#include <stddef.h>
#include <stdint.h>
#include "server/server.h"

struct board;

/* The fields pages filter by; each has its own table of distinct values.
 * Mode and build kind are never pooled (board_default_kinds); the
 * machine kind is, unless a filter asks for one. */
enum board_field
{
  BF_CPU, BF_ARCH, BF_VENDOR, BF_OS, BF_GMP, BF_COMPILER,
  BF_MODE,                      /* run.mode: full, quick, custom */
  BF_BUILD,                     /* the GMP build kind: distribution, fat, native, unknown */
  BF_MACHINE,                   /* bare-metal or virtual (model/machine_kind.h) */
  BF_COUNT
};

struct board_filter
{
  const char *value[BF_COUNT];  /* NULL or "": any */
  int verified_only, include_flagged;
};

/* What the leaderboard sorts by. */
enum board_key
{
  BK_SCORE, BK_N, BK_IQR, BK_BEST, BK_GHZ, BK_CORE, BK_RSA, BK_NAME, BK_NODE, BK_COUNT
};

/* One row of the leaderboard: a CPU identity under the filter.  A median
 * or ratio that no result provides is NAN. */
struct board_row
{
  const char *cpu, *cpu_name, *arch, *vendor;
  size_t n;                     /* matching results */
  size_t sources;               /* the sources they came from (store.h, "Sources") */
  int confirmed;                /* three sources or a verified publisher stand behind it */
  double median, q1, q3, best;  /* the GMPbench score */
  double per_ghz, per_core;     /* medians of score / GHz, score / core */
  double rsa;                   /* median GMP/OpenSSL ops/s for RSA-2048 sign */
  double ghz;                   /* median clock (the one score/GHz divides by), GHz */
  uint32_t gmp, compiler;       /* the most common GMP version and compiler name, as
                                 * indexes for board_value (UINT32_MAX: none) */
  double node;                  /* median of the sort node, for BK_NODE */
  double key;                   /* what the rows are sorted by */
};

/* One result of one CPU, for the CPU page. */
struct board_entry
{
  int64_t seq;
  const char *gmp, *compiler;   /* interned: equal strings, equal pointers */
  int verified, flagged;
  double score;                 /* NAN without a GMPbench score */
  uint64_t source;              /* tells its source's results from others' (store.h,
                                 * "Sources"): opaque, never served or printed */
};

/* Starts the threads that make SRV's snapshots (SRV->store and
 * SRV->aggregate_ttl set) and watches SRV->store's changes; the first
 * full build begins at once.  0, or -1 when a thread cannot be started. */
int board_start (struct server *srv);
/* Stops the threads (abandoning a build under way) and releases the
 * current snapshot (freed when its last reader releases it too). */
void board_stop (struct server *srv);

/* The current snapshot, retained.  NULL when there is none: *PREPARING
 * is then set when the first one is still being built (the caller waited
 * a few seconds for it), clear when building it failed. */
struct board *board_acquire (struct server *srv, int *preparing);
void board_release (struct board *b);

/* The current snapshot, retained, once it has the changes this process
 * made before the call (waiting for the update that brings them, as a
 * page does, but never for a full build, whatever --aggregate-ttl
 * says); NULL when there is no snapshot yet. */
struct board *board_acquire_recent (struct server *srv);

/* The rows for F sorted by KEY (by NODE's median for BK_NODE), best
 * first; *ROWS is malloc'ed.  -1 when loading NODE fails. */
int board_rank (struct board *b, struct store *st, const struct board_filter *f,
                enum board_key key, const char *node, struct board_row **rows, size_t *nrows);

/* A result and the score it is ranked by. */
struct board_scored
{
  int64_t seq;
  double score;
};

/* The node each entry holds the score of (the GMPbench score): ranking
 * by it needs no column. */
#define BOARD_SCORE_NODE "gmpbench"

/* The results under F that have a score of NODE, best first (the higher
 * score, then the newer result), only those after (SCORE, SEQ) in that
 * order when AFTER, at most LIMIT; *OUT is malloc'ed.  What the API's
 * listings sorted by a test or by the GMPbench score read (api_results.c),
 * where the store would read and sort every score of the test, or walk
 * the GMPbench scores of every result past the filter's few.  -1 when
 * loading NODE fails. */
int board_ranked (struct board *b, struct store *st, const struct board_filter *f,
                  const char *node, int after, double score, int64_t seq, size_t limit,
                  struct board_scored **out, size_t *nout);

/* The distinct values of FIELD, sorted, and how many listed results have
 * each; the arrays belong to the snapshot. */
size_t board_values (const struct board *b, enum board_field field, const char *const **names,
                     const size_t **counts);

/* The value of FIELD with index I (a row's gmp or compiler), or "" for
 * UINT32_MAX; it belongs to the snapshot. */
const char *board_value (const struct board *b, enum board_field field, uint32_t i);

/* Sets F's run mode and GMP build kind, when F leaves them open, to the
 * most common among the listed results (of CPU, when not NULL), so that
 * a view never pools them; the values belong to the snapshot. */
void board_default_kinds (const struct board *b, const char *cpu, struct board_filter *f);

/* The results of F's CPU under F, best first; *OUT is malloc'ed. */
size_t board_cpu_entries (const struct board *b, const struct board_filter *f,
                          struct board_entry **out);

/* How many results of F's CPU there are under F (but for its FIELD)
 * with each value of FIELD: COUNTS[i] for board_values's value i
 * (COUNTS has room for them all). */
void board_cpu_tally (const struct board *b, const struct board_filter *f,
                      enum board_field field, size_t *counts);

/* How many results there are under F (but for its FIELD and CPU) with
 * each value of FIELD, of the CPUs KEEP (CTX, identity, name shown)
 * keeps (all when KEEP is NULL): COUNTS[i] for board_values's value i
 * (COUNTS has room for them all).  What the home page's tabs count. */
typedef int (*board_keep_cpu) (void *ctx, const char *cpu, const char *name);
void board_tally (const struct board *b, const struct board_filter *f, enum board_field field,
                  board_keep_cpu keep, void *ctx, size_t *counts);

/* The (up to) K newest results of F's CPU under F, in no useful order,
 * into OUT (room for K); how many. */
size_t board_cpu_newest_entries (const struct board *b, const struct board_filter *f, size_t k,
                                 struct board_entry *out);

/* The seq of CPU's newest listed result in B, 0 when none. */
int64_t board_cpu_newest (const struct board *b, const char *cpu);

/* A value a page computes from CPU's results (node medians, say), kept
 * with B's entries of that CPU: the snapshots share them until one of
 * the CPU's results changes, and a full build takes them over when it
 * finds the CPU's results as they were.  Returns the value kept for KEY,
 * else MAKE (CTX, &BYTES)'s (NULL when MAKE fails), kept when there is
 * room: a few keys per CPU, and a budget of bytes for all (BYTES: what
 * the value holds); when not kept, *OWNED is set and the caller DROPs
 * it.  A kept value is valid while B is held, and must be read only:
 * pages share it. */
typedef void *(*board_memo_make) (void *ctx, size_t *bytes);
void *board_cpu_memo (struct board *b, const char *cpu, const char *key, board_memo_make make,
                      void *ctx, void (*drop) (void *value), int *owned);

/* The name CPU is shown by (docs/leaderboard.md: a verified publisher's
 * brand string for it, else the most common of its unflagged results,
 * never one that does not fit the identity); "" when no result names it
 * fittingly, NULL for an unknown CPU. */
const char *board_cpu_name (const struct board *b, const char *cpu);

/* Where a result with the GMPbench SCORE stands (board_standing.c), F
 * naming its CPU, architecture, run mode and GMP build kind: within its
 * CPU row (unflagged results, each source one value when the row counts
 * by source) and within its architecture (unflagged results of every
 * CPU).  A percentile is the share of the values strictly below SCORE.
 * COUNTED: the result is one of those values (listed and unflagged in
 * B); a part with no other value to compare with is left out (HAS_*
 * clear), as is everything for a NAN score. */
struct board_standing
{
  int has_cpu, has_arch;
  size_t cpu_sources, cpu_results, arch_results;
  double cpu_median, cpu_percentile, arch_percentile;
};
void board_standing (const struct board *b, const struct board_filter *f, double score,
                     int counted, struct board_standing *out);

/* Listed results in the snapshot. */
size_t board_size (const struct board *b);

/* How many views the snapshot keeps (for tests). */
size_t board_views (struct board *b);

/* What the metrics say of the snapshots, read without waiting for one. */
struct board_status
{
  int ready;                    /* there is a snapshot: the fields below are its */
  size_t results;               /* listed results in it */
  double age;                   /* seconds since its build or update began */
  double full_age;              /* seconds since the full build it descends from began */
  uint64_t pending;             /* changes journaled and not yet in it */
};
void board_status (struct server *srv, struct board_status *out);

#endif
