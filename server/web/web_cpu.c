/* web_cpu.c: one CPU identity's page, /cpu?cpu=IDENTITY (with the home
 * page's filters): the headline (median GMPbench score, its spread, the
 * run mode and GMP build kind shown), the distribution of its GMPbench
 * scores as an inline SVG strip plot over a box plot (web_strip.c), how
 * many flagged results the figures leave out (linking the page with
 * them), the
 * median of every node of the hierarchy as an indented tree (web_nodes.h's
 * order: the compatible score, then the extended tests, then the other
 * libraries), each node linking its own distribution (&node=, in
 * web_cpu_node.c), its results by GMP version and compiler and by GMP
 * build kind side by side (web_cpu_builds.c), and its newest
 * results, flagged ones too (marked, each saying why in a few words),
 * with the share of this CPU's results each is faster than (strictly:
 * an equal score is not "faster than");
 * verified publishers' results highlighted and flagged ones marked
 * throughout, and the newest results run in a virtual machine marked
 * so.
 *
 * The distribution, the breakdown and the percentiles come from the
 * snapshot (server/board/board.h), so they cover every result however many
 * there are; the strip plot draws at most 400 of them (evenly through
 * the ranking, every verified one included).  The node medians
 * and the list come from the newest NODE_RESULTS results in the store,
 * read once and kept with the snapshot until the CPU's results change
 * (board_cpu_memo). */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "server/web/web_cpu_builds.h"
#include "server/web/web_nodes.h"
#include "server/web/web_strip.h"

#define LISTED 50

/* Results by GMP version and compiler: count, median, best, verified
 * (the snapshot interns them: equal strings are the same pointer). */
static void
breakdown (FILE *f, const struct board_entry *e, size_t n)
{
  size_t *seen = calloc (n + 1, sizeof *seen);
  struct board_entry *group = malloc ((n + 1) * sizeof *group);
  if (!seen || !group)
    {
      free (seen);
      free (group);
      return;
    }
  fputs ("<h2 id=\"by-build\">By GMP version and compiler</h2>\n<div class=\"scroll\"><table class=\"stack\">\n"
         "<thead><tr><th scope=\"col\">GMP</th><th scope=\"col\">Compiler</th><th class=\"num\" "
         "scope=\"col\">n</th><th class=\"num\" scope=\"col\">Median score</th><th class=\"num\" "
         "scope=\"col\">Best</th><th class=\"num\" scope=\"col\">Verified</th></tr></thead>\n"
         "<tbody>\n", f);
  for (size_t i = 0; i < n; i++)
    {
      size_t k = 0, verified = 0;
      if (seen[i])
        continue;
      for (size_t j = i; j < n; j++)
        if (!seen[j] && e[j].gmp == e[i].gmp && e[j].compiler == e[i].compiler)
          {
            seen[j] = 1;
            verified += e[j].verified;
            group[k++] = e[j];
          }
      fputs ("<tr><td class=\"test\">GMP ", f);
      web_text (f, e[i].gmp);
      fputs ("</td><td data-label=\"Compiler\">", f);
      web_text (f, e[i].compiler);
      fprintf (f, "</td><td class=\"num\" data-label=\"n\">%zu</td><td class=\"num\" "
               "data-label=\"Median\">", k);
      web_number (f, web_strip_quantile (group, k, 0.5));
      fputs ("</td><td class=\"num\" data-label=\"Best\">", f);
      web_number (f, group[0].score);
      fprintf (f, "</td><td class=\"num\" data-label=\"Verified\">%zu</td></tr>\n", verified);
    }
  fputs ("</tbody></table></div>\n", f);
  free (seen);
  free (group);
}

/* ------------------------------------------------------------ the store */

/* What the newest results' rows are written from. */
struct recent
{
  struct store *st;
  struct store_filter sf;
  FILE *list;
  const struct board_entry *e;  /* the snapshot's scored results, best first */
  size_t scored;
};

/* The percentage of the SCORED entries E (best first) with a lower score
 * than SCORE: those after the last that is not lower, found by a binary
 * search (the page lists 50 results of a CPU that may have 150,000).
 * SCORE is read back from the stored scores' JSON, which keeps 15
 * significant digits when they come within a rounding error of the
 * double (cJSON's printer), so it may lie an ulp above the snapshot's
 * value of the same result: lower means lower by more than a billionth
 * (as model/score.h's score_equal), and an equal score is never "faster
 * than", the result's own included. */
static double
faster_than (const struct board_entry *e, size_t scored, double score)
{
  double below = score - fabs (score) * 1e-9;
  size_t lo = 0, hi = scored;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (e[mid].score < below)
        hi = mid;
      else
        lo = mid + 1;
    }
  return scored ? 100.0 * (double) (scored - lo) / (double) scored : NAN;
}

