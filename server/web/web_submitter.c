/* web_submitter.c: the results of one key, /submitters/FINGERPRINT,
 * newest first (listed ones: a banned key's page is empty).  A key the
 * operator verified gets its page titled with the publisher's name;
 * another with the name its newest result gives (submitter.name), said
 * to be unverified, else with the fingerprint. */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#define LIMIT 500

struct rows
{
  FILE *f;
  char *name;                   /* the newest result's submitter name, or NULL */
};

static int
take_row (void *ctx, const struct store_row *row)
{
  struct rows *rs = ctx;
  FILE *f = rs->f;
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL;
  cJSON *g = cJSON_GetObjectItemCaseSensitive (scores, "gmpbench");

  if (!rs->name && row->submitter && *row->submitter)
    rs->name = strdup (row->submitter);
  fprintf (f, "<tr%s><td class=\"pick\"><input type=\"checkbox\" name=\"id\" value=\"%s\" "
           "aria-label=\"compare %s\"></td><td>", row->flags && *row->flags
           ? " class=\"flagged\"" : "", row->id, row->id);
  web_result_link (f, row->id);
  fputs ("</td><td class=\"name\">", f);
  web_cpu_link (f, row->cpu, row->cpu_name);
  fputs ("</td><td class=\"num\" data-label=\"Score\">", f);
  web_number (f, cJSON_IsNumber (g) ? g->valuedouble : NAN);
  fputs ("</td>", f);
  web_build_cells (f, row->gmp, row->compiler, row->os);
  fputs ("<td data-label=\"Run\">", f);
  web_text (f, row->created);
  fputs (row->flags && *row->flags ? " <span class=\"badge flag\">flagged</span>" : "", f);
  fputs ("</td></tr>\n", f);
  cJSON_Delete (scores);
  return 0;
}

static enum MHD_Result
render (struct http_request *r, const char *fingerprint, const char *publisher)
{
  struct page p;
  char title[160];
  size_t len = 0;
  struct rows rs = { NULL, NULL };
  char *list = NULL;

  rs.f = open_memstream (&list, &len);
  if (!rs.f)
    return MHD_NO;
  int listed = store_by_key (r->srv->store, fingerprint, LIMIT, take_row, &rs) == STORE_OK;
  if (fclose (rs.f) != 0)
    listed = 0;
  if (publisher)
    snprintf (title, sizeof title, "%s", publisher);
  else if (rs.name)
    snprintf (title, sizeof title, "%s", rs.name);
  else
    snprintf (title, sizeof title, "Submitter %.12s", fingerprint);
  if (page_begin (&p, r, title) < 0)
    {
      free (list);
      free (rs.name);
      return MHD_NO;
    }
  fputs (publisher ? "<p><span class=\"badge\">verified publisher</span> key "
         : rs.name ? "<p>The name this key's newest result gives (not verified: anyone can "
         "give any name) \u00b7 key " : "<p>Key ", p.f);
  fprintf (p.f, "<code>%s</code></p>\n<form method=\"get\" action=\"/compare\">\n"
           "<div class=\"scroll\"><table class=\"stack\">\n<thead><tr><th scope=\"col\">"
           "Compare</th><th scope=\"col\">Result</th><th scope=\"col\">CPU</th>"
           "<th class=\"num\" scope=\"col\">Score</th><th scope=\"col\">GMP</th>"
           "<th scope=\"col\">Compiler</th><th scope=\"col\">OS</th><th scope=\"col\">Run"
           "</th></tr></thead>\n<tbody>\n", fingerprint);
  if (listed)
    fputs (list ? list : "", p.f);
  else
    fputs ("<tr><td colspan=\"8\">The results are unavailable; try again later.</td></tr>\n",
           p.f);
  fputs ("</tbody></table></div>\n<button type=\"submit\">Compare the checked results</button>\n"
         "</form>\n", p.f);
  free (list);
  free (rs.name);
  return page_end (&p, 200);
}

enum MHD_Result
web_submitter (struct http_request *r, const char *fingerprint)
{
  int banned;
  char *publisher;

  if (strlen (fingerprint) != 64 || strspn (fingerprint, "0123456789abcdef") != 64)
    return page_error (r, 404, "A submitter is named by the 64 hex digits of a key's fingerprint.");
  if (store_key_status (r->srv->store, fingerprint, &banned, &publisher) != STORE_OK)
    return page_error (r, 503, "The database is unavailable; try again later.");
  enum MHD_Result rc = render (r, fingerprint, publisher);
  free (publisher);
  return rc;
}
