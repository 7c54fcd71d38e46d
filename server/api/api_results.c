/* api_results.c: reading results: one by id (parsed, raw bytes,
 * signature) and filtered, sorted, paginated listings.
 *
 * Listing cursors are opaque to clients but simple inside: "SEQ" when
 * listing newest first, "SCORE:SEQ" (SCORE with 17 significant digits,
 * so it reads back exactly) when sorted by a node's score.  The store
 * continues strictly after that position, so pages never repeat or skip a
 * result even when scores tie.
 *
 * A listing sorted by a test is ranked in the leaderboard's snapshot
 * (board_ranked), which keeps the test's scores in memory once asked
 * for: the store keeps them in upload order only, so it would read and
 * sort all of them (a second at a million results).  So is one sorted
 * by the GMPbench score, each entry's own: the store's index by score
 * would be walked past every result the filters leave out (43,000 of
 * them for a filter of 2,000 slow CPUs' results, at a million).  Only
 * the rows shown are then read from the store, each by its seq.
 *
 * A result the operators hid is still served by id, its bytes and
 * signature too (kept for audit), the parsed answer saying when and
 * why; listings leave it out (it is not listed). */
#include "server/api/api_handlers.h"
#include "server/api/api_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/registry.h"
#include "model/validate.h"
#include "server/log.h"
#include "server/board/board.h"

#define DEFAULT_LIMIT 50
#define MAX_LIMIT 500

struct one_result
{
  const char *part;             /* NULL, "raw" or "signature" */
  struct http_request *r;
  enum MHD_Result rc;
};

static enum MHD_Result
parsed_result (struct http_request *r, const struct store_row *row)
{
  cJSON *obj = api_row_summary (row);
  cJSON *doc = cJSON_ParseWithLength (row->body, row->body_len);
  char api[96];

  snprintf (api, sizeof api, PROTOCOL_RESULTS_PATH "/%s", row->id);
  cJSON_AddStringToObject (obj, "api", api);
  if (row->hidden_at)
    {
      char when[21];
      cJSON *hidden = cJSON_AddObjectToObject (obj, "hidden");
      log_time (row->hidden_at, when);
      cJSON_AddStringToObject (hidden, "at", when);
      cJSON_AddStringToObject (hidden, "reason", row->hidden_reason ? row->hidden_reason : "");
    }
  cJSON_AddItemToObject (obj, "document", doc ? doc : cJSON_CreateNull ());
  return http_json (r, 200, obj);
}

static int
answer_one (void *ctx, const struct store_row *row)
{
  struct one_result *o = ctx;

  if (row->retracted)
    o->rc = http_error (o->r, 410, "retracted", NULL, "result %s was retracted by its submitter",
                        row->id);
  else if (!o->part)
    o->rc = parsed_result (o->r, row);
  else if (strcmp (o->part, "raw") == 0)
    o->rc = http_bytes (o->r, 200, "application/json", row->body, row->body_len);
  else
    o->rc = http_bytes (o->r, 200, "text/plain", row->signature, strlen (row->signature));
  return 1;
}

static int
valid_id (const char *id)
{
  size_t len = strlen (id);
  if (len < 16 || len > 64)
    return 0;
  for (size_t i = 0; i < len; i++)
    if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
      return 0;
  return 1;
}

enum MHD_Result
api_result (struct http_request *r, const char *id, const char *part)
{
  struct one_result o = { part, r, MHD_NO };

  if (!valid_id (id))
    return http_error (r, 404, "not-found", NULL, "no such result");
  snprintf (r->id, sizeof r->id, "%s", id);
  switch (store_get (r->srv->store, id, answer_one, &o))
    {
    case STORE_OK:
      return o.rc;
    case STORE_NOT_FOUND:
      return http_error (r, 404, "not-found", NULL, "no such result");
    case STORE_CORRUPT:
      return http_error (r, 500, "corrupt", NULL, "the stored document of result %s is damaged "
                         "(it fails its SHA-256 check) and is not served", id);
    default:
      return api_unavailable (r);
    }
}

/* ------------------------------------------------------------ listings */

static int
parse_cursor (const char *text, struct store_filter *f)
{
  char *end;
  const char *seq = text;

  errno = 0;
  if (f->sort_node)
    {
      f->cursor_score = strtod (text, &end);
      if (end == text || *end != ':' || !isfinite (f->cursor_score))
        return -1;
      seq = end + 1;
    }
  f->cursor_seq = strtoll (seq, &end, 10);
  if (end == seq || *end != '\0' || errno || f->cursor_seq < 0)
    return -1;
  f->has_cursor = 1;
  return 0;
}

static int
flag_arg (struct http_request *r, const char *name, int *out)
{
  const char *v = http_arg (r, name);
  if (!v)
    return 0;
  if (strcmp (v, "0") != 0 && strcmp (v, "1") != 0)
    return -1;
  *out = v[0] == '1';
  return 0;
}

int
api_filter (struct http_request *r, struct store_filter *f, const char **bad)
{
  int flagged = 1;

  memset (f, 0, sizeof *f);
  f->arch = http_arg (r, "arch");
  f->cpu = http_arg (r, "cpu");
  f->vendor = http_arg (r, "vendor");
  f->os = http_arg (r, "os");
  f->gmp = http_arg (r, "gmp");
  f->compiler = http_arg (r, "compiler");
  f->mode = http_arg (r, "mode");
  f->build = http_arg (r, "build");
  if (machine_kind_parse (http_arg (r, "machine"), &f->machine) < 0)
    return *bad = "machine", -1;
  if (flag_arg (r, "verified", &f->verified_only) < 0)
    return *bad = "verified", -1;
  if (flag_arg (r, "flagged", &flagged) < 0)
    return *bad = "flagged", -1;
  f->unflagged_only = !flagged;
  return 0;
}

