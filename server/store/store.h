/* store.h: where results live.  The one interface the rest of the server
 * uses for persistence, whatever the database.
 *
 * store_open() takes a SQLite file path or a postgresql:// URI, opens a
 * pool of connections (one per worker thread, so no request waits for
 * another's connection) and applies the schema migrations the database
 * lacks.  Every operation takes a connection from the pool for its own
 * duration.  An accepted result is written in one transaction (its row,
 * all its score nodes and its verdict: its flags and notes and, when its
 * category is judged again, every flag that changes), so no crash leaves
 * half a result or a result without its judgement.  The store never
 * judges: it feeds a category's rows to the judge's callbacks and writes
 * what they decide (store_verdict.h).
 *
 * Results are returned to callers through callbacks, row by row, so that
 * large answers (the dump, the CSV export) never sit in memory whole.
 *
 * Documents are stored compressed; the store gives them back only as the
 * exact bytes that were stored, checked against their SHA-256.
 */
#ifndef GB_SERVER_STORE_H
#define GB_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "model/machine_kind.h"
#include "model/validate.h"
#include "server/store/store_verdict.h"

struct store;

enum store_status
{
  STORE_OK = 0,
  STORE_EXISTS,                 /* insert: the same bytes are stored already */
  STORE_DUPLICATE,              /* insert: the same measurements are stored
                                 * already, in other bytes */
  STORE_NOT_FOUND,
  STORE_ERROR,                  /* the database failed; logged */
  STORE_CORRUPT,                /* a stored document is damaged (it does not
                                 * decompress, or its SHA-256 differs), so it
                                 * is not given out; logged */
  STORE_UNCHANGED               /* an operator's action found its target
                                 * already so: nothing written */
};

/* NULL with a message in ERR when the database cannot be opened or
 * migrated.  A migration that rewrites every result is done in batches
 * (server/store/store_backfill.c): those of the first second before it returns,
 * the others by a thread of the store while it is used. */
struct store *store_open (const char *target, unsigned connections, char *err, size_t errlen);
void store_close (struct store *st);
/* The schema version after migration. */
int store_schema_version (struct store *st);

/* A valid, signature-checked upload about to be stored. */
struct store_upload
{
  const char *body;             /* NUL-terminated after LEN bytes */
  size_t len;
  const char *sha256;           /* hex of the body */
  const char *signature;        /* base64 */
  const char *public_key;       /* base64, as in the document */
  const char *fingerprint;
  const struct doc_summary *doc;
  const char *flags;            /* comma-separated, "" for none */
  const char *flag_notes;       /* why, one line per flag, "" for none */
  const char *build;            /* the GMP build kind (plausible.h) */
  int unlisted;
  /* Where it came from (store_source_hash), or NULL; whether that is a
   * verified publisher (a source of its own). */
  const char *source;
  int verified_source;
  int64_t received;             /* Unix time */
  /* A listed upload's category judged again with it, in its transaction
   * (its own flags included), or NULL. */
  const struct store_rejudge *rejudge;
};

/* Sources.  An upload's source, as the store keeps it: the HMAC of
 * WHAT (its network, or its verified publisher, as
 * server/api/api_source.c words it) under this database's secret,
 * STORE_SOURCE_HEX - 1 hex digits.  It is stored with the result, never
 * served or dumped, and counted: a CPU row (identity, run mode, GMP
 * build kind) is confirmed when three sources, or one verified
 * publisher, stand behind its listed results. */
#define STORE_SOURCE_HEX 33
/* A source as memory keeps it: the first 64 bits of its HEX hash, or,
 * for a result stored before sources (SEQ's), a source of its own. */
static inline uint64_t
store_source_bits (const char *hex, int64_t seq)
{
  uint64_t v = 0;
  for (int i = 0; hex && i < 16; i++)
    {
      char ch = hex[i];
      int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
      if (d < 0)
        return ~(uint64_t) seq;
      v = v << 4 | (uint64_t) d;
    }
  return hex ? v : ~(uint64_t) seq;
}
void store_source_hash (const struct store *st, const char *what, char out[STORE_SOURCE_HEX]);
/* How many sources stand behind the CPU row of CPU, MODE and BUILD, and
 * whether one is a verified publisher. */
#define STORE_CONFIRMING_SOURCES 3
enum store_status store_row_sources (struct store *st, const char *cpu, const char *mode,
                                     const char *build, int *sources, int *verified);

