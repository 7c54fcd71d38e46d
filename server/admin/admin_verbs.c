/* admin_verbs.c: a checked request of `gmpbench-server admin` carried out
 * against the store (admin_internal.h): each verb is one call of
 * store.h, which writes the action and its audit row in one transaction;
 * the verbs that change a category (hide, unhide, rejudge) hand the
 * store the judge's own callbacks (server/judge/plausible.h), as an
 * upload or a retraction does, so the flags they write are the ones an
 * upload would have written; rejudge also hands it each stored
 * document, validated again, for its own flags (plausible_own_again).
 * What was done, or why nothing was, is printed: results on standard
 * output, failures on standard error.
 */
#include "server/admin/admin_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "model/validate.h"
#include "server/judge/plausible.h"
#include "server/log.h"
#include "server/store/store.h"

/* What each verb says when its target is already so. */
static const char *
unchanged (const char *verb)
{
  static const char *const said[][2] = {
    { "ban", "is already banned" }, { "unban", "is not banned" },
    { "verify", "is already verified under that name" }, { "unverify", "is not verified" },
    { "hide", "is already hidden" }, { "unhide", "is not hidden" },
  };
  for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
    if (strcmp (said[i][0], verb) == 0)
      return said[i][1];
  return "is already so";
}

/* The exit status of RC for RQ, with its message; DONE is printed on
 * success. */
static int
report (enum store_status rc, const struct admin_request *rq, const char *done)
{
  switch (rc)
    {
    case STORE_OK:
      puts (done);
      return ADMIN_DONE;
    case STORE_NOT_FOUND:
      fprintf (stderr, "gmpbench-server admin: %s: %s\n", rq->target,
               strstr (rq->verb, "hide") ? "no such result in this database"
               : strcmp (rq->verb, "rejudge") == 0 ? "no listed result of this CPU row"
               : "this database knows no such key");
      break;
    case STORE_UNCHANGED:
      fprintf (stderr, "gmpbench-server admin: %s %s: nothing changed\n", rq->target,
               unchanged (rq->verb));
      break;
    default:
      fprintf (stderr, "gmpbench-server admin: %s failed: the database gave an error "
               "(logged above)\n", rq->verb);
      break;
    }
  return ADMIN_FAILED;
}

static int
run_key (struct store *st, const struct admin_request *rq, struct store_audit *a)
{
  char done[256], detail[128];
  enum store_status rc;

  if (strcmp (rq->verb, "verify") == 0)
    {
      snprintf (detail, sizeof detail, "as %s", rq->name);
      a->detail = detail;
      rc = store_key_verify (st, rq->target, rq->name, a);
      snprintf (done, sizeof done, "%s verified as %s", rq->target, rq->name);
      return report (rc, rq, done);
    }
  if (strcmp (rq->verb, "unverify") == 0)
    rc = store_key_unverify (st, rq->target, a);
  else if (strcmp (rq->verb, "ban") == 0)
    rc = store_key_ban (st, rq->target, a);
  else
    rc = store_key_unban (st, rq->target, a);
  snprintf (done, sizeof done, "%s %s", rq->target,
            strcmp (rq->verb, "ban") == 0 ? "banned" : strcmp (rq->verb, "unban") == 0
            ? "unbanned" : "unverified");
  return report (rc, rq, done);
}

static int
run_visibility (struct store *st, const struct admin_request *rq, struct store_audit *a)
{
  struct store_rejudge rj;
  struct plausible_category *cat = plausible_category_new (st, &rj);
  int hide = strcmp (rq->verb, "hide") == 0;
  enum store_status rc = hide ? store_hide (st, rq->target, rq->reason, a, &rj)
    : store_unhide (st, rq->target, a, &rj);
  char done[640];

  plausible_category_free (cat);
  if (hide)
    snprintf (done, sizeof done, "%s hidden: %s", rq->target, rq->reason);
  else
    snprintf (done, sizeof done, "%s shown again", rq->target);
  return report (rc, rq, done);
}

/* The CPU rows to judge again: CPU, MODE and BUILD, each malloc'ed. */
struct rows
{
  char *(*row)[3];
  size_t n;
};

static int
take_row (void *ctx, const char *cpu, const char *mode, const char *build)
{
  struct rows *r = ctx;
  r->row = gb_xrealloc (r->row, (r->n + 1) * sizeof *r->row);
  r->row[r->n][0] = gb_xstrdup (cpu);
  r->row[r->n][1] = gb_xstrdup (mode);
  r->row[r->n][2] = gb_xstrdup (build);
  r->n++;
  return 0;
}

/* The best per GHz of NODE from the store CTX, for the judge (as an
 * upload reads it). */
static int
read_best (void *ctx, const char *node, struct store_best *best)
{
  return store_best_per_ghz (ctx, node, best) == STORE_OK ? 0 : -1;
}

/* A row's re-judgement as this command follows it: the judge's reader,
 * and the results whose flags it changed, with their flags now. */
struct rejudging
{
  struct store *st;
  struct plausible_best_reader best;
  char *(*changed)[2];          /* id, flags; malloc'ed */
  size_t n;
};

/* Notes that ID's flags are FLAGS now (again, when already noted). */
static void
note_change (struct rejudging *rg, const char *id, const char *flags)
{
  size_t i = 0;
  while (i < rg->n && strcmp (rg->changed[i][0], id) != 0)
    i++;
  if (i == rg->n)
    {
      rg->changed = gb_xrealloc (rg->changed, (rg->n + 1) * sizeof *rg->changed);
      rg->changed[rg->n][0] = gb_xstrdup (id);
      rg->changed[rg->n++][1] = NULL;
    }
  free (rg->changed[i][1]);
  rg->changed[i][1] = gb_xstrdup (flags);
}

