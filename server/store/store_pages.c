/* store_pages.c: what the leaderboard (server/board/board.h) and the
 * pages read: the listed results as the leaderboard keeps them, the rows
 * and scores of results that changed, a node's column of scores, and a
 * key's newest results.
 */
#include "server/store/store_internal.h"

#include "model/registry.h"

struct board_adapter
{
  store_board_fn fn;
  void *ctx;
  store_value_fn value_fn;      /* for store_board_changes */
  int64_t seq;                  /* the last row's */
};

static int
adapt_board (void *ctx, const struct db_value *c, int ncols)
{
  struct board_adapter *a = ctx;
  if (ncols < 17)
    return 1;
  struct store_board_row row = {
    c_int (&c[0]), c_text_or_empty (&c[1]), c_text_or_empty (&c[2]), c_text_or_empty (&c[3]),
    c_text_or_empty (&c[4]), c_text_or_empty (&c[5]), c_text_or_empty (&c[6]),
    c_text_or_empty (&c[7]), (int) c_int (&c[8]), (int) c_int (&c[9]), c_real (&c[10]),
    (int) c_int (&c[11]), c_text_or_empty (&c[12]), c_text_or_empty (&c[13]),
    (int) c_int (&c[14]), c_text (&c[15]), c_int (&c[16]) != 0,
  };
  a->seq = row.seq;
  return a->fn (a->ctx, &row);
}

#define BOARD_COLUMNS "seq, cpu, cpu_name, arch, vendor, os, gmp, compiler, " \
  "CASE WHEN publisher IS NULL THEN 0 ELSE 1 END, flagged, mhz, cores, mode, build, listed, " \
  "source, virtual_machine"

enum store_status
store_board_rows (struct store *st, store_board_fn fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct board_adapter a = { fn, ctx, NULL, -1 };
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT " BOARD_COLUMNS " FROM results WHERE listed = 1 ORDER BY seq",
                      NULL, 0, adapt_board, &a) < 0)
    rc = store_failed (st, c, "board");
  store_release (st, c);
  return rc;
}

static int
adapt_value (void *ctx, const struct db_value *cols, int ncols)
{
  struct board_adapter *a = ctx;
  if (ncols < 2)
    return 1;
  return a->value_fn (a->ctx, a->seq, c_text_or_empty (&cols[0]), c_real (&cols[1]));
}

enum store_status
store_board_changes (struct store *st, const char *const *ids, size_t n, store_board_fn fn,
                     store_value_fn value_fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct board_adapter a = { fn, ctx, value_fn, -1 };
  enum store_status rc = STORE_OK;

  for (size_t i = 0; i < n && rc == STORE_OK; i++)
    {
      struct db_value p = p_text (ids[i]);
      a.seq = -1;
      if (st->drv->query (c, "SELECT " BOARD_COLUMNS " FROM results WHERE id = $1", &p, 1,
                          adapt_board, &a) < 0)
        rc = store_failed (st, c, "board changes");
      else if (a.seq >= 0)
        {
          struct db_value q = p_int (a.seq);
          if (st->drv->query (c, "SELECT n.name, s.score FROM ranks s CROSS JOIN names n "
                              "WHERE s.seq = $1 AND n.id = s.node UNION ALL "
                              "SELECT node, score FROM scores WHERE seq = $1", &q, 1,
                              adapt_value, &a) < 0
              || st->drv->query (c, "SELECT n.name, t.score FROM tests t CROSS JOIN names n "
                                 "WHERE t.seq = $1 AND n.id = t.node UNION ALL "
                                 "SELECT node, score FROM test_scores WHERE seq = $1", &q, 1,
                                 adapt_value, &a) < 0)
            rc = store_failed (st, c, "board changes");
        }
    }
  store_release (st, c);
  return rc;
}

struct column_adapter
{
  store_seq_score_fn fn;
  void *ctx;
};

static int
adapt_column (void *ctx, const struct db_value *cols, int ncols)
{
  struct column_adapter *a = ctx;
  if (ncols < 2)
    return 1;
  return a->fn (a->ctx, c_int (&cols[0]), c_real (&cols[1]));
}

enum store_status
store_node_column (struct store *st, const char *node, store_seq_score_fn fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct column_adapter a = { fn, ctx };
  struct db_value p = p_text (node);
  enum store_status rc = STORE_OK;

  /* A node's column is one range of a covering index of ranks, a test's
   * one range of tests, unlisted results too (and of the tables before
   * them until migrations 13 and 14 are done). */
  if (st->drv->query (c, registry_find (node)
                      ? "SELECT t.seq, t.score FROM tests t "
                      "WHERE t.node = (SELECT id FROM names WHERE name = $1) "
                      "UNION ALL SELECT o.seq, o.score FROM test_scores o WHERE o.node = $1"
                      : "SELECT s.seq, s.score FROM ranks s "
                      "WHERE s.node = (SELECT id FROM names WHERE name = $1) AND s.listed = 1 "
                      "UNION ALL SELECT o.seq, o.score FROM scores o WHERE o.node = $1 "
                      "AND o.listed = 1", &p, 1, adapt_column, &a) < 0)
    rc = store_failed (st, c, "node column");
  store_release (st, c);
  return rc;
}

enum store_status
store_by_key (struct store *st, const char *fingerprint, int limit, store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_value p[] = { p_text (fingerprint), p_int (limit) };
  return store_read_rows (st, "SELECT " ROW_COLUMNS " FROM results r WHERE r.fingerprint = $1 "
                          "AND r.listed = 1 ORDER BY r.seq DESC LIMIT $2", p, 2, &a);
}
