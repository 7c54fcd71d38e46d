/* store_list.c: the listings of results (store_list, sorted by a node
 * or newest first; store_page; store_rows) and the aggregates of the
 * listed ones (store_node_scores, store_kinds, store_cpu_info).  Their
 * SQL is composed from fixed fragments: the filters, the cursor, the
 * order and limit.  A sorted listing chooses its plan by how many
 * results its filters match (see WALK_COST).
 */
#include "server/store/store_internal.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common/util.h"
#include "model/cpu_brand.h"
#include "model/registry.h"

/* How many listed results a filter term matches, as the choice of a
 * listing plan needs it (store_list): counted at most every COUNT_TTL
 * seconds per term, since counting costs more than the listing itself and
 * the counts change slowly.  A direct-mapped cache of COUNT_SLOTS terms
 * (store_internal.h). */
#define COUNT_TTL 60.0

/* Where a listing's filters apply: to the result's row, to the score
 * rows stored before migration 14 (names as text), or to those of ranks
 * (names as their numbers). */
enum filter_on
{
  ON_RESULT, ON_SCORES, ON_RANKS
};

/* Appends " AND COLUMN = $N" for a filter that is set; with BY_NUMBER,
 * COLUMN holds the number of the name $N. */
static void
add_filter_as (char *sql, size_t size, const char *column, const char *value, int by_number,
               struct db_value *p, int *np)
{
  if (!value)
    return;
  p[*np] = p_text (value);
  (*np)++;
  size_t len = strlen (sql);
  if (by_number)
    snprintf (sql + len, size - len, " AND %s = (SELECT id FROM names WHERE name = $%d)",
              column, *np);
  else
    snprintf (sql + len, size - len, " AND %s = $%d", column, *np);
}

static void
add_filter (char *sql, size_t size, const char *column, const char *value,
            struct db_value *p, int *np)
{
  add_filter_as (sql, size, column, value, 0, p, np);
}

static void
append (char *sql, size_t size, const char *text)
{
  size_t len = strlen (sql);
  snprintf (sql + len, size - len, "%s", text);
}

/* Every filter of F, on the results row r, or (ON_SCORE) where the score
 * row s has the column, on s. */
static void
add_filters_on (char *sql, size_t size, const struct store_filter *f, struct db_value *p,
                int *np, enum filter_on on)
{
  int on_score = on != ON_RESULT, by_number = on == ON_RANKS;
  add_filter_as (sql, size, on_score ? "s.arch" : "r.arch", f->arch, by_number, p, np);
  add_filter_as (sql, size, on_score ? "s.cpu" : "r.cpu", f->cpu, by_number, p, np);
  add_filter (sql, size, "r.vendor", f->vendor, p, np);
  add_filter_as (sql, size, on_score ? "s.os" : "r.os", f->os, by_number, p, np);
  add_filter_as (sql, size, on_score ? "s.gmp" : "r.gmp", f->gmp, by_number, p, np);
  add_filter_as (sql, size, on_score ? "s.compiler" : "r.compiler", f->compiler, by_number, p,
                 np);
  add_filter (sql, size, "r.mode", f->mode, p, np);
  add_filter (sql, size, "r.build", f->build, p, np);
  if (f->verified_only)         /* publisher names are never empty */
    append (sql, size, " AND r.publisher >= ''");
  if (f->machine != MACHINE_ANY)
    append (sql, size, f->machine == MACHINE_VIRTUAL ? " AND r.virtual_machine = 1"
            : " AND r.virtual_machine = 0");
  if (f->unflagged_only)
    append (sql, size, on_score ? " AND s.flagged = 0" : " AND r.flagged = 0");
}

static void
add_filters (char *sql, size_t size, const struct store_filter *f, struct db_value *p, int *np)
{
  add_filters_on (sql, size, f, p, np, ON_RESULT);
}

/* Continues after the cursor: by (score, seq) of the score row s when
 * sorted, by r.seq when newest first. */
static void
add_cursor (char *sql, size_t size, const struct store_filter *f, struct db_value *p, int *np)
{
  char text[128];
  if (!f->has_cursor)
    return;
  if (f->sort_node)
    {
      p[(*np)++] = p_real (f->cursor_score);
      p[(*np)++] = p_int (f->cursor_seq);
      snprintf (text, sizeof text, " AND (s.score < $%d OR (s.score = $%d AND s.seq < $%d))",
                *np - 1, *np - 1, *np);
    }
  else
    {
      p[(*np)++] = p_int (f->cursor_seq);
      snprintf (text, sizeof text, " AND r.seq < $%d", *np);
    }
  append (sql, size, text);
}

