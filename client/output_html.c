/* output_html.c: a result document as one self-contained HTML5 page.
 *
 * Everything is inline: the style sheet, and the charts as SVG
 * (html_charts.c); there is no script, no font, no image file and no
 * link to anything, and a Content-Security-Policy of default-src 'none'
 * says so to the browser, so the page can be mailed, archived and opened
 * offline.  Every string from the document goes through escape_html():
 * CPU, OS and compiler names come from the machine that ran the test, or
 * from anyone who edited the file.
 *
 * Sections: headline scores, machine, speed charts, GMP against the other
 * libraries (table, RSA in the `openssl speed` layout, ratio bars), random
 * generators, all-core results, and last the whole GMPbench tree (scores
 * at the nodes, ops/s and spread at the tests), the longest part. */
#include <math.h>
#include <string.h>
#include "model/escape.h"
#include "client/html.h"
#include "client/tree.h"
#include "model/doc_schema.h"
#include "model/si_format.h"

static const char style[] =
  "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1f;"
  "margin:0 auto;max-width:1100px;padding:0 20px 40px}"
  "h1{font-size:26px;margin:24px 0 2px}h2{font-size:19px;margin:32px 0 8px;"
  "border-bottom:1px solid #ddd;padding-bottom:4px}"
  ".sub{color:#555;margin:0 0 12px}"
  ".cards{display:flex;gap:12px;flex-wrap:wrap}"
  ".card{border:1px solid #ddd;border-radius:8px;padding:10px 16px;min-width:140px}"
  ".card b{display:block;font-size:24px}.card span{color:#555}"
  "table{border-collapse:collapse;margin:6px 0}"
  "td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}"
  "th{background:#f5f5f7}td.n{text-align:right;font-variant-numeric:tabular-nums;"
  "white-space:nowrap}"
  "tr.node td{font-weight:600;background:#fafafa}"
  ".kv th{background:none;color:#555;font-weight:normal;white-space:nowrap}"
  ".note{color:#a15c00}.skip{color:#888}.same{color:#888}"
  ".spread{display:inline-block;height:6px;background:#e69f00;border-radius:3px;"
  "vertical-align:middle;margin-left:6px}"
  ".grid{display:flex;flex-wrap:wrap;gap:10px}"
  "svg.chart{max-width:100%;height:auto;font-size:11px;fill:#333}"
  "svg .title{font-size:13px;font-weight:600}svg .axis{font-size:12px}"
  "svg .grid{stroke:#e3e3e3}svg .frame{fill:none;stroke:#999}"
  ".faster{color:#1a7f37}.slower{color:#b3261e}"
  "footer{margin-top:36px;color:#777;font-size:12px}";

struct html_ctx
{
  FILE *f;
  const struct report *r;
};

void
html_page_open (FILE *f, const char *title, const struct report *r)
{
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_CPU);
  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>", f);
  fputs (title, f);
  fputs (": ", f);
  escape_html (f, *report_str (cpu, DOC_SYS_CPU_NAME) ? report_str (cpu, DOC_SYS_CPU_NAME)
               : "unknown CPU");
  fprintf (f, "</title>\n<style>%s</style>\n</head>\n<body>\n<header><h1>%s</h1>\n"
           "<p class=\"sub\">", style, title);
  escape_html (f, report_str (cpu, DOC_SYS_CPU_NAME));
  fputs (" &middot; ", f);
  escape_html (f, report_str (r->doc, "created"));
  fputs (" &middot; gmpbench ", f);
  escape_html (f, report_str (cJSON_GetObjectItemCaseSensitive (r->doc, "client"), "version"));
  fputs (" &middot; ", f);
  escape_html (f, report_str (r->run, "mode"));
  fprintf (f, " run, %g s per test</p></header>\n", report_num (r->run, DOC_RUN_TIME_PER_TEST));
}

static void
card (FILE *f, const cJSON *scores, const char *node, const char *label)
{
  double v = report_score (scores, node, strlen (node));
  if (!isnan (v))
    fprintf (f, "<div class=\"card\"><span>%s</span><b>%.6g</b></div>\n", label, v);
}

static void
headline (FILE *f, const struct report *r)
{
  fputs ("<div class=\"cards\">\n", f);
  card (f, r->scores, "gmpbench", "GMPbench score");
  card (f, r->scores, "gmpbench.base", "base");
  card (f, r->scores, "gmpbench.app", "app");
  fprintf (f, "<div class=\"card\"><span>tests</span><b>%zu</b></div>\n</div>\n", r->nrows);
}

static void
machine_row (void *ctx, const char *label, const char *value)
{
  FILE *f = ctx;
  fputs ("<tr><th>", f);
  escape_html (f, label);
  fputs ("</th><td>", f);
  escape_html (f, value);
  fputs ("</td></tr>\n", f);
}

