/* store_driver.h: what the store (store.c and its files) needs from a
 * database engine.
 *
 * The store holds all the SQL and the logic of storing and querying
 * results; a driver only runs statements.  Every statement goes through
 * query(), which prepares it once per connection (the driver caches
 * prepared statements by their text) and binds the parameters: SQL text
 * never contains data.  Placeholders are written $1, $2, ... for both
 * engines; the SQLite driver rewrites them to ?1, ?2, ...
 *
 * Each engine has its own migrations (the dialects differ in DDL only):
 * migration I (1-based) brings the schema from version I-1 to I.  A
 * migration is a fixed script of DDL statements run by exec(), the one
 * place where SQL runs unprepared (it has no parameters).
 */
#ifndef GB_SERVER_STORE_DRIVER_H
#define GB_SERVER_STORE_DRIVER_H

#include <stddef.h>
#include <stdint.h>

enum db_type
{
  DB_NULL, DB_INT, DB_REAL, DB_TEXT, DB_BLOB
};

struct db_value
{
  enum db_type type;
  int64_t i;
  double d;
  const char *s;                /* DB_TEXT: LEN bytes, NUL-terminated;
                                 * DB_BLOB: LEN bytes */
  size_t len;
};

/* Called once per result row with NCOLS values; nonzero stops the query
 * (the query then still succeeds). */
typedef int (*db_row_fn) (void *ctx, const struct db_value *cols, int ncols);

struct db_conn;

struct store_driver
{
  const char *name;
  const char *const *migrations;
  size_t nmigrations;
  /* A statement that, inside a transaction, serialises migrations among
   * processes sharing the database, or NULL when begin(1) does so. */
  const char *migration_lock;
  /* A statement that, inside a transaction, serialises the judgements of
   * one category ($1, "CPU\nMODE\nBUILD") among concurrent writers until
   * it ends, or NULL when begin(1) does so (store_rejudge_in). */
  const char *category_lock;
  /* Whether the engine admits one writing transaction at a time (the
   * store then queues its writers on a mutex). */
  int single_writer;
  /* Whether the planner reads the arms of a UNION ALL along their own
   * indexes, merged, for an ORDER BY ... LIMIT over the union (SQLite);
   * if not (PostgreSQL sorts every row of arms that fix a column by
   * conditions of their own), store_list.c gives each arm its own limit. */
  int merges_ordered_arms;

  struct db_conn *(*connect) (const char *target, char *err, size_t errlen);
  void (*disconnect) (struct db_conn *c);
  /* WRITE: the transaction will write (SQLite takes the lock up front). */
  int (*begin) (struct db_conn *c, int write);
  int (*commit) (struct db_conn *c);
  void (*rollback) (struct db_conn *c);
  /* 0 on success, -1 on error (see error()). */
  int (*query) (struct db_conn *c, const char *sql, const struct db_value *params,
                int nparams, db_row_fn row, void *ctx);
  /* Runs a fixed script of statements without parameters (migrations). */
  int (*exec) (struct db_conn *c, const char *sql);
  const char *(*error) (struct db_conn *c);
  /* For engines whose write-ahead log the store moves into the database
   * itself, from a thread of its own, so that no writer waits for it
   * (SQLite); NULL for the others.  log_pages() is the length of the log
   * after the last commit on C; checkpoint() moves what it can without
   * blocking writers, setting *BACKFILLED to the pages of the log now in
   * the database; 0, or -1 on an error. */
  long (*log_pages) (struct db_conn *c);
  int (*checkpoint) (struct db_conn *c, long *backfilled);
  /* A script that refreshes the query planner's statistics, which the
   * checkpointer runs at start and then at most every STATS_INTERVAL
   * seconds; NULL where the engine keeps them itself (PostgreSQL's
   * autovacuum).  Without statistics SQLite may sort a million score
   * rows in a temporary tree instead of reading the index in order. */
  const char *refresh_stats;
  /* The backfill of migration 10 (store_backfill.c): sets the GMP
   * build kind of the results with $1 < seq <= $2 from their bodies,
   * those still stored as plain text (the backfill of migration 12, which
   * compresses them, runs after it). */
  const char *build_kind_sql;
  /* For engines with more than one writer: locks the results with
   * $1 < seq <= $2 until the transaction ends, so that the backfills of
   * migrations 13 and 14, which move their rows, and the changes of their
   * flags or listing, which write those rows, take turns (PostgreSQL's
   * FOR UPDATE); NULL where one writer at a time is the rule. */
  const char *lock_results_sql;
  /* For engines that tell other sessions of changes by notification
   * (PostgreSQL's LISTEN and NOTIFY; NULL for the others, whose changes
   * the store keeps in a table: store_follow.c): waits at most
   * WAIT_MS for notifications on C (which exec()'d LISTEN) and gives each
   * one's payload to FN.  0, or -1 when the connection broke (the
   * notifications sent meanwhile are lost with it). */
  int (*notifications) (struct db_conn *c, int wait_ms,
                        void (*fn) (void *ctx, const char *payload), void *ctx);
  /* A query of the database's size in bytes, for the metrics
   * (store_measure). */
  const char *size_sql;
  /* A statement that advances the sequence numbering the results and
   * returns the number it took: a place in the dump no result has and
   * none will take (store_move_in_dump). */
  const char *next_position_sql;
};

extern const struct store_driver store_sqlite_driver;
extern const struct store_driver store_pg_driver;

#endif