static void
add_limit (char *sql, size_t size, const char *order, const struct store_filter *f,
           struct db_value *p, int *np)
{
  char text[96];
  p[(*np)++] = p_int (f->limit);
  snprintf (text, sizeof text, " ORDER BY %s LIMIT $%d", order, *np);
  append (sql, size, text);
}

/* Sorted listings have three plans, each written with CROSS JOIN, which
 * makes SQLite keep the tables in the order written (PostgreSQL plans as
 * it likes).  With a CPU filter, the scores index by node and CPU gives
 * that CPU's results best first.  Otherwise a listing either walks the
 * node's score index best first until LIMIT rows pass the filters (about
 * N * LIMIT / K entries for K matches of N results) or starts from a
 * filter's index, picks the best LIMIT of the K matches' scores and only
 * then reads their rows (K lookups).  A lookup costs as much as some 13
 * entries of the walk at 10,000 whole runs and 30-50 at 100,000 (the
 * walk reads the score index in order, a lookup goes to the rows); when
 * a filter needs the result's row (vendor, mode, build, machine, verified), each
 * entry walked costs a lookup too.  So the walk is chosen above K = sqrt
 * (N * LIMIT / 16), or sqrt (N * LIMIT) (docs/server.md, "Whole runs at
 * scale").  A fixed K fits one size only: 4,000 made filters matching
 * 3,000 of 10,000 results read all 3,000 (48 ms p99, the walk 6); a
 * fixed plan (always walk) would read every row for a filter that
 * matches almost nothing.  A test's rows are kept in upload order only,
 * so a filter's index is used when it matches at most a sixteenth of
 * them (and no more than selective counts to). */
#define WALK_COST 16            /* entries of the score index a lookup costs */

/* The filters with an index of their own: COLUMN = VALUE, or for the
 * verified filter (VALUE NULL) any publisher name, which is never empty. */
struct term
{
  const char *column, *value;
};

static size_t
indexed_terms (const struct store_filter *f, struct term *t)
{
  const struct term all[] = {
    { "cpu", f->cpu }, { "arch", f->arch }, { "os", f->os }, { "gmp", f->gmp },
    { "compiler", f->compiler },
  };
  size_t n = 0;
  for (size_t i = 0; i < GB_ARRAY_SIZE (all); i++)
    if (all[i].value)
      t[n++] = all[i];
  if (f->verified_only)
    t[n++] = (struct term) { "publisher", NULL };
  return n;
}

/* How many listed results match T, counting no further than CAP+1
 * (through T's index: "+listed" keeps the planner off the listed index);
 * -1 on error. */
static int64_t
count_matches (struct store *st, struct db_conn *c, const struct term *t, int64_t cap)
{
  char sql[256];
  struct db_value p = p_text (t->value);
  int64_t n = 0;

  if (t->value)
    snprintf (sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM results WHERE %s = $1 "
              "AND +listed = 1 LIMIT %" PRId64 ") t", t->column, cap + 1);
  else
    snprintf (sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM results WHERE %s >= '' "
              "AND +listed = 1 LIMIT %" PRId64 ") t", t->column, cap + 1);
  if (st->drv->query (c, sql, &p, t->value ? 1 : 0, store_first_int, &n) < 0)
    return -1;
  return n;
}

/* T as a cache key in KEY (the column, a NUL, the value); 0 when it does
 * not fit. */
static size_t
count_key (const struct term *t, char key[192])
{
  size_t col = strlen (t->column) + 1, val = t->value ? strlen (t->value) + 1 : 0;
  if (col + val > 192)
    return 0;
  memset (key, 0, 192);
  memcpy (key, t->column, col);
  if (t->value)
    memcpy (key + col, t->value, val);
  return col + val;
}

static struct count_entry *
count_slot (struct store *st, const char key[192], size_t len)
{
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) key[i]) * 1099511628211ull;
  return &st->counts[h % COUNT_SLOTS];
}

