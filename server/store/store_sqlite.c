/* store_sqlite.c: the SQLite driver of the store (see store_driver.h).
 *
 * One sqlite3 handle per pooled connection, in WAL mode so that readers
 * never wait for the writer, with synchronous=NORMAL (a committed result
 * survives a crash of the process; only a power loss can undo the last
 * transactions, never half of one), a busy timeout so that writers queue
 * instead of failing, and foreign keys on.  SQLite's own checkpoints,
 * which the committing writer would run while every other writer waits,
 * are off: a hook records the length of the log after each commit, and
 * the store runs passive checkpoints from a thread of its own (store_pool.c)
 * every 16384 pages of log, which keeps the disk syncs rare.  Each
 * connection caches 64 MiB, and keeps its temporary files in memory: an
 * insert's statement journal (the pages it changed, to undo the statement
 * alone) outgrows SQLite's 64 KiB spill limit, and would otherwise be a
 * file created and deleted for every upload.  Write transactions start with BEGIN IMMEDIATE
 * so that two writers never deadlock on a lock upgrade.
 */
#include "server/store/store_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "common/util.h"
#include "server/store/stmt_cache.h"
#include "server/store/store_migrations.h"

#define BUSY_TIMEOUT_MS 10000

struct db_conn
{
  sqlite3 *db;
  struct stmt_cache cache;
  char error[256];
  long log_pages;               /* the log's length after our last commit */
};

/* This engine's words in the migrations both engines share
 * (store_migrations.h). */
#define STORE_SQL_INT64 "INTEGER"
#define STORE_SQL_FLOAT64 "REAL"
#define STORE_SQL_SERIAL "INTEGER PRIMARY KEY"
#define STORE_SQL_NO_ROWID " WITHOUT ROWID"
#define STORE_SQL_BYTEWISE ""