static int
take_recent (void *ctx, const struct store_row *row, double score)
{
  struct recent *rc = ctx;
  FILE *f = rc->list;
  cJSON *scores;
  const cJSON *g;
  int flagged = row->flags && *row->flags;

  (void) score;
  scores = row->scores ? cJSON_Parse (row->scores) : NULL;
  g = cJSON_GetObjectItemCaseSensitive (scores, "gmpbench");
  fprintf (f, "<tr%s><td class=\"pick\"><input type=\"checkbox\" name=\"id\" value=\"%s\" "
           "aria-label=\"compare %s\"></td><td class=\"name\">", row->publisher
           ? " class=\"verified\"" : flagged ? " class=\"flagged\"" : "", row->id, row->id);
  web_result_link (f, row->id);
  fputs ("</td><td class=\"num\" data-label=\"Score\">", f);
  web_number (f, cJSON_IsNumber (g) ? g->valuedouble : NAN);
  fputs ("</td><td class=\"num\" data-label=\"Faster than\">", f);
  if (cJSON_IsNumber (g) && rc->scored > 1)
    fprintf (f, "%.0f%%", faster_than (rc->e, rc->scored, g->valuedouble));
  else
    fputs ("\u2013", f);
  fputs ("</td>", f);
  web_build_cells (f, row->gmp, row->compiler, row->os);
  fputs ("<td data-label=\"By\">", f);
  if (row->publisher)
    {
      fputs ("<span class=\"badge\">verified</span> ", f);
      web_text (f, row->publisher);
    }
  else
    web_text (f, row->submitter ? row->submitter : "(no name)");
  web_virtual_badge (f, row->virtual_machine);
  web_flag_mark (f, row->id, row->flags);
  fputs ("</td></tr>\n", f);
  cJSON_Delete (scores);
  return 0;
}

/* The node medians as a tree, each node linking its distribution under
 * the filters the URL gave (GIVEN: the same defaults apply there). */
static void
node_tree (FILE *f, const struct board_filter *given, const struct node_scores *ns)
{
  if (ns->results == 0)
    return;                     /* only flagged results, listed below */
  fprintf (f, "<h2 id=\"nodes\">Scores by node</h2>\n<p class=\"note\">Medians over the newest "
           "%d matching result%s, each source (a network or a verified publisher) counted once "
           "by the median of its results: the GMPbench score (compatible with GMPbench 0.2), "
           "then the extended tests, then the other libraries.  A node's name opens the "
           "distribution of its scores.</p>\n<div class=\"scroll\"><table class=\"stack tree\">"
           "\n<thead><tr><th scope=\"col\">Node</th><th class=\"num\" scope=\"col\">Sources</th>"
           "<th class=\"num\" scope=\"col\">Results</th><th class=\"num\" scope=\"col\">Median "
           "score</th></tr></thead>\n<tbody>\n", ns->results, web_plural ((size_t) ns->results));
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth;
      size_t n;
      const char *node = web_node (i, &depth);
      double median = node_scores_median (ns, node, &n);
      if (n == 0)
        continue;
      fprintf (f, "<tr%s><td class=\"test depth%d\">", depth == 0 ? " class=\"node\"" : "",
               depth > 4 ? 4 : depth);
      web_cpu_node_link (f, given, node);
      fprintf (f, "</td><td class=\"num\" data-label=\"Sources\">%zu</td><td class=\"num\" "
               "data-label=\"Results\">%zu</td><td class=\"num\" data-label=\"Median\">",
               node_scores_sources (ns, node), n);
      web_number (f, median);
      fputs ("</td></tr>\n", f);
    }
  fputs ("</tbody></table></div>\n", f);
}

/* The rows of the newest results of CTX (a struct recent), malloc'ed
 * (*BYTES: their length); NULL when the store fails. */
static void *
list_make (void *ctx, size_t *bytes)
{
  struct recent *rc = ctx;
  char *list = NULL;
  size_t len = 0;

  if (!(rc->list = open_memstream (&list, &len)))
    return NULL;
  int listed = store_list (rc->st, &rc->sf, take_recent, rc) == STORE_OK;
  if (fclose (rc->list) != 0 || !listed)
    {
      free (list);
      return NULL;
    }
  *bytes = len;
  return list;
}

/* The node tree and the newest results, kept with the snapshot B; -1
 * when the store fails. */
