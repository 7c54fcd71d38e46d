/* web_compare.c: two or more results side by side, /compare?id=A&id=B...
 * (the order of the ids is the order of the columns; the first is the
 * baseline).
 *
 * For every test of the baseline that another result has too, the ratio
 * is the other's ops/s over the baseline's (above 1: the other is
 * faster), marked "~" when it differs from 1 by no more than the two
 * relative spreads added (the same rule as the client's comparison
 * table: such a difference is noise).  Every node of the hierarchy shows
 * each result's score and the ratio of the scores; a node that one of
 * them has no score for gets the geometric mean of the ratios of its
 * tests that both results have instead (marked "*").  The headline nodes
 * get a bar chart of the ratios (web_bars.h). */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "server/web/web_bars.h"
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
ratio_cell (FILE *f, char letter, double r, const char *mark)
{
  fprintf (f, "<td class=\"num%s\" data-label=\"%c/A\">", strchr (mark, '~') ? " within" : "",
           letter);
  web_number (f, r);
  fputs (mark, f);
  fputs ("</td>", f);
}

/* S's score of NODE (LEN bytes), NAN when it has none. */
static double
node_score (const struct side *s, const char *node, size_t len)
{
  char name[256];
  snprintf (name, sizeof name, "%.*s", (int) len, node);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive
                                                     (s->doc, "scores"), name);
  return cJSON_IsNumber (v) ? v->valuedouble : NAN;
}

/* The ratio of B to A at NODE: of their scores, else the geometric mean
 * of the tests' ratios (*GEOMEAN set). */
static double
node_ratio_of (const struct side *a, const struct side *b, const char *node, size_t len,
               int *geomean)
{
  int count;
  double sa = node_score (a, node, len), sb = node_score (b, node, len);
  *geomean = isnan (sa) || isnan (sb) || sa <= 0;
  return *geomean ? node_ratio (a, b, node, len, &count) : sb / sa;
}

static void
node_row (FILE *f, const struct side *s, int n, const char *name, size_t len, int depth)
{
  fprintf (f, "<tr class=\"node\"><td class=\"test depth%d\">%.*s</td><td class=\"num\" "
           "data-label=\"A\">", depth > 4 ? 4 : depth, (int) len, name);
  web_number (f, node_score (&s[0], name, len));
  fputs ("</td>", f);
  for (int k = 1; k < n; k++)
    {
      int geomean;
      double r = node_ratio_of (&s[0], &s[k], name, len, &geomean);
      fprintf (f, "<td class=\"num\" data-label=\"%c\">", 'A' + k);
      web_number (f, node_score (&s[k], name, len));
      fputs ("</td>", f);
      ratio_cell (f, (char) ('A' + k), r, geomean && !isnan (r) ? " *" : "");
    }
  fputs ("</tr>\n", f);
}

static void
test_row (FILE *f, const struct side *s, int n, const char *name, int depth)
{
  int within = 0;
  fprintf (f, "<tr><td class=\"test depth%d\">%s</td><td class=\"num\" data-label=\"A\">",
           depth > 4 ? 4 : depth, name);
  web_number (f, doc_number (entry (&s[0], name), DOC_RESULT_OPS_PER_SEC, NAN));
  fputs ("</td>", f);
  for (int k = 1; k < n; k++)
    {
      const cJSON *e = entry (&s[k], name);
      double r = ratio (&s[0], &s[k], name, &within);
      fprintf (f, "<td class=\"num\" data-label=\"%c\">", 'A' + k);
      web_number (f, e ? doc_number (e, DOC_RESULT_OPS_PER_SEC, NAN) : NAN);
      fputs ("</td>", f);
      ratio_cell (f, (char) ('A' + k), r, !isnan (r) && within ? " ~" : "");
    }
  fputs ("</tr>\n", f);
}

