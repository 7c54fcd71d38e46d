/* store.c: results storage over a driver (see store.h, store_driver.h):
 * what ties the store together, its opening and closing.
 *
 * All the SQL lives in the files of the store, written once for both
 * engines (the drivers differ only in DDL):
 *
 *   store.c              open and close;
 *   store_pool.c         the pool of connections, the writer, the
 *                        checkpointer, and announcements of changes;
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
 *   store_sources.c      the sources of uploads: the secret that hashes
 *                        them, and which stand behind each CPU row;
 *
 * and store_internal.h what they share.
 *
 * A server built --without-postgresql has no PostgreSQL driver (store_pg.c
 * is not compiled, GB_HAVE_POSTGRESQL of build_config.h is 0) and refuses
 * a postgresql:// database with a message saying so.
 */
#include "server/store/store_internal.h"
#include "server/store/store_backup.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build_config.h"
#include "common/util.h"
#include "server/log.h"
#include "server/store/store_dict.h"

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
  int pg = store_is_postgresql (target);
#if GB_HAVE_POSTGRESQL
  const struct store_driver *drv = pg ? &store_pg_driver : &store_sqlite_driver;
#else
  const struct store_driver *drv = &store_sqlite_driver;
  if (pg)
    {
      snprintf (err, errlen, "this gmpbench-server was built without PostgreSQL "
                "(./configure --without-postgresql): give a SQLite file, or build it "
                "again with libpq");
      return NULL;
    }
#endif
  unsigned total = connections + (drv->single_writer ? 1 : 0) + (drv->checkpoint ? 1 : 0);
  struct store *st = new_store (drv, target, total);

  if (open_connections (st, target, total, err, errlen) < 0)
    goto fail;
  if (st->ckpt_conn)
    {
      if (pthread_create (&st->ckpt_thread, NULL, store_checkpointer, st) != 0)
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
  if (store_read_secret (st, st->conns[0]) < 0)
    {
      snprintf (err, errlen, "cannot read the sources' secret: %s",
                st->drv->error (st->conns[0]));
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

enum store_status
store_measure (struct store *st, int64_t *results, int64_t *bytes)
{
  struct db_conn *c = store_acquire (st);
  enum store_status rc = STORE_OK;
  *results = *bytes = 0;
  if (st->drv->query (c, "SELECT count(*) FROM results", NULL, 0, store_first_int, results) < 0
      || st->drv->query (c, st->drv->size_sql, NULL, 0, store_first_int, bytes) < 0)
    rc = store_failed (st, c, "measure");
  store_release (st, c);
  return rc;
}