/* FN is told, after the commit, of every change this process makes to
 * a listed result: its id, when it is stored (listed), retracted or its
 * flags change; NULL when a key's results changed (verified, banned).
 * Set before the store is shared between threads. */
typedef void (*store_change_fn) (void *ctx, const char *id);
void store_watch (struct store *st, store_change_fn fn, void *ctx);

/* The changes other processes make to listed results (key commands,
 * other servers on the database), which every writing transaction
 * announces.  store_follow_start() begins following them: those
 * committed from then on are told by store_follow(), which waits at most
 * WAIT_MS for some and tells FN of each changed result's id (the
 * changes of this store are not told: store_watch has them).
 * STORE_ERROR when some may have been missed (the database failed, the
 * follower fell behind by a minute on SQLite, or a backfill of store_open
 * rewrote every result meanwhile): whatever the caller keeps must be read
 * again.  One thread follows. */
enum store_status store_follow_start (struct store *st);
enum store_status store_follow (struct store *st, int wait_ms, store_change_fn fn, void *ctx);

/* Stores UP with its flags and notes and, when UP->rejudge is set and
 * the upload is new and listed, judges its category again with it and
 * writes the flags that change, all in one transaction (which several
 * uploads may share: store_insert.c).  STORE_OK (new, *ID set),
 * STORE_EXISTS (*ID is the stored id; nothing judged) or STORE_DUPLICATE
 * (its measurements, UP->doc->measurements, were stored before in other
 * bytes, retracted or not: nothing stored).  The measurements of every
 * result stored since the schema holds them are taken, unique across
 * keys, by a unique key, so that of two concurrent uploads of them one
 * is stored. */
enum store_status store_insert (struct store *st, const struct store_upload *up, char id[65]);

/* A stored result as read back. */
struct store_row
{
  int64_t seq, received;
  const char *id, *fingerprint, *publisher, *submitter;
  const char *arch, *cpu, *cpu_name, *os, *gmp, *compiler, *created;
  const char *scores;           /* JSON object of the inner nodes */
  const char *flags;
  int unlisted, retracted;
  const char *mode, *build;     /* run.mode, the GMP build kind */
  int64_t flags_at;             /* when the flags were last decided (Unix time) */
  const char *flag_notes;       /* why each flag was set, one line each */
  int virtual_machine;          /* its document names a hypervisor */
  int64_t hidden_at;            /* when the operators hid it (Unix time), 0: not hidden */
  const char *hidden_reason;    /* why, or NULL */
  /* Only from store_get and store_page's dump: the document as it was
   * uploaded (checked), NUL-terminated after BODY_LEN bytes. */
  const char *body, *signature, *public_key;
  size_t body_len;
  /* Its line's place in the dump: SEQ, or where a later change of the
   * line moved it (store_dump.c); another number only from the dump. */
  int64_t place;
};

/* Called for each row; the strings live until it returns.  Nonzero stops. */
typedef int (*store_row_fn) (void *ctx, const struct store_row *row);

/* STORE_CORRUPT when the result's document is damaged (FN is not
 * called). */
enum store_status store_get (struct store *st, const char *id, store_row_fn fn, void *ctx);


/* An operator's action (gmpbench-server admin), as the append-only
 * table audit keeps it, written in the action's own transaction: when
 * (Unix time), who, the verb, its target (a key's fingerprint, a
 * result's id, a CPU row), why (NULL: no reason given) and what it
 * changed, in words. */
struct store_audit
{
  int64_t at;
  const char *actor, *verb, *target, *reason, *detail;
};

/* Keys the operator marked.  *PUBLISHER is malloc'ed or NULL. */
enum store_status store_key_status (struct store *st, const char *fingerprint,
                                    int *banned, char **publisher);
/* Each marks the key FINGERPRINT at AUDIT->at in one transaction that
 * writes AUDIT too: verify (as PUBLISHER), unverify, ban, unban.  Verify
 * and ban take a key the database has not met yet; unverify and unban
 * answer STORE_NOT_FOUND for one.  STORE_UNCHANGED (nothing written)
 * when the key is already so (verified as PUBLISHER, ...). */
enum store_status store_key_verify (struct store *st, const char *fingerprint,
                                    const char *publisher, const struct store_audit *audit);
enum store_status store_key_unverify (struct store *st, const char *fingerprint,
                                      const struct store_audit *audit);