/* count_matches through the cache: a count made with a lower cap is used
 * only when it is exact (below that cap). */
static int64_t
cached_matches (struct store *st, struct db_conn *c, const struct term *t, int64_t cap)
{
  char key[192];
  size_t len = count_key (t, key);
  double now = gb_wall_seconds ();
  int64_t n = -1;

  if (!len)
    return count_matches (st, c, t, cap);
  struct count_entry *e = count_slot (st, key, len);
  pthread_mutex_lock (&st->count_lock);
  if (memcmp (e->key, key, sizeof key) == 0 && now - e->when < COUNT_TTL
      && (e->n <= e->cap || e->cap >= cap))
    n = e->n;
  pthread_mutex_unlock (&st->count_lock);
  if (n >= 0)
    return n;
  n = count_matches (st, c, t, cap);
  if (n >= 0)
    {
      pthread_mutex_lock (&st->count_lock);
      memcpy (e->key, key, sizeof key);
      e->n = n;
      e->cap = cap;
      e->when = now;
      pthread_mutex_unlock (&st->count_lock);
    }
  return n;
}

/* Whether a filter of F needs the result's row (not a column of the
 * score index). */
static int
filters_need_row (const struct store_filter *f)
{
  return f->vendor || f->mode || f->build || f->machine != MACHINE_ANY || f->verified_only;
}

/* Whether a listing of F over RESULTS results, sorted by a node (TEST
 * 0) or a test, starts from the filter of K[I] matches (see WALK_COST),
 * the other indexed filters' counts in K (N of them; above CAP: unknown,
 * taken as matching all).  The walk passes about one entry in RESULTS /
 * M, M the matches of all filters, estimated as if independent. */
static int
start_from (int64_t results, const struct store_filter *f, int test, const int64_t *k,
            size_t n, size_t i, int64_t cap)
{
  if (k[i] > cap)
    return 0;
  if (test)
    return k[i] <= results / WALK_COST;
  double others = 1;
  for (size_t j = 0; j < n; j++)
    if (j != i && k[j] <= cap)
      others *= (double) k[j] / (double) results;
  double entries = (double) results * f->limit / (filters_need_row (f) ? 1 : WALK_COST);
  return others == 0 || (double) k[i] * k[i] * others <= entries;
}

/* Whether some indexed filter of F (sorted by a node, or a TEST) matches
 * few enough results to start from; -1 on a database error.  Counts go
 * up to 4 * sqrt (N * LIMIT): enough to see a filter that is selective
 * with the others. */
static int
selective (struct store *st, struct db_conn *c, const struct store_filter *f, int test)
{
  struct term terms[6];
  int64_t k[6], results = 0;
  size_t n = indexed_terms (f, terms);

  if (n == 0)
    return 0;
  if (st->drv->query (c, "SELECT coalesce(max(seq), 0) FROM results", NULL, 0, store_first_int,
                      &results) < 0)
    return -1;
  int64_t cap = 4 * (int64_t) sqrt ((double) results * (f->limit > 0 ? f->limit : 1));
  for (size_t i = 0; i < n; i++)
    if ((k[i] = cached_matches (st, c, &terms[i], cap)) < 0)
      return -1;
  for (size_t i = 0; i < n; i++)
    if (start_from (results, f, test, k, n, i, cap))
      return 1;
  return 0;
}

/* Newest first: the filters' indexes hold the results in seq order. */
static void
newest_sql (char *sql, size_t size, const struct store_filter *f, struct db_value *p, int *np)
{
  snprintf (sql, size, "SELECT " ROW_COLUMNS ", 0 FROM results r WHERE r.listed = 1");
  add_filters (sql, size, f, p, np);
  add_cursor (sql, size, f, p, np);
  add_limit (sql, size, "r.seq DESC", f, p, np);
}

/* Node $N as the rows of ranks hold it (its number), or as those of
 * scores do (its name). */
static void
node_is (char *out, size_t size, int in_ranks, int n)
{
  if (in_ranks)
    snprintf (out, size, "(SELECT id FROM names WHERE name = $%d)", n);
  else
    snprintf (out, size, "$%d", n);
}

/* The order and limit of a listing sorted by a node, in the columns of
 * its two arms (ROW_COLUMNS, then the score row's score and seq: the
 * order of the ranked indexes, so that each arm is read in it without a
 * sort, which r.seq would need). */
