/* store_judge.c: what the judge of plausibility (server/judge/plausible.h)
 * is fed and what it decides, written: a category's newest results and
 * their scores, read in the transaction that changed the category (an
 * upload's, store_insert.c, or a retraction's, here), the judge's
 * decision asked for and the flags it changes written in that same
 * transaction (store_rejudge_in); the steps a result taken out of
 * listings or into them again goes through, for a retraction (here) and
 * for hiding and showing again (store_admin.c) alike (store_target_moved);
 * and a node's best score per GHz, which the uploader reads for the
 * judge.  The judge itself never calls the store (store_verdict.h).
 */
#include "server/store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

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
  if (ncols < 5)
    return 1;
  return a->result_fn (a->ctx, c_int (&cols[0]), c_text_or_empty (&cols[1]),
                       c_text_or_empty (&cols[2]), c_text_or_empty (&cols[3]),
                       c_text_or_empty (&cols[4]));
}

static int
adapt_category_value (void *ctx, const struct db_value *cols, int ncols)
{
  struct category_adapter *a = ctx;
  if (ncols < 3)
    return 1;
  return a->value_fn (a->ctx, c_int (&cols[0]), c_text_or_empty (&cols[1]), c_real (&cols[2]));
}

/* Reads the category of CPU, MODE and BUILD (store_verdict.h) on C, in
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

  if (st->drv->query (c, "SELECT seq, id, COALESCE(source, 'result ' || id), flags, "
                      "flag_notes FROM results WHERE cpu = $1 "
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

int
store_write_flags (struct store *st, struct db_conn *c, const struct store_flags *changes,
                   size_t n, int64_t when)
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
          || store_announce (st, c, changes[i].id) < 0)
        return -1;
    }
  return 0;
}

enum store_status
store_set_flags (struct store *st, const struct store_flags *changes, size_t n, int64_t when)
{
  struct db_conn *c = store_acquire_writer (st);
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0 || store_write_flags (st, c, changes, n, when) < 0
      || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "flags");
  store_release_writer (st, c);
  for (size_t i = 0; rc == STORE_OK && i < n; i++)
    store_changed (st, changes[i].id);
  return rc;
}

static int
take_target (void *ctx, const struct db_value *cols, int ncols)
{
  struct store_target *t = ctx;
  if (ncols < 7)
    return 1;
  t->found = 1;
  t->seq = c_int (&cols[0]);
  t->listed = (int) c_int (&cols[1]);
  t->cpu = gb_xstrdup (c_text_or_empty (&cols[2]));
  t->mode = gb_xstrdup (c_text_or_empty (&cols[3]));
  t->build = gb_xstrdup (c_text_or_empty (&cols[4]));
  t->hidden_at = c_int (&cols[5]);
  t->retracted = c_int (&cols[6]) != 0;
  return 1;
}

int
store_read_target (struct store *st, struct db_conn *c, struct store_target *t)
{
  struct db_value p = p_text (t->id);
  return st->drv->query (c, "SELECT seq, listed, cpu, mode, build, hidden_at, retracted FROM "
                         "results WHERE id = $1", &p, 1, take_target, t);
}

void
store_free_target (struct store_target *t)
{
  free (t->cpu);
  free (t->mode);
  free (t->build);
}

int
store_target_moved (struct store *st, struct db_conn *c, const struct store_target *t,
                    int64_t when, const struct store_rejudge *rj,
                    const struct store_flags **changes, size_t *n)
{
  if (store_prune_row_sources (st, c, t->cpu) < 0 || store_announce (st, c, t->id) < 0)
    return -1;
  if (!rj)
    return 0;
  return store_rejudge_in (st, c, NULL, t->cpu, t->mode, t->build, when, rj, changes, n);
}

void
store_target_changed (struct store *st, const struct store_target *t,
                      const struct store_flags *changes, size_t n)
{
  store_changed (st, t->id);
  for (size_t i = 0; i < n; i++)
    store_changed (st, changes[i].id);
}

int
store_lock_category (struct store *st, struct db_conn *c, const char *cpu, const char *mode,
                     const char *build)
{
  if (!st->drv->category_lock)
    return 0;
  char *key = gb_xmalloc (strlen (cpu) + strlen (mode) + strlen (build) + 3);
  sprintf (key, "%s\n%s\n%s", cpu, mode, build);
  struct db_value p = p_text (key);
  int rc = st->drv->query (c, st->drv->category_lock, &p, 1, NULL, NULL);
  free (key);
  return rc;
}

int
store_rejudge_in (struct store *st, struct db_conn *c, const char *id, const char *cpu,
                  const char *mode, const char *build, int64_t when,
                  const struct store_rejudge *rj, const struct store_flags **changes,
                  size_t *n)
{
  *changes = NULL;
  *n = 0;
  if (read_category (st, c, cpu, mode, build, rj->limit, rj->result_fn, rj->value_fn,
                     rj->ctx) < 0)
    return -1;
  rj->decide (rj->ctx, id, cpu, mode, build, changes, n);
  return store_write_flags (st, c, *changes, *n, when);
}

/* The retraction of T (found) and its category's judgement on C, in its
 * open transaction; the flags changed into *CHANGES, *N.  0, or -1. */