/* Fills F from the query; 0, or -1 with the offending argument in *BAD. */
static int
parse_filter (struct http_request *r, struct store_filter *f, const char **bad)
{
  const char *limit = http_arg (r, "limit"), *cursor = http_arg (r, "cursor");

  if (api_filter (r, f, bad) < 0)
    return -1;
  f->sort_node = http_arg (r, "sort");
  f->limit = DEFAULT_LIMIT;
  if (f->sort_node && (strlen (f->sort_node) > 256 || !validate_known_node (f->sort_node)))
    return *bad = "sort", -1;
  if (limit)
    {
      char *end;
      long v = strtol (limit, &end, 10);
      if (end == limit || *end || v < 1 || v > MAX_LIMIT)
        return *bad = "limit", -1;
      f->limit = (int) v;
    }
  if (cursor && parse_cursor (cursor, f) < 0)
    return *bad = "cursor", -1;
  return 0;
}

struct page
{
  cJSON *list;
  int count;
  int more;                     /* a next page may have results */
  int64_t last_seq;
  double last_score;
};

static int
add_row (void *ctx, const struct store_row *row, double score)
{
  struct page *p = ctx;
  cJSON_AddItemToArray (p->list, api_row_summary (row));
  p->count++;
  p->last_seq = row->seq;
  p->last_score = score;
  return 0;
}

/* The results board_ranked chose (BEST, N of them), read from the store
 * in one query: ITEMS[i] is BEST[i]'s summary, NULL when it is no longer
 * listed (retracted meanwhile). */
struct ranked_rows
{
  const struct board_scored *best;
  size_t n;
  cJSON **items;
};

static int
take_ranked_row (void *ctx, const struct store_row *row)
{
  struct ranked_rows *rr = ctx;
  for (size_t i = 0; i < rr->n; i++)
    if (rr->best[i].seq == row->seq && !rr->items[i])
      {
        rr->items[i] = api_row_summary (row);
        break;
      }
  return 0;
}

/* F (sorted by a test, or by the GMPbench score) listed from the
 * leaderboard's snapshot into P: 0, 1 when the snapshot cannot answer
 * (none yet, or an empty filter value, which it reads as any), -1 on a
 * database error. */
static int
list_from_board (struct http_request *r, const struct store_filter *f, struct page *p)
{
  const char *values[BF_COUNT] = {
    [BF_CPU] = f->cpu, [BF_ARCH] = f->arch, [BF_VENDOR] = f->vendor, [BF_OS] = f->os,
    [BF_GMP] = f->gmp, [BF_COMPILER] = f->compiler, [BF_MODE] = f->mode, [BF_BUILD] = f->build,
    [BF_MACHINE] = f->machine == MACHINE_ANY ? NULL
    : machine_kind_name (f->machine == MACHINE_VIRTUAL),
  };
  struct board_filter bf = { { NULL }, f->verified_only, !f->unflagged_only };
  struct board_scored *best;
  size_t n;
  int preparing, rc = 0;

  for (int i = 0; i < BF_COUNT; i++)
    if ((bf.value[i] = values[i]) && !*values[i])
      return 1;
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return 1;
  if (board_ranked (b, r->srv->store, &bf, f->sort_node, f->has_cursor, f->cursor_score,
                    f->cursor_seq, (size_t) f->limit, &best, &n) < 0)
    rc = -1;
  board_release (b);
  if (rc == 0 && n > 0)
    {
      int64_t *seqs = gb_xmalloc (n * sizeof *seqs);
      struct ranked_rows rr = { best, n, gb_xcalloc (n, sizeof *rr.items) };
      for (size_t i = 0; i < n; i++)
        seqs[i] = best[i].seq;
      if (store_rows (r->srv->store, f, seqs, n, take_ranked_row, &rr) != STORE_OK)
        rc = -1;
      for (size_t i = 0; i < n; i++)
        if (rc == 0 && rr.items[i])
          {
            cJSON_AddItemToArray (p->list, rr.items[i]);
            p->count++;
          }
        else
          cJSON_Delete (rr.items[i]);
      free (rr.items);
      free (seqs);
    }
  if (rc == 0 && n > 0)
    {
      p->more = n == (size_t) f->limit;
      p->last_seq = best[n - 1].seq;
      p->last_score = best[n - 1].score;
    }
  free (best);
  return rc;
}

enum MHD_Result
api_list (struct http_request *r)
{
  struct store_filter f;
  const char *bad = NULL;
  char cursor[64];

  if (parse_filter (r, &f, &bad) < 0)
    return http_error (r, 400, "query", bad, "bad value for query parameter %s", bad);
  struct page p = { cJSON_CreateArray (), 0, 0, 0, 0 };
  int from_board = f.sort_node && (registry_find (f.sort_node)
                                   || strcmp (f.sort_node, BOARD_SCORE_NODE) == 0);
  int rc = from_board ? list_from_board (r, &f, &p) : 1;
  if (rc > 0)
    {
      rc = store_list (r->srv->store, &f, add_row, &p) == STORE_OK ? 0 : -1;
      p.more = p.count == f.limit;
    }
  if (rc < 0)
    {
      cJSON_Delete (p.list);
      return api_unavailable (r);
    }
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddItemToObject (body, "results", p.list);
  if (p.more)
    {
      if (f.sort_node)
        snprintf (cursor, sizeof cursor, "%.17g:%" PRId64, p.last_score, p.last_seq);
      else
        snprintf (cursor, sizeof cursor, "%" PRId64, p.last_seq);
      cJSON_AddStringToObject (body, "next_cursor", cursor);
    }
  else
    cJSON_AddNullToObject (body, "next_cursor");
  return http_json (r, 200, body);
}
