/* store_pool.c: the store's connections and what goes with them: the
 * pool the worker threads share, the writer's connection, the thread
 * that keeps the write-ahead log short, and the announcements of the
 * changes a transaction makes.
 *
 * A fixed pool of connections is shared by the worker threads; a caller
 * blocks only when every connection is busy.  An engine with one writer
 * at a time (SQLite) also gets a connection of its own for the writer,
 * whose page cache then stays valid, and, when the driver asks for it, a
 * thread that moves the write-ahead log into the database (checkpoints)
 * while the writer goes on, and refreshes the query planner's statistics
 * now and then.
 *
 * Every transaction that changes a listed result also announces it to
 * the other processes on the database (key commands, other servers):
 * PostgreSQL's NOTIFY, delivered at commit in commit order, or else a row
 * in the table changes, whose positions follow the commits (one writer
 * at a time).  A server follows them (store_follow) on a connection of
 * its own, skipping its own announcements (by ORIGIN, a token of this
 * store), which it tells its watcher directly.
 */
#include "server/store/store_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/util.h"
#include "server/log.h"

/* The log is kept to about CHECKPOINT_PAGES pages (of 4 KiB): long
 * enough that an index page changed by many commits is copied into the
 * database once.  The checkpointer copies the log each time a quarter of
 * that has been added; but the log starts over from its beginning only
 * when a writer finds all of it copied, which a checkpoint running beside
 * a steady stream of uploads never achieves.  So once the log is that
 * long, and the checkpointer idle, the writer copies what is left itself
 * before it lets the next writer in: a short pause, since most of the log
 * is copied already. */
#define CHECKPOINT_PAGES 16384
#define STATS_INTERVAL 600.0     /* seconds between statistics refreshes */

struct db_conn *
store_acquire (struct store *st)
{
  pthread_mutex_lock (&st->lock);
  while (st->nidle == 0)
    pthread_cond_wait (&st->freed, &st->lock);
  struct db_conn *c = st->idle[--st->nidle];
  pthread_mutex_unlock (&st->lock);
  return c;
}

void
store_release (struct store *st, struct db_conn *c)
{
  pthread_mutex_lock (&st->lock);
  st->idle[st->nidle++] = c;
  pthread_cond_signal (&st->freed);
  pthread_mutex_unlock (&st->lock);
}

/* A connection for a write.  SQLite admits one writer at a time, and a
 * writer that finds the database locked polls with growing sleeps; queueing
 * the writers of this process on a mutex instead keeps them in order and
 * fast (other processes still meet the busy timeout). */
struct db_conn *
store_acquire_writer (struct store *st)
{
  if (!st->drv->single_writer)
    return store_acquire (st);
  pthread_mutex_lock (&st->write_lock);
  return st->writer;
}

/* After a write on C (holding the write lock): wakes the checkpointer, or
 * finishes its work (see CHECKPOINT_PAGES). */
static void
after_write (struct store *st, struct db_conn *c)
{
  long log = st->drv->log_pages (c), done;
  int finish = 0;

  pthread_mutex_lock (&st->ckpt_lock);
  if (log < st->backfilled)     /* the log started over */
    st->backfilled = 0;
  done = st->backfilled;
  if (!st->ckpt_wanted)
    {
      if (log >= CHECKPOINT_PAGES && log - done <= CHECKPOINT_PAGES / 2)
        finish = 1;
      else if (log - done >= CHECKPOINT_PAGES / 4)
        {
          st->ckpt_wanted = 1;
          pthread_cond_signal (&st->ckpt_wake);
        }
    }
  pthread_mutex_unlock (&st->ckpt_lock);
  if (!finish)
    return;
  if (st->drv->checkpoint (c, &done) < 0)
    log_error ("database (%s) %s", st->drv->name, st->drv->error (c));
  pthread_mutex_lock (&st->ckpt_lock);
  if (done > st->backfilled)
    st->backfilled = done;
  pthread_mutex_unlock (&st->ckpt_lock);
}

void
store_release_writer (struct store *st, struct db_conn *c)
{
  if (!st->drv->single_writer)
    {
      store_release (st, c);
      return;
    }
  if (st->ckpt_started)
    after_write (st, c);
  pthread_mutex_unlock (&st->write_lock);
}

