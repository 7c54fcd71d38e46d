/* store.c: results storage over a driver (see store.h, store_driver.h).
 *
 * All the SQL lives here, written once for both engines (the drivers
 * differ only in DDL).  A fixed pool of connections is shared by the
 * worker threads; a caller blocks only when every connection is busy.
 *
 * On an engine with one writer at a time (SQLite), uploads that arrive
 * while a transaction is being written are committed together in the next
 * one (group commit): each caller still returns only after the commit that
 * holds its result, but the cost of a commit (writing the index pages it
 * touched to the log) is shared.  Such an engine also gets a connection
 * of its own for the writer, whose page cache then stays valid, and, when
 * the driver asks for it, a thread that moves the write-ahead log into
 * the database (checkpoints) while the writer goes on, and refreshes the
 * query planner's statistics now and then.
 *
 * Every transaction that changes a listed result also announces it to
 * the other processes on the database (key commands, other servers):
 * PostgreSQL's NOTIFY, delivered at commit in commit order, or else a row
 * in the table changes, whose positions follow the commits (one writer
 * at a time).  A server follows them (store_follow) on a connection of
 * its own, skipping its own announcements (by ORIGIN, a token of this
 * store), which it tells its watcher directly.
 *
 * Documents are stored compressed (server/store/store_body.h), compressed by
 * the uploading thread before it queues for the writer, and read back
 * through one function that decompresses them and checks their SHA-256:
 * a document that fails is not served (STORE_CORRUPT).  They are
 * compressed with the newest zstd dictionary (server/store/store_dict.h),
 * which a thread of the store trains from the stored documents and keeps
 * in the table dicts, and onto which a repack rewrites the older frames
 * ("Dictionaries").
 *
 * A migration that must rewrite every result (migration 10: the GMP
 * build kind read again from each body; migration 12: each body
 * compressed; migrations 13 and 14: the rows of tests and score nodes
 * moved to tables that hold their names as numbers) leaves a row in the
 * table backfill, and the store does the work in batches, each its own
 * transaction, one backfill after the other: for up to BACKFILL_AT_OPEN
 * seconds in store_open, then in a thread of its own while the server
 * runs.
 */
#include "server/store/store.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <zstd.h>
#include "common/util.h"
#include "model/cpu_brand.h"
#include "server/log.h"
#include "server/store/store_body.h"
#include "server/store/store_dict.h"
#include "server/store/store_driver.h"
#include "server/store/store_names.h"
#include "model/registry.h"

/* How many listed results a filter term matches, as the choice of a
 * listing plan needs it (store_list): counted at most every COUNT_TTL
 * seconds per term, since counting costs more than the listing itself and
 * the counts change slowly.  A direct-mapped cache of COUNT_SLOTS terms. */
#define COUNT_SLOTS 256
#define COUNT_TTL 60.0

struct count_entry
{
  char key[192];                /* column, NUL, value; "" when free */
  int64_t n, cap;                /* n > cap: more than cap */
  double when;
};

struct store
{
  const struct store_driver *drv;
  struct db_conn **conns;       /* all of them */
  struct db_conn **idle;        /* the free ones: a stack */
  unsigned n, nidle;
  pthread_mutex_t lock;
  pthread_cond_t freed;
  pthread_mutex_t write_lock;   /* held by the writer, for single_writer drivers */
  struct store_names names;     /* the numbers of names, as committed */
  struct db_conn *writer;       /* the writer's own, for single_writer drivers */
  int version;
  /* The checkpointer, for drivers with checkpoint(). */
  struct db_conn *ckpt_conn;
  pthread_t ckpt_thread;
  pthread_mutex_t ckpt_lock;
  pthread_cond_t ckpt_wake;
  int ckpt_started, ckpt_wanted, ckpt_stop;
  long backfilled;              /* pages of the log already in the database */
  /* Group commit: uploads waiting for the next transaction, and whether a
   * thread (the leader) is writing one. */
  pthread_mutex_t batch_lock;
  pthread_cond_t batch_done;
  struct pending *queue, **queue_end;
  int leading;
  pthread_mutex_t count_lock;
  struct count_entry counts[COUNT_SLOTS];
  store_change_fn watch;        /* told of every change to a listed result */
  void *watch_ctx;
  char origin[48];              /* this store's token in announcements */
  char *target;                 /* what store_open was given */
  /* Following the other processes' changes (store_follow). */
  struct db_conn *follow_conn;
  int64_t follow_pos;           /* the last entry of changes read */
  int64_t prune_pos;            /* an entry read PRUNE_AFTER ago or more */
  double prune_marked;          /* when PRUNE_POS was read */
  /* The backfill thread, when store_open left work for it. */
  pthread_t backfill_thread;
  int backfilling;
  size_t backfill_at;           /* the backfill now running (backfills[]) */
  int backfill_worked;          /* it had work */
  atomic_int backfill_stop;
  atomic_int backfill_done;     /* it is done: store_follow says so */
  /* The dictionaries of documents (store_dict.h), read again on their
   * own connection when a document names one not known here. */
  struct store_dicts *dicts;
  pthread_mutex_t dict_lock;
  struct db_conn *dict_conn;
  /* The dictionary keeper (dict_keeper), its sleep and its stop. */
  pthread_t dict_thread;
  int dict_started;
  atomic_int dict_stop;
  pthread_cond_t dict_wake;
  atomic_llong last_insert;     /* when store_insert was last called (time) */
  atomic_uint dict_unreadable;  /* the last dictionary found unreadable, logged */
};

/* An upload waiting for, or written by, a group commit. */
struct pending
{
  const struct packed_upload *up;
  char *id;
  enum store_status rc;
  int done;
  struct pending *next;
};

/* The most uploads one transaction takes. */
#define BATCH_MAX 64
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
/* A follower deletes the entries of changes it read this long ago
 * (seconds); another process that falls behind by that much learns it
 * lost some (store_follow). */
#define PRUNE_AFTER 60.0
/* The most entries of changes store_follow reads at once. */
#define FOLLOW_BATCH 10000
#define CHANNEL "gmpbench_changes"
/* Results a backfill step rewrites (a few tens of milliseconds of the
 * writer's time), and the seconds store_open spends on backfills before
 * it leaves the rest to a thread. */
#define BACKFILL_BATCH 2000
#define BACKFILL_AT_OPEN 1.0
/* A batch of migration 12's compression takes at most PACK_ROWS results
 * and stops after PACK_BYTES of documents (fifty whole runs), which it
 * compresses before it waits for the writer. */
#define PACK_ROWS 500
#define PACK_BYTES (8u << 20)
/* A batch of migrations 13 and 14 moves the rows of at most this many
 * results (some 200 tests' or 65 nodes' rows each: a few tens of
 * milliseconds). */
#define MOVE_BATCH 20

/* Parameter constructors. */
static struct db_value
p_text (const char *s)
{
  struct db_value v = { s ? DB_TEXT : DB_NULL, 0, 0, s, s ? strlen (s) : 0 };
  return v;
}

static struct db_value
p_int (int64_t i)
{
  struct db_value v = { DB_INT, i, 0, NULL, 0 };
  return v;
}

static struct db_value
p_real (double d)
{
  struct db_value v = { DB_REAL, 0, d, NULL, 0 };
  return v;
}

static struct db_value
p_blob (const unsigned char *data, size_t len)
{
  struct db_value v = { DB_BLOB, 0, 0, (const char *) data, len };
  return v;
}

/* Column readers: the SQLite driver gives typed values, the PostgreSQL
 * driver text. */
static int64_t
c_int (const struct db_value *v)
{
  return v->type == DB_INT ? v->i : v->type == DB_REAL ? (int64_t) v->d
    : v->type == DB_TEXT ? strtoll (v->s, NULL, 10) : 0;
}

static double
c_real (const struct db_value *v)
{
  return v->type == DB_REAL ? v->d : v->type == DB_INT ? (double) v->i
    : v->type == DB_TEXT ? strtod (v->s, NULL) : 0;
}

static const char *
c_text (const struct db_value *v)
{
  return v->type == DB_TEXT ? v->s : NULL;
}

/* ------------------------------------------------------------ the pool */

static struct db_conn *
acquire (struct store *st)
{
  pthread_mutex_lock (&st->lock);
  while (st->nidle == 0)
    pthread_cond_wait (&st->freed, &st->lock);
  struct db_conn *c = st->idle[--st->nidle];
  pthread_mutex_unlock (&st->lock);
  return c;
}

