/* web_compare.c: two or more results side by side, /compare?id=A&id=B...
 * (the order of the ids is the order of the columns; the first is the
 * baseline).
 *
 * For every test of the baseline that another result has too, the ratio
 * is the other's ops/s over the baseline's (above 1: the other is
 * faster), marked "~" when it differs from 1 by no more than the two
 * relative spreads added (the same rule as the client's comparison
 * table: such a difference is noise).  Every node of the hierarchy gets
 * the geometric mean of the ratios of its tests that both results have,
 * and the headline nodes a bar chart (model/svg_chart.h). */
#include "server/web.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/svg_chart.h"
#include "model/registry.h"
#include "model/doc_read.h"
#include "model/doc_schema.h"

#define MAX_RESULTS 6

struct side
{
  char id[65];
  cJSON *doc;
  char *cpu_name, *gmp, *compiler, *os;
  int retracted;
};

struct ids
{
  const char *id[MAX_RESULTS];
  int n, too_many;
};

static enum MHD_Result
collect_id (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct ids *ids = cls;
  (void) kind;
  if (strcmp (key, "id") == 0 && value && *value)
    {
      if (ids->n == MAX_RESULTS)
        ids->too_many = 1;
      else
        ids->id[ids->n++] = value;
    }
  return MHD_YES;
}

static char *
dup_or_empty (const char *s)
{
  return strdup (s ? s : "");
}

static int
take_side (void *ctx, const struct store_row *row)
{
  struct side *s = ctx;
  s->retracted = row->retracted;
  s->doc = cJSON_ParseWithLength (row->body, row->body_len);
  s->cpu_name = dup_or_empty (row->cpu_name);
  s->gmp = dup_or_empty (row->gmp);
  s->compiler = dup_or_empty (row->compiler);
  s->os = dup_or_empty (row->os);
  return 1;
}

static void
side_free (struct side *s)
{
  cJSON_Delete (s->doc);
  free (s->cpu_name);
  free (s->gmp);
  free (s->compiler);
  free (s->os);
}

/* The results[] entry of TEST in S, or NULL. */
static const cJSON *
entry (const struct side *s, const char *test)
{
  const cJSON *e;
  cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (s->doc, "results"))
    {
      const cJSON *name = cJSON_GetObjectItemCaseSensitive (e, "name");
      if (cJSON_IsString (name) && strcmp (name->valuestring, test) == 0)
        return e;
    }
  return NULL;
}

/* The ratio of B's ops/s of TEST to A's (NAN when one lacks it); *WITHIN
 * says whether it is within the spreads. */
static double
ratio (const struct side *a, const struct side *b, const char *test, int *within)
{
  const cJSON *ea = entry (a, test), *eb = entry (b, test);
  if (!ea || !eb)
    return NAN;
  double r = doc_number (eb, DOC_RESULT_OPS_PER_SEC, NAN)
    / doc_number (ea, DOC_RESULT_OPS_PER_SEC, NAN);
  *within = fabs (r - 1)
    <= doc_number (ea, DOC_RESULT_SPREAD, NAN) + doc_number (eb, DOC_RESULT_SPREAD, NAN);
  return r;
}

/* The geometric mean of the ratios of the tests under NODE (LEN bytes),
 * and their count in *N. */
static double
node_ratio (const struct side *a, const struct side *b, const char *node, size_t len, int *n)
{
  double sum = 0;
  int within;
  *n = 0;
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      if (strncmp (name, node, len) != 0 || (name[len] != '.' && name[len] != '\0'))
        continue;
      double r = ratio (a, b, name, &within);
      if (!isnan (r) && r > 0)
        {
          sum += log (r);
          (*n)++;
        }
    }
  return *n ? exp (sum / *n) : NAN;
}

static void
ratio_cell (FILE *f, double r, int within)
{
  fprintf (f, "<td class=\"num%s\">", within ? " within" : "");
  web_number (f, r);
  fputs (within ? " ~</td>" : "</td>", f);
}

static void
node_row (FILE *f, const struct side *s, int n, const char *name, size_t len, int depth)
{
  int count = 0;
  fprintf (f, "<tr class=\"node\"><td class=\"depth%d\">%.*s</td><td></td>",
           depth > 4 ? 4 : depth, (int) len, name);
  for (int k = 1; k < n; k++)
    {
      double r = node_ratio (&s[0], &s[k], name, len, &count);
      fprintf (f, "<td class=\"num\">%d tests</td>", count);
      ratio_cell (f, r, 0);
    }
  fputs ("</tr>\n", f);
}

static void
test_row (FILE *f, const struct side *s, int n, const char *name, int depth)
{
  int within = 0;
  fprintf (f, "<tr><td class=\"depth%d\">%s</td><td class=\"num\">", depth > 4 ? 4 : depth, name);
  web_number (f, doc_number (entry (&s[0], name), DOC_RESULT_OPS_PER_SEC, NAN));
  fputs ("</td>", f);
  for (int k = 1; k < n; k++)
    {
      const cJSON *e = entry (&s[k], name);
      double r = ratio (&s[0], &s[k], name, &within);
      fputs ("<td class=\"num\">", f);
      web_number (f, e ? doc_number (e, DOC_RESULT_OPS_PER_SEC, NAN) : NAN);
      fputs ("</td>", f);
      ratio_cell (f, r, !isnan (r) && within);
    }
  fputs ("</tr>\n", f);
}

