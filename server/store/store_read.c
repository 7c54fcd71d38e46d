/* store_read.c: result rows as read back, and one result (store_get).
 *
 * Every query of result rows delivers them through one row function
 * (store_adapt_row), which decodes them (ROW_COLUMNS, FULL_COLUMNS:
 * store_internal.h) for the caller's.  A document is read back through
 * one function that decompresses it (server/store/store_body.h) and
 * checks its SHA-256: a document that fails is not served
 * (STORE_CORRUPT).
 */
#include "server/store/store_internal.h"

#include "server/log.h"
#include "server/store/store_body.h"

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
  r->virtual_machine = c_int (&c[21]) != 0;
  r->hidden_at = c_int (&c[22]);              /* NULL reads 0 */
  r->hidden_reason = c_text (&c[23]);
  if (ncols >= FULL_NCOLS)
    {
      r->signature = c_text (&c[ROW_NCOLS]);
      r->public_key = c_text (&c[ROW_NCOLS + 1]);
    }
  r->place = ncols > FULL_NCOLS ? c_int (&c[FULL_NCOLS]) : r->seq;
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

  if (rc == -2 && store_reread_dicts (st) == 0)
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

int
store_adapt_row (void *ctx, const struct db_value *cols, int ncols)
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
enum store_status
store_read_rows (struct store *st, const char *sql, const struct db_value *params, int nparams,
                 struct row_adapter *a)
{
  struct db_conn *c = store_acquire (st);
  enum store_status rc = STORE_OK;
  if (st->drv->query (c, sql, params, nparams, store_adapt_row, a) < 0)
    rc = store_failed (st, c, "read");
  else if (a->corrupt)
    rc = STORE_CORRUPT;
  store_release (st, c);
  return rc;
}

enum store_status
store_get (struct store *st, const char *id, store_row_fn fn, void *ctx)
{
  struct row_adapter a = { st, fn, NULL, ctx, 0, 0 };
  struct db_value p = p_text (id);
  enum store_status rc = store_read_rows (st, "SELECT " FULL_COLUMNS
                                          " FROM results r WHERE r.id = $1", &p, 1, &a);
  return rc == STORE_OK && !a.found ? STORE_NOT_FOUND : rc;
}