static int
retract_judged (struct store *st, struct db_conn *c, const struct store_target *t,
                int64_t when, const struct store_rejudge *rj,
                const struct store_flags **changes, size_t *n)
{
  struct db_value p[] = { p_int (t->seq), p_int (when) };
  *changes = NULL;
  *n = 0;
  /* The category's lock before any row's, as an upload takes it. */
  if (t->listed && rj && store_lock_category (st, c, t->cpu, t->mode, t->build) < 0)
    return -1;
  if ((!t->retracted && store_move_in_dump (st, c, t->seq) < 0)
      || st->drv->query (c, "UPDATE results SET retracted = 1, listed = 0, "
                         "retracted_at = COALESCE(retracted_at, $2) WHERE seq = $1", p, 2,
                         NULL, NULL) < 0
      || st->drv->query (c, "UPDATE ranks SET listed = 0 WHERE seq = $1", p, 1, NULL, NULL) < 0
      || st->drv->query (c, "UPDATE scores SET listed = 0 WHERE seq = $1", p, 1, NULL, NULL) < 0)
    return -1;
  if (!t->listed)
    return 0;
  return store_target_moved (st, c, t, when, rj, changes, n);
}

enum store_status
store_retract (struct store *st, const char *id, int64_t when, const struct store_rejudge *rj)
{
  struct db_conn *c = store_acquire_writer (st);
  struct store_target t = { .id = id };
  const struct store_flags *changes = NULL;
  size_t n = 0;
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0
      || store_read_target (st, c, &t) < 0
      || (t.found && retract_judged (st, c, &t, when, rj, &changes, &n) < 0)
      || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "retract");
  store_release_writer (st, c);
  if (rc == STORE_OK && t.listed)
    store_target_changed (st, &t, changes, n);
  store_free_target (&t);
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
  struct db_conn *c = store_acquire (st);
  struct db_value p = p_text (node);
  enum store_status rc = STORE_OK;

  *best = (struct store_best) { 0, "", 0 };
  /* The top scores of confirmed CPU rows by the ranked indexes
   * (ranks_rank, and scores_rank until migration 14 is done), divided by
   * their clocks, the best of each CPU. */
  if (st->drv->query (c, "SELECT r.cpu, MAX(top.score / r.mhz * 1000) AS v FROM (SELECT s.seq, "
                      "s.score FROM ranks s JOIN results x ON x.seq = s.seq WHERE s.node = "
                      "(SELECT id FROM names WHERE name = $1) AND s.listed = 1 AND s.flagged = 0 "
                      "AND " STORE_CONFIRMED ("x") " UNION ALL SELECT o.seq, o.score FROM scores o "
                      "JOIN results x ON x.seq = o.seq WHERE o.node = $1 AND o.listed = 1 "
                      "AND o.flagged = 0 AND " STORE_CONFIRMED ("x") " ORDER BY 2 DESC LIMIT 1000) "
                      "top JOIN results r ON r.seq = top.seq WHERE r.mhz > 0 GROUP BY r.cpu "
                      "ORDER BY v DESC LIMIT 2", &p, 1, take_best, best) < 0)
    rc = store_failed (st, c, "best per GHz");
  store_release (st, c);
  return rc;
}

static int
take_row_sources (void *ctx, const struct db_value *cols, int ncols)
{
  int *out = ctx;
  if (ncols >= 2)
    {
      out[0] = (int) c_int (&cols[0]);
      out[1] = (int) c_int (&cols[1]);
    }
  return 1;
}

enum store_status
store_row_sources (struct store *st, const char *cpu, const char *mode, const char *build,
                   int *sources, int *verified)
{
  struct db_conn *c = store_acquire (st);
  struct db_value p[] = { p_text (cpu), p_text (mode), p_text (build) };
  int out[2] = { 0, 0 };
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT COUNT(*), COALESCE(MAX(verified), 0) FROM row_sources "
                      "WHERE cpu = $1 AND mode = $2 AND build = $3", p, 3, take_row_sources,
                      out) < 0)
    rc = store_failed (st, c, "row sources");
  store_release (st, c);
  *sources = out[0];
  *verified = out[1];
  return rc;
}