/* The baseline's tests in registry order under their nodes. */
static void
table (FILE *f, const struct side *s, int n)
{
  const char *prev = "";
  fputs ("<div class=\"scroll\"><table id=\"compare\">\n<thead><tr><th scope=\"col\">Node or "
         "test</th><th class=\"num\" scope=\"col\">A ops/s</th>", f);
  for (int k = 1; k < n; k++)
    fprintf (f, "<th class=\"num\" scope=\"col\">%c ops/s</th><th class=\"num\" scope=\"col\">"
             "%c/A</th>", 'A' + k, 'A' + k);
  fputs ("</tr></thead>\n<tbody>\n", f);
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      int depth = 0;
      if (!entry (&s[0], name))
        continue;
      for (const char *dot = strchr (name, '.'); dot; dot = strchr (dot + 1, '.'), depth++)
        {
          size_t len = (size_t) (dot - name);
          if (!(strncmp (prev, name, len) == 0 && prev[len] == '.'))
            node_row (f, s, n, name, len, depth);
        }
      test_row (f, s, n, name, depth);
      prev = name;
    }
  fputs ("</tbody></table></div>\n", f);
}

/* Whether the first NB NAMES hold NODE (LEN bytes). */
static int
charted (char names[][64], size_t nb, const char *node, size_t len)
{
  for (size_t i = 0; i < nb; i++)
    if (strlen (names[i]) == len && strncmp (names[i], node, len) == 0)
      return 1;
  return 0;
}

/* Bars of B/A for the nodes of depth 0 and 1 that both results cover. */
static void
chart (FILE *f, const struct side *a, const struct side *b)
{
  struct chart_bar bars[32];
  char names[32][64];
  size_t nb = 0;
  const char *prev = "";

  for (size_t i = 0; i < registry_count () && nb < 32; i++)
    {
      const char *name = registry_test (i)->name, *dot = strchr (name, '.');
      for (int depth = 0; dot && depth < 2 && nb < 32; depth++, dot = strchr (dot + 1, '.'))
        {
          size_t len = (size_t) (dot - name);
          int count;
          if ((strncmp (prev, name, len) == 0 && prev[len] == '.') || len >= sizeof names[0]
              || charted (names, nb, name, len))
            continue;
          double r = node_ratio (a, b, name, len, &count);
          if (isnan (r))
            continue;
          snprintf (names[nb], sizeof names[nb], "%.*s", (int) len, name);
          bars[nb] = (struct chart_bar) { names[nb], r, 0 };
          nb++;
        }
      prev = name;
    }
  if (nb > 0)
    svg_ratio_bars (f, "B / A: geometric mean of the per-test ratios per node",
                    "ratio (above 1: B faster)", bars, nb);
}

static void
legend (FILE *f, const struct side *s, int n)
{
  fputs ("<ol class=\"legend\" type=\"A\">\n", f);
  for (int k = 0; k < n; k++)
    {
      fputs ("<li>", f);
      web_result_link (f, s[k].id);
      fputs (": ", f);
      web_text (f, s[k].cpu_name);
      fputs (", GMP ", f);
      web_text (f, s[k].gmp);
      fputs (", ", f);
      web_text (f, s[k].compiler);
      fputs (", ", f);
      web_text (f, s[k].os);
      fputs ("</li>\n", f);
    }
  fputs ("</ol>\n<p class=\"note\">Ratios are the other result's ops/s over A's (above 1: "
         "faster than A); a node's ratio is the geometric mean of its tests' ratios; ~ marks "
         "a ratio within the two results' spreads (noise).</p>\n", f);
}

static enum MHD_Result
render (struct http_request *r, struct side *s, int n)
{
  struct page p;
  if (page_begin (&p, r, "Comparison") < 0)
    return MHD_NO;
  legend (p.f, s, n);
  chart (p.f, &s[0], &s[1]);
  table (p.f, s, n);
  return page_end (&p, 200);
}

/* Loads every side; an error page's status, or 0. */
static int
load (struct http_request *r, const struct ids *ids, struct side *s)
{
  for (int k = 0; k < ids->n; k++)
    {
      size_t len = strspn (ids->id[k], "0123456789abcdef");
      if (len < 16 || len > 64 || ids->id[k][len])
        return 404;
      snprintf (s[k].id, sizeof s[k].id, "%s", ids->id[k]);
      enum store_status st = store_get (r->srv->store, s[k].id, take_side, &s[k]);
      if (st != STORE_OK)
        return st == STORE_NOT_FOUND ? 404 : 503;
      if (s[k].retracted)
        return 410;
      if (!s[k].doc)
        return 503;
    }
  return 0;
}

enum MHD_Result
web_compare (struct http_request *r)
{
  struct ids ids = { { NULL }, 0, 0 };
  struct side s[MAX_RESULTS];
  enum MHD_Result rc;

  MHD_get_connection_values (r->conn, MHD_GET_ARGUMENT_KIND, collect_id, &ids);
  if (ids.n < 2 || ids.too_many)
    return page_error (r, 400, "Compare wants two to six results: /compare?id=A&id=B "
                       "(check them on a CPU or submitter page).");
  memset (s, 0, sizeof s);
  int status = load (r, &ids, s);
  rc = status == 404 ? page_error (r, 404, "One of these results does not exist.")
    : status == 410 ? page_error (r, 410, "One of these results was retracted.")
    : status ? page_error (r, 503, "The database is unavailable; try again later.")
    : render (r, s, ids.n);
  for (int k = 0; k < ids.n; k++)
    side_free (&s[k]);
  return rc;
}