static void
release (struct store *st, struct db_conn *c)
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
static struct db_conn *
acquire_writer (struct store *st)
{
  if (!st->drv->single_writer)
    return acquire (st);
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

static void
release_writer (struct store *st, struct db_conn *c)
{
  if (!st->drv->single_writer)
    {
      release (st, c);
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

static enum store_status
failed (struct store *st, struct db_conn *c, const char *what)
{
  log_error ("database (%s) %s: %s", st->drv->name, what, st->drv->error (c));
  st->drv->rollback (c);
  return STORE_ERROR;
}

/* ------------------------------------------------------------ announcements */

/* Announces on C, in its open transaction, that the listed result ID
 * changed (see the top of the file): 0, or -1. */
static int
announce (struct store *st, struct db_conn *c, const char *id)
{
  struct db_value p[] = { p_text (st->origin), p_text (id) };
  return st->drv->query (c, st->drv->notifications
                         ? "SELECT pg_notify('" CHANNEL "', $1::text || ' ' || $2::text)"
                         : "INSERT INTO changes (origin, id) VALUES ($1, $2)", p, 2, NULL, NULL);
}

/* Likewise for every result of the key FINGERPRINT that its submitter
 * listed and did not retract. */
static int
announce_key (struct store *st, struct db_conn *c, const char *fingerprint)
{
  struct db_value p[] = { p_text (st->origin), p_text (fingerprint) };
  return st->drv->query (c, st->drv->notifications
                         ? "SELECT pg_notify('" CHANNEL "', $1::text || ' ' || id) FROM results "
                         "WHERE fingerprint = $2 AND unlisted = 0 AND retracted = 0"
                         : "INSERT INTO changes (origin, id) SELECT $1, id FROM results "
                         "WHERE fingerprint = $2 AND unlisted = 0 AND retracted = 0", p, 2,
                         NULL, NULL);
}

/* ------------------------------------------------------------ migrations */

static int
first_int (void *ctx, const struct db_value *cols, int ncols)
{
  *(int64_t *) ctx = ncols > 0 ? c_int (&cols[0]) : 0;
  return 1;
}

static int
migrate (struct store *st, struct db_conn *c, char *err, size_t errlen)
{
  const struct store_driver *d = st->drv;
  int64_t version = 0;

  if (d->begin (c, 1) < 0
      || (d->migration_lock && d->query (c, d->migration_lock, NULL, 0, NULL, NULL) < 0)
      || d->exec (c, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)") < 0
      || d->query (c, "SELECT COALESCE(MAX(version), 0) FROM schema_version", NULL, 0,
                   first_int, &version) < 0)
    goto fail;
  if (version > (int64_t) d->nmigrations)
    {
      snprintf (err, errlen, "the database has schema version %lld, newer than this "
                "server's %zu: upgrade the server", (long long) version, d->nmigrations);
      d->rollback (c);
      return -1;
    }
  for (size_t v = (size_t) version; v < d->nmigrations; v++)
    {
      struct db_value p = p_int ((int64_t) v + 1);
      if (d->exec (c, d->migrations[v]) < 0
          || d->query (c, "INSERT INTO schema_version (version) VALUES ($1)", &p, 1,
                       NULL, NULL) < 0)
        goto fail;
      log_info ("database schema migrated to version %zu", v + 1);
    }
  if (d->commit (c) < 0)
    goto fail;
  st->version = (int) d->nmigrations;
  return 0;
fail:
  snprintf (err, errlen, "migration failed: %s", d->error (c));
  d->rollback (c);
  return -1;
}

/* ------------------------------------------------------------ backfills */

/* One batch of a backfill that works through the results by ranges of
 * seq, BATCH at a time, in a transaction of its own (processes sharing
 * the database take ranges in turn, from the backfill NAME's next): the
 * N statements STMT, run with the range's bounds ($1 < seq <= $2), after
 * the range's results are locked when LOCK and the engine needs it; done
 * when the range passes the seq LAST_SQL gives.  1 when more are left, 0
 * when it is done, -1 on an error. */
static int
range_step (struct store *st, const char *name, int64_t batch, const char *last_sql, int lock,
            const char *const *stmt, size_t n)
{
  struct db_conn *c = acquire_writer (st);
  int64_t from = -1, last = 0;
  struct db_value p[] = { p_text (name), p_int (batch), p_int (0) };
  int more = -1;

  if (st->drv->begin (c, 1) == 0
      && st->drv->query (c, "UPDATE backfill SET next = next + $2 WHERE name = $1 "
                         "RETURNING next - $2", p, 2, first_int, &from) == 0
      && st->drv->query (c, last_sql, NULL, 0, first_int, &last) == 0)
    {
      p[1] = p_int (from);
      p[2] = p_int (from + batch);
      more = from >= 0 && from + batch < last;
      if (from >= 0 && lock && st->drv->lock_results_sql
          && st->drv->query (c, st->drv->lock_results_sql, p + 1, 2, NULL, NULL) < 0)
        more = -1;
      for (size_t i = 0; more >= 0 && from >= 0 && i < n; i++)
        if (st->drv->query (c, stmt[i], p + 1, 2, NULL, NULL) < 0)
          more = -1;
      if (more < 0
          || (from >= 0 && !more
              && st->drv->query (c, "DELETE FROM backfill WHERE name = $1", p, 1, NULL,
                                 NULL) < 0)
          || st->drv->commit (c) < 0)
        more = -1;
    }
  if (more < 0)
    failed (st, c, "backfill");
  release_writer (st, c);
  return more;
}

/* One batch of migration 10: the build kinds of BACKFILL_BATCH results. */
static int
build_step (struct store *st)
{
  return range_step (st, "build", BACKFILL_BATCH, "SELECT COALESCE(MAX(seq), 0) FROM results",
                     0, &st->drv->build_kind_sql, 1);
}

/* The documents of a compression batch, compressed. */
struct pack_batch
{
  int64_t seq[PACK_ROWS];
  unsigned char *packed[PACK_ROWS];
  size_t len[PACK_ROWS];
  size_t n, bytes;
  int failed;                   /* zstd failed */
  struct store_dicts *dicts;    /* what compresses them */
};

static int
take_plain (void *ctx, const struct db_value *cols, int ncols)
{
  struct pack_batch *b = ctx;
  if (ncols < 2 || b->n == PACK_ROWS)
    return 1;
  b->len[b->n] = store_dicts_pack (b->dicts, cols[1].s ? cols[1].s : "", cols[1].len, 0,
                                   &b->packed[b->n]);
  if (!b->len[b->n])
    {
      b->failed = 1;
      return 1;
    }
  b->seq[b->n++] = c_int (&cols[0]);
  b->bytes += cols[1].len;
  return b->bytes >= PACK_BYTES;
}

/* Reads the next batch of plain documents after the backfill's position
 * into B, compressed, outside any write transaction; *FROM is -1 when the
 * backfill is done.  0, or -1 on an error. */
static int
read_plain (struct store *st, struct pack_batch *b, int64_t *from)
{
  struct db_conn *c = acquire (st);
  struct db_value p[] = { p_int (0), p_int (PACK_ROWS) };
  int rc = 0;

  *from = -1;
  if (st->drv->query (c, "SELECT next FROM backfill WHERE name = 'packed'", NULL, 0,
                      first_int, from) < 0)
    rc = -1;
  p[0] = p_int (*from);
  if (rc == 0 && *from >= 0
      && (st->drv->query (c, "SELECT seq, body FROM results WHERE seq > $1 AND packed IS NULL "
                          "ORDER BY seq LIMIT $2", p, 2, take_plain, b) < 0 || b->failed))
    rc = -1;
  if (rc < 0)
    failed (st, c, b->failed ? "compression (zstd failed)" : "compression");
  release (st, c);
  return rc;
}

/* One batch of migration 12's compression: the next documents still
 * stored as plain text, compressed, then written in a transaction of its
 * own.  Processes sharing the database may compress the same batch; the
 * first to write it wins.  1 when more are left, 0 when it is done, -1
 * on an error. */
static int
pack_step (struct store *st)
{
  struct pack_batch *b = gb_xcalloc (1, sizeof *b);
  struct db_conn *c;
  int64_t from;
  int more = -1;

  b->dicts = st->dicts;
  if (read_plain (st, b, &from) < 0)
    goto done;
  if (from < 0)
    {
      more = 0;
      goto done;
    }
  c = acquire_writer (st);
  more = st->drv->begin (c, 1) == 0 ? b->n > 0 : -1;
  for (size_t i = 0; more > 0 && i < b->n; i++)
    {
      struct db_value p[] = { p_int (b->seq[i]), p_blob (b->packed[i], b->len[i]) };
      if (st->drv->query (c, "UPDATE results SET packed = $2, body = '' WHERE seq = $1 "
                          "AND packed IS NULL", p, 2, NULL, NULL) < 0)
        more = -1;
    }
  if (more >= 0)
    {
      struct db_value p = p_int (b->n ? b->seq[b->n - 1] : 0);
      if ((more ? st->drv->query (c, "UPDATE backfill SET next = $1 WHERE name = 'packed' "
                                  "AND next < $1", &p, 1, NULL, NULL)
           : st->drv->query (c, "DELETE FROM backfill WHERE name = 'packed'", NULL, 0,
                             NULL, NULL)) < 0
          || st->drv->commit (c) < 0)
        more = -1;
    }
  if (more < 0)
    failed (st, c, "compression");
  release_writer (st, c);
done:
  for (size_t i = 0; i < b->n; i++)
    free (b->packed[i]);
  free (b);
  return more;
}

/* A move of migrations 13 and 14: the rows of a table stored before (OLD)
 * moved, MOVE_BATCH results at a time, to its new table, their names to
 * names, by the statements MOVE (run with the batch's bounds: seq > $1
 * AND seq <= $2), under the backfill's NAME. */
struct move
{
  const char *name, *old;
  const char *move[3];
};

static const struct move move_tests = {
  "tests", "test_scores", {
    "INSERT INTO names (name) SELECT DISTINCT o.node FROM test_scores o "
    "WHERE o.seq > $1 AND o.seq <= $2 AND NOT EXISTS (SELECT 1 FROM names n "
    "WHERE n.name = o.node) ON CONFLICT (name) DO NOTHING",
    "INSERT INTO tests (node, seq, score) SELECT n.id, o.seq, o.score FROM test_scores o "
    "CROSS JOIN names n WHERE o.seq > $1 AND o.seq <= $2 AND n.name = o.node",
    "DELETE FROM test_scores WHERE seq > $1 AND seq <= $2",
  }
};

#define NAME_ID(column) "(SELECT id FROM names WHERE name = o." column ")"

static const struct move move_ranks = {
  "ranks", "scores", {
    "INSERT INTO names (name) SELECT DISTINCT v.name FROM (SELECT node AS name FROM scores "
    "WHERE seq > $1 AND seq <= $2 UNION SELECT cpu FROM scores WHERE seq > $1 AND seq <= $2 "
    "UNION SELECT arch FROM scores WHERE seq > $1 AND seq <= $2 UNION SELECT os FROM scores "
    "WHERE seq > $1 AND seq <= $2 UNION SELECT gmp FROM scores WHERE seq > $1 AND seq <= $2 "
    "UNION SELECT compiler FROM scores WHERE seq > $1 AND seq <= $2) v "
    "WHERE v.name IS NOT NULL AND NOT EXISTS (SELECT 1 FROM names n WHERE n.name = v.name) "
    "ON CONFLICT (name) DO NOTHING",
    "INSERT INTO ranks (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp, "
    "compiler) SELECT o.seq, " NAME_ID ("node") ", o.depth, o.score, " NAME_ID ("cpu") ", "
    "o.listed, o.flagged, " NAME_ID ("arch") ", " NAME_ID ("os") ", " NAME_ID ("gmp") ", "
    NAME_ID ("compiler") " FROM scores o WHERE o.seq > $1 AND o.seq <= $2",
    "DELETE FROM scores WHERE seq > $1 AND seq <= $2",
  }
};

/* One batch of move M, in one transaction, so that every row is in one
 * of the two tables, which every read takes together (node_rows,
 * ranked_sql); the results locked first, so that a change of their flags
 * or listing, which writes their rows, takes its turn. */
static int
move_step (struct store *st, const struct move *m)
{
  char last[128];
  snprintf (last, sizeof last, "SELECT COALESCE(MAX(seq), 0) FROM %s", m->old);
  return range_step (st, m->name, MOVE_BATCH, last, 1, m->move, GB_ARRAY_SIZE (m->move));
}

static int
tests_step (struct store *st)
{
  return move_step (st, &move_tests);
}

static int
ranks_step (struct store *st)
{
  return move_step (st, &move_ranks);
}

/* The backfills, in the order they run (migration 12 compresses the
 * documents that migration 10 reads in SQL): one batch of each, what the
 * log says when one runs beside the server and when it is done, and
 * whether what the followers keep must then be read again. */
struct backfill
{
  int (*step) (struct store *st);
  const char *running, *done;
  int reread;
};

static const struct backfill backfills[] = {
  { build_step, "reading every result's GMP build kind again (migration 10)",
    "the GMP build kinds of every result read again (migration 10)", 1 },
  { pack_step, "compressing the documents stored before (migration 12)",
    "every stored document compressed (migration 12)", 0 },
  { tests_step, "moving the tests' rows stored before to their new table (migration 13)",
    "every test's row in its new table (migration 13)", 0 },
  { ranks_step, "moving the score nodes' rows stored before to their new table (migration 14)",
    "every score node's row in its new table (migration 14)", 0 },
};

/* One batch of the backfill now running, the next one starting where
 * one is done: 1 when more are left, 0 when all are done, -1 on an
 * error.  IN_THREAD: beside the server, whose followers may have to read
 * again what a backfill changed. */
static int
backfill_step (struct store *st, int in_thread)
{
  while (st->backfill_at < GB_ARRAY_SIZE (backfills))
    {
      const struct backfill *b = &backfills[st->backfill_at];
      int more = b->step (st);
      if (more > 0 && in_thread && !st->backfill_worked)
        log_info ("database: %s while the server runs", b->running);
      if (more != 0)
        {
          st->backfill_worked |= more > 0;
          return more;
        }
      if (st->backfill_worked && in_thread)
        {
          log_info ("database: %s", b->done);
          if (b->reread)
            atomic_store (&st->backfill_done, 1);
        }
      st->backfill_at++;
      st->backfill_worked = 0;
    }
  return 0;
}

static void *
backfiller (void *arg)
{
  struct store *st = arg;
  int more = 1;
  while (more > 0 && !atomic_load (&st->backfill_stop))
    more = backfill_step (st, 1);
  return NULL;
}

/* Runs the backfills for up to BACKFILL_AT_OPEN seconds, then starts a
 * thread for what is left: 0, or -1 when it cannot be started. */
static int
start_backfills (struct store *st)
{
  double begun = gb_wall_seconds ();
  int more = 1;
  while (more > 0 && gb_wall_seconds () - begun < BACKFILL_AT_OPEN)
    more = backfill_step (st, 0);
  if (more <= 0)
    return 0;
  log_info ("database: %s while the server runs", backfills[st->backfill_at].running);
  if (pthread_create (&st->backfill_thread, NULL, backfiller, st) != 0)
    return -1;
  st->backfilling = 1;
  return 0;
}

/* ------------------------------------------------------------ dictionaries */

/* The dictionary keeper (dict_keeper) looks every DICT_PERIOD seconds
 * for a dictionary another process stored, and trains one from the last
 * DICT_SAMPLES documents (at most DICT_SAMPLE_BYTES of them) once the
 * results number DICT_FIRST, and again each time they have grown
 * DICT_GROWTH times since the newest was trained.  A repack batch
 * rewrites the frames of at most REPACK_ROWS results; batches run only
 * when this process has stored no upload for REPACK_IDLE seconds (the
 * repack's level costs about 50 times an upload's), and the keeper runs
 * at REPACK_NICE, so that requests go first on a busy machine: it takes
 * the write lock only to write a batch compressed beforehand. */
#define DICT_PERIOD 1
#define DICT_FIRST 64
#define DICT_GROWTH 16
#define DICT_SAMPLES 64
#define DICT_SAMPLE_BYTES (16u << 20)
#define REPACK_ROWS 20
#define REPACK_IDLE 2
#define REPACK_NICE 10
/* The dictionaries in the order they were made: the last is the newest. */
#define DICTS_SQL "SELECT id, content FROM dicts ORDER BY seq, created, id"

static int
take_dict (void *ctx, const struct db_value *cols, int ncols)
{
  struct store *st = ctx;
  char err[160];
  uint32_t id = ncols >= 2 ? (uint32_t) c_int (&cols[0]) : 0;

  if (ncols >= 2 && store_dicts_add (st->dicts, id, cols[1].s, cols[1].len, 1, err, sizeof err) < 0
      && atomic_exchange (&st->dict_unreadable, id) != id)
    log_error ("database: documents compressed with dictionary %lu cannot be read: %s",
               (unsigned long) id, err);
  return 0;
}

/* Reads the dictionaries on C: 0, or -1 (logged). */
static int
read_dicts (struct store *st, struct db_conn *c)
{
  if (st->drv->query (c, DICTS_SQL, NULL, 0, take_dict, st) == 0)
    return 0;
  failed (st, c, "reading the dictionaries");
  return -1;
}

/* Reads the dictionaries again, for a document that names one not known
 * here (another process may have stored it), on a connection of their
 * own: the caller may hold one in the middle of a query.  0, or -1. */
static int
reread_dicts (struct store *st)
{
  char err[256];
  int rc = -1;

  pthread_mutex_lock (&st->dict_lock);
  if (!st->dict_conn)
    {
      st->dict_conn = st->drv->connect (st->target, err, sizeof err);
      if (!st->dict_conn)
        log_error ("database (%s) dictionaries: %s", st->drv->name, err);
    }
  if (st->dict_conn)
    rc = read_dicts (st, st->dict_conn);
  pthread_mutex_unlock (&st->dict_lock);
  return rc;
}

/* Documents read back, for training or repacking. */
struct doc_batch
{
  struct store *st;
  size_t n, bytes, max;
  int64_t last;                 /* the last seq read */
  int64_t *seq;
  char *text;                   /* the documents, one after the other */
  size_t *len;
  unsigned char **old;          /* their frames as read (repacks) */
  size_t *old_len;
};

/* Reads a row (seq, packed, sha256) of a document into B. */
static int
take_doc (void *ctx, const struct db_value *cols, int ncols)
{
  struct doc_batch *b = ctx;
  struct store_body body;
  char err[256];
  int rc;

  if (ncols < 3 || b->n == b->max || b->bytes >= DICT_SAMPLE_BYTES)
    return 1;
  b->last = c_int (&cols[0]);
  if (cols[1].type != DB_BLOB && cols[1].type != DB_TEXT)
    return 0;
  rc = store_body_open (b->st->dicts, cols[1].s, cols[1].len, NULL, 0, c_text (&cols[2]), &body,
                        err, sizeof err);
  if (rc == -2 && reread_dicts (b->st) == 0)
    rc = store_body_open (b->st->dicts, cols[1].s, cols[1].len, NULL, 0, c_text (&cols[2]),
                          &body, err, sizeof err);
  if (rc < 0)
    return 0;                   /* not served either: it says why there */
  b->text = gb_xrealloc (b->text, b->bytes + body.len);
  memcpy (b->text + b->bytes, body.text, body.len);
  b->seq[b->n] = b->last;
  b->len[b->n] = body.len;
  if (b->old)
    {
      b->old[b->n] = gb_xmalloc (cols[1].len);
      memcpy (b->old[b->n], cols[1].s, cols[1].len);
      b->old_len[b->n] = cols[1].len;
    }
  b->bytes += body.len;
  b->n++;
  store_body_close (&body);
  return 0;
}

static void
doc_batch_init (struct doc_batch *b, struct store *st, size_t max, int frames)
{
  memset (b, 0, sizeof *b);
  b->st = st;
  b->max = max;
  b->last = -1;
  b->seq = gb_xcalloc (max, sizeof *b->seq);
  b->len = gb_xcalloc (max, sizeof *b->len);
  if (frames)
    {
      b->old = gb_xcalloc (max, sizeof *b->old);
      b->old_len = gb_xcalloc (max, sizeof *b->old_len);
    }
}

static void
doc_batch_free (struct doc_batch *b)
{
  for (size_t i = 0; b->old && i < b->n; i++)
    free (b->old[i]);
  free (b->old);
  free (b->old_len);
  free (b->seq);
  free (b->len);
  free (b->text);
}

/* Trains a dictionary on the last documents stored (up to seq LAST) and
 * stores it, unless another process stored one trained on as many
 * results meanwhile; the repack then starts over.  0, or -1 (logged). */
static int
train_dict (struct store *st, int64_t last)
{
  struct doc_batch b;
  struct db_conn *c = acquire (st);
  struct db_value p = p_int (DICT_SAMPLES);
  unsigned char *dict = NULL;
  size_t len = 0;
  char err[256];
  int rc = -1;

  doc_batch_init (&b, st, DICT_SAMPLES, 0);
  if (st->drv->query (c, "SELECT seq, packed, sha256 FROM results WHERE packed IS NOT NULL "
                      "ORDER BY seq DESC LIMIT $1", &p, 1, take_doc, &b) < 0)
    failed (st, c, "dictionary samples");
  else
    rc = 0;
  release (st, c);
  if (rc == 0 && b.n < DICT_SAMPLES / 2)
    rc = -1;                    /* too many could not be read: they are logged */
  if (rc == 0 && !(len = store_dict_train (b.text, b.len, (unsigned) b.n, &dict, err,
                                           sizeof err)))
    {
      log_error ("database: %s", err);
      rc = -1;
    }
  size_t samples = b.n;
  doc_batch_free (&b);
  if (rc < 0)
    return -1;

  struct db_value q[] = { p_int (ZSTD_getDictID_fromDict (dict, len)),
    p_int ((int64_t) time (NULL)), p_int (last), p_blob (dict, len), p_int (DICT_GROWTH) };
  struct db_value check[] = { q[4], q[2], q[0] };
  int64_t covered = 0;
  c = acquire_writer (st);
  if (st->drv->begin (c, 1) < 0
      || st->drv->query (c, "SELECT COUNT(*) FROM dicts WHERE seq * $1 > $2 OR id = $3", check,
                         3, first_int, &covered) < 0
      || (!covered && st->drv->query (c, "INSERT INTO dicts (id, created, seq, content) "
                                      "VALUES ($1, $2, $3, $4)", q, 4, NULL, NULL) < 0)
      || (!covered && st->drv->query (c, "UPDATE backfill SET next = 0 WHERE name = 'repack'",
                                    NULL, 0, NULL, NULL) < 0)
      || st->drv->commit (c) < 0)
    {
      failed (st, c, "storing a dictionary");
      rc = -1;
    }
  release_writer (st, c);
  if (rc == 0 && covered)
    {
      c = acquire (st);
      rc = read_dicts (st, c);  /* the one another process stored */
      release (st, c);
    }
  if (rc == 0 && !covered
      && store_dicts_add (st->dicts, (uint32_t) q[0].i, dict, len, 1, err, sizeof err) == 0)
    log_info ("database: dictionary %lld (%zu bytes) trained on %zu documents; documents "
              "stored before are compressed with it in the background", (long long) q[0].i,
              len, samples);
  free (dict);
  return rc;
}

/* One batch of the repack: the frames after its position compressed
 * again with the newest dictionary at the repack's level (uploads use
 * the fast one), outside the write lock, then each written only if
 * unchanged (another process may repack the same batch).  The position
 * follows the last result; a new dictionary sets it back to the start.
 * 1 when more are left, 0 when it is done, -1 on an error. */
static int
repack_step (struct store *st)
{
  struct doc_batch b;
  struct db_conn *c = acquire (st);
  struct db_value p[] = { p_int (-1), p_int (REPACK_ROWS) };
  unsigned char *packed[REPACK_ROWS];
  size_t packed_len[REPACK_ROWS];
  int more = -1;

  doc_batch_init (&b, st, REPACK_ROWS, 1);
  if (st->drv->query (c, "SELECT next FROM backfill WHERE name = 'repack'", NULL, 0, first_int,
                      &p[0].i) == 0)
    more = store_dicts_newest (st->dicts) && p[0].i >= 0;
  if (more > 0 && st->drv->query (c, "SELECT seq, packed, sha256 FROM results WHERE seq > $1 "
                                  "AND packed IS NOT NULL ORDER BY seq LIMIT $2", p, 2, take_doc,
                                  &b) < 0)
    more = -1;
  if (more < 0)
    failed (st, c, "repacking");
  release (st, c);
  if (more <= 0 || b.last < 0)
    {
      doc_batch_free (&b);
      return more < 0 ? -1 : 0;
    }

  for (size_t i = 0, at = 0; i < b.n; at += b.len[i++])
    packed_len[i] = store_dicts_pack (st->dicts, b.text + at, b.len[i], 1, &packed[i]);
  c = acquire_writer (st);
  more = st->drv->begin (c, 1) == 0 ? 1 : -1;
  for (size_t i = 0; more > 0 && i < b.n; i++)
    {
      struct db_value u[] = { p_int (b.seq[i]), p_blob (packed[i], packed_len[i]),
        p_blob (b.old[i], b.old_len[i]) };
      if (packed_len[i] && st->drv->query (c, "UPDATE results SET packed = $2 WHERE seq = $1 "
                                           "AND packed = $3", u, 3, NULL, NULL) < 0)
        more = -1;
    }
  struct db_value q[] = { p_int (b.last), p[0] };
  if (more < 0
      || st->drv->query (c, "UPDATE backfill SET next = $1 WHERE name = 'repack' AND next = $2",
                         q, 2, NULL, NULL) < 0
      || st->drv->commit (c) < 0)
    {
      failed (st, c, "repacking");
      more = -1;
    }
  release_writer (st, c);
  for (size_t i = 0; i < b.n; i++)
    free (packed[i]);
  doc_batch_free (&b);
  return more;
}

/* The newest dictionary stored (its id and the results it was trained
 * at) and the last result: 0, or -1. */
struct dict_state
{
  int64_t id, seq, last;
};

static int
take_newest (void *ctx, const struct db_value *cols, int ncols)
{
  struct dict_state *s = ctx;
  if (ncols >= 2)
    {
      s->id = c_int (&cols[0]);
      s->seq = c_int (&cols[1]);
    }
  return 1;
}

static int
dict_state (struct store *st, struct dict_state *s)
{
  struct db_conn *c = acquire (st);
  int rc = 0;

  memset (s, 0, sizeof *s);
  if (st->drv->query (c, "SELECT id, seq FROM dicts ORDER BY seq DESC, created DESC, id DESC "
                      "LIMIT 1", NULL, 0, take_newest, s) < 0
      || st->drv->query (c, "SELECT COALESCE(MAX(seq), 0) FROM results", NULL, 0, first_int,
                         &s->last) < 0)
    {
      failed (st, c, "dictionaries");
      rc = -1;
    }
  else if (s->id && (uint32_t) s->id != store_dicts_newest (st->dicts))
    rc = read_dicts (st, c);
  release (st, c);
  return rc;
}

/* One round of the keeper: 0, or -1 on an error. */
static int
keep_dicts (struct store *st)
{
  struct dict_state s;
  int more = 1;

  if (dict_state (st, &s) < 0)
    return -1;
  if (s.last >= DICT_FIRST && (!s.id || s.last >= s.seq * DICT_GROWTH)
      && train_dict (st, s.last) < 0)
    return -1;
  while (more > 0 && !st->dict_stop
         && time (NULL) - atomic_load (&st->last_insert) >= REPACK_IDLE)
    more = repack_step (st);
  return more;
}

static void *
dict_keeper (void *arg)
{
  struct store *st = arg;

  gb_thread_lower_priority (REPACK_NICE);
  pthread_mutex_lock (&st->dict_lock);
  while (!st->dict_stop)
    {
      struct timespec until;
      pthread_mutex_unlock (&st->dict_lock);
      keep_dicts (st);
      pthread_mutex_lock (&st->dict_lock);
      clock_gettime (CLOCK_REALTIME, &until);
      until.tv_sec += DICT_PERIOD;
      if (!st->dict_stop)
        pthread_cond_timedwait (&st->dict_wake, &st->dict_lock, &until);
    }
  pthread_mutex_unlock (&st->dict_lock);
  return NULL;
}

struct store *
store_open (const char *target, unsigned connections, char *err, size_t errlen)
{
  struct store *st = gb_xcalloc (1, sizeof *st);
  int pg = strncmp (target, "postgresql://", 13) == 0 || strncmp (target, "postgres://", 11) == 0;
  unsigned total;

  st->drv = pg ? &store_pg_driver : &store_sqlite_driver;
  total = connections + (st->drv->single_writer ? 1 : 0) + (st->drv->checkpoint ? 1 : 0);
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
  for (st->n = 0; st->n < total; st->n++)
    {
      struct db_conn *c = st->drv->connect (target, err, errlen);
      if (!c)
        goto fail;
      st->conns[st->n] = c;
      if (st->n == 0 && migrate (st, c, err, errlen) < 0)
        {
          st->n++;
          goto fail;
        }
      if (st->drv->single_writer && !st->writer)
        st->writer = c;
      else if (st->drv->checkpoint && !st->ckpt_conn)
        st->ckpt_conn = c;
      else
        st->idle[st->nidle++] = c;
    }
  if (st->ckpt_conn)
    {
      if (pthread_create (&st->ckpt_thread, NULL, checkpointer, st) != 0)
        {
          snprintf (err, errlen, "cannot start the checkpoint thread");
          goto fail;
        }
      st->ckpt_started = 1;
    }
  if (read_dicts (st, st->conns[0]) < 0)
    {
      snprintf (err, errlen, "cannot read the dictionaries: %s", st->drv->error (st->conns[0]));
      goto fail;
    }
  if (start_backfills (st) < 0)
    {
      snprintf (err, errlen, "cannot start the backfill thread");
      goto fail;
    }
  if (pthread_create (&st->dict_thread, NULL, dict_keeper, st) != 0)
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

/* ------------------------------------------------------------ rows */

#define ROW_COLUMNS "r.seq, r.received, r.id, r.fingerprint, r.publisher, r.submitter, " \
  "r.arch, r.cpu, r.cpu_name, r.os, r.gmp, r.compiler, r.created, r.scores, r.flags, " \
  "r.unlisted, r.retracted, r.mode, r.build, r.flags_at, r.flag_notes"
#define ROW_NCOLS 21
/* With the document, stored as plain text (body) or compressed (packed),
 * and its SHA-256. */
#define FULL_COLUMNS ROW_COLUMNS ", r.signature, r.public_key, r.body, r.packed, r.sha256"
#define FULL_NCOLS (ROW_NCOLS + 5)

static void
decode_row (const struct db_value *c, int ncols, struct store_row *r)
{
  memset (r, 0, sizeof *r);
  r->seq = c_int (&c[0]);
  r->received = c_int (&c[1]);
  r->id = c_text (&c[2]);
  r->fingerprint = c_text (&c[3]);
  r->publisher = c_text (&c[4]);
  r->submitter = c_text (&c[5]);
  r->arch = c_text (&c[6]);
  r->cpu = c_text (&c[7]);
  r->cpu_name = c_text (&c[8]);
  r->os = c_text (&c[9]);
  r->gmp = c_text (&c[10]);
  r->compiler = c_text (&c[11]);
  r->created = c_text (&c[12]);
  r->scores = c_text (&c[13]);
  r->flags = c_text (&c[14]);
  r->unlisted = (int) c_int (&c[15]);
  r->retracted = (int) c_int (&c[16]);
  r->mode = c_text (&c[17]);
  r->build = c_text (&c[18]);
  r->flags_at = c_int (&c[19]);
  r->flag_notes = c_text (&c[20]);
  if (ncols >= FULL_NCOLS)
    {
      r->signature = c_text (&c[21]);
      r->public_key = c_text (&c[22]);
    }
}

/* The document of the full row C (FULL_COLUMNS) into R, through B, which
 * the caller closes: 0, or -1 (logged) when it is not the document that
 * was stored. */
static int
open_body (struct store *st, const struct db_value *c, struct store_row *r,
           struct store_body *b)
{
  const struct db_value *plain = &c[ROW_NCOLS + 2], *packed = &c[ROW_NCOLS + 3];
  const char *frame = packed->type == DB_BLOB || packed->type == DB_TEXT ? packed->s : NULL;
  char err[256];
  int rc = store_body_open (st->dicts, frame, packed->len, c_text (plain), plain->len,
                            c_text (&c[ROW_NCOLS + 4]), b, err, sizeof err);

  if (rc == -2 && reread_dicts (st) == 0)
    rc = store_body_open (st->dicts, frame, packed->len, c_text (plain), plain->len,
                          c_text (&c[ROW_NCOLS + 4]), b, err, sizeof err);
  if (rc < 0)
    {
      log_error ("result %s (seq %lld) is not served: %s", r->id ? r->id : "?",
                 (long long) r->seq, err);
      return -1;
    }
  r->body = b->text;
  r->body_len = b->len;
  return 0;
}

struct row_adapter
{
  struct store *st;
  store_row_fn fn;
  store_list_fn list_fn;
  void *ctx;
  int found;
  int corrupt;                  /* a document failed its check: stopped there */
};

static int
adapt_row (void *ctx, const struct db_value *cols, int ncols)
{
  struct row_adapter *a = ctx;
  struct store_row row;
  struct store_body body;
  int stop;

  if (ncols < ROW_NCOLS)
    return 1;
  decode_row (cols, ncols, &row);
  a->found = 1;
  if (a->list_fn)
    return a->list_fn (a->ctx, &row, ncols > ROW_NCOLS ? c_real (&cols[ROW_NCOLS]) : 0);
  if (ncols < FULL_NCOLS)
    return a->fn (a->ctx, &row);
  if (open_body (a->st, cols, &row, &body) < 0)
    {
      a->corrupt = 1;
      return 1;
    }
  stop = a->fn (a->ctx, &row);
  store_body_close (&body);
  return stop;
}

/* Runs a read-only query delivering result rows through A. */
static enum store_status
read_rows (struct store *st, const char *sql, const struct db_value *params, int nparams,
           struct row_adapter *a)
{
  struct db_conn *c = acquire (st);
  enum store_status rc = STORE_OK;
  if (st->drv->query (c, sql, params, nparams, adapt_row, a) < 0)
    rc = failed (st, c, "read");
  else if (a->corrupt)
    rc = STORE_CORRUPT;
  release (st, c);
  return rc;
}

/* ------------------------------------------------------------ insert */

static char *
scores_json (const struct doc_summary *doc)
{
  cJSON *obj = cJSON_CreateObject ();
  for (size_t i = 0; i < doc->ninner; i++)
    cJSON_AddNumberToObject (obj, doc->scores[i].name, doc->scores[i].score);
  char *text = cJSON_PrintUnformatted (obj);
  cJSON_Delete (obj);
  if (!text)
    text = gb_xstrdup ("{}");
  return text;
}

struct text_result
{
  char *text;
  int found;
};

static int
take_text (void *ctx, const struct db_value *cols, int ncols)
{
  struct text_result *t = ctx;
  t->found = 1;
  t->text = ncols > 0 && c_text (&cols[0]) ? gb_xstrdup (c_text (&cols[0])) : NULL;
  return 1;
}

struct seq_result
{
  int64_t seq;
  int found;
};

static int
take_seq (void *ctx, const struct db_value *cols, int ncols)
{
  struct seq_result *s = ctx;
  s->found = ncols > 0;
  s->seq = ncols > 0 ? c_int (&cols[0]) : 0;
  return 1;
}

static const char insert_sql[] =
  "INSERT INTO results (id, sha256, received, fingerprint, public_key, publisher, "
  "submitter, arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, "
  "unlisted, listed, body, signature, vendor, mhz, cores, mode, build, flags_at, flag_notes, "
  "packed) VALUES ($1, $2, $3, $4, $5, (SELECT publisher FROM keys WHERE fingerprint = $4), "
  "$6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, '', $19, $20, $21, $22, $23, "
  "$24, $3, $25, $26) ON CONFLICT DO NOTHING RETURNING seq";

/* The clock the leaderboard divides by, in MHz: max, else nominal, else
 * a valid measurement; NULL when none is known. */
static struct db_value
p_mhz (const struct doc_summary *d)
{
  double mhz = d->mhz_max > 0 ? d->mhz_max : d->mhz_nominal > 0 ? d->mhz_nominal
    : d->mhz_measured;
  return mhz > 0 ? p_real (mhz) : p_text (NULL);
}

/* An upload as the writer stores it: its document compressed, and the
 * numbers of its names known before (0: to be found in the transaction),
 * the filters' first (filters_of), then each score's. */
struct packed_upload
{
  const struct store_upload *up;
  unsigned char *packed;
  size_t packed_len;
  int64_t *numbers;
};

enum
{ NFILTERS = 5 };

/* The names of D's filters on its ranked rows, in the order of their
 * numbers in a packed_upload. */
static void
filters_of (const struct doc_summary *d, const char *name[NFILTERS])
{
  name[0] = d->cpu;
  name[1] = d->arch;
  name[2] = d->os;
  name[3] = d->gmp;
  name[4] = d->compiler;
}

/* Inserts the row under the shortest free id; *SEQ found=0 and *ID set
 * when the same bytes are stored already. */
static int
insert_row (struct store *st, struct db_conn *c, const struct packed_upload *pu,
            const char *scores, char id[65], struct seq_result *seq)
{
  const struct store_upload *up = pu->up;
  const struct doc_summary *d = up->doc;
  int flagged = up->flags[0] != '\0';

  for (int len = 16; len <= 64; len += 4)
    {
      memcpy (id, up->sha256, (size_t) len);
      id[len] = '\0';
      struct db_value p[] = {
        p_text (id), p_text (up->sha256), p_int (up->received), p_text (up->fingerprint),
        p_text (up->public_key), p_text (d->submitter), p_text (d->arch), p_text (d->cpu),
        p_text (d->cpu_name), p_text (d->os), p_text (d->gmp), p_text (d->compiler),
        p_text (d->created), p_text (scores), p_text (up->flags), p_int (flagged),
        p_int (up->unlisted), p_int (!up->unlisted), p_text (up->signature),
        p_text (d->cpu_vendor), p_mhz (d), d->cores > 0 ? p_int (d->cores) : p_text (NULL),
        p_text (d->mode), p_text (up->build), p_text (up->flag_notes),
        p_blob (pu->packed, pu->packed_len),
      };
      seq->found = 0;
      if (st->drv->query (c, insert_sql, p, (int) GB_ARRAY_SIZE (p), take_seq, seq) < 0)
        return -1;
      if (seq->found)
        return 0;
      struct text_result t = { NULL, 0 };
      struct db_value h = p_text (up->sha256);
      if (st->drv->query (c, "SELECT id FROM results WHERE sha256 = $1", &h, 1,
                          take_text, &t) < 0)
        return -1;
      if (t.found)
        {
          snprintf (id, 65, "%s", t.text ? t.text : "");
          free (t.text);
          return 0;
        }
      /* Another document has this id prefix: lengthen it. */
    }
  return -1;
}

/* The number of NAME in the open transaction of C, giving it one unless
 * it has one, into *ID (0 for NULL).  0, or -1 on an error. */
static int
number_in_transaction (struct store *st, struct db_conn *c, const char *name, int64_t *id)
{
  struct db_value p = p_text (name);
  *id = 0;
  if (!name)
    return 0;
  if (st->drv->query (c, "INSERT INTO names (name) SELECT $1 WHERE NOT EXISTS "
                      "(SELECT 1 FROM names WHERE name = $1) ON CONFLICT (name) DO NOTHING",
                      &p, 1, NULL, NULL) < 0
      || st->drv->query (c, "SELECT id FROM names WHERE name = $1", &p, 1, first_int, id) < 0)
    return -1;
  return 0;
}

/* A number as a parameter: NULL for 0 (no name). */
static struct db_value
p_number (int64_t id)
{
  return id ? p_int (id) : p_text (NULL);
}

/* The inner nodes' scores go to the ranked rows of ranks, the tests'
 * ops/s (after them in the summary) to tests, names as their numbers:
 * those PU knows, the others found (or given) in this transaction, and
 * kept for it alone, since it may fail. */
static int
insert_scores (struct store *st, struct db_conn *c, int64_t seq, const struct packed_upload *pu)
{
  const struct store_upload *up = pu->up;
  const struct doc_summary *d = up->doc;
  const char *filter[NFILTERS];
  size_t n = NFILTERS + d->nscores;
  int64_t *id = gb_xmalloc (n * sizeof *id);
  int rc = 0;

  filters_of (d, filter);
  memcpy (id, pu->numbers, n * sizeof *id);
  for (size_t i = 0; i < n && rc == 0; i++)
    if (!id[i])
      rc = number_in_transaction (st, c, i < NFILTERS ? filter[i] : d->scores[i - NFILTERS].name,
                                  &id[i]);
  const int64_t *score_id = id + NFILTERS;
  for (size_t i = d->ninner; i < d->nscores && rc == 0; i++)
    {
      struct db_value p[] = { p_int (score_id[i]), p_int (seq), p_real (d->scores[i].score) };
      rc = st->drv->query (c, "INSERT INTO tests (node, seq, score) VALUES ($1, $2, $3)", p, 3,
                           NULL, NULL);
    }
  for (size_t i = 0; i < d->ninner && rc == 0; i++)
    {
      struct db_value p[] = {
        p_int (seq), p_int (score_id[i]), p_int (d->scores[i].depth),
        p_real (d->scores[i].score), p_number (id[0]), p_int (!up->unlisted),
        p_int (up->flags[0] != '\0'), p_number (id[1]), p_number (id[2]), p_number (id[3]),
        p_number (id[4]),
      };
      rc = st->drv->query (c, "INSERT INTO ranks (seq, node, depth, score, cpu, listed, flagged, "
                           "arch, os, gmp, compiler) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                           "$10, $11)", p, 11, NULL, NULL);
    }
  free (id);
  return rc;
}

/* Stores PU in the open transaction of C: STORE_OK (ID set),
 * STORE_EXISTS (ID is the stored one's, nothing written) or STORE_ERROR. */
static enum store_status
insert_one (struct store *st, struct db_conn *c, const struct packed_upload *pu, char id[65])
{
  const struct store_upload *up = pu->up;
  char *scores = scores_json (up->doc);
  struct seq_result seq = { 0, 0 };
  enum store_status rc = STORE_OK;

  if (insert_row (st, c, pu, scores, id, &seq) < 0)
    rc = STORE_ERROR;
  else if (!seq.found)
    rc = STORE_EXISTS;
  else if (insert_scores (st, c, seq.seq, pu) < 0 || (!up->unlisted && announce (st, c, id) < 0))
    rc = STORE_ERROR;
  free (scores);
  return rc;
}

/* One transaction per upload (engines with concurrent writers). */
static enum store_status
insert_alone (struct store *st, const struct packed_upload *pu, char id[65])
{
  struct db_conn *c = acquire_writer (st);
  enum store_status rc;

  if (st->drv->begin (c, 1) < 0)
    rc = failed (st, c, "insert");
  else
    {
      rc = insert_one (st, c, pu, id);
      if (rc == STORE_ERROR)
        failed (st, c, "insert");
      else if (rc == STORE_EXISTS)
        st->drv->rollback (c);
      else if (st->drv->commit (c) < 0)
        rc = failed (st, c, "insert");
    }
  release_writer (st, c);
  return rc;
}

/* Writes the N uploads of BATCH in one transaction.  A database error
 * fails them all: the transaction is rolled back, so none is stored and
 * none is answered as stored. */
static void
write_batch (struct store *st, struct pending *batch, size_t n)
{
  struct db_conn *c = acquire_writer (st);
  struct pending *p = batch;
  size_t i = 0;
  int ok = st->drv->begin (c, 1) == 0;

  for (; ok && i < n; i++, p = p->next)
    {
      p->rc = insert_one (st, c, p->up, p->id);
      ok = p->rc != STORE_ERROR;
    }
  if (ok && st->drv->commit (c) < 0)
    ok = 0;
  if (!ok)
    {
      failed (st, c, "insert");
      for (p = batch, i = 0; i < n; i++, p = p->next)
        p->rc = STORE_ERROR;
    }
  release_writer (st, c);
}

/* Group commit: the caller queues its upload; the first caller to find no
 * transaction in progress leads, writing everything queued so far in one
 * transaction, and wakes the others when it has committed. */
static enum store_status
insert_grouped (struct store *st, const struct packed_upload *up, char id[65])
{
  struct pending self = { up, id, STORE_ERROR, 0, NULL };

  pthread_mutex_lock (&st->batch_lock);
  *st->queue_end = &self;
  st->queue_end = &self.next;
  while (!self.done)
    {
      if (st->leading)
        {
          pthread_cond_wait (&st->batch_done, &st->batch_lock);
          continue;
        }
      /* Lead: take the oldest BATCH_MAX uploads off the queue (when this
       * one is not among them, it leads again afterwards). */
      struct pending *batch = st->queue, *last = batch;
      size_t n = 1;
      while (n < BATCH_MAX && last->next)
        last = last->next, n++;
      st->queue = last->next;
      if (!st->queue)
        st->queue_end = &st->queue;
      last->next = NULL;
      st->leading = 1;
      pthread_mutex_unlock (&st->batch_lock);
      write_batch (st, batch, n);
      pthread_mutex_lock (&st->batch_lock);
      for (struct pending *p = batch; p; p = p->next)
        p->done = 1;
      st->leading = 0;
      pthread_cond_broadcast (&st->batch_done);
    }
  pthread_mutex_unlock (&st->batch_lock);
  return self.rc;
}

void
store_watch (struct store *st, store_change_fn fn, void *ctx)
{
  st->watch = fn;
  st->watch_ctx = ctx;
}

/* Tells the watcher that the result ID (NULL: any) changed. */
static void
changed (struct store *st, const char *id)
{
  if (st->watch)
    st->watch (st->watch_ctx, id);
}

/* Names and their numbers as read. */
struct number_list
{
  struct name_number *v;
  size_t n, cap;
};

static int
take_number (void *ctx, const struct db_value *cols, int ncols)
{
  struct number_list *l = ctx;
  if (ncols < 2 || !cols[0].s)
    return 0;
  if (l->n == l->cap)
    {
      l->cap = l->cap ? 2 * l->cap : 256;
      l->v = gb_xrealloc (l->v, l->cap * sizeof *l->v);
    }
  l->v[l->n].name = gb_xstrdup (cols[0].s);
  l->v[l->n++].id = c_int (&cols[1]);
  return 0;
}

/* Reads every name's number, as committed, into what the store knows. */
static void
read_numbers (struct store *st)
{
  struct number_list l = { NULL, 0, 0 };
  struct db_conn *c = acquire (st);

  if (st->drv->query (c, "SELECT name, id FROM names", NULL, 0, take_number, &l) < 0)
    {
      failed (st, c, "names");
      for (size_t i = 0; i < l.n; i++)
        free (l.v[i].name);
      free (l.v);
    }
  else
    store_names_replace (&st->names, l.v, l.n);
  release (st, c);
}

/* PU's numbers as the store knows them; 1 when one is not known. */
static int
known_numbers (struct store *st, struct packed_upload *pu)
{
  const struct doc_summary *d = pu->up->doc;
  const char *filter[NFILTERS];
  int unknown = 0;

  filters_of (d, filter);
  for (size_t i = 0; i < NFILTERS + d->nscores; i++)
    {
      const char *name = i < NFILTERS ? filter[i] : d->scores[i - NFILTERS].name;
      pu->numbers[i] = store_names_find (&st->names, name);
      unknown |= name && !pu->numbers[i];
    }
  return unknown;
}

enum store_status
store_insert (struct store *st, const struct store_upload *up, char id[65])
{
  struct packed_upload pu = { up, NULL, 0, NULL };
  enum store_status rc;


  /* Compressed here, in the uploader's thread, before it waits for the
   * writer. */
  pu.packed_len = store_dicts_pack (st->dicts, up->body, up->len, 0, &pu.packed);
  atomic_store (&st->last_insert, (long long) time (NULL));
  if (!pu.packed_len)
    {
      log_error ("database (%s) insert: zstd cannot compress the document", st->drv->name);
      return STORE_ERROR;
    }
  /* The names' numbers from memory, read again once when one is new to
   * it (the writer gives the still unknown ones theirs). */
  pu.numbers = gb_xmalloc ((NFILTERS + up->doc->nscores) * sizeof *pu.numbers);
  if (known_numbers (st, &pu))
    {
      read_numbers (st);
      known_numbers (st, &pu);
    }
  rc = st->drv->single_writer ? insert_grouped (st, &pu, id) : insert_alone (st, &pu, id);
  free (pu.packed);
  free (pu.numbers);
  if (rc == STORE_OK && !up->unlisted)
    changed (st, id);
  return rc;
}

/* ------------------------------------------------------------ single rows */

enum store_status
store_get (struct store *st, const char *id, store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_value p = p_text (id);
  enum store_status rc = read_rows (st, "SELECT " FULL_COLUMNS " FROM results r WHERE r.id = $1",
                                    &p, 1, &a);
  return rc == STORE_OK && !a.found ? STORE_NOT_FOUND : rc;
}

struct key_result
{
  int banned;
  char *publisher;
};

static int
take_key (void *ctx, const struct db_value *cols, int ncols)
{
  struct key_result *k = ctx;
  if (ncols >= 2)
    {
      k->publisher = c_text (&cols[0]) ? gb_xstrdup (c_text (&cols[0])) : NULL;
      k->banned = (int) c_int (&cols[1]);
    }
  return 1;
}

enum store_status
store_key_status (struct store *st, const char *fingerprint, int *banned, char **publisher)
{
  struct db_conn *c = acquire (st);
  struct key_result k = { 0, NULL };
  struct db_value p = p_text (fingerprint);
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT publisher, banned FROM keys WHERE fingerprint = $1",
                      &p, 1, take_key, &k) < 0)
    rc = failed (st, c, "key lookup");
  release (st, c);
  *banned = k.banned;
  *publisher = k.publisher;
  return rc;
}

/* Runs the statements of a key change in one transaction: KEY_SQL with
 * the NP parameters P, RESULTS_SQL with the first NR of them, and then
 * each of SCORES_SQL (if any) with the first. */
static enum store_status
key_change (struct store *st, const char *key_sql, const struct db_value *p, int np,
            const char *results_sql, int nr, const char *const *scores_sql)
{
  struct db_conn *c = acquire_writer (st);
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0
      || st->drv->query (c, key_sql, p, np, NULL, NULL) < 0
      || st->drv->query (c, results_sql, p, nr, NULL, NULL) < 0
      || (scores_sql && (st->drv->query (c, scores_sql[0], p, 1, NULL, NULL) < 0
                         || st->drv->query (c, scores_sql[1], p, 1, NULL, NULL) < 0))
      || announce_key (st, c, c_text (&p[0])) < 0
      || st->drv->commit (c) < 0)
    rc = failed (st, c, "key change");
  release_writer (st, c);
  if (rc == STORE_OK)
    changed (st, NULL);
  return rc;
}

enum store_status
store_key_verify (struct store *st, const char *fingerprint, const char *publisher, int64_t when)
{
  struct db_value p[] = { p_text (fingerprint), p_text (publisher), p_int (when) };
  return key_change (st, "INSERT INTO keys (fingerprint, publisher, banned, updated) "
                     "VALUES ($1, $2, 0, $3) ON CONFLICT (fingerprint) DO UPDATE "
                     "SET publisher = excluded.publisher, updated = excluded.updated", p, 3,
                     "UPDATE results SET publisher = $2 WHERE fingerprint = $1", 2, NULL);
}

enum store_status
store_key_ban (struct store *st, const char *fingerprint, int64_t when)
{
  struct db_value p[] = { p_text (fingerprint), p_int (when) };
  return key_change (st, "INSERT INTO keys (fingerprint, publisher, banned, updated) "
                     "VALUES ($1, NULL, 1, $2) ON CONFLICT (fingerprint) DO UPDATE "
                     "SET banned = 1, updated = excluded.updated", p, 2,
                     "UPDATE results SET banned = 1, listed = 0 WHERE fingerprint = $1", 1,
                     (const char *const[]) {
                       "UPDATE ranks SET listed = 0 "
                       "WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)",
                       "UPDATE scores SET listed = 0 "
                       "WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)" });
}

/* ------------------------------------------------------------ listings */

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
 * a filter needs the result's row (vendor, mode, build, verified), each
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
  if (st->drv->query (c, sql, &p, t->value ? 1 : 0, first_int, &n) < 0)
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
  return f->vendor || f->mode || f->build || f->verified_only;
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
  if (st->drv->query (c, "SELECT coalesce(max(seq), 0) FROM results", NULL, 0, first_int,
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
  struct db_conn *c = acquire (st);
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
      if (st->drv->query (c, sql, p, np, adapt_row, &a) < 0)
        plan = -1;
    }
  if (plan < 0)
    rc = failed (st, c, "list");
  release (st, c);
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
    {
      p[np++] = p_int (limit);
      return read_rows (st, "SELECT " FULL_COLUMNS " FROM results r WHERE r.seq > $1 "
                        "AND r.unlisted = 0 ORDER BY r.seq LIMIT $2", p, np, &a);
    }
  snprintf (sql, sizeof sql, "SELECT " ROW_COLUMNS " FROM results r WHERE r.seq > $1 "
            "AND r.listed = 1");
  add_filters (sql, sizeof sql, f, p, &np);
  p[np++] = p_int (limit);
  snprintf (order, sizeof order, " ORDER BY r.seq LIMIT $%d", np);
  append (sql, sizeof sql, order);
  return read_rows (st, sql, p, np, &a);
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
      rc = read_rows (st, sql, p, np, &a);
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
  struct db_conn *c = acquire (st);
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
    rc = failed (st, c, "aggregate");
  release (st, c);
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
  if (ncols < 3)
    return 1;
  return a->fn (a->ctx, c_int (&cols[0]), c_text (&cols[1]), c_text (&cols[2]));
}

enum store_status
store_kinds (struct store *st, store_kind_fn fn, void *ctx)
{
  struct db_conn *c = acquire (st);
  struct kind_adapter a = { fn, ctx };
  enum store_status rc = STORE_OK;

  /* Answered from the results_category index alone. */
  if (st->drv->query (c, "SELECT seq, mode, build FROM results WHERE listed = 1", NULL, 0,
                      adapt_kind, &a) < 0)
    rc = failed (st, c, "kinds");
  release (st, c);
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
  if (ncols < 3)
    return 1;
  if (!*i->arch)
    *i->arch = gb_xstrdup (c_text (&cols[1]) ? c_text (&cols[1]) : "");
  if (!cpu_brand_fits (i->cpu, c_text (&cols[2]), c_text (&cols[0])))
    return 0;
  *i->name = gb_xstrdup (c_text (&cols[0]));
  return 1;
}

enum store_status
store_cpu_info (struct store *st, const char *cpu, char **name, char **arch)
{
  struct db_conn *c = acquire (st);
  struct cpu_info i = { cpu, name, arch };
  struct db_value p = p_text (cpu);
  enum store_status rc = STORE_OK;

  *name = *arch = NULL;
  /* The leaderboard's rule (server/board/board_build.c, name_group): verified
   * publishers' unflagged results first, then unflagged ones, then all,
   * the oldest breaking ties; a brand that does not fit never names the
   * CPU. */
  if (st->drv->query (c, "SELECT cpu_name, MIN(arch), MIN(vendor) FROM results "
                      "WHERE cpu = $1 AND listed = 1 AND cpu_name <> '' GROUP BY cpu_name "
                      "ORDER BY SUM(CASE WHEN publisher IS NOT NULL AND flagged = 0 "
                      "THEN 1 ELSE 0 END) DESC, SUM(1 - flagged) DESC, COUNT(*) DESC, "
                      "MIN(seq)", &p, 1, take_cpu_info, &i) < 0)
    rc = failed (st, c, "cpu info");
  release (st, c);
  if (rc == STORE_OK && !*arch)
    rc = STORE_NOT_FOUND;
  else if (rc == STORE_OK && !*name)
    *name = gb_xstrdup ("");
  return rc;
}

/* ------------------------------------------------------------ pages */

struct board_adapter
{
  store_board_fn fn;
  void *ctx;
  store_value_fn value_fn;      /* for store_board_changes */
  int64_t seq;                  /* the last row's */
};

static const char *
c_text_or_empty (const struct db_value *v)
{
  return c_text (v) ? c_text (v) : "";
}

static int
adapt_board (void *ctx, const struct db_value *c, int ncols)
{
  struct board_adapter *a = ctx;
  if (ncols < 15)
    return 1;
  struct store_board_row row = {
    c_int (&c[0]), c_text_or_empty (&c[1]), c_text_or_empty (&c[2]), c_text_or_empty (&c[3]),
    c_text_or_empty (&c[4]), c_text_or_empty (&c[5]), c_text_or_empty (&c[6]),
    c_text_or_empty (&c[7]), (int) c_int (&c[8]), (int) c_int (&c[9]), c_real (&c[10]),
    (int) c_int (&c[11]), c_text_or_empty (&c[12]), c_text_or_empty (&c[13]),
    (int) c_int (&c[14]),
  };
  a->seq = row.seq;
  return a->fn (a->ctx, &row);
}

#define BOARD_COLUMNS "seq, cpu, cpu_name, arch, vendor, os, gmp, compiler, " \
  "CASE WHEN publisher IS NULL THEN 0 ELSE 1 END, flagged, mhz, cores, mode, build, listed"

enum store_status
store_board_rows (struct store *st, store_board_fn fn, void *ctx)
{
  struct db_conn *c = acquire (st);
  struct board_adapter a = { fn, ctx, NULL, -1 };
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT " BOARD_COLUMNS " FROM results WHERE listed = 1 ORDER BY seq",
                      NULL, 0, adapt_board, &a) < 0)
    rc = failed (st, c, "board");
  release (st, c);
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
  struct db_conn *c = acquire (st);
  struct board_adapter a = { fn, ctx, value_fn, -1 };
  enum store_status rc = STORE_OK;

  for (size_t i = 0; i < n && rc == STORE_OK; i++)
    {
      struct db_value p = p_text (ids[i]);
      a.seq = -1;
      if (st->drv->query (c, "SELECT " BOARD_COLUMNS " FROM results WHERE id = $1", &p, 1,
                          adapt_board, &a) < 0)
        rc = failed (st, c, "board changes");
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
            rc = failed (st, c, "board changes");
        }
    }
  release (st, c);
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
  struct db_conn *c = acquire (st);
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
    rc = failed (st, c, "node column");
  release (st, c);
  return rc;
}