static int
recent (FILE *f, struct http_request *r, struct board *b, const struct board_filter *bf,
        const struct board_filter *given, const struct board_entry *e, size_t scored)
{
  struct recent rc = { r->srv->store, { 0 }, NULL, e, scored };
  struct node_scores ns = { NULL, NULL, 0, NULL };
  char *key = node_memo_key ("newest", bf), *list = NULL;
  int owned = 1, loaded = -1;

  node_store_filter (b, bf, &rc.sf);
  rc.sf.limit = LISTED;
  rc.sf.unflagged_only = 0;     /* listed whatever the judge said, marked */
  if (key)
    list = board_cpu_memo (b, bf->value[BF_CPU], key, list_make, &rc, free, &owned);
  free (key);
  if (list)
    loaded = node_scores_load (b, r->srv->store, bf, &ns);
  if (loaded == 0)
    {
      node_tree (f, given, &ns);
      fprintf (f, "<h2 id=\"results\">Newest results</h2>\n<form method=\"get\" "
               "action=\"/compare\">\n<div class=\"scroll\"><table class=\"stack\">\n<thead><tr>"
               "<th scope=\"col\">Compare</th><th scope=\"col\">Result</th><th class=\"num\" "
               "scope=\"col\">Score</th><th class=\"num\" scope=\"col\" title=\"the share of "
               "this CPU's results (under these filters) with a lower score\">Faster than</th>"
               "<th scope=\"col\">GMP</th><th scope=\"col\">Compiler</th><th scope=\"col\">"
               "OS</th><th scope=\"col\">Submitter</th></tr></thead>\n<tbody>\n%s</tbody>"
               "</table></div>\n<button type=\"submit\">Compare the checked results</button>\n"
               "</form>\n", list);
    }
  if (owned)
    free (list);
  node_scores_free (&ns);
  return loaded;
}

/* The median GMPbench score and its spread, first on the page, then
 * what the CPU is (NAME is the brand string shown as the title). */
static void
headline (FILE *f, const struct board_filter *bf, const char *name, const struct board_row *row,
          size_t n, size_t scored, const struct web_machine *m)
{
  char kind[96];

  fputs ("<p class=\"headline\" id=\"headline\">Median GMPbench score <strong>", f);
  web_number (f, scored && row ? row->median : NAN);
  fputs ("</strong>", f);
  if (scored && row)
    {
      fputs (" <span class=\"note\">IQR ", f);
      web_number (f, row->q1);
      fputs ("\u2013", f);
      web_number (f, row->q3);
      fputs (", best ", f);
      web_number (f, row->best);
      fputs ("</span>", f);
    }
  if (row)
    fprintf (f, "</p>\n<p class=\"note\" id=\"sources\">From %zu independent source%s (a "
             "network or a verified publisher), each counted once by the median of its "
             "results \u00b7 %s", row->sources, row->sources == 1 ? "" : "s",
             row->confirmed ? "confirmed" : "unconfirmed: fewer than 3 sources and no verified "
             "publisher, so ranked after the confirmed CPUs");
  fputs ("</p>\n<p class=\"note\">", f);
  if (*web_cpu_kind (bf->value[BF_CPU], name, kind, sizeof kind))
    {
      fputs ("<span class=\"kind\">", f);
      web_text (f, kind);
      fputs ("</span>", f);
    }
  web_machine_text (f, m->model, m->soc);
  if (*kind || *m->model)
    fputs (" \u00b7 ", f);
  fputs ("<code>", f);
  web_text (f, bf->value[BF_CPU]);
  fprintf (f, "</code> \u00b7 %zu matching result%s, %zu with a GMPbench score \u00b7 ", n,
           web_plural (n), scored);
  web_text (f, bf->value[BF_MODE]);
  fputs (" runs of ", f);
  web_text (f, bf->value[BF_BUILD]);
  fputs (" GMP builds", f);
  web_machine_filter_text (f, bf);
  fputs (" \u00b7 <a href=\"/\">all CPUs</a></p>\n", f);
}

/* How many of BF's results the judge flagged, when BF leaves them out
 * of the figures: said, with a link to the page with them, so that a
 * submitter whose new result was flagged learns where it went. */
static void
hidden_note (FILE *f, const struct board *b, const struct board_filter *bf, size_t shown)
{
  struct board_filter all = *bf;
  struct board_entry *e;

  if (bf->include_flagged)
    return;
  all.include_flagged = 1;
  size_t hidden = board_cpu_entries (b, &all, &e) - shown;
  free (e);
  if (hidden == 0)
    return;
  fprintf (f, "<p class=\"flagged-note\" id=\"hidden\">%zu flagged result%s of this CPU %s "
           "left out of these figures (the newest are listed below, marked, each saying why): "
           "<a href=\"", hidden, web_plural (hidden), hidden == 1 ? "is" : "are");
  web_cpu_url (f, &all, NULL);
  fputs ("\">include flagged results</a>.</p>\n", f);
}