static const char *const migrations[] = {
  /* 1: results, their score nodes, and the keys the operator marked */
  "CREATE TABLE results (\n"
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,\n"
  "  id TEXT NOT NULL UNIQUE,\n"
  "  sha256 TEXT NOT NULL UNIQUE,\n"
  "  received INTEGER NOT NULL,\n"
  STORE_RESULTS_COLUMNS_1      /* store_migrations.h */
  "  retracted_at INTEGER,\n"
  "  banned INTEGER NOT NULL DEFAULT 0,\n"
  "  listed INTEGER NOT NULL,\n"
  "  body TEXT NOT NULL,\n"
  "  signature TEXT NOT NULL)"
  ";\n"
  "CREATE INDEX results_listed ON results (listed, seq)"
  ";\n"
  "CREATE INDEX results_fingerprint ON results (fingerprint)"
  ";\n"
  "CREATE INDEX results_cpu ON results (cpu, listed, seq)"
  ";\n"
  "CREATE TABLE scores (\n"
  "  seq INTEGER NOT NULL REFERENCES results (seq),\n"
  "  node TEXT NOT NULL,\n"
  "  depth INTEGER NOT NULL,\n"
  "  score REAL NOT NULL,\n"
  "  PRIMARY KEY (seq, node))"
  ";\n"
  "CREATE INDEX scores_rank ON scores (node, score DESC, seq DESC)"
  ";\n"
  "CREATE TABLE keys (\n"
  "  fingerprint TEXT PRIMARY KEY,\n"
  "  publisher TEXT,\n"
  "  banned INTEGER NOT NULL DEFAULT 0,\n"
  "  updated INTEGER NOT NULL)",
  STORE_MIGRATION_2,          /* store_migrations.h */
  STORE_MIGRATION_3,          /* store_migrations.h */
  STORE_MIGRATION_4,          /* store_migrations.h */
  /* 5: what the leaderboard pages filter and divide by: the vendor, the
   * clock (max, else nominal, else a valid measurement, in MHz) and the
   * core count (physical, else logical), read from the stored bodies */
  "ALTER TABLE results ADD COLUMN vendor TEXT;\n"
  "ALTER TABLE results ADD COLUMN mhz REAL;\n"
  "ALTER TABLE results ADD COLUMN cores INTEGER;\n"
  "UPDATE results SET vendor = json_extract(body, '$.system.cpu.vendor'), "
  "mhz = COALESCE(json_extract(body, '$.system.clock.max_mhz'), "
  "json_extract(body, '$.system.clock.nominal_mhz'), "
  "CASE WHEN json_extract(body, '$.system.clock.measured.valid') IS 0 THEN NULL "
  "ELSE json_extract(body, '$.system.clock.measured.mhz') END), "
  "cores = COALESCE(json_extract(body, '$.system.cores.physical'), "
  "json_extract(body, '$.system.cores.logical'));\n",
  STORE_MIGRATION_6,          /* store_migrations.h */
  STORE_MIGRATION_7,          /* store_migrations.h */
  STORE_MIGRATION_8,          /* store_migrations.h */
  /* 9: the category a result is judged in (run mode, GMP build kind:
   * server/judge/plausible.h), when its flags were last decided and why, and an
   * index by result on the tests' rows, so that re-judging a category
   * reads its results' tests without a scan; the index of the headline
   * nodes' peers goes (a review reads every node of a category) */
  "ALTER TABLE results ADD COLUMN mode TEXT NOT NULL DEFAULT '';\n"
  "ALTER TABLE results ADD COLUMN build TEXT NOT NULL DEFAULT '';\n"
  "ALTER TABLE results ADD COLUMN flags_at INTEGER;\n"
  "ALTER TABLE results ADD COLUMN flag_notes TEXT NOT NULL DEFAULT '';\n"
  "UPDATE results SET mode = COALESCE(json_extract(body, '$.run.mode'), ''), "
  "build = CASE WHEN COALESCE(json_extract(body, '$.system.build.gmp.cflags'), '') "
  "LIKE '%-march=%' OR COALESCE(json_extract(body, '$.system.build.gmp.cflags'), '') "
  "LIKE '%-mcpu=%' THEN 'tuned' ELSE 'generic' END, flags_at = received;\n"
  "CREATE INDEX results_category ON results (cpu, mode, build, listed, seq);\n"
  "CREATE INDEX test_scores_seq ON test_scores (seq);\n"
  "DROP INDEX scores_cpu_recent;\n",
  /* 10: the GMP build kind from what the client learnt of the loaded
   * library (system.build.gmp.build: distribution, fat, native), no longer
   * from the header's cflags; unknown for documents without it.  Every
   * result's body is read again and its row written again, which takes
   * minutes at a million results: done in batches by the store after
   * the migration (store_backfill.c), from where this leaves it */
  "CREATE TABLE IF NOT EXISTS backfill (name TEXT PRIMARY KEY, next INTEGER NOT NULL);\n"
  "INSERT INTO backfill (name, next) VALUES ('build', 0);\n",
  /* 11: the changes every process makes to listed results, in commit
   * order (the single writer makes POS follow it, without gaps), so that
   * other processes on the database learn of them (store_follow.c);
   * each server deletes the entries it read a minute or more ago; and the
   * table of migration 10 where an earlier migration 10 ran */
  "CREATE TABLE changes (\n"
  "  pos INTEGER PRIMARY KEY AUTOINCREMENT,\n"
  "  origin TEXT NOT NULL,\n"
  "  id TEXT NOT NULL);\n"
  "CREATE TABLE IF NOT EXISTS backfill (name TEXT PRIMARY KEY, next INTEGER NOT NULL);\n",
  /* 12: result documents compressed (server/store/store_body.h): in packed,
   * with body left empty; the results stored before keep their body as
   * plain text until the store compresses them, in batches, after the
   * migration (store_backfill.c) */
  "ALTER TABLE results ADD COLUMN packed BLOB;\n"
  "INSERT INTO backfill (name, next) VALUES ('packed', 0);\n",
  STORE_MIGRATION_13,         /* store_migrations.h */
  STORE_MIGRATION_14,         /* store_migrations.h */
  /* 15: the zstd dictionaries documents are compressed with (store_dict.h),
   * by the id zstd gives each, with when it was made and the last result
   * stored then; the repack's position (store_dict_keeper.c) */
  "CREATE TABLE dicts (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  created INTEGER NOT NULL,\n"
  "  seq INTEGER NOT NULL,\n"
  "  content BLOB NOT NULL);\n"
  "INSERT INTO backfill (name, next) VALUES ('repack', 0);\n",
  STORE_MIGRATION_16,         /* store_migrations.h */
  STORE_MIGRATION_17,         /* store_migrations.h */
  /* 18: the fingerprints of the results' measurements (model/measurements.h),
   * unique across keys, each with the SHA-256 of the document that took
   * it (store_insert.c); the results stored before have none (it would
   * take every document parsed again), so only copies of those uploaded
   * since are refused */
  "CREATE TABLE measurements (\n"
  "  fingerprint TEXT PRIMARY KEY,\n"
  "  sha256 TEXT NOT NULL) WITHOUT ROWID;\n",
  STORE_MIGRATION_19          /* store_migrations.h */
  "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit "
  "BEGIN SELECT RAISE(ABORT, 'the audit table is append-only'); END;\n"
  "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit "
  "BEGIN SELECT RAISE(ABORT, 'the audit table is append-only'); END;\n",
  STORE_MIGRATION_20,         /* store_migrations.h */
};

