/* web_home_data.c: the rows of a leaderboard view as data (the API's
 * /api/v1/leaderboard and /api/v1/leaderboard.csv, docs/protocol.md):
 * the same rows in the same order as the page, with every column of both
 * sets, the GMP version and compiler by name; and the page's old
 * format=json and format=csv, which redirect there with the rest of
 * their query unchanged. */
#include "server/web/web_home.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/protocol.h"

static void
csv_field (FILE *f, const char *s)
{
  fputc ('"', f);
  for (; *s; s++)
    {
      if (*s == '"')
        fputc ('"', f);
      fputc (*s, f);
    }
  fputc ('"', f);
}

static void
csv_number (FILE *f, double x)
{
  if (!isnan (x))
    fprintf (f, "%.6g", x);
}

static void
json_number (cJSON *o, const char *name, double x)
{
  if (isnan (x))
    cJSON_AddNullToObject (o, name);
  else
    cJSON_AddNumberToObject (o, name, x);
}

static enum MHD_Result
export_csv (struct http_request *r, const struct board *b, const struct view *v,
            const struct board_row *rows, size_t n, const struct extra *x)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (!f)
    return MHD_NO;
  fputs ("rank,cpu,name,arch,n,verified,median,q1,q3,best", f);
  for (size_t k = 0; k < HOME_CATEGORIES; k++)
    fprintf (f, ",%s", home_categories[k].key);
  fputs (",per_ghz,rsa_2048,clock_ghz,gmp,compiler", f);
  if (v->key == BK_NODE)
    fprintf (f, ",%s", v->sort);
  fputs ("\r\n", f);
  for (size_t i = 0; i < n; i++)
    {
      const struct board_row *w = &rows[i];
      double values[] = { w->median, w->q1, w->q3, w->best };
      fprintf (f, "%zu,", i + 1);
      csv_field (f, w->cpu);
      fputc (',', f);
      csv_field (f, w->cpu_name);
      fputc (',', f);
      csv_field (f, w->arch);
      fprintf (f, ",%zu,%zu", w->n, x[i].verified);
      for (size_t k = 0; k < GB_ARRAY_SIZE (values); k++)
        {
          fputc (',', f);
          csv_number (f, values[k]);
        }
      for (size_t k = 0; k < HOME_CATEGORIES; k++)
        {
          fputc (',', f);
          csv_number (f, x[i].category[k]);
        }
      fputc (',', f);
      csv_number (f, w->per_ghz);
      fputc (',', f);
      csv_number (f, w->rsa);
      fputc (',', f);
      csv_number (f, w->ghz);
      fputc (',', f);
      csv_field (f, board_value (b, BF_GMP, w->gmp));
      fputc (',', f);
      csv_field (f, board_value (b, BF_COMPILER, w->compiler));
      if (v->key == BK_NODE)
        {
          fputc (',', f);
          csv_number (f, w->node);
        }
      fputs ("\r\n", f);
    }
  if (fclose (f) != 0)
    {
      free (buf);
      return MHD_NO;
    }
  return http_bytes_owned (r, 200, "text/csv; charset=utf-8", buf, len);
}