static void
tree_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
           size_t labellen)
{
  struct html_ctx *h = ctx;
  char name[256];
  double v = report_score (h->r->scores, path, pathlen);
  snprintf (name, sizeof name, "%.*s", (int) labellen, label);
  fprintf (h->f, "<tr class=\"node\"><td style=\"padding-left:%dem\">", 1 + depth * 3 / 2);
  escape_html (h->f, name);
  fputs ("</td><td class=\"n\">", h->f);
  if (!isnan (v))
    fprintf (h->f, "%.6g", v);
  fputs ("</td><td>score</td><td></td><td></td></tr>\n", h->f);
}

static void
tree_leaf (void *ctx, int depth, size_t index, const char *label)
{
  struct html_ctx *h = ctx;
  const struct report_row *row = &h->r->rows[index];
  char ops[32];
  fprintf (h->f, "<tr><td style=\"padding-left:%dem\" title=\"", 1 + depth * 3 / 2);
  escape_html (h->f, row->name);
  fputs ("\">", h->f);
  escape_html (h->f, label);
  if (!row->result)
    {
      fputs ("</td><td></td><td></td><td></td><td class=\"skip\">skipped: ", h->f);
      escape_html (h->f, row->reason);
      fputs ("</td></tr>\n", h->f);
      return;
    }
  double spread = report_num (row->result, DOC_RESULT_SPREAD);
  si_format (report_num (row->result, DOC_RESULT_OPS_PER_SEC), ops, sizeof ops);
  fprintf (h->f, "</td><td class=\"n\">%s</td><td>ops/s</td><td class=\"n\">±%.1f%%"
           "<span class=\"spread\" style=\"width:%.0fpx\"></span></td><td class=\"note\">%s%s"
           "</td></tr>\n", ops, 100 * spread, fmin (fmax (spread, 0), 1) * 60,
           report_has_flag (row->result, "noisy") ? "noisy " : "",
           report_has_flag (row->result, "cpu-diverged") ? "cpu&lt;wall" : "");
}

static void
tree_table (FILE *f, const struct report *r)
{
  struct html_ctx h = { f, r };
  const struct tree_visitor v = { tree_node, tree_leaf };
  fputs ("<section id=\"tests\"><h2>Scores and tests</h2>\n<p>A node's score is the "
         "weighted geometric mean of its children (the GMPbench formula); a test shows its "
         "operations per second and the spread of its fastest samples (bar: 0 to 100%).</p>\n"
         "<table class=\"tree\"><tr><th>node or test</th><th>value</th><th>unit</th>"
         "<th>spread</th><th>notes</th></tr>\n", f);
  tree_walk (r->names, r->nrows, &v, &h);
  fputs ("</table></section>\n", f);
}