static void
add_ranked_limit (char *sql, size_t size, const struct store_filter *f, struct db_value *p,
                  int *np)
{
  char order[32];
  snprintf (order, sizeof order, "%d DESC, %d DESC", ROW_NCOLS + 1, ROW_NCOLS + 2);
  add_limit (sql, size, order, f, p, np);
}

/* Opens an arm of a sorted listing: the rows of ranks (IN_RANKS) first,
 * then those stored before migration 14 (scores, until the backfill
 * moves them).  With PER_ARM, each arm is a subquery with its own order
 * and limit (ranked_arm_close), so that each is read along its own
 * index up to the limit, for engines that would otherwise sort every
 * score of the node (merges_ordered_arms, store_driver.h). */
static void
ranked_arm_open (char *sql, size_t size, int per_arm, int in_ranks)
{
  if (per_arm)
    append (sql, size, in_ranks ? "SELECT * FROM (" : " UNION ALL SELECT * FROM (");
  else if (!in_ranks)
    append (sql, size, " UNION ALL ");
}

static void
ranked_arm_close (char *sql, size_t size, int per_arm, int in_ranks,
                  const struct store_filter *f, struct db_value *p, int *np)
{
  if (!per_arm)
    return;
  add_limit (sql, size, "s.score DESC, s.seq DESC", f, p, np);
  append (sql, size, in_ranks ? ") a" : ") b");
}

/* Sorted, one CPU: walk that CPU's scores of the node best first, two
 * arms with the same parameters, merged. */
static void
cpu_ranked_sql (char *sql, size_t size, int per_arm, const struct store_filter *f,
                struct db_value *p, int *np)
{
  int first = *np;
  sql[0] = '\0';
  for (int in_ranks = 1; in_ranks >= 0; in_ranks--)
    {
      char text[512], node[64], cpu[64];
      *np = first;
      p[(*np)++] = p_text (f->sort_node);
      p[(*np)++] = p_text (f->cpu);
      node_is (node, sizeof node, in_ranks, *np - 1);
      node_is (cpu, sizeof cpu, in_ranks, *np);
      ranked_arm_open (sql, size, per_arm, in_ranks);
      snprintf (text, sizeof text, "SELECT " ROW_COLUMNS ", s.score, s.seq FROM %s s "
                "CROSS JOIN results r WHERE r.seq = s.seq AND s.node = %s AND s.cpu = %s "
                "AND r.listed = 1", in_ranks ? "ranks" : "scores", node, cpu);
      append (sql, size, text);
      add_filters (sql, size, f, p, np);
      add_cursor (sql, size, f, p, np);
      ranked_arm_close (sql, size, per_arm, in_ranks, f, p, np);
    }
  add_ranked_limit (sql, size, f, p, np);
}

/* Sorted, common filters: walk the node's scores best first, along the
 * index that holds the filters, so that only the rows shown are read; in
 * two arms as cpu_ranked_sql.  With PER_ARM and every filter a column of
 * the score rows, the arms pick the page's seqs by themselves and only
 * those are joined to their results: PostgreSQL, given the join inside,
 * hashed every result of the table (a scan growing with N). */
static void
ranked_sql (char *sql, size_t size, int per_arm, const struct store_filter *f,
            struct db_value *p, int *np)
{
  int first = *np, seqs_first = per_arm && !filters_need_row (f);
  sql[0] = '\0';
  if (seqs_first)
    append (sql, size, "SELECT " ROW_COLUMNS ", top.score, top.seq FROM (");
  for (int in_ranks = 1; in_ranks >= 0; in_ranks--)
    {
      char text[512], node[64];
      *np = first;
      p[(*np)++] = p_text (f->sort_node);
      node_is (node, sizeof node, in_ranks, *np);
      ranked_arm_open (sql, size, per_arm, in_ranks);
      if (seqs_first)
        snprintf (text, sizeof text, "SELECT s.seq, s.score FROM %s s WHERE s.node = %s "
                  "AND s.listed = 1", in_ranks ? "ranks" : "scores", node);
      else
        snprintf (text, sizeof text, "SELECT " ROW_COLUMNS ", s.score, s.seq FROM %s s "
                  "CROSS JOIN results r WHERE r.seq = s.seq AND s.node = %s AND s.listed = 1",
                  in_ranks ? "ranks" : "scores", node);
      append (sql, size, text);
      add_filters_on (sql, size, f, p, np, in_ranks ? ON_RANKS : ON_SCORES);
      add_cursor (sql, size, f, p, np);
      ranked_arm_close (sql, size, per_arm, in_ranks, f, p, np);
    }
  if (!seqs_first)
    {
      add_ranked_limit (sql, size, f, p, np);
      return;
    }
  add_limit (sql, size, "2 DESC, 1 DESC", f, p, np);
  append (sql, size, ") top CROSS JOIN results r WHERE r.seq = top.seq "
          "ORDER BY top.score DESC, top.seq DESC");
}