static enum MHD_Result
export_json (struct http_request *r, const struct board *b, const struct view *v,
             const struct board_row *rows, size_t n, const struct extra *x)
{
  cJSON *body = cJSON_CreateObject ();
  cJSON *view = cJSON_AddObjectToObject (body, "view");
  cJSON *list = cJSON_AddArrayToObject (body, "rows");
  for (int k = BF_ARCH; k < BF_COUNT; k++)
    if (v->shown.value[k] && *v->shown.value[k])
      cJSON_AddStringToObject (view, web_field_arg[k], v->shown.value[k]);
  cJSON_AddBoolToObject (view, "verified_only", v->filter.verified_only);
  cJSON_AddBoolToObject (view, "include_flagged", v->filter.include_flagged);
  if (v->query)
    cJSON_AddStringToObject (view, "q", v->query);
  cJSON_AddStringToObject (view, "sort", v->sort ? v->sort : "score");
  for (size_t i = 0; i < n; i++)
    {
      const struct board_row *w = &rows[i];
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddNumberToObject (o, "rank", (double) (i + 1));
      cJSON_AddStringToObject (o, "cpu", w->cpu);
      cJSON_AddStringToObject (o, "name", w->cpu_name);
      cJSON_AddStringToObject (o, "arch", w->arch);
      cJSON_AddNumberToObject (o, "n", (double) w->n);
      cJSON_AddNumberToObject (o, "verified", (double) x[i].verified);
      cJSON_AddNumberToObject (o, "sources", (double) w->sources);
      cJSON_AddBoolToObject (o, "confirmed", w->confirmed);
      json_number (o, "median", w->median);
      json_number (o, "q1", w->q1);
      json_number (o, "q3", w->q3);
      json_number (o, "best", w->best);
      for (size_t k = 0; k < HOME_CATEGORIES; k++)
        json_number (o, home_categories[k].key, x[i].category[k]);
      json_number (o, "per_ghz", w->per_ghz);
      json_number (o, "rsa_2048", w->rsa);
      json_number (o, "clock_ghz", w->ghz);
      cJSON_AddStringToObject (o, "gmp", board_value (b, BF_GMP, w->gmp));
      cJSON_AddStringToObject (o, "compiler", board_value (b, BF_COMPILER, w->compiler));
      if (v->key == BK_NODE)
        json_number (o, "node", w->node);
      cJSON_AddItemToArray (list, o);
    }
  return http_json (r, 200, body);
}

enum MHD_Result
home_export (struct http_request *r, const struct board *b, const struct view *v,
             const struct board_row *rows, size_t n, const struct extra *x, const char *format)
{
  return strcmp (format, "csv") == 0 ? export_csv (r, b, v, rows, n, x)
    : export_json (r, b, v, rows, n, x);
}

/* ------------------------------------------------------------ moved */

struct query_copy
{
  FILE *f;
  int first;
};

/* One argument of the query, copied unless it is format. */
static enum MHD_Result
copy_arg (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct query_copy *q = cls;
  (void) kind;
  if (strcmp (key, "format") == 0)
    return MHD_YES;
  fputc (q->first ? '?' : '&', q->f);
  q->first = 0;
  web_url_encode (q->f, key);
  if (value)
    {
      fputc ('=', q->f);
      web_url_encode (q->f, value);
    }
  return MHD_YES;
}

enum MHD_Result
home_moved (struct http_request *r, const char *format)
{
  char *location = NULL;
  size_t len = 0;
  int json = strcmp (format, "json") == 0;

  if (!json && strcmp (format, "csv") != 0)
    return page_error (r, 400, "The format argument is csv or json.");
  FILE *f = open_memstream (&location, &len);
  if (!f)
    return MHD_NO;
  struct query_copy q = { f, 1 };
  fputs (json ? PROTOCOL_LEADERBOARD_PATH : PROTOCOL_LEADERBOARD_CSV_PATH, f);
  MHD_get_connection_values (r->conn, MHD_GET_ARGUMENT_KIND, copy_arg, &q);
  if (fclose (f) != 0)
    {
      free (location);
      return MHD_NO;
    }
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "location", location);
  enum MHD_Result rc = http_json_header (r, 301, body, "Location", location);
  free (location);
  return rc;
}

enum MHD_Result
home_error (struct http_request *r, const char *format, int status, const char *message)
{
  if (!format)
    return page_error (r, status, message);
  return http_error (r, status, status == 400 ? "query" : "unavailable", NULL, "%s", message);
}

enum MHD_Result
home_no_board (struct http_request *r, int preparing)
{
  r->rule = "unavailable";
  return http_json_header (r, 503, http_error_body ("unavailable", NULL, preparing
                                                    ? "the leaderboard is being prepared; "
                                                    "try again in a few seconds"
                                                    : "the database is unavailable; "
                                                    "try again later"),
                           "Retry-After", preparing ? "5" : "30");
}
