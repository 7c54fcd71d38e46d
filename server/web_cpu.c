/* web_cpu.c: one CPU identity's page, /cpu?cpu=IDENTITY (with the home
 * page's filters): the headline (median GMPbench score, its spread, the
 * run mode and GMP build kind shown), the distribution of its GMPbench
 * scores as an inline SVG strip plot over a box plot, the median of
 * every node of the hierarchy as an indented tree (web_nodes.h's order:
 * the compatible score, then the extended tests, then the other
 * libraries), its results by GMP version and compiler, and its newest
 * results with the share of this CPU's results each is faster than;
 * verified publishers' results highlighted and flagged ones marked
 * throughout.
 *
 * The distribution, the breakdown and the percentiles come from the
 * snapshot (server/board.h), so they cover every result however many
 * there are; the strip plot draws at most MAX_POINTS of them (evenly
 * through the ranking, every verified one included).  The node medians
 * and the list come from the newest NODE_RESULTS results in the store. */
#include "server/web.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "server/api.h"
#include "server/web_nodes.h"

#define MAX_POINTS 400
#define LISTED 50

/* Plot geometry, in SVG units. */
#define W 720
#define H 220
#define LEFT 20
#define RIGHT 700
#define STRIP_TOP 40
#define STRIP_BOTTOM 120
#define BOX_TOP 135
#define BOX_BOTTOM 165
#define AXIS 175

/* A round step for about five ticks over SPAN. */
static double
tick_step (double span)
{
  double step = pow (10, floor (log10 (span / 5)));
  return span / step > 25 ? 5 * step : span / step > 10 ? 2 * step : step;
}

static double
x_of (double v, double lo, double hi)
{
  return LEFT + (RIGHT - LEFT) * (hi > lo ? (v - lo) / (hi - lo) : 0.5);
}

static void
axis (FILE *f, double lo, double hi)
{
  double step = tick_step (hi - lo);
  fprintf (f, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
           LEFT, AXIS, RIGHT, AXIS);
  for (double t = ceil (lo / step) * step; t <= hi; t += step)
    {
      double x = x_of (t, lo, hi);
      fprintf (f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
               "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, STRIP_TOP, x, AXIS + 4,
               x, AXIS + 18);
      web_number (f, t);
      fputs ("</text>\n", f);
    }
  fprintf (f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">GMPbench score "
           "(higher is faster)</text>\n", (LEFT + RIGHT) / 2, H - 6);
}

/* Quantile Q of E[0..N) (best first), by linear interpolation. */
static double
quantile (const struct board_entry *e, size_t n, double q)
{
  double pos = (1 - q) * (double) (n - 1);
  size_t i = (size_t) pos;
  double frac = pos - (double) i;
  return i + 1 < n ? e[i].score * (1 - frac) + e[i + 1].score * frac : e[i].score;
}

static void
point (FILE *f, const struct board_entry *e, double lo, double hi)
{
  unsigned jitter = (unsigned) ((uint64_t) e->seq * 2654435761u % 1000);
  double y = STRIP_TOP + 8 + (STRIP_BOTTOM - STRIP_TOP - 16) * jitter / 1000.0;
  fprintf (f, "<circle class=\"point%s%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"><title>",
           e->verified ? " verified" : "", e->flagged ? " flagged" : "",
           x_of (e->score, lo, hi), y, e->verified ? 5 : 4);
  web_number (f, e->score);
  fputs (e->verified ? " (verified publisher)" : "", f);
  fputs (e->flagged ? " (flagged)" : "", f);
  fputs (", GMP ", f);
  web_text (f, e->gmp);
  fputs (", ", f);
  web_text (f, e->compiler);
  fputs ("</title></circle>\n", f);
}