/* Refreshes the planner's statistics on the checkpointer's connection
 * when STATS_INTERVAL has passed since *LAST (0: never).  It writes:
 * it queues for the write lock as writers do, since a backfill that
 * writes batch after batch would otherwise keep the engine's own lock
 * from it for longer than its busy timeout. */
static void
refresh_stats (struct store *st, double *last)
{
  double now = gb_wall_seconds ();
  int rc;

  if (!st->drv->refresh_stats || (*last > 0 && now - *last < STATS_INTERVAL))
    return;
  if (st->drv->single_writer)
    pthread_mutex_lock (&st->write_lock);
  rc = st->drv->exec (st->ckpt_conn, st->drv->refresh_stats);
  if (st->drv->single_writer)
    pthread_mutex_unlock (&st->write_lock);
  if (rc < 0)
    log_error ("database (%s) statistics: %s", st->drv->name, st->drv->error (st->ckpt_conn));
  *last = now;
}

void *
store_checkpointer (void *arg)
{
  struct store *st = arg;
  long done;
  double stats_refreshed = 0;

  refresh_stats (st, &stats_refreshed);
  pthread_mutex_lock (&st->ckpt_lock);
  for (;;)
    {
      while (!st->ckpt_wanted && !st->ckpt_stop)
        pthread_cond_wait (&st->ckpt_wake, &st->ckpt_lock);
      if (st->ckpt_stop)
        break;
      pthread_mutex_unlock (&st->ckpt_lock);
      int rc = st->drv->checkpoint (st->ckpt_conn, &done);
      if (rc < 0)
        log_error ("database (%s) %s", st->drv->name, st->drv->error (st->ckpt_conn));
      refresh_stats (st, &stats_refreshed);
      pthread_mutex_lock (&st->ckpt_lock);
      if (rc == 0 && done > st->backfilled)
        st->backfilled = done;
      st->ckpt_wanted = 0;
    }
  pthread_mutex_unlock (&st->ckpt_lock);
  return NULL;
}

enum store_status
store_failed (struct store *st, struct db_conn *c, const char *what)
{
  log_error ("database (%s) %s: %s", st->drv->name, what, st->drv->error (c));
  st->drv->rollback (c);
  return STORE_ERROR;
}

/* The first column of a row as an integer, into the int64_t at CTX. */
int
store_first_int (void *ctx, const struct db_value *cols, int ncols)
{
  *(int64_t *) ctx = ncols > 0 ? c_int (&cols[0]) : 0;
  return 1;
}

/* ------------------------------------------------------------ announcements */

/* Announces on C, in its open transaction, that the listed result ID
 * changed (see the top of the file): 0, or -1. */
int
store_announce (struct store *st, struct db_conn *c, const char *id)
{
  struct db_value p[] = { p_text (st->origin), p_text (id) };
  return st->drv->query (c, st->drv->notifications
                         ? "SELECT pg_notify('" CHANNEL "', $1::text || ' ' || $2::text)"
                         : "INSERT INTO changes (origin, id) VALUES ($1, $2)", p, 2, NULL, NULL);
}

/* Likewise for every result of the key FINGERPRINT that its submitter
 * listed and did not retract. */
int
store_announce_key (struct store *st, struct db_conn *c, const char *fingerprint)
{
  struct db_value p[] = { p_text (st->origin), p_text (fingerprint) };
  return st->drv->query (c, st->drv->notifications
                         ? "SELECT pg_notify('" CHANNEL "', $1::text || ' ' || id) FROM results "
                         "WHERE fingerprint = $2 AND unlisted = 0 AND retracted = 0"
                         : "INSERT INTO changes (origin, id) SELECT $1, id FROM results "
                         "WHERE fingerprint = $2 AND unlisted = 0 AND retracted = 0", p, 2,
                         NULL, NULL);
}

void
store_watch (struct store *st, store_change_fn fn, void *ctx)
{
  st->watch = fn;
  st->watch_ctx = ctx;
}

/* Tells the watcher that the result ID (NULL: any) changed. */
void
store_changed (struct store *st, const char *id)
{
  if (st->watch)
    st->watch (st->watch_ctx, id);
}