/* The seq and score of node $PARAM's rows (a TEST's, or a score node's
 * ranked rows), as a subquery S: those of the table of migration 13 or
 * 14 (tests, ranks: names as numbers) and those stored before (in
 * test_scores, scores, until the backfill moves them; each row is in one
 * of the two).  With MATCHES (a table of seq), only those results' rows. */
static void
node_rows (char *out, size_t size, int test, const char *matches, int param)
{
  const char *table = test ? "tests" : "ranks", *old = test ? "test_scores" : "scores";
  if (matches)
    snprintf (out, size, "(SELECT t.seq, t.score FROM %s CROSS JOIN %s t "
              "WHERE t.node = (SELECT id FROM names WHERE name = $%d) AND t.seq = %s.seq "
              "UNION ALL SELECT o.seq, o.score FROM %s CROSS JOIN %s o "
              "WHERE o.node = $%d AND o.seq = %s.seq) s", matches, table, param, matches,
              matches, old, param, matches);
  else
    snprintf (out, size, "(SELECT t.seq, t.score FROM %s t "
              "WHERE t.node = (SELECT id FROM names WHERE name = $%d) "
              "UNION ALL SELECT o.seq, o.score FROM %s o WHERE o.node = $%d) s",
              table, param, old, param);
}

/* Sorted by a test, common filters: that test's ops/s are kept in upload
 * order only (tests), so every one of them is read and sorted. */
static void
test_ranked_sql (char *sql, size_t size, const struct store_filter *f, struct db_value *p,
                 int *np)
{
  char rows[512];

  p[(*np)++] = p_text (f->sort_node);
  node_rows (rows, sizeof rows, 1, NULL, *np);
  snprintf (sql, size, "SELECT " ROW_COLUMNS ", s.score FROM %s "
            "CROSS JOIN results r WHERE r.seq = s.seq AND r.listed = 1", rows);
  add_filters (sql, size, f, p, np);
  add_cursor (sql, size, f, p, np);
  add_limit (sql, size, "s.score DESC, s.seq DESC", f, p, np);
}

/* Sorted, a selective filter: the matches (through a filter's index, not
 * the listed one), the best LIMIT of their scores (a TEST's rows, or the
 * ranked rows of scores), then those rows. */
static void
selective_sql (char *sql, size_t size, const struct store_filter *f, int test,
               struct db_value *p, int *np)
{
  char text[640], rows[512];

  snprintf (sql, size, "WITH m AS MATERIALIZED (SELECT r.seq FROM results r WHERE +r.listed = 1");
  add_filters (sql, size, f, p, np);
  p[(*np)++] = p_text (f->sort_node);
  node_rows (rows, sizeof rows, test, "m", *np);
  snprintf (text, sizeof text, "), top AS MATERIALIZED (SELECT s.seq, s.score FROM %s "
            "WHERE TRUE", rows);
  append (sql, size, text);
  add_cursor (sql, size, f, p, np);
  add_limit (sql, size, "s.score DESC, s.seq DESC", f, p, np);
  append (sql, size, ") SELECT " ROW_COLUMNS ", top.score FROM top "
          "CROSS JOIN results r WHERE r.seq = top.seq ORDER BY top.score DESC, top.seq DESC");
}

