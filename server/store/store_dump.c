/* store_dump.c: the order of the dump (GET /api/v1/dump, docs/protocol.md),
 * and a result's move to its end when its line changes.
 *
 * A line's place in the dump is its result's seq, until the result is
 * retracted, hidden or shown again: its line then changes (a tombstone,
 * or the document again), and a mirror that already read past its seq
 * would never read it.  So the change takes a new number from the
 * results' own sequence (the driver's next_position_sql), one that no
 * result has and none will be given, and the result's moved_to keeps it:
 * the line is now there, after everything stored before the change, and
 * no longer at its seq.  Every result is in the dump once, at its
 * latest place, and a mirror that keeps the place of the last line it
 * read and asks for what comes after it reads every change since.
 *
 * A page after a place is one walk in the dump's order, never a sort
 * (a dump's lines are whole documents): the results at their seq along
 * the primary key, up to the next moved line, or the moved ones along a
 * partial index on moved_to, up to the next result at its seq.  Moves
 * are rare, so nearly every page is the first walk, and the page stops
 * short only where the two meet. */
#include "server/store/store_internal.h"

#include <stdio.h>
#include <string.h>
#include "server/log.h"

int
store_move_in_dump (struct store *st, struct db_conn *c, int64_t seq)
{
  int64_t pos = 0;
  if (st->drv->query (c, st->drv->next_position_sql, NULL, 0, store_first_int, &pos) < 0)
    return -1;
  if (pos <= 0)
    {
      log_error ("database (%s): the results' sequence gave no number for the dump",
                 st->drv->name);
      return -1;
    }
  struct db_value p[] = { p_int (seq), p_int (pos) };
  return st->drv->query (c, "UPDATE results SET moved_to = $2 WHERE seq = $1", p, 2, NULL,
                         NULL);
}

/* The smallest place after AFTER that SQL (its $1) finds, or -1 (also
 * when the query fails: *FAILED set). */
static int64_t
next_place (struct store *st, struct db_conn *c, const char *sql, int64_t after, int *failed)
{
  int64_t place = -1;
  struct db_value p = p_int (after);
  if (st->drv->query (c, sql, &p, 1, store_first_int, &place) < 0)
    *failed = 1;
  return place;
}

/* The lines after the place AFTER whose place is PLACE (r.seq: the
 * results at their seq; r.moved_to: the moved ones), below BOUND unless
 * it is -1, LIMIT of them, through A: one walk along PLACE's index, in
 * the order of the dump, never sorted. */
static enum store_status
walk (struct store *st, struct row_adapter *a, const char *place, int64_t after, int limit,
      int64_t bound)
{
  int at_seq = strcmp (place, "r.seq") == 0;
  struct db_value p[] = { p_int (after), p_int (limit), p_int (bound) };
  char below[48] = "", sql[1024];
  if (bound >= 0)
    snprintf (below, sizeof below, " AND %s < $3", place);
  snprintf (sql, sizeof sql, "SELECT " FULL_COLUMNS ", %s FROM results r WHERE %s > $1%s "
            "AND r.unlisted = 0%s ORDER BY %s LIMIT $2", place, place, below,
            at_seq ? " AND r.moved_to IS NULL" : "", place);
  return store_read_rows (st, sql, p, bound >= 0 ? 3 : 2, a);
}

enum store_status
store_dump_page (struct store *st, int64_t after, int limit, store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_conn *c = store_acquire (st);
  int failed = 0;
  int64_t moved = next_place (st, c, "SELECT moved_to FROM results WHERE moved_to > $1 AND "
                              "unlisted = 0 ORDER BY moved_to LIMIT 1", after, &failed);
  int64_t at_seq = moved < 0 || failed ? -1
    : next_place (st, c, "SELECT seq FROM results WHERE seq > $1 AND unlisted = 0 AND "
                  "moved_to IS NULL ORDER BY seq LIMIT 1", after, &failed);
  if (failed)
    store_failed (st, c, "dump");
  store_release (st, c);
  if (failed)
    return STORE_ERROR;
  if (moved < 0 || (at_seq >= 0 && at_seq < moved))
    return walk (st, &a, "r.seq", after, limit, moved);
  return walk (st, &a, "r.moved_to", after, limit, at_seq);
}