struct category_adapter
{
  store_flags_fn result_fn;
  store_value_fn value_fn;
  void *ctx;
};

static int
adapt_category_result (void *ctx, const struct db_value *cols, int ncols)
{
  struct category_adapter *a = ctx;
  if (ncols < 4)
    return 1;
  return a->result_fn (a->ctx, c_int (&cols[0]), c_text_or_empty (&cols[1]),
                       c_text_or_empty (&cols[2]), c_text_or_empty (&cols[3]));
}

static int
adapt_category_value (void *ctx, const struct db_value *cols, int ncols)
{
  struct category_adapter *a = ctx;
  if (ncols < 3)
    return 1;
  return a->value_fn (a->ctx, c_int (&cols[0]), c_text_or_empty (&cols[1]), c_real (&cols[2]));
}

/* Reads the category of CPU, MODE and BUILD (store_category) on C, in
 * its open transaction: 0, or -1 on an error.  The CROSS JOINs make
 * SQLite read the category's few results first and look up their rows:
 * with a plain JOIN its planner, depending on its statistics, sometimes
 * scanned every test row instead (3.8 s a call at 10,000 whole runs,
 * 0.05 s this way; bench/server-load.sh -w); PostgreSQL plans either
 * spelling alike. */
static int
read_category (struct store *st, struct db_conn *c, const char *cpu, const char *mode,
               const char *build, int limit, store_flags_fn result_fn, store_value_fn value_fn,
               void *ctx)
{
  struct category_adapter a = { result_fn, value_fn, ctx };
  struct db_value p[] = { p_text (cpu), p_text (mode), p_text (build), p_int (limit) };

  if (st->drv->query (c, "SELECT seq, id, flags, flag_notes FROM results WHERE cpu = $1 "
                      "AND mode = $2 AND build = $3 AND listed = 1 ORDER BY seq DESC "
                      "LIMIT $4", p, 4, adapt_category_result, &a) < 0
      || st->drv->query (c, "WITH c AS (SELECT seq FROM results WHERE cpu = $1 AND mode = $2 "
                         "AND build = $3 AND listed = 1 ORDER BY seq DESC LIMIT $4) "
                         "SELECT s.seq, n.name, s.score FROM c CROSS JOIN ranks s "
                         "CROSS JOIN names n WHERE s.seq = c.seq AND n.id = s.node UNION ALL "
                         "SELECT o.seq, o.node, o.score FROM c CROSS JOIN scores o "
                         "WHERE o.seq = c.seq UNION ALL SELECT t.seq, n.name, t.score "
                         "FROM c CROSS JOIN tests t CROSS JOIN names n "
                         "WHERE t.seq = c.seq AND n.id = t.node UNION ALL "
                         "SELECT o.seq, o.node, o.score FROM c CROSS JOIN test_scores o "
                         "WHERE o.seq = c.seq", p, 4,
                         adapt_category_value, &a) < 0)
    return -1;
  return 0;
}

