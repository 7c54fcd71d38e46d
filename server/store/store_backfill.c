/* store_backfill.c: the backfills, the migrations' rewrites of every
 * result.
 *
 * A migration that must rewrite every result (migration 10: the GMP
 * build kind read again from each body; migration 12: each body
 * compressed; migrations 13 and 14: the rows of tests and score nodes
 * moved to tables that hold their names as numbers; migration 17:
 * whether each result ran in a virtual machine, read from its document)
 * leaves a row in the table backfill, and the store does the work in
 * batches, each its own transaction, one backfill after the other: for
 * up to BACKFILL_AT_OPEN seconds in store_open, then in a thread of its
 * own while the server runs.  A backfill that reads the documents
 * (doc_step) decompresses and parses them outside the write
 * transaction, as the compression does.
 */
#include "server/store/store_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/machine_kind.h"
#include "server/log.h"
#include "server/store/store_body.h"
#include "server/store/store_dict.h"

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
/* A batch of a backfill that reads the documents (migration 17) takes at
 * most this many results: some tens of milliseconds of parsing, done
 * before it waits for the writer. */
#define DOC_BATCH 200

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
  struct db_conn *c = store_acquire_writer (st);
  int64_t from = -1, last = 0;
  struct db_value p[] = { p_text (name), p_int (batch), p_int (0) };
  int more = -1;

  if (st->drv->begin (c, 1) == 0
      && st->drv->query (c, "UPDATE backfill SET next = next + $2 WHERE name = $1 "
                         "RETURNING next - $2", p, 2, store_first_int, &from) == 0
      && st->drv->query (c, last_sql, NULL, 0, store_first_int, &last) == 0)
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
    store_failed (st, c, "backfill");
  store_release_writer (st, c);
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
  struct db_conn *c = store_acquire (st);
  struct db_value p[] = { p_int (0), p_int (PACK_ROWS) };
  int rc = 0;

  *from = -1;
  if (st->drv->query (c, "SELECT next FROM backfill WHERE name = 'packed'", NULL, 0,
                      store_first_int, from) < 0)
    rc = -1;
  p[0] = p_int (*from);
  if (rc == 0 && *from >= 0
      && (st->drv->query (c, "SELECT seq, body FROM results WHERE seq > $1 AND packed IS NULL "
                          "ORDER BY seq LIMIT $2", p, 2, take_plain, b) < 0 || b->failed))
    rc = -1;
  if (rc < 0)
    store_failed (st, c, b->failed ? "compression (zstd failed)" : "compression");
  store_release (st, c);
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
  c = store_acquire_writer (st);
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
    store_failed (st, c, "compression");
  store_release_writer (st, c);
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
 * of the two tables, which every read takes together (store_list.c:
 * node_rows, ranked_sql); the results locked first, so that a change of their flags
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

/* A backfill that reads every result's document again (migration 17):
 * the column VALUE_OF gives, for each document, written by UPDATE_SQL
 * ($1: the result's seq, $2: the value), under the backfill's NAME. */
struct doc_backfill
{
  const char *name, *update_sql;
  int64_t (*value_of) (const cJSON *doc);
};

/* The documents of a batch, as values. */
struct doc_values
{
  struct store *st;
  const struct doc_backfill *fill;
  int64_t seq[DOC_BATCH], value[DOC_BATCH];
  size_t n;
};

/* Reads a row (seq, body, packed, sha256) into the batch CTX: its
 * document's value, or the column's default (0) for a document that
 * fails its check (which is not served either: store_read.c logs why
 * when it is asked for). */
static int
take_doc_value (void *ctx, const struct db_value *cols, int ncols)
{
  struct doc_values *v = ctx;
  const struct db_value *plain = &cols[1], *packed = &cols[2];
  const char *frame = packed->type == DB_BLOB || packed->type == DB_TEXT ? packed->s : NULL;
  struct store_body body;
  char err[256];

  if (ncols < 4 || v->n == DOC_BATCH)
    return 1;
  int rc = store_body_open (v->st->dicts, frame, packed->len, c_text (plain), plain->len,
                            c_text (&cols[3]), &body, err, sizeof err);
  if (rc == -2 && store_reread_dicts (v->st) == 0)
    rc = store_body_open (v->st->dicts, frame, packed->len, c_text (plain), plain->len,
                          c_text (&cols[3]), &body, err, sizeof err);
  v->seq[v->n] = c_int (&cols[0]);
  v->value[v->n] = 0;
  if (rc == 0)
    {
      cJSON *doc = cJSON_ParseWithLength (body.text, body.len);
      v->value[v->n] = v->fill->value_of (doc);
      cJSON_Delete (doc);
      store_body_close (&body);
    }
  v->n++;
  return 0;
}

