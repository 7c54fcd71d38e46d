/* web_compare_cpus.c: two or more CPU identities side by side,
 * /compare?cpu=A&cpu=B... with the leaderboard's filters (the order of
 * the CPUs is the order of the columns; the first is the baseline).
 *
 * Each CPU's column is the median score of every node of the hierarchy
 * over its newest results under the filters (web_nodes.h), the run mode
 * and GMP build kind fixed for all of them (the URL's, or the most common
 * of the baseline's results), so that no column pools quick and full
 * runs.  The ratio is the other CPU's median over the baseline's (above
 * 1: the other is faster); the headline nodes get a bar chart of it. */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "server/web/web_bars.h"
#include "server/web/web_nodes.h"

#define MAX_CPUS 6

struct column
{
  const char *cpu, *name;
  struct node_scores scores;
};

static void
legend (FILE *f, const struct column *c, int n, const struct board_filter *bf)
{
  fputs ("<ol class=\"legend\" type=\"A\">\n", f);
  for (int k = 0; k < n; k++)
    {
      size_t count;
      char kind[96];
      double median = node_scores_median (&c[k].scores, "gmpbench", &count);
      fputs ("<li>", f);
      web_cpu_link (f, c[k].cpu, c[k].name);
      if (*web_cpu_kind (c[k].cpu, c[k].name, kind, sizeof kind))
        {
          fputs (" <span class=\"kind\">", f);
          web_text (f, kind);
          fputs ("</span>", f);
        }
      fputs (" <code class=\"note\">", f);
      web_text (f, c[k].cpu);
      fputs ("</code>: median GMPbench score <strong>", f);
      web_number (f, median);
      fprintf (f, "</strong> over %d result%s</li>\n", c[k].scores.results,
               c[k].scores.results == 1 ? "" : "s");
    }
  fputs ("</ol>\n<p class=\"note\" id=\"kinds\">", f);
  web_text (f, bf->value[BF_MODE]);
  fputs (" runs of ", f);
  web_text (f, bf->value[BF_BUILD]);
  fprintf (f, " GMP builds; each column is the median over the CPU's newest %d matching "
           "results, each source counted once by the median of its results; ratios are the other "
           "CPU's median over A's (above 1: faster than A).</p>\n", NODE_RESULTS);
}

static void
chart (FILE *f, const struct column *c, int k)
{
  struct web_bar bars[32];
  size_t nb = 0;
  char title[64];

  for (size_t i = 0; i < web_node_count () && nb < 32; i++)
    {
      int depth;
      size_t na, nk;
      const char *node = web_node (i, &depth);
      if (depth > 1)
        continue;
      double a = node_scores_median (&c[0].scores, node, &na);
      double b = node_scores_median (&c[k].scores, node, &nk);
      if (na && nk && a > 0 && b > 0)
        bars[nb++] = (struct web_bar) { node, NULL, b / a, NAN, NAN, 0, 0 };
    }
  snprintf (title, sizeof title, "%c / A: ratio of the medians per node", 'A' + k);
  if (nb > 0)
    web_bars_ratio (f, title, "ratio (above 1: faster than A)", bars, nb);
}

static void
table (FILE *f, const struct column *c, int n)
{
  web_compare_table_head (f, "Node", n);
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth, any = 0;
      size_t count;
      const char *node = web_node (i, &depth);
      double v[MAX_CPUS];
      for (int k = 0; k < n; k++)
        {
          v[k] = node_scores_median (&c[k].scores, node, &count);
          any |= count > 0;
        }
      if (!any)
        continue;
      fprintf (f, "<tr%s><td class=\"test depth%d\">%s</td><td class=\"num\" data-label=\"A\">",
               depth == 0 ? " class=\"node\"" : "", depth > 4 ? 4 : depth, node);
      web_number (f, v[0]);
      fputs ("</td>", f);
      for (int k = 1; k < n; k++)
        {
          fprintf (f, "<td class=\"num\" data-label=\"%c\">", 'A' + k);
          web_number (f, v[k]);
          fprintf (f, "</td><td class=\"num\" data-label=\"%c/A\">", 'A' + k);
          web_number (f, v[0] > 0 ? v[k] / v[0] : NAN);
          fputs ("</td>", f);
        }
      fputs ("</tr>\n", f);
    }
  fputs ("</tbody></table></div>\n", f);
}

static enum MHD_Result
render (struct http_request *r, struct column *c, int n, const struct board_filter *bf)
{
  struct page p;
  if (page_begin (&p, r, "Comparison of CPUs") < 0)
    return MHD_NO;
  legend (p.f, c, n, bf);
  for (int k = 1; k < n; k++)
    chart (p.f, c, k);
  table (p.f, c, n);
  return page_end (&p, 200);
}

enum MHD_Result
web_compare_cpus (struct http_request *r)
{
  const char *cpu[MAX_CPUS];
  int ncpus = web_args (r, "cpu", cpu, MAX_CPUS);
  struct column c[MAX_CPUS];
  struct board_filter bf;
  enum MHD_Result rc;
  int preparing, k, failed = 0;

  if (ncpus >= 0 && ncpus < 2)
    return web_compare_unchecked (r, 1, ncpus);
  if (ncpus < 0)
    return page_error (r, 400, "Compare takes two to six CPUs: /compare?cpu=A&cpu=B.");
  if (web_read_filter (r, &bf) < 0)
    return page_error (r, 400, "The machine argument is bare-metal, virtual or all.");
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return page_no_board (r, preparing);
  board_default_kinds (b, cpu[0], &bf);
  memset (c, 0, sizeof c);
  for (k = 0; k < ncpus; k++)
    {
      c[k].cpu = cpu[k];
      c[k].name = board_cpu_name (b, c[k].cpu);
      if (!c[k].name)
        break;
      if (!*c[k].name)
        c[k].name = c[k].cpu;
      bf.value[BF_CPU] = c[k].cpu;
      failed |= node_scores_load (b, r->srv->store, &bf, &c[k].scores) < 0;
    }
  rc = k < ncpus ? page_error (r, 404, "One of these CPUs has no listed result.")
    : failed ? page_error (r, 503, "The database is unavailable; try again later.")
    : render (r, c, ncpus, &bf);
  for (int i = 0; i < ncpus; i++)
    node_scores_free (&c[i].scores);
  board_release (b);
  return rc;
}