enum store_status
store_category (struct store *st, const char *cpu, const char *mode, const char *build, int limit,
                store_flags_fn result_fn, store_value_fn value_fn, void *ctx)
{
  struct db_conn *c = acquire (st);
  enum store_status rc = STORE_OK;

  /* One read transaction, so that the values are those of the results. */
  if (st->drv->begin (c, 0) < 0
      || read_category (st, c, cpu, mode, build, limit, result_fn, value_fn, ctx) < 0
      || st->drv->commit (c) < 0)
    rc = failed (st, c, "category");
  release (st, c);
  return rc;
}

/* Sets the N results' flags (store_set_flags) on C, in its open
 * transaction: 0, or -1 on an error. */
static int
write_flags (struct store *st, struct db_conn *c, const struct store_flags *changes, size_t n,
             int64_t when)
{
  for (size_t i = 0; i < n; i++)
    {
      int flagged = changes[i].flags[0] != '\0';
      struct db_value p[] = {
        p_text (changes[i].id), p_text (changes[i].flags), p_int (flagged), p_int (when),
        p_text (changes[i].notes),
      };
      if (st->drv->query (c, "UPDATE results SET flags = $2, flagged = $3, flags_at = $4, "
                          "flag_notes = $5 WHERE id = $1", p, 5, NULL, NULL) < 0
          || st->drv->query (c, "UPDATE ranks SET flagged = $2 WHERE seq = "
                             "(SELECT seq FROM results WHERE id = $1)",
                             (struct db_value[]) { p[0], p[2] }, 2, NULL, NULL) < 0
          || st->drv->query (c, "UPDATE scores SET flagged = $2 WHERE seq = "
                             "(SELECT seq FROM results WHERE id = $1)",
                             (struct db_value[]) { p[0], p[2] }, 2, NULL, NULL) < 0
          || announce (st, c, changes[i].id) < 0)
        return -1;
    }
  return 0;
}

