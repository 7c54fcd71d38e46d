/* compare_html.c: `gmpbench compare --format html` and `gmpbench run --gmp
 * A --gmp B --format html`, the comparison (compare_runs.h) as one
 * self-contained page in the style of the HTML report (output_html.c).
 *
 * First the runs, each with its GMP (version, build kind, file) and its
 * headline scores, then one table of the tree: at each node every run's
 * score, at each test every run's ops/s with its spread, and for every
 * run after the first its ratio to the first with the ratio's spread,
 * green where faster, red where slower, grey where within the spread.
 * Every string from a document goes through escape_html(). */
#include <math.h>
#include <string.h>
#include "client/compare_runs.h"
#include "client/html.h"
#include "model/doc_schema.h"
#include "model/escape.h"
#include "model/si_format.h"

/* The GMP of run R: "6.2.1, distribution, /usr/lib/.../libgmp.so.10". */
static void
gmp_cell (FILE *f, const struct report *r)
{
  const cJSON *gmp = cJSON_GetObjectItemCaseSensitive (
    cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_BUILD), DOC_SYS_BUILD_GMP);
  char build[4200];
  report_gmp_build (gmp, build, sizeof build);
  fputs ("<td>", f);
  escape_html (f, report_str (gmp, DOC_SYS_GMP_VERSION));
  if (*build)
    {
      fputs (", ", f);
      escape_html (f, build);
    }
  fputs ("</td>", f);
}

static void
score_cell (FILE *f, const cJSON *scores, const char *node)
{
  double v = report_score (scores, node, strlen (node));
  if (isnan (v))
    fputs ("<td class=\"n\">-</td>", f);
  else
    fprintf (f, "<td class=\"n\">%.6g</td>", v);
}

static void
runs_table (FILE *f, const struct comparison *c)
{
  fputs ("<section id=\"runs\"><h2>Runs</h2>\n<table><tr><th>run</th><th>file</th><th>GMP</th>"
         "<th>GMPbench</th><th>base</th><th>app</th></tr>\n", f);
  for (size_t k = 0; k < c->nruns; k++)
    {
      if (k)
        fprintf (f, "<tr><td>run %zu</td><td>", k);
      else
        fputs ("<tr><td>base</td><td>", f);
      escape_html (f, c->files[k]);
      fputs ("</td>", f);
      gmp_cell (f, &c->runs[k]);
      score_cell (f, c->runs[k].scores, "gmpbench");
      score_cell (f, c->runs[k].scores, "gmpbench.base");
      score_cell (f, c->runs[k].scores, "gmpbench.app");
      fputs ("</tr>\n", f);
    }
  fputs ("</table></section>\n", f);
}

/* Run K's figure on line L: a node's score, a test's ops/s and spread. */
static void
value_cell (FILE *f, const struct comparison *c, const struct line *l, size_t k)
{
  char ops[32];
  const struct report *r = &c->runs[k];
  const cJSON *result = NULL;
  if (l->node)
    {
      score_cell (f, r->scores, l->name);
      return;
    }
  for (size_t i = 0; i < r->nrows && !result; i++)
    if (strcmp (r->rows[i].name, l->name) == 0)
      result = r->rows[i].result;
  if (!result)
    {
      fputs ("<td class=\"n skip\">-</td>", f);
      return;
    }
  si_format (report_num (result, DOC_RESULT_OPS_PER_SEC), ops, sizeof ops);
  fprintf (f, "<td class=\"n\">%s <span class=\"same\">±%.1f%%</span></td>", ops,
           100 * report_num (result, DOC_RESULT_SPREAD));
}

static void
ratio_cell (FILE *f, const struct cell *x)
{
  if (isnan (x->ratio))
    {
      fputs ("<td class=\"n skip\">-</td>", f);
      return;
    }
  fprintf (f, "<td class=\"n %s\" title=\"%zu test%s%s", x->within ? "same"
           : x->ratio > 1 ? "faster" : "slower", x->tests, x->tests == 1 ? "" : "s",
           x->pairs ? ", " : "");
  if (x->pairs)
    fprintf (f, "%zu pairs of visits", x->pairs);
  fprintf (f, "\">%.4f ±%.2f%%%s</td>", x->ratio, 100 * x->spread, x->within ? " ~" : "");
}

static void
tree_table (FILE *f, const struct comparison *c)
{
  fputs ("<section id=\"tests\"><h2>Scores, tests and ratios</h2>\n<p>", f);
  if (c->paired)
    fputs ("A run's ratio is its speed over the base's: for a test the median of the ratios "
           "of their visits of a few samples, made in pairs moments apart as the builds took "
           "turns, for a "
           "node the geometric mean of its tests' ratios; &plusmn; two standard errors of it. "
           "A ratio marked ~ (grey) lies within them: it is noise, not a result. Each build's "
           "scores and ops/s are its own result's (GMPbench's estimator).", f);
  else
    fputs ("A run's ratio is its ops/s over the base's for a test, the geometric mean of its "
           "tests' ratios for a node; &plusmn; the two runs' spreads together (a node: their "
           "mean). A ratio marked ~ (grey) lies within them: it is noise, not a result.", f);
  fputs ("</p>\n<table class=\"tree\"><tr><th>node or test</th><th>base</th>", f);
  for (size_t k = 1; k < c->nruns; k++)
    fprintf (f, "<th>run %zu</th>", k);
  for (size_t k = 1; k < c->nruns; k++)
    fprintf (f, "<th>ratio run %zu / base</th>", k);
  fputs ("</tr>\n", f);
  for (size_t i = 0; i < c->nlines; i++)
    {
      const struct line *l = &c->lines[i];
      fprintf (f, "<tr%s><td style=\"padding-left:%dem\" title=\"", l->node ? " class=\"node\"" : "",
               1 + l->depth * 3 / 2);
      escape_html (f, l->name);
      fputs ("\">", f);
      escape_html (f, l->label);
      fputs ("</td>", f);
      for (size_t k = 0; k < c->nruns; k++)
        value_cell (f, c, l, k);
      for (size_t k = 1; k < c->nruns; k++)
        ratio_cell (f, &l->cells[k]);
      fputs ("</tr>\n", f);
    }
  fputs ("</table></section>\n", f);
}

void
compare_html (FILE *f, const struct comparison *c)
{
  html_page_open (f, c->paired ? "GMPbench: GMP builds side by side" : "GMPbench comparison",
                  &c->runs[0]);
  runs_table (f, c);
  tree_table (f, c);
  fputs ("<footer>Made by <code>gmpbench ", f);
  escape_html (f, c->cmd);
  fputs (" --format html</code> from result documents; this page is self-contained and "
         "needs no network.</footer>\n</body>\n</html>\n", f);
}
