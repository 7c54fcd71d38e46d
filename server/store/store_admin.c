/* store_admin.c: what the operators do to results (gmpbench-server
 * admin, server/admin/), and the audit of everything they do.
 *
 * The audit table is append-only: a row is written by the transaction
 * of the action it records (store_audit_write, here and in
 * store_keys.c), so that it exists exactly when the action was
 * committed; the database's triggers refuse to update or delete one
 * (migration 19).
 *
 * A hidden result keeps its bytes and its rows; it is taken out of what
 * "listed" means (results.listed, and the copy of it on its score rows),
 * as a retraction takes it out (store_judge.c), so every listing,
 * aggregate, the leaderboard and the sources behind its CPU row leave it
 * by the one column they already read.  Hiding, showing again and
 * re-judging a CPU row each judge the category they change in their own
 * transaction, through the judge's callbacks, and announce the results
 * they change, so running servers follow (store_follow.c).
 */
#include "server/store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

int
store_audit_write (struct store *st, struct db_conn *c, const struct store_audit *a,
                   const char *detail)
{
  const char *said = detail ? detail : a->detail ? a->detail : "";
  struct db_value p[] = {
    p_int (a->at), p_text (a->actor), p_text (a->verb), p_text (a->target), p_text (a->reason),
    p_text (said)
  };
  return st->drv->query (c, "INSERT INTO audit (at, actor, verb, target, reason, detail) "
                         "VALUES ($1, $2, $3, $4, $5, $6)", p, 6, NULL, NULL);
}

struct audit_adapter
{
  store_audit_fn fn;
  void *ctx;
};

static int
adapt_audit (void *ctx, const struct db_value *cols, int ncols)
{
  struct audit_adapter *a = ctx;
  if (ncols < 7)
    return 1;
  struct store_audit row = {
    c_int (&cols[1]), c_text_or_empty (&cols[2]), c_text_or_empty (&cols[3]),
    c_text_or_empty (&cols[4]), c_text (&cols[5]), c_text_or_empty (&cols[6])
  };
  return a->fn (a->ctx, c_int (&cols[0]), &row);
}

enum store_status
store_audit_log (struct store *st, int limit, store_audit_fn fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct audit_adapter a = { fn, ctx };
  struct db_value p = p_int (limit);
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT seq, at, actor, verb, target, reason, detail FROM audit "
                      "ORDER BY seq DESC LIMIT $1", &p, 1, adapt_audit, &a) < 0)
    rc = store_failed (st, c, "audit log");
  store_release (st, c);
  return rc;
}

/* ------------------------------------------------------------ hiding */

/* How a visibility change goes: HIDE it or show it again, with REASON. */
struct visibility
{
  int hide;
  const char *reason;
  const struct store_audit *audit;
  const struct store_rejudge *rj;
  const struct store_flags *changes;    /* the flags the judgement changed */
  size_t n;
  int listed;                   /* whether the result is listed after it */
};

/* The result's rows as V makes them, on C in its open transaction:
 * hidden and unlisted, or shown and listed again unless something else
 * keeps it out (unlisted by its submitter, retracted, banned); its line
 * in the dump moved to the end.  0, or -1. */
static int
write_visibility (struct store *st, struct db_conn *c, const struct store_target *t,
                  struct visibility *v)
{
  struct db_value p[] = { p_int (t->seq), p_int (v->audit->at), p_text (v->reason) };
  int64_t listed = 0;

  if (store_move_in_dump (st, c, t->seq) < 0)
    return -1;
  if (v->hide
      ? st->drv->query (c, "UPDATE results SET hidden_at = $2, hidden_reason = $3, listed = 0 "
                        "WHERE seq = $1", p, 3, NULL, NULL) < 0
      : st->drv->query (c, "UPDATE results SET hidden_at = NULL, hidden_reason = NULL, "
                        "listed = CASE WHEN unlisted = 0 AND retracted = 0 AND banned = 0 "
                        "THEN 1 ELSE 0 END WHERE seq = $1", p, 1, NULL, NULL) < 0
      || st->drv->query (c, "SELECT listed FROM results WHERE seq = $1", p, 1,
                         store_first_int, &listed) < 0)
    return -1;
  v->listed = (int) listed;
  struct db_value q[] = { p_int (t->seq), p_int (listed) };
  if (st->drv->query (c, "UPDATE ranks SET listed = $2 WHERE seq = $1", q, 2, NULL, NULL) < 0
      || st->drv->query (c, "UPDATE scores SET listed = $2 WHERE seq = $1", q, 2, NULL, NULL) < 0)
    return -1;
  if (listed && st->drv->query (c, "INSERT INTO row_sources (cpu, mode, build, source, "
                                "verified) SELECT cpu, mode, build, source, CASE WHEN "
                                "publisher IS NULL THEN 0 ELSE 1 END FROM results WHERE "
                                "seq = $1 AND source IS NOT NULL ON CONFLICT DO NOTHING",
                                p, 1, NULL, NULL) < 0)
    return -1;
  return 0;
}