enum store_status
store_set_flags (struct store *st, const struct store_flags *changes, size_t n, int64_t when)
{
  struct db_conn *c = acquire_writer (st);
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0 || write_flags (st, c, changes, n, when) < 0
      || st->drv->commit (c) < 0)
    rc = failed (st, c, "flags");
  release_writer (st, c);
  for (size_t i = 0; rc == STORE_OK && i < n; i++)
    changed (st, changes[i].id);
  return rc;
}

/* The row a retraction finds. */
struct retract_target
{
  const char *id;
  int64_t seq;
  int found, listed;
  char *cpu, *mode, *build;
};

static int
take_retract_target (void *ctx, const struct db_value *cols, int ncols)
{
  struct retract_target *t = ctx;
  if (ncols < 5)
    return 1;
  t->found = 1;
  t->seq = c_int (&cols[0]);
  t->listed = (int) c_int (&cols[1]);
  t->cpu = gb_xstrdup (c_text_or_empty (&cols[2]));
  t->mode = gb_xstrdup (c_text_or_empty (&cols[3]));
  t->build = gb_xstrdup (c_text_or_empty (&cols[4]));
  return 1;
}

/* The retraction of T (found) and its category's judgement on C, in its
 * open transaction; the flags changed into *CHANGES, *N.  0, or -1. */