/* Reads the next batch of documents after the backfill's position into
 * V, outside any write transaction; *FROM is -1 when the backfill is
 * done.  0, or -1 on an error. */
static int
read_doc_values (struct store *st, struct doc_values *v, int64_t *from)
{
  struct db_conn *c = store_acquire (st);
  struct db_value name = p_text (v->fill->name), p[2];
  int rc = 0;

  *from = -1;
  if (st->drv->query (c, "SELECT next FROM backfill WHERE name = $1", &name, 1,
                      store_first_int, from) < 0)
    rc = -1;
  p[0] = p_int (*from);
  p[1] = p_int (DOC_BATCH);
  if (rc == 0 && *from >= 0
      && st->drv->query (c, "SELECT seq, body, packed, sha256 FROM results WHERE seq > $1 "
                         "ORDER BY seq LIMIT $2", p, 2, take_doc_value, v) < 0)
    rc = -1;
  if (rc < 0)
    store_failed (st, c, "backfill");
  store_release (st, c);
  return rc;
}

/* Writes V's values on C in its open transaction, the batch's results
 * locked first where the engine needs it (as move_step's), and moves the
 * backfill's position past them, or ends it when V is the last batch
 * (shorter than DOC_BATCH): 0, or -1 on an error. */
static int
write_doc_values (struct store *st, struct db_conn *c, const struct doc_values *v)
{
  struct db_value name = p_text (v->fill->name);
  struct db_value range[] = { p_int (v->n ? v->seq[0] - 1 : 0),
                              p_int (v->n ? v->seq[v->n - 1] : 0) };
  if (v->n && st->drv->lock_results_sql
      && st->drv->query (c, st->drv->lock_results_sql, range, 2, NULL, NULL) < 0)
    return -1;
  for (size_t i = 0; i < v->n; i++)
    {
      struct db_value p[] = { p_int (v->seq[i]), p_int (v->value[i]) };
      if (st->drv->query (c, v->fill->update_sql, p, 2, NULL, NULL) < 0)
        return -1;
    }
  if (v->n == DOC_BATCH)
    {
      struct db_value p[] = { name, range[1] };
      return st->drv->query (c, "UPDATE backfill SET next = $2 WHERE name = $1 AND next < $2",
                             p, 2, NULL, NULL);
    }
  return st->drv->query (c, "DELETE FROM backfill WHERE name = $1", &name, 1, NULL, NULL);
}

/* One batch of the backfill FILL: the next documents read, their values
 * written in a transaction of its own.  Processes sharing the database
 * may read the same batch; they write the same values.  1 when more are
 * left, 0 when it is done, -1 on an error. */
static int
doc_step (struct store *st, const struct doc_backfill *fill)
{
  struct doc_values *v = gb_xcalloc (1, sizeof *v);
  int64_t from;
  int more = -1;

  v->st = st;
  v->fill = fill;
  if (read_doc_values (st, v, &from) == 0)
    more = 0;
  if (more == 0 && from >= 0)
    {
      struct db_conn *c = store_acquire_writer (st);
      more = st->drv->begin (c, 1) == 0 && write_doc_values (st, c, v) == 0
        && st->drv->commit (c) == 0 ? v->n == DOC_BATCH : -1;
      if (more < 0)
        store_failed (st, c, "backfill");
      store_release_writer (st, c);
    }
  free (v);
  return more;
}

static int64_t
virtual_of (const cJSON *doc)
{
  return machine_is_virtual (doc);
}

static const struct doc_backfill fill_virtual = {
  "virtual", "UPDATE results SET virtual_machine = $2 WHERE seq = $1", virtual_of
};

static int
virtual_step (struct store *st)
{
  return doc_step (st, &fill_virtual);
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
  { virtual_step, "reading whether each result ran in a virtual machine (migration 17)",
    "every result marked bare metal or virtual (migration 17)", 1 },
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
int
store_start_backfills (struct store *st)
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