enum store_status
store_list (struct store *st, const struct store_filter *f, store_list_fn fn, void *ctx)
{
  char sql[2048];
  struct db_value p[16];
  int np = 0, plan = 0;
  struct row_adapter a = { st, NULL, fn, ctx, 0, 0 };
  struct db_conn *c = store_acquire (st);
  enum store_status rc = STORE_OK;

  int test = f->sort_node && registry_find (f->sort_node);
  if (f->sort_node && (test || !f->cpu))
    plan = selective (st, c, f, test);
  if (plan >= 0)
    {
      if (!f->sort_node)
        newest_sql (sql, sizeof sql, f, p, &np);
      else if (test)
        {
          if (plan)
            selective_sql (sql, sizeof sql, f, 1, p, &np);
          else
            test_ranked_sql (sql, sizeof sql, f, p, &np);
        }
      else if (f->cpu)
        cpu_ranked_sql (sql, sizeof sql, !st->drv->merges_ordered_arms, f, p, &np);
      else if (plan)
        selective_sql (sql, sizeof sql, f, 0, p, &np);
      else
        ranked_sql (sql, sizeof sql, !st->drv->merges_ordered_arms, f, p, &np);
      if (st->drv->query (c, sql, p, np, store_adapt_row, &a) < 0)
        plan = -1;
    }
  if (plan < 0)
    rc = store_failed (st, c, "list");
  store_release (st, c);
  return rc;
}

enum store_status
store_page (struct store *st, int dump, const struct store_filter *f, int64_t after, int limit,
            store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_value p[16] = { p_int (after) };
  int np = 1;
  char sql[2048], order[48];

  if (dump)
    return store_dump_page (st, after, limit, fn, ctx);
  snprintf (sql, sizeof sql, "SELECT " ROW_COLUMNS " FROM results r WHERE r.seq > $1 "
            "AND r.listed = 1");
  add_filters (sql, sizeof sql, f, p, &np);
  p[np++] = p_int (limit);
  snprintf (order, sizeof order, " ORDER BY r.seq LIMIT $%d", np);
  append (sql, sizeof sql, order);
  return store_read_rows (st, sql, p, np, &a);
}

/* Results store_rows asks for in one query: with the 8 filters, within
 * the 32 parameters a query of the PostgreSQL driver takes. */
#define ROWS_AT_ONCE 20

enum store_status
store_rows (struct store *st, const struct store_filter *f, const int64_t *seqs, size_t n,
            store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  enum store_status rc = STORE_OK;

  for (size_t from = 0; from < n && rc == STORE_OK; from += ROWS_AT_ONCE)
    {
      struct db_value p[ROWS_AT_ONCE + 16];
      char sql[2560];
      int np = 0;
      snprintf (sql, sizeof sql, "SELECT " ROW_COLUMNS " FROM results r WHERE r.listed = 1");
      add_filters (sql, sizeof sql, f, p, &np);
      append (sql, sizeof sql, " AND r.seq IN (");
      for (size_t i = from; i < n && i < from + ROWS_AT_ONCE; i++)
        {
          char one[24];
          p[np++] = p_int (seqs[i]);
          snprintf (one, sizeof one, "%s$%d", i > from ? ", " : "", np);
          append (sql, sizeof sql, one);
        }
      append (sql, sizeof sql, ")");
      rc = store_read_rows (st, sql, p, np, &a);
    }
  return rc;
}

struct score_adapter
{
  store_score_fn fn;
  void *ctx;
};

static int
adapt_score (void *ctx, const struct db_value *cols, int ncols)
{
  struct score_adapter *a = ctx;
  if (ncols < 3)
    return 1;
  return a->fn (a->ctx, c_text (&cols[0]), c_int (&cols[1]), c_real (&cols[2]));
}

enum store_status
store_node_scores (struct store *st, const char *node, int include_flagged,
                   store_score_fn fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct score_adapter a = { fn, ctx };
  enum store_status rc = STORE_OK;
  struct db_value p[] = { p_text (node), p_int (include_flagged) };

  /* The CPUs in the order of their names (names' index), each one's rows
   * from ranks_cpu_rank alone; merged with the rows still in scores
   * (migration 14), read from scores_cpu_rank alone. */
  if (st->drv->query (c, "SELECT n.name, s.seq, s.score FROM names n CROSS JOIN ranks s "
                      "WHERE s.node = (SELECT id FROM names WHERE name = $1) AND s.cpu = n.id "
                      "AND s.listed = 1 AND (s.flagged = 0 OR $2 = 1) UNION ALL "
                      "SELECT s.cpu, s.seq, s.score FROM scores s WHERE s.node = $1 "
                      "AND s.listed = 1 AND (s.flagged = 0 OR $2 = 1) "
                      "ORDER BY 1, 3 DESC, 2 DESC", p, 2, adapt_score, &a) < 0)
    rc = store_failed (st, c, "aggregate");
  store_release (st, c);
  return rc;
}