enum store_status store_key_ban (struct store *st, const char *fingerprint,
                                 const struct store_audit *audit);
enum store_status store_key_unban (struct store *st, const char *fingerprint,
                                   const struct store_audit *audit);

/* Hides the result ID from listings, aggregates and the dump (its
 * bytes stay, and its page says why: REASON) or shows it again, with
 * AUDIT, in one transaction which, when the result leaves or joins its
 * category, judges that again through RJ (as a retraction does).
 * STORE_NOT_FOUND for an unknown id, STORE_UNCHANGED when it is already
 * hidden (unhide: not hidden). */
enum store_status store_hide (struct store *st, const char *id, const char *reason,
                              const struct store_audit *audit, const struct store_rejudge *rj);
enum store_status store_unhide (struct store *st, const char *id,
                                const struct store_audit *audit,
                                const struct store_rejudge *rj);

/* The newest LIMIT actions of the audit table, newest first. */
typedef int (*store_audit_fn) (void *ctx, int64_t seq, const struct store_audit *action);
enum store_status store_audit_log (struct store *st, int limit, store_audit_fn fn, void *ctx);

/* A page of the listing (listed: unretracted, not banned, not hidden). */
struct store_filter
{
  const char *arch, *cpu, *vendor, *os, *gmp, *compiler;        /* NULL: any */
  const char *mode, *build;     /* run mode, GMP build kind; NULL: any */
  enum machine_kind machine;    /* bare metal, virtual, or any */
  int verified_only, unflagged_only;
  const char *sort_node;        /* NULL: newest first */
  int has_cursor;               /* continue after (cursor_score, cursor_seq) */
  double cursor_score;
  int64_t cursor_seq;
  int limit;
};
/* Rows carry the sort node's score in *SCORE (for the next cursor). */
typedef int (*store_list_fn) (void *ctx, const struct store_row *row, double score);
enum store_status store_list (struct store *st, const struct store_filter *f,
                              store_list_fn fn, void *ctx);

/* Up to LIMIT rows with seq > AFTER in upload order, unlisted results
 * left out.  DUMP: the rows whose place in the dump is after AFTER, in
 * that order (a result retracted, hidden or shown again moved to its end:
 * store_dump.c), with body and signature, retracted and hidden ones
 * included (as tombstones for the caller), STORE_CORRUPT at the first
 * damaged document (after the rows before it); otherwise only listed results,
 * those that match F (its filters; its sort, cursor and limit are not
 * used). */
enum store_status store_page (struct store *st, int dump, const struct store_filter *f,
                              int64_t after, int limit, store_row_fn fn, void *ctx);

/* The rows of the results numbered SEQS[0..N) that are listed and match
 * F's filters, in no particular order: a query for 20 of them, where
 * store_page would take one a result (a round trip each on PostgreSQL). */
enum store_status store_rows (struct store *st, const struct store_filter *f,
                              const int64_t *seqs, size_t n, store_row_fn fn, void *ctx);

/* The scores of NODE over listed results (unflagged ones unless
 * INCLUDE_FLAGGED), with their results' seqs, ordered by CPU identity,
 * then best first. */
typedef int (*store_score_fn) (void *ctx, const char *cpu, int64_t seq, double score);
enum store_status store_node_scores (struct store *st, const char *node, int include_flagged,
                                     store_score_fn fn, void *ctx);

/* The run mode, GMP build kind and source (NULL when stored before
 * sources) of every listed result, in no useful order. */
typedef int (*store_kind_fn) (void *ctx, int64_t seq, const char *mode, const char *build,
                              const char *source);
enum store_status store_kinds (struct store *st, store_kind_fn fn, void *ctx);

/* Each CPU row (CPU, MODE, BUILD) that a verified publisher stands
 * behind. */
typedef int (*store_row_fn3) (void *ctx, const char *cpu, const char *mode, const char *build);
enum store_status store_verified_rows (struct store *st, store_row_fn3 fn, void *ctx);

/* The CPU rows (run mode, GMP build kind) of listed results of CPU,
 * those of MODE and BUILD only unless NULL, in no useful order. */
enum store_status store_cpu_rows (struct store *st, const char *cpu, const char *mode,
                                  const char *build, store_row_fn3 fn, void *ctx);
