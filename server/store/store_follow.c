/* store_follow.c: following the changes other processes make to listed
 * results (store_follow_start, store_follow).  Every transaction that
 * changes a listed result announces it (store_pool.c): PostgreSQL's NOTIFY,
 * delivered at commit in commit order, or else a row in the table
 * changes, whose positions follow the commits (one writer at a time).  A
 * server follows them on a connection of its own, skipping its own
 * announcements (by ORIGIN, a token of this store), which it tells its
 * watcher directly; on SQLite it deletes the entries read a while ago.
 */
#include "server/store/store_internal.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "server/log.h"

/* A follower deletes the entries of changes it read this long ago
 * (seconds); another process that falls behind by that much learns it
 * lost some (store_follow). */
#define PRUNE_AFTER 60.0
/* The most entries of changes store_follow reads at once. */
#define FOLLOW_BATCH 10000

/* What store_follow tells of the changes it reads. */
struct follow
{
  struct store *st;
  store_change_fn fn;
  void *ctx;
  int lost;                     /* a position was skipped */
  size_t rows;
};

/* Tells F's function of ID, changed by the store ORIGIN (LEN bytes),
 * unless that is this store. */
static void
tell_other (struct follow *f, const char *origin, size_t len, const char *id)
{
  if (len != strlen (f->st->origin) || memcmp (origin, f->st->origin, len) != 0)
    f->fn (f->ctx, id);
}

static void
pause_ms (int ms)
{
  struct timespec t = { ms / 1000, (long) (ms % 1000) * 1000000L };
  nanosleep (&t, NULL);
}

/* A notification's payload: "ORIGIN ID". */
static void
take_notification (void *ctx, const char *payload)
{
  const char *space = strchr (payload, ' ');
  if (space)
    tell_other (ctx, payload, (size_t) (space - payload), space + 1);
}

static int
take_change_entry (void *ctx, const struct db_value *cols, int ncols)
{
  struct follow *f = ctx;
  if (ncols < 3)
    return 1;
  int64_t pos = c_int (&cols[0]);
  if (pos != f->st->follow_pos + 1)
    f->lost = 1;
  f->st->follow_pos = pos;
  f->rows++;
  tell_other (f, c_text_or_empty (&cols[1]), strlen (c_text_or_empty (&cols[1])),
              c_text_or_empty (&cols[2]));
  return 0;
}

/* Deletes the entries of changes read PRUNE_AFTER ago or more. */
static void
prune_changes (struct store *st)
{
  double now = gb_wall_seconds ();
  if (now - st->prune_marked < PRUNE_AFTER)
    return;
  if (st->prune_pos > 0)
    {
      struct db_conn *c = store_acquire_writer (st);
      struct db_value p = p_int (st->prune_pos);
      if (st->drv->begin (c, 1) < 0
          || st->drv->query (c, "DELETE FROM changes WHERE pos <= $1", &p, 1, NULL, NULL) < 0
          || st->drv->commit (c) < 0)
        store_failed (st, c, "prune changes");
      store_release_writer (st, c);
    }
  st->prune_pos = st->follow_pos;
  st->prune_marked = now;
}

enum store_status
store_follow_start (struct store *st)
{
  char err[256];
  if (st->follow_conn)
    return STORE_OK;
  st->follow_conn = st->drv->connect (st->target, err, sizeof err);
  if (!st->follow_conn)
    {
      log_error ("database (%s) follow: %s", st->drv->name, err);
      return STORE_ERROR;
    }
  /* The position of the last change ever made, even if deleted since. */
  st->follow_pos = 0;
  if (st->drv->notifications ? st->drv->exec (st->follow_conn, "LISTEN " CHANNEL) < 0
      : st->drv->query (st->follow_conn, "SELECT COALESCE((SELECT seq FROM sqlite_sequence "
                        "WHERE name = 'changes'), 0)", NULL, 0, store_first_int,
                        &st->follow_pos) < 0)
    {
      store_failed (st, st->follow_conn, "follow");
      st->drv->disconnect (st->follow_conn);
      st->follow_conn = NULL;
      return STORE_ERROR;
    }
  st->prune_pos = st->follow_pos;
  st->prune_marked = gb_wall_seconds ();
  return STORE_OK;
}

enum store_status
store_follow (struct store *st, int wait_ms, store_change_fn fn, void *ctx)
{
  struct follow f = { st, fn, ctx, 0, 0 };
  struct db_value p[] = { p_int (0), p_int (FOLLOW_BATCH) };

  if (atomic_exchange (&st->backfill_done, 0))
    return STORE_ERROR;         /* a backfill rewrote results since */

  if (!st->follow_conn)
    {
      store_follow_start (st);
      return STORE_ERROR;       /* what happened before is unknown */
    }
  if (st->drv->notifications)
    {
      if (st->drv->notifications (st->follow_conn, wait_ms, take_notification, &f) == 0)
        return STORE_OK;
      log_error ("database (%s) %s", st->drv->name, st->drv->error (st->follow_conn));
      st->drv->disconnect (st->follow_conn);
      st->follow_conn = NULL;
      store_follow_start (st);
      return STORE_ERROR;
    }
  p[0] = p_int (st->follow_pos);
  if (st->drv->query (st->follow_conn, "SELECT pos, origin, id FROM changes WHERE pos > $1 "
                      "ORDER BY pos LIMIT $2", p, 2, take_change_entry, &f) < 0)
    {
      store_failed (st, st->follow_conn, "follow");
      pause_ms (wait_ms);
      return STORE_ERROR;
    }
  prune_changes (st);
  if (f.rows == 0)
    pause_ms (wait_ms);
  return f.lost ? STORE_ERROR : STORE_OK;
}
