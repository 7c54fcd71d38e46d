/* store_internal.h: what the files of the store share and the rest of
 * the server need not see (included by the files of server/store/
 * alone): the state of a store, the pool every operation takes its
 * connection from, the makers of parameters and readers of columns, the
 * columns of a result's row and the adapter that decodes them, and the
 * functions by which the files of the store call each other.  store.c
 * says what each file holds.
 */
#ifndef GB_SERVER_STORE_INTERNAL_H
#define GB_SERVER_STORE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "server/store/store.h"
#include "server/store/store_driver.h"
#include "server/store/store_names.h"

/* How many listed results a filter term matches, cached for the choice
 * of a listing plan (store_list.c): a direct-mapped cache of COUNT_SLOTS
 * terms. */
#define COUNT_SLOTS 256

struct count_entry
{
  char key[192];                /* column, NUL, value; "" when free */
  int64_t n, cap;                /* n > cap: more than cap */
  double when;
};

/* The random bytes of the sources' key (store_sources.c). */
#define STORE_SECRET_BYTES 32

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
  /* The key of the sources' hashes (store_sources.c): hex text, not
   * NUL-terminated; all zero bytes until read. */
  char secret[2 * STORE_SECRET_BYTES];
  /* The checkpointer (store_pool.c), for drivers with checkpoint(). */
  struct db_conn *ckpt_conn;
  pthread_t ckpt_thread;
  pthread_mutex_t ckpt_lock;
  pthread_cond_t ckpt_wake;
  int ckpt_started, ckpt_wanted, ckpt_stop;
  long backfilled;              /* pages of the log already in the database */
  /* Group commit (store_insert.c): uploads waiting for the next
   * transaction, and whether a thread (the leader) is writing one. */
  pthread_mutex_t batch_lock;
  pthread_cond_t batch_done;
  struct pending *queue, **queue_end;
  int leading;
  pthread_mutex_t count_lock;   /* guards COUNTS */
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
  /* The backfill thread, when store_open left work for it
   * (store_backfill.c). */
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
  /* The dictionary keeper (store_dict_keeper), its sleep and its stop. */
  pthread_t dict_thread;
  int dict_started;
  atomic_int dict_stop;
  pthread_cond_t dict_wake;
  atomic_llong last_insert;     /* when store_insert was last called (time) */
  atomic_uint dict_unreadable;  /* the last dictionary found unreadable, logged */
};

/* The channel of PostgreSQL's notifications of changes (store_pool.c,
 * store_follow.c). */
#define CHANNEL "gmpbench_changes"

/* Parameter constructors. */
static inline struct db_value
p_text (const char *s)
{
  struct db_value v = { s ? DB_TEXT : DB_NULL, 0, 0, s, s ? strlen (s) : 0 };
  return v;
}

static inline struct db_value
p_int (int64_t i)
{
  struct db_value v = { DB_INT, i, 0, NULL, 0 };
  return v;
}

static inline struct db_value
p_real (double d)
{
  struct db_value v = { DB_REAL, 0, d, NULL, 0 };
  return v;
}

static inline struct db_value
p_blob (const unsigned char *data, size_t len)
{
  struct db_value v = { DB_BLOB, 0, 0, (const char *) data, len };
  return v;
}

/* Column readers: the SQLite driver gives typed values, the PostgreSQL
 * driver text. */
static inline int64_t
c_int (const struct db_value *v)
{
  return v->type == DB_INT ? v->i : v->type == DB_REAL ? (int64_t) v->d
    : v->type == DB_TEXT ? strtoll (v->s, NULL, 10) : 0;
}

static inline double
c_real (const struct db_value *v)
{
  return v->type == DB_REAL ? v->d : v->type == DB_INT ? (double) v->i
    : v->type == DB_TEXT ? strtod (v->s, NULL) : 0;
}

static inline const char *
c_text (const struct db_value *v)
{
  return v->type == DB_TEXT ? v->s : NULL;
}

static inline const char *
c_text_or_empty (const struct db_value *v)
{
  return c_text (v) ? c_text (v) : "";
}