static int
retract_judged (struct store *st, struct db_conn *c, const struct retract_target *t,
                int64_t when, const struct store_rejudge *rj,
                const struct store_flags **changes, size_t *n)
{
  struct db_value p[] = { p_int (t->seq), p_int (when) };
  *changes = NULL;
  *n = 0;
  if (st->drv->query (c, "UPDATE results SET retracted = 1, listed = 0, "
                      "retracted_at = COALESCE(retracted_at, $2) WHERE seq = $1", p, 2,
                      NULL, NULL) < 0
      || st->drv->query (c, "UPDATE ranks SET listed = 0 WHERE seq = $1", p, 1, NULL, NULL) < 0
      || st->drv->query (c, "UPDATE scores SET listed = 0 WHERE seq = $1", p, 1, NULL, NULL) < 0)
    return -1;
  if (!t->listed)
    return 0;
  if (announce (st, c, t->id) < 0)
    return -1;
  if (!rj)
    return 0;
  if (read_category (st, c, t->cpu, t->mode, t->build, rj->limit, rj->result_fn, rj->value_fn,
                     rj->ctx) < 0)
    return -1;
  rj->decide (rj->ctx, t->cpu, t->mode, t->build, changes, n);
  return write_flags (st, c, *changes, *n, when);
}

enum store_status
store_retract (struct store *st, const char *id, int64_t when, const struct store_rejudge *rj)
{
  struct db_conn *c = acquire_writer (st);
  struct retract_target t = { id, 0, 0, 0, NULL, NULL, NULL };
  struct db_value p = p_text (id);
  const struct store_flags *changes = NULL;
  size_t n = 0;
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0
      || st->drv->query (c, "SELECT seq, listed, cpu, mode, build FROM results WHERE id = $1",
                         &p, 1, take_retract_target, &t) < 0
      || (t.found && retract_judged (st, c, &t, when, rj, &changes, &n) < 0)
      || st->drv->commit (c) < 0)
    rc = failed (st, c, "retract");
  release_writer (st, c);
  if (rc == STORE_OK && t.listed)
    {
      changed (st, id);
      for (size_t i = 0; i < n; i++)
        changed (st, changes[i].id);
    }
  free (t.cpu);
  free (t.mode);
  free (t.build);
  return rc == STORE_OK && !t.found ? STORE_NOT_FOUND : rc;
}