/* V applied to T (found, and not already so) on C, in its open
 * transaction, its category judged again when the result leaves or
 * joins it, and its audit row written: 0, or -1. */
static int
change_visibility (struct store *st, struct db_conn *c, const struct store_target *t,
                   struct visibility *v)
{
  char detail[160];
  /* The category's lock before any row's, as an upload takes it. */
  if (v->rj && store_lock_category (st, c, t->cpu, t->mode, t->build) < 0)
    return -1;
  if (write_visibility (st, c, t, v) < 0)
    return -1;
  int moved = t->listed != v->listed;
  if (moved && store_target_moved (st, c, t, v->audit->at, v->rj, &v->changes, &v->n) < 0)
    return -1;
  if (!moved)
    snprintf (detail, sizeof detail, "%s", v->listed ? "listed" : "not listed (unlisted, "
              "retracted or banned)");
  else
    snprintf (detail, sizeof detail, "%s; its category judged again: %zu flag%s changed",
              v->listed ? "listed again" : "taken out of listings", v->n, v->n == 1 ? "" : "s");
  return store_audit_write (st, c, v->audit, v->audit->detail ? NULL : detail);
}

/* Hides or shows again (V) the result ID in one transaction. */
static enum store_status
set_visibility (struct store *st, const char *id, struct visibility *v)
{
  struct db_conn *c = store_acquire_writer (st);
  struct store_target t = { .id = id };
  enum store_status rc = STORE_OK, applies = STORE_OK;

  if (st->drv->begin (c, 1) < 0 || store_read_target (st, c, &t) < 0)
    rc = store_failed (st, c, "visibility");
  else if (!t.found || (t.hidden_at != 0) == v->hide)
    {
      applies = t.found ? STORE_UNCHANGED : STORE_NOT_FOUND;
      st->drv->rollback (c);
    }
  else if (change_visibility (st, c, &t, v) < 0 || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "visibility");
  store_release_writer (st, c);
  if (rc == STORE_OK && applies == STORE_OK && t.listed != v->listed)
    store_target_changed (st, &t, v->changes, v->n);
  store_free_target (&t);
  return rc == STORE_OK ? applies : rc;
}

enum store_status
store_hide (struct store *st, const char *id, const char *reason,
            const struct store_audit *audit, const struct store_rejudge *rj)
{
  struct visibility v = { 1, reason, audit, rj, NULL, 0, 0 };
  return set_visibility (st, id, &v);
}

enum store_status
store_unhide (struct store *st, const char *id, const struct store_audit *audit,
              const struct store_rejudge *rj)
{
  struct visibility v = { 0, NULL, audit, rj, NULL, 0, 0 };
  return set_visibility (st, id, &v);
}

/* ------------------------------------------------------------ re-judging */

struct rows_adapter
{
  store_row_fn3 fn;
  void *ctx;
};

static int
adapt_cpu_row (void *ctx, const struct db_value *cols, int ncols)
{
  struct rows_adapter *a = ctx;
  if (ncols < 3)
    return 1;
  return a->fn (a->ctx, c_text_or_empty (&cols[0]), c_text_or_empty (&cols[1]),
                c_text_or_empty (&cols[2]));
}

enum store_status
store_cpu_rows (struct store *st, const char *cpu, const char *mode, const char *build,
                store_row_fn3 fn, void *ctx)
{
  struct db_conn *c = store_acquire (st);
  struct rows_adapter a = { fn, ctx };
  struct db_value p[] = { p_text (cpu), p_text (mode), p_text (build) };
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT DISTINCT cpu, mode, build FROM results WHERE cpu = $1 "
                      "AND listed = 1 AND (CAST ($2 AS TEXT) IS NULL OR mode = $2) "
                      "AND (CAST ($3 AS TEXT) IS NULL OR build = $3)", p, 3, adapt_cpu_row, &a) < 0)
    rc = store_failed (st, c, "CPU rows");
  store_release (st, c);
  return rc;
}

/* A row's results whose own flags changed, collected while their
 * documents are read (the query's connection is busy until it ends),
 * written after. */
struct own_pass
{
  const struct store_own_judge *own;
  struct store_flags *changes;  /* their strings malloc'ed */
  size_t n, judged;
  int failed;
};