/* The pool (store_pool.c).  A connection for a read, and its return; one
 * for a write (the writer's own, in turn, on an engine with one writer at
 * a time), and its return.  store_failed logs WHAT failed on C and rolls
 * its transaction back: STORE_ERROR.  store_checkpointer is the thread
 * (its argument the store) that keeps the write-ahead log short. */
struct db_conn *store_acquire (struct store *st);
void store_release (struct store *st, struct db_conn *c);
struct db_conn *store_acquire_writer (struct store *st);
void store_release_writer (struct store *st, struct db_conn *c);
enum store_status store_failed (struct store *st, struct db_conn *c, const char *what);
void *store_checkpointer (void *arg);
/* A row function: the first column of the row, as an integer, into the
 * int64_t at CTX (0 when the row has none); stops. */
int store_first_int (void *ctx, const struct db_value *cols, int ncols);

/* Announcements (store_pool.c): on C, in its open transaction, that the
 * listed result ID changed, or every listed result of the key
 * FINGERPRINT: 0, or -1.  store_changed tells this store's watcher
 * (store_watch) that the result ID (NULL: any) changed. */
int store_announce (struct store *st, struct db_conn *c, const char *id);
int store_announce_key (struct store *st, struct db_conn *c, const char *fingerprint);
void store_changed (struct store *st, const char *id);

/* Takes, on C in its open transaction, the lock that serialises the
 * judgements of the category of CPU, MODE and BUILD on an engine with
 * concurrent writers (store_judge.c), before the transaction locks any
 * row, so that a judgement reads the category as the one before it
 * committed it: 0, or -1 on an error. */
int store_lock_category (struct store *st, struct db_conn *c, const char *cpu, const char *mode,
                         const char *build);

/* Sets the N results' flags, decided at WHEN (store_set_flags), on C, in
 * its open transaction, announcing each (store_judge.c): 0, or -1. */
int store_write_flags (struct store *st, struct db_conn *c, const struct store_flags *changes,
                       size_t n, int64_t when);

/* Judges the category of CPU, MODE and BUILD again through RJ on C, in
 * its open transaction (store_judge.c): feeds it its rows, asks RJ's
 * decision (ID: the result the transaction stored, or NULL), and writes
 * the flags that change, decided at WHEN, returned in *CHANGES, *N (owned
 * by RJ's context).  0, or -1 on an error. */
int store_rejudge_in (struct store *st, struct db_conn *c, const char *id, const char *cpu,
                      const char *mode, const char *build, int64_t when,
                      const struct store_rejudge *rj, const struct store_flags **changes,
                      size_t *n);

/* A result that an action may take out of listings or into them again
 * (a retraction, store_judge.c; hiding and showing again,
 * store_admin.c), as store_read_target finds the one of ID on C, in its
 * open transaction (found 0 when there is none): 0, or -1 on an error.
 * store_free_target frees what it read.  store_target_moved, once the
 * action has taken T out of listings or into them on C, prunes its CPU's
 * sources, announces T and judges its category again through RJ (none
 * when NULL), decided at WHEN, the flags that change in *CHANGES, *N:
 * 0, or -1.  store_target_changed, after the commit, tells the watcher
 * of T and of the N results whose flags changed. */
struct store_target
{
  const char *id;
  int64_t seq, hidden_at;
  int found, listed, retracted;
  char *cpu, *mode, *build;
};
int store_read_target (struct store *st, struct db_conn *c, struct store_target *t);
void store_free_target (struct store_target *t);
int store_target_moved (struct store *st, struct db_conn *c, const struct store_target *t,
                        int64_t when, const struct store_rejudge *rj,
                        const struct store_flags **changes, size_t *n);
void store_target_changed (struct store *st, const struct store_target *t,
                           const struct store_flags *changes, size_t n);

/* Sources (store_sources.c): the database's secret read on C (made
 * when it has none), 0 or -1; on C in its open transaction, the source
 * of a listed upload added to its CPU row's, and the sources no listed
 * result holds any more taken from CPU's rows (every CPU's when CPU is
 * NULL): 0, or -1. */
int store_read_secret (struct store *st, struct db_conn *c);
/* An SQL condition: the CPU row of the results row X (an alias) is
 * confirmed (store.h, "Sources"). */