struct kind_adapter
{
  store_kind_fn fn;
  void *ctx;
};

static int
adapt_kind (void *ctx, const struct db_value *cols, int ncols)
{
  struct kind_adapter *a = ctx;
  if (ncols < 4)
    return 1;
  return a->fn (a->ctx, c_int (&cols[0]), c_text (&cols[1]), c_text (&cols[2]),
                c_text (&cols[3]));
}

enum store_status
store_kinds (struct store *st, store_kind_fn fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct kind_adapter a = { fn, ctx };
  enum store_status rc = STORE_OK;

  /* Answered from the results_row_source index alone on SQLite. */
  if (st->drv->query (c, "SELECT seq, mode, build, source FROM results WHERE listed = 1", NULL,
                      0, adapt_kind, &a) < 0)
    rc = store_failed (st, c, "kinds");
  store_release (st, c);
  return rc;
}

struct row3_adapter
{
  store_row_fn3 fn;
  void *ctx;
};

static int
adapt_row3 (void *ctx, const struct db_value *cols, int ncols)
{
  struct row3_adapter *a = ctx;
  if (ncols < 3)
    return 1;
  return a->fn (a->ctx, c_text_or_empty (&cols[0]), c_text_or_empty (&cols[1]),
                c_text_or_empty (&cols[2]));
}

enum store_status
store_verified_rows (struct store *st, store_row_fn3 fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct row3_adapter a = { fn, ctx };
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT DISTINCT cpu, mode, build FROM row_sources WHERE verified = 1",
                      NULL, 0, adapt_row3, &a) < 0)
    rc = store_failed (st, c, "verified rows");
  store_release (st, c);
  return rc;
}

struct cpu_info
{
  const char *cpu;
  char **name, **arch;
};

/* A brand of the CPU with its architecture and vendor, best first: the
 * first fitting brand names it (model/cpu_brand.h), the first row gives
 * its architecture. */
static int
take_cpu_info (void *ctx, const struct db_value *cols, int ncols)
{
  struct cpu_info *i = ctx;
  if (ncols < 4)
    return 1;
  if (!*i->arch)
    *i->arch = gb_xstrdup (c_text (&cols[1]) ? c_text (&cols[1]) : "");
  if (c_int (&cols[3]) == 0)
    return 1;                   /* this brand and the ones after it: flagged results only */
  if (!cpu_brand_fits (i->cpu, c_text (&cols[2]), c_text (&cols[0])))
    return 0;
  *i->name = gb_xstrdup (c_text (&cols[0]));
  return 1;
}

enum store_status
store_cpu_info (struct store *st, const char *cpu, char **name, char **arch)
{
  struct db_conn *c = store_acquire (st);
  struct cpu_info i = { cpu, name, arch };
  struct db_value p = p_text (cpu);
  enum store_status rc = STORE_OK;

  *name = *arch = NULL;
  /* The leaderboard's rule (server/board/board_build.c, name_group): verified
   * publishers' unflagged results first, then the sources of unflagged
   * ones, the oldest breaking ties; a brand that does not fit, or that
   * only flagged results give, never names the CPU. */
  if (st->drv->query (c, "SELECT cpu_name, MIN(arch), MIN(vendor), SUM(1 - flagged) FROM "
                      "results WHERE cpu = $1 AND listed = 1 AND cpu_name <> '' GROUP BY "
                      "cpu_name ORDER BY SUM(CASE WHEN publisher IS NOT NULL AND flagged = 0 "
                      "THEN 1 ELSE 0 END) DESC, COUNT(DISTINCT CASE WHEN flagged = 0 THEN "
                      "COALESCE(source, 'result ' || id) END) DESC, MIN(seq)", &p, 1,
                      take_cpu_info, &i) < 0)
    rc = store_failed (st, c, "cpu info");
  store_release (st, c);
  if (rc == STORE_OK && !*arch)
    rc = STORE_NOT_FOUND;
  else if (rc == STORE_OK && !*name)
    *name = gb_xstrdup ("");
  return rc;
}