/* The rows of the best per GHz by CPU, best first: the first two. */
static int
take_best (void *ctx, const struct db_value *cols, int ncols)
{
  struct store_best *b = ctx;
  if (ncols < 2)
    return 0;
  if (!b->cpu[0])
    {
      snprintf (b->cpu, sizeof b->cpu, "%s", c_text_or_empty (&cols[0]));
      b->per_ghz = c_real (&cols[1]);
    }
  else
    b->other_per_ghz = c_real (&cols[1]);
  return 0;
}

enum store_status
store_best_per_ghz (struct store *st, const char *node, struct store_best *best)
{
  struct db_conn *c = acquire (st);
  struct db_value p = p_text (node);
  enum store_status rc = STORE_OK;

  *best = (struct store_best) { 0, "", 0 };
  /* The top scores by the ranked indexes (ranks_rank, and scores_rank
   * until migration 14 is done), divided by their clocks, the best of
   * each CPU. */
  if (st->drv->query (c, "SELECT r.cpu, MAX(top.score / r.mhz * 1000) AS v FROM (SELECT s.seq, "
                      "s.score FROM ranks s WHERE s.node = (SELECT id FROM names WHERE name = $1) "
                      "AND s.listed = 1 AND s.flagged = 0 UNION ALL SELECT o.seq, o.score "
                      "FROM scores o WHERE o.node = $1 AND o.listed = 1 AND o.flagged = 0 "
                      "ORDER BY 2 DESC LIMIT 1000) top JOIN results r ON r.seq = top.seq "
                      "WHERE r.mhz > 0 GROUP BY r.cpu ORDER BY v DESC LIMIT 2", &p, 1, take_best,
                      best) < 0)
    rc = failed (st, c, "best per GHz");
  release (st, c);
  return rc;
}