#define STORE_CONFIRMED(x) \
  "(EXISTS (SELECT 1 FROM row_sources w WHERE w.cpu = " x ".cpu AND w.mode = " x ".mode " \
  "AND w.build = " x ".build AND w.verified = 1) OR (SELECT COUNT(*) FROM (SELECT 1 " \
  "FROM row_sources w WHERE w.cpu = " x ".cpu AND w.mode = " x ".mode AND w.build = " \
  x ".build LIMIT " CONFIRMING ") q) >= " CONFIRMING ")"
#define CONFIRMING_TEXT(n) #n
#define CONFIRMING CONFIRMING_TEXT (3)
_Static_assert (STORE_CONFIRMING_SOURCES == 3, "CONFIRMING says STORE_CONFIRMING_SOURCES");
int store_add_row_source (struct store *st, struct db_conn *c, const struct store_upload *up);
int store_prune_row_sources (struct store *st, struct db_conn *c, const char *cpu);

/* The operator's action A written into the audit table on C, in its
 * open transaction, with DETAIL (NULL: A's) (store_admin.c): 0, or -1. */
int store_audit_write (struct store *st, struct db_conn *c, const struct store_audit *a,
                       const char *detail);

/* Applies the migrations the database lacks on C (store_migrate.c): 0,
 * or -1 with a message in ERR. */
int store_migrate (struct store *st, struct db_conn *c, char *err, size_t errlen);

/* Runs the backfills the migrations left, the first second of them
 * before it returns (store_backfill.c): 0, or -1 when the thread for the
 * others cannot be started. */
int store_start_backfills (struct store *st);

/* The dictionaries of documents (store_dict_keeper.c): read on C, or
 * again on a connection of their own (for a document that names one not
 * known here): 0, or -1 (logged); and the keeper's thread. */
int store_read_dicts (struct store *st, struct db_conn *c);
int store_reread_dicts (struct store *st);
void *store_dict_keeper (void *arg);

/* The dump (store_dump.c): on C in its open transaction, the result SEQ,
 * whose line in the dump has changed, moved to its end (0, or -1); and a
 * page of the dump, the lines after the place AFTER, LIMIT of them, each
 * row's place in it set. */
int store_move_in_dump (struct store *st, struct db_conn *c, int64_t seq);
enum store_status store_dump_page (struct store *st, int64_t after, int limit, store_row_fn fn,
                                   void *ctx);

/* The columns of a result's row as read (store_read.c), r being the
 * results: */
#define ROW_COLUMNS "r.seq, r.received, r.id, r.fingerprint, r.publisher, r.submitter, " \
  "r.arch, r.cpu, r.cpu_name, r.os, r.gmp, r.compiler, r.created, r.scores, r.flags, " \
  "r.unlisted, r.retracted, r.mode, r.build, r.flags_at, r.flag_notes, r.virtual_machine, " \
  "r.hidden_at, r.hidden_reason"
#define ROW_NCOLS 24
/* With the document, stored as plain text (body) or compressed (packed),
 * and its SHA-256; a column after these is the row's place in the dump
 * (store_dump.c). */
#define FULL_COLUMNS ROW_COLUMNS ", r.signature, r.public_key, r.body, r.packed, r.sha256"
#define FULL_NCOLS (ROW_NCOLS + 5)

/* What a query of result rows delivers them to: FN (each row, its
 * document checked when the query reads FULL_COLUMNS) or LIST_FN (each
 * row with the column after ROW_COLUMNS, the score it is sorted by). */
struct row_adapter
{
  struct store *st;
  store_row_fn fn;
  store_list_fn list_fn;
  void *ctx;
  int found;
  int corrupt;                  /* a document failed its check: stopped there */
};

/* The row function of such queries (CTX a struct row_adapter), and a
 * read-only query delivering through A: STORE_OK, STORE_CORRUPT when a
 * document failed its check, STORE_ERROR. */
int store_adapt_row (void *ctx, const struct db_value *cols, int ncols);
enum store_status store_read_rows (struct store *st, const char *sql,
                                   const struct db_value *params, int nparams,
                                   struct row_adapter *a);

#endif