static void
cell (FILE *f, const char *cls, const char *s)
{
  fprintf (f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  escape_html (f, s);
  fputs ("</td>", f);
}

/* A row of the comparison tables: figures right-aligned, a ratio within
 * the spreads grey. */
static void
table_row (void *ctx, const struct report_cells *c)
{
  FILE *f = ctx;
  fputs ("<tr>", f);
  for (size_t i = 0; i < c->n; i++)
    cell (f, i < c->ntext ? NULL : i + 1 == c->n && c->within_spread ? "n same" : "n", c->cell[i]);
  fputs ("</tr>\n", f);
}

static void
comparison_table (FILE *f, const cJSON *comparisons)
{
  fputs ("<table><tr><th>operation</th><th>size</th><th>library</th><th>ops/s</th>"
         "<th>spread</th><th>ratio</th></tr>\n", f);
  report_comparison_rows (comparisons, table_row, f);
  fputs ("</table>\n", f);
}

/* RSA as `openssl speed` prints it: per size and library, the time of a
 * signature and a verification and their rates. */
static void
rsa_table (FILE *f, const cJSON *comparisons)
{
  const cJSON *row, *s, *vrow, *v;
  char label[128];
  int header = 0;
  cJSON_ArrayForEach (row, comparisons)
    if (strcmp (report_str (row, "operation"), "rsa.sign") == 0)
      cJSON_ArrayForEach (s, cJSON_GetObjectItemCaseSensitive (row, "entries"))
        {
          const cJSON *verify = NULL;
          cJSON_ArrayForEach (vrow, comparisons)
            if (strcmp (report_str (vrow, "operation"), "rsa.verify") == 0
                && strcmp (report_str (vrow, "size"), report_str (row, "size")) == 0)
              cJSON_ArrayForEach (v, cJSON_GetObjectItemCaseSensitive (vrow, "entries"))
                if (!verify && strcmp (report_str (v, "library"), report_str (s, "library")) == 0)
                  verify = v;
          if (!header++)
            fputs ("<h3>RSA, as <code>openssl speed</code> shows it</h3>\n<table><tr>"
                   "<th>library</th><th>bits</th><th>sign</th><th>verify</th><th>sign/s</th>"
                   "<th>verify/s</th></tr>\n", f);
          report_library_label (report_str (s, "library"), report_str (s, "variant"), label,
                                sizeof label);
          fputs ("<tr>", f);
          cell (f, NULL, label);
          cell (f, "n", report_str (row, "size"));
          fprintf (f, "<td class=\"n\">%.3g s</td>", report_num (s, DOC_RESULT_SECONDS_PER_OP));
          if (verify)
            fprintf (f, "<td class=\"n\">%.3g s</td><td class=\"n\">%.1f</td>"
                     "<td class=\"n\">%.1f</td></tr>\n", report_num (verify, DOC_RESULT_SECONDS_PER_OP),
                     report_num (s, DOC_RESULT_OPS_PER_SEC), report_num (verify, DOC_RESULT_OPS_PER_SEC));
          else
            fprintf (f, "<td class=\"n\">-</td><td class=\"n\">%.1f</td><td class=\"n\">-</td>"
                     "</tr>\n", report_num (s, DOC_RESULT_OPS_PER_SEC));
        }
  if (header)
    fputs ("</table>\n", f);
}

static void
libraries (FILE *f, const cJSON *comparisons)
{
  fputs ("<section id=\"libraries\"><h2>GMP and other libraries</h2>\n<p>Ratio: GMP's "
         "ops/s over the library's (above 1: GMP is faster), against GMP's constant-time "
         "variant for constant-time operations. A ratio marked ~ (grey bar) differs from 1 by "
         "less than the two spreads together: it is noise.</p>\n", f);
  comparison_table (f, comparisons);
  rsa_table (f, comparisons);
  fputs ("<div class=\"grid\">\n", f);
  html_ratio_charts (f, comparisons);
  fputs ("</div></section>\n", f);
}

static void
generators_head (void *ctx, const cJSON *row, const char *clock)
{
  FILE *f = ctx;
  fputs ("<section id=\"rng\"><h2>Random generators</h2>\n<p>Blocks of ", f);
  escape_html (f, report_str (row, "size"));
  fputs (" bytes; cycles per byte at ", f);
  escape_html (f, *clock ? clock : "the measured (or given) clock");
  fputs (".</p>\n<table><tr>"
         "<th>generator</th><th>MiB/s</th><th>cycles/byte</th><th>spread</th></tr>\n", f);
}

/* The table's end and its chart. */
static void
generators_tail (void *ctx, const cJSON *row, const char *clock)
{
  FILE *f = ctx;
  (void) clock;
  fputs ("</table>\n", f);
  html_rng_chart (f, row);
  fputs ("</section>\n", f);
}

static void
generators (FILE *f, const struct report *r)
{
  const struct report_rng_writer w = { generators_head, table_row, generators_tail };
  report_rng_tables (r, &w, f);
}

static void
threads (FILE *f, const cJSON *t)
{
  const cJSON *e;
  char ops[32];
  double count = report_num (t, "count");
  fprintf (f, "<section id=\"threads\"><h2>All cores: %.0f copies at once</h2>\n<table><tr>"
           "<th>test</th><th>aggregate ops/s</th><th>speed-up</th><th>efficiency</th></tr>\n",
           count);
  cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (t, "results"))
    {
      double eff = report_num (e, DOC_RESULT_EFFICIENCY);
      si_format (report_num (e, DOC_RESULT_OPS_PER_SEC), ops, sizeof ops);
      fputs ("<tr>", f);
      cell (f, NULL, report_str (e, "name"));
      fprintf (f, "<td class=\"n\">%s</td><td class=\"n\">x%.2f</td><td class=\"n\">%.0f%%</td>"
               "</tr>\n", ops, eff * count, 100 * eff);
    }
  fputs ("</table></section>\n", f);
}

void
report_html (FILE *f, const struct report *r)
{
  html_page_open (f, "GMPbench result", r);
  headline (f, r);
  fputs ("<section id=\"machine\"><h2>Machine</h2>\n<table class=\"kv\">\n", f);
  report_machine (r, machine_row, f);
  fputs ("</table></section>\n", f);
  html_size_charts (f, r);
  if (report_count_rows (r->comparisons, 0) > 0)
    libraries (f, r->comparisons);
  generators (f, r);
  if (cJSON_IsObject (r->threads))
    threads (f, r->threads);
  tree_table (f, r);
  fputs ("<footer>Made by <code>gmpbench", f);
  if (r->command)
    {
      fputc (' ', f);
      escape_html (f, r->command);
      fputs (" --format html", f);
    }
  fputs ("</code> from a signed result document; this page is self-contained and needs "
         "no network.</footer>\n</body>\n</html>\n", f);
}