/* The store's own judge (store_own_judge): the result's document
 * validated again and its own flags decided by the judge an upload
 * meets; a document that no longer validates (this server's rules
 * moved on) keeps its flags, and says so. */
static int
judge_own (void *ctx, const struct store_row *row, char **flags, char **notes)
{
  struct rejudging *rg = ctx;
  struct doc_summary doc;
  struct validate_error err;
  char f[PLAUSIBLE_FLAGS], n[PLAUSIBLE_NOTES];

  if (validate_document (row->body, row->body_len, &doc, &err) < 0)
    {
      fprintf (stderr, "gmpbench-server admin: result %s no longer validates (%s: %s): its "
               "own flags are kept\n", row->id, err.rule, err.message);
      validate_error_free (&err);
      return 1;
    }
  int rc = plausible_own_again (rg->st, &doc, &rg->best, row->flags ? row->flags : "",
                                row->flag_notes ? row->flag_notes : "", f, sizeof f, n,
                                sizeof n);
  validate_summary_free (&doc);
  if (rc < 0)
    return -1;
  if (strcmp (f, row->flags ? row->flags : "") != 0)
    note_change (rg, row->id, f);
  *flags = gb_xstrdup (f);
  *notes = gb_xstrdup (n);
  return 0;
}

/* Judges the CPU row ROW again, in a transaction of its own with its
 * audit row (the target: CPU, mode and build, spaces between), and says
 * which flags changed: 0, or -1. */
static int
rejudge_one (struct store *st, char *const row[3], struct store_audit *a)
{
  struct store_rejudge rj;
  struct plausible_category *cat = plausible_category_new (st, &rj);
  struct rejudging rg = { st, { read_best, st }, NULL, 0 };
  struct store_own_judge own = { judge_own, &rg };
  struct store_rejudged out;
  char *target = gb_xmalloc (strlen (row[0]) + strlen (row[1]) + strlen (row[2]) + 3);

  sprintf (target, "%s %s %s", row[0], row[1], row[2]);
  a->target = target;
  enum store_status rc = store_rejudge_row (st, row[0], row[1], row[2], a, &own, &rj, &out);
  for (size_t i = 0; rc == STORE_OK && i < out.n; i++)
    note_change (&rg, out.changes[i].id, out.changes[i].flags);
  if (rc == STORE_OK)
    printf ("%s: own flags of %zu results judged again, %zu changed; %zu judged with their "
            "category, %zu flag%s changed\n", target, out.own_judged, out.own_changed,
            out.judged, out.n, out.n == 1 ? "" : "s");
  for (size_t i = 0; i < rg.n; i++)
    {
      if (rc == STORE_OK)
        printf ("  %s: %s\n", rg.changed[i][0], *rg.changed[i][1] ? rg.changed[i][1]
                : "no flags");
      free (rg.changed[i][0]);
      free (rg.changed[i][1]);
    }
  if (rc != STORE_OK && rc != STORE_NOT_FOUND)  /* not found: unlisted since it was read */
    fprintf (stderr, "gmpbench-server admin: rejudge %s failed: the database gave an error "
             "(logged above)\n", target);
  free (rg.changed);
  plausible_category_free (cat);
  free (target);
  return rc == STORE_OK || rc == STORE_NOT_FOUND ? 0 : -1;
}

static int
run_rejudge (struct store *st, const struct admin_request *rq, struct store_audit *a)
{
  struct rows rows = { NULL, 0 };
  int failed = 0;

  if (store_cpu_rows (st, rq->target, rq->mode, rq->build, take_row, &rows) != STORE_OK)
    return report (STORE_ERROR, rq, NULL);
  if (rows.n == 0)
    report (STORE_NOT_FOUND, rq, NULL);
  for (size_t i = 0; i < rows.n; i++)
    {
      failed |= rejudge_one (st, rows.row[i], a) < 0;
      for (int k = 0; k < 3; k++)
        free (rows.row[i][k]);
    }
  free (rows.row);
  return rows.n > 0 && !failed ? ADMIN_DONE : ADMIN_FAILED;
}

/* One line of the log: time, actor, verb, target, reason, detail, tab
 * between ("-" for none). */
static int
print_action (void *ctx, int64_t seq, const struct store_audit *action)
{
  char when[21];
  (void) ctx;
  (void) seq;
  log_time (action->at, when);
  printf ("%s\t%s\t%s\t%s\t%s\t%s\n", when, action->actor, action->verb, action->target,
          action->reason ? action->reason : "-", action->detail[0] ? action->detail : "-");
  return 0;
}

int
admin_run (const struct admin_request *rq)
{
  char err[512];
  /* Two connections: rejudge's judge reads the best per GHz while its
   * transaction holds the writer's. */
  struct store *st = store_open (rq->database, 2, err, sizeof err);
  struct store_audit a = {
    (int64_t) time (NULL), rq->actor, rq->verb, rq->target, rq->reason, NULL
  };
  int status;

  if (!st)
    {
      fprintf (stderr, "gmpbench-server admin: database %s: %s\n", rq->database, err);
      return ADMIN_FAILED;
    }
  if (strcmp (rq->verb, "log") == 0)
    status = store_audit_log (st, rq->limit, print_action, NULL) == STORE_OK
      ? ADMIN_DONE : ADMIN_FAILED;
  else if (strstr (rq->verb, "hide"))
    status = run_visibility (st, rq, &a);
  else if (strcmp (rq->verb, "rejudge") == 0)
    status = run_rejudge (st, rq, &a);
  else
    status = run_key (st, rq, &a);
  store_close (st);
  return status;
}