/* The strip plot and box plot of the N scored entries E (best first). */
static void
distribution (FILE *f, const struct board_entry *e, size_t n)
{
  double best = e[0].score, worst = e[n - 1].score;
  double pad = best > worst ? (best - worst) * 0.05 : fabs (best) * 0.1 + 1;
  double lo = worst - pad, hi = best + pad;
  double q1 = quantile (e, n, 0.25), med = quantile (e, n, 0.5), q3 = quantile (e, n, 0.75);
  size_t every = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;

  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 %d %d\" "
           "role=\"img\" aria-labelledby=\"dist-title\"><title id=\"dist-title\">Distribution "
           "of %zu GMPbench scores</title>\n<text class=\"title\" x=\"%d\" y=\"18\" "
           "text-anchor=\"middle\">%zu results: each point one result (green: verified "
           "publisher, orange: flagged)%s</text>\n", W, H, n, W / 2, n,
           every > 1 ? ", a sample shown" : "");
  axis (f, lo, hi);
  for (size_t i = 0; i < n; i++)
    if (i % every == 0 || e[i].verified)
      point (f, &e[i], lo, hi);
  fprintf (f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n"
           "<rect class=\"box\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>Q1 %g, "
           "median %g, Q3 %g</title></rect>\n"
           "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n</svg>\n",
           x_of (worst, lo, hi), (BOX_TOP + BOX_BOTTOM) / 2, x_of (best, lo, hi),
           (BOX_TOP + BOX_BOTTOM) / 2, x_of (q1, lo, hi), BOX_TOP,
           x_of (q3, lo, hi) - x_of (q1, lo, hi), BOX_BOTTOM - BOX_TOP, q1, med, q3,
           x_of (med, lo, hi), BOX_TOP - 4, x_of (med, lo, hi), BOX_BOTTOM + 4);
}

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
      web_number (f, quantile (group, k, 0.5));
      fputs ("</td><td class=\"num\" data-label=\"Best\">", f);
      web_number (f, group[0].score);
      fprintf (f, "</td><td class=\"num\" data-label=\"Verified\">%zu</td></tr>\n", verified);
    }
  fputs ("</tbody></table></div>\n", f);
  free (seen);
  free (group);
}

/* ------------------------------------------------------------ the store */

/* The newest results' rows, written while their node scores load. */
struct recent
{
  FILE *list;
  const struct board_entry *e;  /* the snapshot's scored results, best first */
  size_t scored;
  int count;
};

/* The percentage of the SCORED entries E with a lower score than SCORE. */
static double
faster_than (const struct board_entry *e, size_t scored, double score)
{
  size_t below = 0;
  for (size_t i = 0; i < scored; i++)
    below += e[i].score < score;
  return scored ? 100.0 * (double) below / (double) scored : NAN;
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
  if (rc->count++ >= LISTED)
    return 0;
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
  fputs (flagged ? " <span class=\"badge flag\">flagged</span>" : "", f);
  fputs ("</td></tr>\n", f);
  cJSON_Delete (scores);
  return 0;
}

/* The node medians as a tree, each node linking the leaderboard sorted
 * by it. */
static void
node_tree (FILE *f, const struct node_scores *ns)
{
  fprintf (f, "<h2 id=\"nodes\">Scores by node</h2>\n<p class=\"note\">Medians over the newest "
           "%d matching results: the GMPbench score (compatible with GMPbench 0.2), then the "
           "extended tests, then the other libraries.  A node's name sorts the leaderboard by "
           "it.</p>\n<div class=\"scroll\"><table class=\"stack tree\">\n<thead><tr>"
           "<th scope=\"col\">Node</th><th class=\"num\" scope=\"col\">n</th><th class=\"num\" "
           "scope=\"col\">Median score</th></tr></thead>\n<tbody>\n", ns->results);
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth, first = 1;
      size_t n;
      const char *node = web_node (i, &depth);
      double median = node_scores_median (ns, node, &n);
      if (n == 0)
        continue;
      fprintf (f, "<tr%s><td class=\"test depth%d\"><a href=\"/", depth == 0 ? " class=\"node\""
               : "", depth > 4 ? 4 : depth);
      web_arg (f, &first, "sort", node);
      fprintf (f, "\">%s</a></td><td class=\"num\" data-label=\"n\">%zu</td><td class=\"num\" "
               "data-label=\"Median\">", node, n);
      web_number (f, median);
      fputs ("</td></tr>\n", f);
    }
  fputs ("</tbody></table></div>\n", f);
}