/* What the page's body (all of it but the frame) is written from. */
struct body
{
  struct http_request *r;
  struct board *b;
  const struct board_filter *bf, *given;
  const char *name;
  char *unkept;                 /* a body with a part missing, for this page only */
};

/* Writes X's body into F; -1 when a part of it is missing (the store
 * failed). */
static int
write_body (FILE *f, const struct body *x)
{
  struct board_entry *e;
  size_t n = board_cpu_entries (x->b, x->bf, &e), scored = 0;
  struct web_machine machine;
  int status = 0;

  while (scored < n && !isnan (e[scored].score))
    scored++;
  if (web_machine_agreed (x->b, x->r->srv->store, x->bf, &machine) < 0)
    status = -1;
  struct board_row *rows = NULL;
  size_t nrows = 0;
  if (board_rank (x->b, x->r->srv->store, x->bf, BK_SCORE, NULL, &rows, &nrows) < 0)
    nrows = 0;
  headline (f, x->bf, x->name, nrows ? &rows[0] : NULL, n, scored, &machine);
  free (rows);
  hidden_note (f, x->b, x->bf, n);
  if (scored > 0)
    web_strip_plot (f, e, scored, NULL);
  if (recent (f, x->r, x->b, x->bf, x->given, e, scored) < 0)
    {
      fputs ("<p>The node scores and newest results are unavailable; try again later.</p>\n", f);
      status = -1;
    }
  if (scored > 0)
    breakdown (f, e, scored);
  if (web_cpu_builds (f, x->r->srv->store, x->b, x->bf) < 0)
    {
      fputs ("<p>The medians by GMP build kind are unavailable; try again later.</p>\n", f);
      status = -1;
    }
  free (e);
  return status;
}

/* CTX's body (a struct body), malloc'ed (*BYTES: its length); NULL when
 * out of memory, or when a part is missing (the body is then in CTX's
 * UNKEPT). */
static void *
body_make (void *ctx, size_t *bytes)
{
  struct body *x = ctx;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);

  if (!f)
    return NULL;
  int whole = write_body (f, x) == 0;
  if (fclose (f) != 0)
    {
      free (text);
      return NULL;
    }
  if (!whole)
    {
      x->unkept = text;
      return NULL;
    }
  *bytes = len;
  return text;
}

/* The page: its body written once and kept with the snapshot while the
 * CPU's results do not change (it depends on them, the filters and the
 * URL's filters, which its links keep, alone). */
static enum MHD_Result
render (struct http_request *r, struct board *b, const struct board_filter *bf,
        const struct board_filter *given, const char *name)
{
  struct page p;
  struct body x = { r, b, bf, given, name, NULL };
  char *url = node_memo_key ("page", given), *key = url ? node_memo_key (url, bf) : NULL;
  int owned = 1;
  char *text = key ? board_cpu_memo (b, bf->value[BF_CPU], key, body_make, &x, free, &owned)
    : NULL;

  free (url);
  free (key);
  if (!text)
    {
      text = x.unkept;
      owned = 1;
    }
  if (page_begin (&p, r, name) < 0)
    {
      if (owned)
        free (text);
      return MHD_NO;
    }
  fputs (text ? text : "<p>The page is unavailable; try again later.</p>\n", p.f);
  if (owned)
    free (text);
  return page_end (&p, 200);
}

enum MHD_Result
web_cpu (struct http_request *r)
{
  struct board_filter bf;

  if (web_read_filter (r, &bf) < 0)
    return page_error (r, 400, "The machine argument is bare-metal, virtual or all.");
  if (!bf.value[BF_CPU] || !*bf.value[BF_CPU])
    return page_error (r, 400, "Which CPU? The page wants ?cpu=IDENTITY.");
  int preparing;
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return page_no_board (r, preparing);
  const char *name = board_cpu_name (b, bf.value[BF_CPU]);
  const char *node = http_arg (r, "node");
  struct board_filter given = bf;
  board_default_kinds (b, bf.value[BF_CPU], &bf);
  enum MHD_Result rc;
  if (!name)
    rc = page_error (r, 404, "No listed result has this CPU identity.");
  else if (node && *node)
    rc = web_cpu_node (r, b, &bf, *name ? name : bf.value[BF_CPU], node);
  else
    rc = render (r, b, &bf, &given, *name ? name : bf.value[BF_CPU]);
  board_release (b);
  return rc;
}
