/* api_stream.c: the NDJSON dump and the CSV export (of the results that
 * match the listing's filters, api_filter).
 *
 * Both walk the results in upload order a page at a time (PAGE rows per
 * database round trip, no connection held between pages), so a response
 * of any size needs constant memory and never blocks uploads for long.
 * The dump starts after the place its `after` names (0: from the first),
 * so a mirror that keeps the place (the line's seq) of the last line it
 * read asks for the rest only: what was stored since, and the lines of
 * results retracted, hidden or shown again since, which move to the end
 * (server/store/store_dump.c).
 * Neither is cached: their bodies are not known before they are sent, so
 * they have no ETag, and a copy of a whole dump is not worth a cache's
 * space (docs/server.md, "Caching"). */
#include "server/api/api_handlers.h"
#include "server/api/api_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "server/log.h"

#define PAGE 200

/* The columns of the export after the fixed ones: the headline nodes. */
static const char *const csv_nodes[] = { "gmpbench", "gmpbench.base", "gmpbench.app" };

struct walk
{
  struct store *store;
  struct store_filter filter;   /* the export's, its strings in OWNED */
  char *owned[8];
  int64_t after;
  int rows, header_done;
  char **buf;
  size_t *len, *cap;
};

static void
append (struct walk *w, const char *data, size_t n)
{
  if (*w->len + n + 1 > *w->cap)
    {
      *w->cap = *w->cap ? *w->cap : 64 * 1024;
      while (*w->cap < *w->len + n + 1)
        *w->cap *= 2;
      *w->buf = gb_xrealloc (*w->buf, *w->cap);
    }
  memcpy (*w->buf + *w->len, data, n);
  *w->len += n;
}

static void
append_str (struct walk *w, const char *s)
{
  append (w, s, strlen (s));
}

static void
append_json_line (struct walk *w, cJSON *obj)
{
  char *text = cJSON_PrintUnformatted (obj);
  cJSON_Delete (obj);
  if (text)
    {
      append_str (w, text);
      append (w, "\n", 1);
      free (text);
    }
}

static int
dump_row (void *ctx, const struct store_row *row)
{
  struct walk *w = ctx;
  cJSON *obj = cJSON_CreateObject ();
  char when[21];

  w->after = row->place;
  w->rows++;
  cJSON_AddNumberToObject (obj, "seq", (double) row->place);
  cJSON_AddStringToObject (obj, "id", row->id);
  if (row->retracted)
    cJSON_AddBoolToObject (obj, "retracted", 1);
  else if (row->hidden_at)
    cJSON_AddBoolToObject (obj, "hidden", 1);
  else
    {
      log_time (row->received, when);
      cJSON_AddStringToObject (obj, "received", when);
      cJSON_AddStringToObject (obj, "signature", row->signature ? row->signature : "");
      cJSON_AddStringToObject (obj, "document", row->body ? row->body : "");
    }
  append_json_line (w, obj);
  return 0;
}

static int
walk_page (struct walk *w, int dump, char **buf, size_t *len, size_t *cap,
           store_row_fn fn)
{
  w->buf = buf;
  w->len = len;
  w->cap = cap;
  w->rows = 0;
  if (store_page (w->store, dump, &w->filter, w->after, PAGE, fn, w) != STORE_OK)
    return -1;
  return *len > 0;
}

static int
fill_dump (void *ctx, char **buf, size_t *len, size_t *cap)
{
  return walk_page (ctx, 1, buf, len, cap, dump_row);
}

static struct walk *
new_walk (struct http_request *r)
{
  struct walk *w = gb_xcalloc (1, sizeof *w);
  w->store = r->srv->store;
  return w;
}

/* The `after` of the dump's query, a seq (decimal, 0 or more), into
 * *AFTER (0 without one): 0, or -1 when it is not one. */
static int
parse_after (struct http_request *r, int64_t *after)
{
  const char *text = http_arg (r, "after");
  *after = 0;
  if (!text)
    return 0;
  if (!*text || strspn (text, "0123456789") != strlen (text) || strlen (text) > 18)
    return -1;
  *after = strtoll (text, NULL, 10);
  return 0;
}