/* The baseline's tests in registry order under their nodes. */
static void
table (FILE *f, const struct side *s, int n)
{
  const char *prev = "";
  web_compare_table_head (f, "Node (score) or test (ops/s)", n);
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
  struct web_bar bars[32];
  char names[32][64];
  size_t nb = 0;
  const char *prev = "";

  for (size_t i = 0; i < registry_count () && nb < 32; i++)
    {
      const char *name = registry_test (i)->name, *dot = strchr (name, '.');
      for (int depth = 0; dot && depth < 2 && nb < 32; depth++, dot = strchr (dot + 1, '.'))
        {
          size_t len = (size_t) (dot - name);
          int geomean;
          if ((strncmp (prev, name, len) == 0 && prev[len] == '.') || len >= sizeof names[0]
              || charted (names, nb, name, len))
            continue;
          double r = node_ratio_of (a, b, name, len, &geomean);
          if (isnan (r))
            continue;
          snprintf (names[nb], sizeof names[nb], "%.*s", (int) len, name);
          bars[nb] = (struct web_bar) { names[nb], NULL, r, NAN, NAN, 0, 0 };
          nb++;
        }
      prev = name;
    }
  if (nb > 0)
    web_bars_ratio (f, "B / A per node", "ratio (above 1: B faster)", bars, nb);
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
  fputs ("</ol>\n<p class=\"note\">Ratios are the other result's score or ops/s over A's "
         "(above 1: faster than A); * marks a node one result has no score for, whose ratio is "
         "the geometric mean of the ratios of the tests both have; ~ marks a test's ratio "
         "within the two results' spreads (noise).</p>\n", f);
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
load (struct http_request *r, const char *const *ids, int n, struct side *s)
{
  for (int k = 0; k < n; k++)
    {
      size_t len = strspn (ids[k], "0123456789abcdef");
      if (len < 16 || len > 64 || ids[k][len])
        return 404;
      snprintf (s[k].id, sizeof s[k].id, "%s", ids[k]);
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
web_compare_unchecked (struct http_request *r, int cpus, int n)
{
  struct page p;
  struct board_filter bf;
  int first = 1;

  if (page_begin (&p, r, "Nothing to compare") < 0)
    return MHD_NO;
  fprintf (p.f, "<p id=\"unchecked\">%s %s checked.  A comparison takes two to six: check "
           "them in the Compare column of %s, then press <q>Compare the checked %s</q>.</p>\n",
           n == 1 ? "Only one" : "No", cpus ? "CPU was" : "result was",
           cpus ? "the leaderboard" : "a CPU's or a submitter's page", cpus ? "CPUs" : "results");
  fputs ("<p><a href=\"/", p.f);
  if (cpus && web_read_filter (r, &bf) == 0)
    {
      for (int k = BF_ARCH; k < BF_COUNT; k++)
        if (bf.value[k] && *bf.value[k])
          web_arg (p.f, &first, web_field_arg[k], bf.value[k]);
      if (bf.verified_only)
        web_arg (p.f, &first, "verified", "1");
      if (bf.include_flagged)
        web_arg (p.f, &first, "flagged", "1");
    }
  fputs ("\">Back to the leaderboard</a></p>\n", p.f);
  return page_end (&p, 400);
}

enum MHD_Result
web_compare (struct http_request *r)
{
  const char *ids[MAX_RESULTS];
  struct side s[MAX_RESULTS];
  enum MHD_Result rc;
  const char *what = http_arg (r, "compare");

  if (http_arg (r, "cpu") || (what && strcmp (what, "cpus") == 0))
    return web_compare_cpus (r);
  int n = web_args (r, "id", ids, MAX_RESULTS);
  if (n >= 0 && n < 2)
    return web_compare_unchecked (r, 0, n);
  if (n < 0)
    return page_error (r, 400, "Compare takes two to six results: /compare?id=A&id=B.");
  memset (s, 0, sizeof s);
  int status = load (r, ids, n, s);
  rc = status == 404 ? page_error (r, 404, "One of these results does not exist.")
    : status == 410 ? page_error (r, 410, "One of these results was retracted.")
    : status ? page_error (r, 503, "The database is unavailable; try again later.")
    : render (r, s, n);
  for (int k = 0; k < n; k++)
    side_free (&s[k]);
  return rc;
}
