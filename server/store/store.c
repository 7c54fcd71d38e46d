/* store.c: results storage over a driver (see store.h, store_driver.h):
 * what ties the store together, its opening and closing, the pool of
 * connections and the announcements of changes.
 *
 * All the SQL lives in the files of the store, written once for both
 * engines (the drivers differ only in DDL):
 *
 *   store.c              open and close, the pool, announcements;
 *   store_migrate.c      the schema migrations;
 *   store_backfill.c     "Backfills": the migrations' rewrites of every
 *                        result, in batches;
 *   store_dict_keeper.c  "Dictionaries": the dictionaries of documents,
 *                        trained and kept in the database, and repacks;
 *   store_insert.c       uploads stored with their verdict, with group
 *                        commit;
 *   store_read.c         result rows as read back, their documents
 *                        checked, and one result;
 *   store_keys.c         the keys the operator marks;
 *   store_list.c         the listings and their plans, and aggregates;
 *   store_pages.c        what the leaderboard and the pages read;
 *   store_judge.c        a category fed to the judge and its verdict
 *                        written in the changing transaction, flags,
 *                        retractions, the best per GHz;
 *   store_follow.c       "Following": the other processes' changes;
 *
 * and store_internal.h what they share.
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
#include "server/store/store_dict.h"

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

/* ------------------------------------------------------------ the pool */

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

static void *
checkpointer (void *arg)
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

/* ------------------------------------------------------------ open and close */

/* A store on DRV, with room for TOTAL connections and none open: its
 * locks, its dictionaries and its token in announcements. */
static struct store *
new_store (const struct store_driver *drv, const char *target, unsigned total)
{
  struct store *st = gb_xcalloc (1, sizeof *st);

  st->drv = drv;
  st->conns = gb_xcalloc (total, sizeof *st->conns);
  st->idle = gb_xcalloc (total, sizeof *st->idle);
  pthread_mutex_init (&st->lock, NULL);
  pthread_cond_init (&st->freed, NULL);
  pthread_mutex_init (&st->write_lock, NULL);
  store_names_init (&st->names);
  pthread_mutex_init (&st->batch_lock, NULL);
  pthread_cond_init (&st->batch_done, NULL);
  pthread_mutex_init (&st->ckpt_lock, NULL);
  pthread_cond_init (&st->ckpt_wake, NULL);
  pthread_mutex_init (&st->count_lock, NULL);
  pthread_mutex_init (&st->dict_lock, NULL);
  pthread_cond_init (&st->dict_wake, NULL);
  st->dicts = store_dicts_new ();
  st->queue_end = &st->queue;
  st->target = gb_xstrdup (target);
  snprintf (st->origin, sizeof st->origin, "%ld.%.0f.%p", (long) getpid (),
            gb_wall_seconds () * 1e6, (void *) st);
  return st;
}

/* Opens the TOTAL connections of ST, the first migrating the database,
 * and gives each its use: the writer's, the checkpointer's, or the
 * pool's.  0, or -1 with a message in ERR (store_close then closes those
 * it opened). */
static int
open_connections (struct store *st, const char *target, unsigned total, char *err,
                  size_t errlen)
{
  for (st->n = 0; st->n < total; st->n++)
    {
      struct db_conn *c = st->drv->connect (target, err, errlen);
      if (!c)
        return -1;
      st->conns[st->n] = c;
      if (st->n == 0 && store_migrate (st, c, err, errlen) < 0)
        {
          st->n++;
          return -1;
        }
      if (st->drv->single_writer && !st->writer)
        st->writer = c;
      else if (st->drv->checkpoint && !st->ckpt_conn)
        st->ckpt_conn = c;
      else
        st->idle[st->nidle++] = c;
    }
  return 0;
}

struct store *
store_open (const char *target, unsigned connections, char *err, size_t errlen)
{
  int pg = strncmp (target, "postgresql://", 13) == 0 || strncmp (target, "postgres://", 11) == 0;
  const struct store_driver *drv = pg ? &store_pg_driver : &store_sqlite_driver;
  unsigned total = connections + (drv->single_writer ? 1 : 0) + (drv->checkpoint ? 1 : 0);
  struct store *st = new_store (drv, target, total);

  if (open_connections (st, target, total, err, errlen) < 0)
    goto fail;
  if (st->ckpt_conn)
    {
      if (pthread_create (&st->ckpt_thread, NULL, checkpointer, st) != 0)
        {
          snprintf (err, errlen, "cannot start the checkpoint thread");
          goto fail;
        }
      st->ckpt_started = 1;
    }
  if (store_read_dicts (st, st->conns[0]) < 0)
    {
      snprintf (err, errlen, "cannot read the dictionaries: %s", st->drv->error (st->conns[0]));
      goto fail;
    }
  if (store_start_backfills (st) < 0)
    {
      snprintf (err, errlen, "cannot start the backfill thread");
      goto fail;
    }
  if (pthread_create (&st->dict_thread, NULL, store_dict_keeper, st) != 0)
    {
      snprintf (err, errlen, "cannot start the dictionary thread");
      goto fail;
    }
  st->dict_started = 1;
  return st;
fail:
  store_close (st);
  return NULL;
}

void
store_close (struct store *st)
{
  if (st->dict_started)
    {
      pthread_mutex_lock (&st->dict_lock);
      atomic_store (&st->dict_stop, 1);
      pthread_cond_signal (&st->dict_wake);
      pthread_mutex_unlock (&st->dict_lock);
      pthread_join (st->dict_thread, NULL);
    }
  if (st->backfilling)
    {
      atomic_store (&st->backfill_stop, 1);
      pthread_join (st->backfill_thread, NULL);
    }
  if (st->ckpt_started)
    {
      pthread_mutex_lock (&st->ckpt_lock);
      st->ckpt_stop = 1;
      pthread_cond_signal (&st->ckpt_wake);
      pthread_mutex_unlock (&st->ckpt_lock);
      pthread_join (st->ckpt_thread, NULL);
    }
  for (unsigned i = 0; i < st->n; i++)
    st->drv->disconnect (st->conns[i]);
  if (st->follow_conn)
    st->drv->disconnect (st->follow_conn);
  if (st->dict_conn)
    st->drv->disconnect (st->dict_conn);
  store_dicts_free (st->dicts);
  free (st->target);
  pthread_mutex_destroy (&st->lock);
  pthread_cond_destroy (&st->freed);
  pthread_mutex_destroy (&st->write_lock);
  store_names_destroy (&st->names);
  pthread_mutex_destroy (&st->batch_lock);
  pthread_cond_destroy (&st->batch_done);
  pthread_mutex_destroy (&st->ckpt_lock);
  pthread_cond_destroy (&st->ckpt_wake);
  pthread_mutex_destroy (&st->count_lock);
  pthread_mutex_destroy (&st->dict_lock);
  pthread_cond_destroy (&st->dict_wake);
  free (st->conns);
  free (st->idle);
  free (st);
}

int
store_schema_version (struct store *st)
{
  return st->version;
}

enum store_status
store_ping (struct store *st)
{
  struct db_conn *c = store_acquire (st);
  int64_t one = 0;
  enum store_status rc = STORE_OK;
  if (st->drv->query (c, "SELECT 1", NULL, 0, store_first_int, &one) < 0 || one != 1)
    rc = store_failed (st, c, "ping");
  store_release (st, c);
  return rc;
}