enum MHD_Result
api_dump (struct http_request *r)
{
  int64_t after;
  r->cache = HTTP_CACHE_NONE;
  if (parse_after (r, &after) < 0)
    return http_error (r, 400, "query", "after", "after must be a result's seq: a whole "
                       "number, 0 or more, of at most 18 digits");
  struct walk *w = new_walk (r);
  w->after = after;
  return http_stream (r, "application/x-ndjson", fill_dump, free, w);
}

/* ------------------------------------------------------------ CSV */

static void
csv_field (struct walk *w, const char *s, int last)
{
  s = s ? s : "";
  if (strpbrk (s, ",\"\r\n"))
    {
      append (w, "\"", 1);
      for (; *s; s++)
        {
          if (*s == '"')
            append (w, "\"", 1);
          append (w, s, 1);
        }
      append (w, "\"", 1);
    }
  else
    append_str (w, s);
  append (w, last ? "\r\n" : ",", last ? 2 : 1);
}

static int
csv_row (void *ctx, const struct store_row *row)
{
  struct walk *w = ctx;
  char when[21], number[32];
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL;

  w->after = row->seq;
  w->rows++;
  log_time (row->received, when);
  csv_field (w, row->id, 0);
  csv_field (w, when, 0);
  csv_field (w, row->arch, 0);
  csv_field (w, row->cpu, 0);
  csv_field (w, row->cpu_name, 0);
  csv_field (w, row->os, 0);
  csv_field (w, row->gmp, 0);
  csv_field (w, row->compiler, 0);
  csv_field (w, row->publisher, 0);
  csv_field (w, row->flags, 0);
  for (size_t i = 0; i < GB_ARRAY_SIZE (csv_nodes); i++)
    {
      const cJSON *s = cJSON_GetObjectItemCaseSensitive (scores, csv_nodes[i]);
      number[0] = '\0';
      if (cJSON_IsNumber (s))
        snprintf (number, sizeof number, "%.17g", s->valuedouble);
      csv_field (w, number, i + 1 == GB_ARRAY_SIZE (csv_nodes));
    }
  cJSON_Delete (scores);
  return 0;
}

static int
fill_csv (void *ctx, char **buf, size_t *len, size_t *cap)
{
  struct walk *w = ctx;
  if (!w->header_done)
    {
      w->buf = buf;
      w->len = len;
      w->cap = cap;
      append_str (w, "id,received,arch,cpu,cpu_name,os,gmp,compiler,publisher,flags");
      for (size_t i = 0; i < GB_ARRAY_SIZE (csv_nodes); i++)
        {
          append (w, ",", 1);
          append_str (w, csv_nodes[i]);
        }
      append (w, "\r\n", 2);
      w->header_done = 1;
    }
  return walk_page (w, 0, buf, len, cap, csv_row);
}

static void
walk_free (void *ctx)
{
  struct walk *w = ctx;
  for (size_t i = 0; i < GB_ARRAY_SIZE (w->owned); i++)
    free (w->owned[i]);
  free (w);
}

/* The filter's strings copied into W: the stream's callback runs after
 * the handler has returned. */
static void
own_filter (struct walk *w)
{
  const char **values[] = { &w->filter.arch, &w->filter.cpu, &w->filter.vendor, &w->filter.os,
                            &w->filter.gmp, &w->filter.compiler, &w->filter.mode,
                            &w->filter.build };
  for (size_t i = 0; i < GB_ARRAY_SIZE (values); i++)
    if (*values[i])
      *values[i] = w->owned[i] = gb_xstrdup (*values[i]);
}

enum MHD_Result
api_export (struct http_request *r)
{
  const char *bad = NULL;
  r->cache = HTTP_CACHE_NONE;
  struct walk *w = new_walk (r);
  if (api_filter (r, &w->filter, &bad) < 0)
    {
      free (w);
      return http_error (r, 400, "query", bad, "bad value for query parameter %s", bad);
    }
  own_filter (w);
  return http_stream (r, "text/csv; charset=utf-8", fill_csv, walk_free, w);
}