static int
judge_own (void *ctx, const struct store_row *row)
{
  struct own_pass *o = ctx;
  char *flags = NULL, *notes = NULL;
  int rc = o->own->fn (o->own->ctx, row, &flags, &notes);

  if (rc < 0)
    {
      o->failed = 1;
      return 1;
    }
  o->judged += rc == 0;
  if (rc == 0 && (strcmp (flags, row->flags ? row->flags : "") != 0
                  || strcmp (notes, row->flag_notes ? row->flag_notes : "") != 0))
    {
      o->changes = gb_xrealloc (o->changes, (o->n + 1) * sizeof *o->changes);
      o->changes[o->n++] = (struct store_flags) { gb_xstrdup (row->id), flags, notes };
      return 0;
    }
  free (flags);
  free (notes);
  return 0;
}

/* The own flags of every listed result of the row judged again through
 * OWN on C, in its open transaction, and those that changed written:
 * 0, or -1.  A document that fails its check is left as it is. */
static int
rejudge_own (struct store *st, struct db_conn *c, const struct db_value *row,
             const struct store_own_judge *own, int64_t when, struct store_rejudged *out)
{
  struct own_pass o = { own, NULL, 0, 0, 0 };
  struct row_adapter a = { st, judge_own, NULL, &o, 0, 0 };
  int rc = st->drv->query (c, "SELECT " FULL_COLUMNS " FROM results r WHERE r.cpu = $1 "
                           "AND r.mode = $2 AND r.build = $3 AND r.listed = 1 ORDER BY r.seq",
                           row, 3, store_adapt_row, &a);
  if (rc == 0 && !o.failed)
    rc = store_write_flags (st, c, o.changes, o.n, when);
  out->own_judged = o.judged;
  out->own_changed = o.n;
  for (size_t i = 0; i < o.n; i++)
    {
      free ((char *) o.changes[i].id);
      free ((char *) o.changes[i].flags);
      free ((char *) o.changes[i].notes);
    }
  free (o.changes);
  return rc < 0 || o.failed ? -1 : 0;
}

/* The re-judgement of the row (CPU, MODE, BUILD), with COUNT listed
 * results among those its category's judgement reads, on C in its open
 * transaction, with its audit row: 0, or -1. */
static int
rejudge_listed (struct store *st, struct db_conn *c, const struct db_value *row, int64_t count,
                const struct store_audit *audit, const struct store_own_judge *own,
                const struct store_rejudge *rj, struct store_rejudged *out)
{
  char detail[192];

  out->judged = (size_t) count;
  const char *cpu = c_text (&row[0]), *mode = c_text (&row[1]), *build = c_text (&row[2]);

  if ((own && rejudge_own (st, c, row, own, audit->at, out) < 0)
      || store_rejudge_in (st, c, NULL, cpu, mode, build, audit->at, rj, &out->changes,
                           &out->n) < 0)
    return -1;
  snprintf (detail, sizeof detail, "own flags of %zu results judged again, %zu changed; "
            "%zu judged with their category, %zu flag%s changed", out->own_judged,
            out->own_changed, out->judged, out->n, out->n == 1 ? "" : "s");
  return store_audit_write (st, c, audit, audit->detail ? NULL : detail);
}

enum store_status
store_rejudge_row (struct store *st, const char *cpu, const char *mode, const char *build,
                   const struct store_audit *audit, const struct store_own_judge *own,
                   const struct store_rejudge *rj, struct store_rejudged *out)
{
  struct db_conn *c = store_acquire_writer (st);
  struct db_value p[] = { p_text (cpu), p_text (mode), p_text (build), p_int (rj->limit) };
  int64_t count = 0;
  enum store_status rc = STORE_OK;

  *out = (struct store_rejudged) { 0, 0, 0, 0, NULL };
  if (st->drv->begin (c, 1) < 0 || store_lock_category (st, c, cpu, mode, build) < 0
      || st->drv->query (c, "SELECT COUNT(*) FROM (SELECT 1 FROM results WHERE cpu = $1 "
                         "AND mode = $2 AND build = $3 AND listed = 1 LIMIT $4) q", p, 4,
                         store_first_int, &count) < 0)
    rc = store_failed (st, c, "re-judgement");
  else if (count == 0)
    {
      st->drv->rollback (c);
      rc = STORE_NOT_FOUND;
    }
  else if (rejudge_listed (st, c, p, count, audit, own, rj, out) < 0
           || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "re-judgement");
  store_release_writer (st, c);
  if (rc == STORE_OK)
    store_changed (st, NULL);   /* the row's own flags and its category's */
  return rc;
}