static void
set_error (struct db_conn *c, const char *what)
{
  snprintf (c->error, sizeof c->error, "%s: %s", what, sqlite3_errmsg (c->db));
}

/* Replaces SQLite's automatic checkpoints (see the top of the file). */
static int
log_hook (void *ctx, sqlite3 *db, const char *name, int pages)
{
  (void) db;
  (void) name;
  ((struct db_conn *) ctx)->log_pages = pages;
  return SQLITE_OK;
}

static struct db_conn *
sqlite_connect (const char *target, char *err, size_t errlen)
{
  struct db_conn *c = gb_xcalloc (1, sizeof *c);
  static const char setup[] =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
    "PRAGMA journal_size_limit=67108864; PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;";

  if (sqlite3_open_v2 (target, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                       | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
      || sqlite3_busy_timeout (c->db, BUSY_TIMEOUT_MS) != SQLITE_OK
      || sqlite3_exec (c->db, setup, NULL, NULL, NULL) != SQLITE_OK)
    {
      snprintf (err, errlen, "%s: %s", target, c->db ? sqlite3_errmsg (c->db) : "out of memory");
      sqlite3_close (c->db);
      free (c);
      return NULL;
    }
  sqlite3_wal_hook (c->db, log_hook, c);
  return c;
}

static void
finalize (void *stmt)
{
  sqlite3_finalize (stmt);
}

static void
sqlite_disconnect (struct db_conn *c)
{
  stmt_cache_clear (&c->cache, finalize);
  sqlite3_close (c->db);
  free (c);
}

/* $N placeholders become ?N; nothing else changes. */
static char *
rewrite (const char *sql)
{
  char *out = gb_xstrdup (sql);
  for (char *p = out; *p; p++)
    if (*p == '$' && p[1] >= '1' && p[1] <= '9')
      *p = '?';
  return out;
}

static sqlite3_stmt *
prepare (struct db_conn *c, const char *sql)
{
  struct stmt_entry *e = stmt_cache_get (&c->cache, sql);
  if (!e->stmt)
    {
      char *text = rewrite (sql);
      sqlite3_stmt *stmt = NULL;
      int rc = sqlite3_prepare_v3 (c->db, text, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
      free (text);
      if (rc != SQLITE_OK)
        {
          set_error (c, "prepare");
          stmt_cache_drop (&c->cache, e);
          return NULL;
        }
      e->stmt = stmt;
    }
  return e->stmt;
}

static int
bind (sqlite3_stmt *stmt, const struct db_value *params, int nparams)
{
  for (int i = 0; i < nparams; i++)
    {
      const struct db_value *v = &params[i];
      int rc;
      switch (v->type)
        {
        case DB_INT:
          rc = sqlite3_bind_int64 (stmt, i + 1, v->i);
          break;
        case DB_REAL:
          rc = sqlite3_bind_double (stmt, i + 1, v->d);
          break;
        case DB_TEXT:
          rc = sqlite3_bind_text64 (stmt, i + 1, v->s, v->len, SQLITE_STATIC, SQLITE_UTF8);
          break;
        case DB_BLOB:
          rc = sqlite3_bind_blob64 (stmt, i + 1, v->s, v->len, SQLITE_STATIC);
          break;
        default:
          rc = sqlite3_bind_null (stmt, i + 1);
          break;
        }
      if (rc != SQLITE_OK)
        return -1;
    }
  return 0;
}

static void
column (sqlite3_stmt *stmt, int i, struct db_value *v)
{
  memset (v, 0, sizeof *v);
  switch (sqlite3_column_type (stmt, i))
    {
    case SQLITE_INTEGER:
      v->type = DB_INT;
      v->i = sqlite3_column_int64 (stmt, i);
      break;
    case SQLITE_FLOAT:
      v->type = DB_REAL;
      v->d = sqlite3_column_double (stmt, i);
      break;
    case SQLITE_NULL:
      v->type = DB_NULL;
      break;
    case SQLITE_BLOB:
      v->type = DB_BLOB;
      v->s = sqlite3_column_blob (stmt, i);
      v->len = (size_t) sqlite3_column_bytes (stmt, i);
      break;
    default:
      v->type = DB_TEXT;
      v->s = (const char *) sqlite3_column_text (stmt, i);
      v->len = (size_t) sqlite3_column_bytes (stmt, i);
      break;
    }
}

static int
run (struct db_conn *c, sqlite3_stmt *stmt, db_row_fn row, void *ctx)
{
  int ncols = sqlite3_column_count (stmt);
  struct db_value cols[32];
  int rc;

  if (ncols > (int) GB_ARRAY_SIZE (cols))
    {
      snprintf (c->error, sizeof c->error, "too many columns");
      return -1;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int i = 0; i < ncols; i++)
        column (stmt, i, &cols[i]);
      if (row && row (ctx, cols, ncols))
        return 0;
    }
  if (rc != SQLITE_DONE)
    {
      set_error (c, "step");
      return -1;
    }
  return 0;
}

static int
sqlite_query (struct db_conn *c, const char *sql, const struct db_value *params, int nparams,
              db_row_fn row, void *ctx)
{
  sqlite3_stmt *stmt = prepare (c, sql);
  int rc;

  if (!stmt)
    return -1;
  if (bind (stmt, params, nparams) < 0)
    {
      set_error (c, "bind");
      rc = -1;
    }
  else
    rc = run (c, stmt, row, ctx);
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  return rc;
}

static int
sqlite_exec (struct db_conn *c, const char *sql)
{
  if (sqlite3_exec (c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error (c, "exec");
      return -1;
    }
  return 0;
}

static int
sqlite_begin (struct db_conn *c, int write)
{
  return sqlite_query (c, write ? "BEGIN IMMEDIATE" : "BEGIN", NULL, 0, NULL, NULL);
}

static int
sqlite_commit (struct db_conn *c)
{
  return sqlite_query (c, "COMMIT", NULL, 0, NULL, NULL);
}

static void
sqlite_rollback (struct db_conn *c)
{
  if (!sqlite3_get_autocommit (c->db))
    sqlite3_exec (c->db, "ROLLBACK", NULL, NULL, NULL);
}

static const char *
sqlite_error (struct db_conn *c)
{
  return c->error;
}

static long
sqlite_log_pages (struct db_conn *c)
{
  return c->log_pages;
}

static int
sqlite_checkpoint (struct db_conn *c, long *backfilled)
{
  int log = 0, done = 0;
  int rc = sqlite3_wal_checkpoint_v2 (c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
  if (rc == SQLITE_BUSY)        /* another connection is checkpointing */
    done = 0;
  else if (rc != SQLITE_OK)
    {
      set_error (c, "checkpoint");
      return -1;
    }
  *backfilled = done;
  return 0;
}

const struct store_driver store_sqlite_driver = {
  "sqlite", migrations, GB_ARRAY_SIZE (migrations), NULL, NULL, 1, 1,
  sqlite_connect, sqlite_disconnect, sqlite_begin, sqlite_commit, sqlite_rollback,
  sqlite_query, sqlite_exec, sqlite_error, sqlite_log_pages, sqlite_checkpoint,
  /* ANALYZE reading at most 1000 rows of each index: milliseconds even at
   * a million results, and enough to choose between indexes. */
  "PRAGMA analysis_limit=1000; ANALYZE;",
  "UPDATE results SET build = CASE WHEN json_extract(body, '$.system.build.gmp.build') "
  "IN ('distribution', 'fat', 'native') THEN json_extract(body, '$.system.build.gmp.build') "
  "ELSE 'unknown' END WHERE seq > $1 AND seq <= $2 AND packed IS NULL",
  NULL, NULL,
  /* Its pages as of the last commit: the log's (at most about 64 MiB,
   * see the top of the file) come on top until a checkpoint. */
  "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
  /* AUTOINCREMENT numbers a new row after the largest of its rows and of
   * this counter, so the number taken is never given to a result. */
  "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'results' RETURNING seq",
};