/* A stored result's own flags judged again from its document (admin
 * rejudge): FN is given the row (its body, flags and notes) and puts its
 * flags and notes now into *FLAGS and *NOTES (malloc'ed): 0; or 1 to
 * keep them as they are (its document cannot be judged any more), or -1
 * to fail the re-judgement. */
struct store_own_judge
{
  int (*fn) (void *ctx, const struct store_row *row, char **flags, char **notes);
  void *ctx;
};
/* What a re-judgement did: the results whose own flags were judged
 * again and how many of them changed; the results judged with their
 * category and the flags that judgement changed (owned by RJ's context). */
struct store_rejudged
{
  size_t own_judged, own_changed, judged, n;
  const struct store_flags *changes;
};
/* Judges the CPU row of CPU, MODE and BUILD again in one transaction
 * with AUDIT (whose detail, when NULL, says what changed): each listed
 * result's own flags through OWN (unless NULL), written when they
 * change, then the category through RJ.  STORE_NOT_FOUND when the row
 * has no listed result. */
enum store_status store_rejudge_row (struct store *st, const char *cpu, const char *mode,
                                     const char *build, const struct store_audit *audit,
                                     const struct store_own_judge *own,
                                     const struct store_rejudge *rj,
                                     struct store_rejudged *out);

/* The name CPU is shown by, as the leaderboard chooses it (board.h; ""
 * when no brand fits it), and its architecture (malloc'ed);
 * STORE_NOT_FOUND when no listed result gives it a brand. */
enum store_status store_cpu_info (struct store *st, const char *cpu, char **name, char **arch);

/* The listed results as the leaderboard pages keep them in memory
 * (server/board/board.h), in upload order. */
struct store_board_row
{
  int64_t seq;
  const char *cpu, *cpu_name, *arch, *vendor, *os, *gmp, *compiler;
  int verified, flagged;
  double mhz;                   /* 0: unknown */
  int cores;                    /* 0: unknown */
  const char *mode, *build;     /* run.mode, the GMP build kind */
  int listed;                   /* 0: retracted, unlisted, banned or hidden since */
  const char *source;           /* hex ("Sources"), or NULL when stored before them */
  int virtual_machine;          /* its document names a hypervisor */
};
typedef int (*store_board_fn) (void *ctx, const struct store_board_row *row);
enum store_status store_board_rows (struct store *st, store_board_fn fn, void *ctx);

/* The score of NODE of every listed result that has it, in no useful
 * order (read from one covering index); for a test, of every result that
 * has it (the caller keeps the ones it lists). */
typedef int (*store_seq_score_fn) (void *ctx, int64_t seq, double score);
enum store_status store_node_column (struct store *st, const char *node,
                                     store_seq_score_fn fn, void *ctx);

/* The rows of the results with the N ids IDS as store_board_rows gives
 * them, listed or not (unknown ids are skipped), each followed by
 * VALUE_FN for every score of it (inner nodes and tests). */
enum store_status store_board_changes (struct store *st, const char *const *ids, size_t n,
                                       store_board_fn fn, store_value_fn value_fn, void *ctx);

/* Marks the result retracted and, when it was listed, judges its
 * category again without it through RJ (unless NULL), in one
 * transaction: on STORE_ERROR neither happened.  Idempotent;
 * STORE_NOT_FOUND if unknown. */
enum store_status store_retract (struct store *st, const char *id, int64_t when,
                                 const struct store_rejudge *rj);
/* Sets the N results' flags, decided at WHEN (Unix time), in one
 * transaction, outside any judgement (tests/unit-board.c). */
enum store_status store_set_flags (struct store *st, const struct store_flags *changes, size_t n,
                                   int64_t when);

/* The best per GHz of inner node NODE into *BEST. */
enum store_status store_best_per_ghz (struct store *st, const char *node, struct store_best *best);

/* The newest (at most LIMIT) listed results of the key FINGERPRINT. */
enum store_status store_by_key (struct store *st, const char *fingerprint, int limit,
                                store_row_fn fn, void *ctx);

/* STORE_OK when the database answers. */
enum store_status store_ping (struct store *st);

/* For the metrics: the rows of the table results (listed or not,
 * retracted ones too) and the database's size in bytes (SQLite: its
 * pages; PostgreSQL: pg_database_size).  Counting reads an index whole:
 * tens of milliseconds at a million results. */
enum store_status store_measure (struct store *st, int64_t *results, int64_t *bytes);

#endif