enum store_status
store_by_key (struct store *st, const char *fingerprint, int limit, store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_value p[] = { p_text (fingerprint), p_int (limit) };
  return read_rows (st, "SELECT " ROW_COLUMNS " FROM results r WHERE r.fingerprint = $1 "
                    "AND r.listed = 1 ORDER BY r.seq DESC LIMIT $2", p, 2, &a);
}

enum store_status
store_ping (struct store *st)
{
  struct db_conn *c = acquire (st);
  int64_t one = 0;
  enum store_status rc = STORE_OK;
  if (st->drv->query (c, "SELECT 1", NULL, 0, first_int, &one) < 0 || one != 1)
    rc = failed (st, c, "ping");
  release (st, c);
  return rc;
}

/* ------------------------------------------------------------ following */

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
      struct db_conn *c = acquire_writer (st);
      struct db_value p = p_int (st->prune_pos);
      if (st->drv->begin (c, 1) < 0
          || st->drv->query (c, "DELETE FROM changes WHERE pos <= $1", &p, 1, NULL, NULL) < 0
          || st->drv->commit (c) < 0)
        failed (st, c, "prune changes");
      release_writer (st, c);
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
                        "WHERE name = 'changes'), 0)", NULL, 0, first_int, &st->follow_pos) < 0)
    {
      failed (st, st->follow_conn, "follow");
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
      failed (st, st->follow_conn, "follow");
      pause_ms (wait_ms);
      return STORE_ERROR;
    }
  prune_changes (st);
  if (f.rows == 0)
    pause_ms (wait_ms);
  return f.lost ? STORE_ERROR : STORE_OK;
}