/* The node tree and the newest results from the store; -1 on error. */
static int
recent (FILE *f, struct http_request *r, const struct board_filter *bf,
        const struct board_entry *e, size_t scored)
{
  char *list = NULL;
  size_t len = 0;
  struct recent rc = { open_memstream (&list, &len), e, scored, 0 };
  struct node_scores ns;

  if (!rc.list)
    return -1;
  int loaded = node_scores_load (r->srv->store, bf, take_recent, &rc, &ns);
  int closed = fclose (rc.list);
  if (loaded == 0 && closed == 0)
    {
      node_tree (f, &ns);
      fprintf (f, "<h2 id=\"results\">Newest results</h2>\n<form method=\"get\" "
               "action=\"/compare\">\n<div class=\"scroll\"><table class=\"stack\">\n<thead><tr>"
               "<th scope=\"col\">Compare</th><th scope=\"col\">Result</th><th class=\"num\" "
               "scope=\"col\">Score</th><th class=\"num\" scope=\"col\" title=\"the share of "
               "this CPU's results (under these filters) with a lower score\">Faster than</th>"
               "<th scope=\"col\">GMP</th><th scope=\"col\">Compiler</th><th scope=\"col\">"
               "OS</th><th scope=\"col\">Submitter</th></tr></thead>\n<tbody>\n%s</tbody>"
               "</table></div>\n<button type=\"submit\">Compare the checked results</button>\n"
               "</form>\n", list ? list : "");
    }
  free (list);
  node_scores_free (&ns);
  return loaded == 0 && closed == 0 ? 0 : -1;
}

/* The median GMPbench score and its spread, first on the page, then
 * what the CPU is (NAME is the brand string shown as the title). */
static void
headline (FILE *f, const struct board_filter *bf, const char *name,
          const struct board_entry *e, size_t n, size_t scored)
{
  char kind[96];

  fputs ("<p class=\"headline\" id=\"headline\">Median GMPbench score <strong>", f);
  web_number (f, scored ? quantile (e, scored, 0.5) : NAN);
  fputs ("</strong>", f);
  if (scored)
    {
      fputs (" <span class=\"note\">IQR ", f);
      web_number (f, quantile (e, scored, 0.25));
      fputs ("\u2013", f);
      web_number (f, quantile (e, scored, 0.75));
      fputs (", best ", f);
      web_number (f, e[0].score);
      fputs ("</span>", f);
    }
  fputs ("</p>\n<p class=\"note\">", f);
  if (*web_cpu_kind (bf->value[BF_CPU], name, kind, sizeof kind))
    {
      fputs ("<span class=\"kind\">", f);
      web_text (f, kind);
      fputs ("</span> \u00b7 ", f);
    }
  fputs ("<code>", f);
  web_text (f, bf->value[BF_CPU]);
  fprintf (f, "</code> \u00b7 %zu matching results, %zu with a GMPbench score \u00b7 ", n, scored);
  web_text (f, bf->value[BF_MODE]);
  fputs (" runs of ", f);
  web_text (f, bf->value[BF_BUILD]);
  fputs (" GMP builds \u00b7 <a href=\"/\">all CPUs</a></p>\n", f);
}

static enum MHD_Result
render (struct http_request *r, struct board *b, const struct board_filter *bf, const char *name)
{
  struct page p;
  struct board_entry *e;
  size_t n = board_cpu_entries (b, bf, &e), scored = 0;

  while (scored < n && !isnan (e[scored].score))
    scored++;
  if (page_begin (&p, r, name) < 0)
    {
      free (e);
      return MHD_NO;
    }
  headline (p.f, bf, name, e, n, scored);
  if (scored > 0)
    distribution (p.f, e, scored);
  if (recent (p.f, r, bf, e, scored) < 0)
    fputs ("<p>The node scores and newest results are unavailable; try again later.</p>\n", p.f);
  if (scored > 0)
    breakdown (p.f, e, scored);
  free (e);
  return page_end (&p, 200);
}

enum MHD_Result
web_cpu (struct http_request *r)
{
  struct board_filter bf;

  web_read_filter (r, &bf);
  if (!bf.value[BF_CPU] || !*bf.value[BF_CPU])
    return page_error (r, 400, "Which CPU? The page wants ?cpu=IDENTITY.");
  int preparing;
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return page_no_board (r, preparing);
  const char *name = board_cpu_name (b, bf.value[BF_CPU]);
  board_default_kinds (b, bf.value[BF_CPU], &bf);
  enum MHD_Result rc = name ? render (r, b, &bf, *name ? name : bf.value[BF_CPU])
    : page_error (r, 404, "No listed result has this CPU identity.");
  board_release (b);
  return rc;
}
