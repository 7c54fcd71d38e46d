/* web_cpu_builds.c: "this CPU, distribution GMP against native GMP": on
 * the CPU page, for each GMP build kind with results for the CPU (under
 * the page's other filters: run mode, GMP version...), their count and,
 * for every node of the compatible hierarchy (gmpbench and below), the
 * median score over the kind's newest results (web_nodes.h), with every
 * other kind's ratio to the reference kind's median: the distribution
 * build's, or the first kind's when the CPU has none.  A median of
 * results of different machines and sittings, so a ratio here says what
 * the builds give on this CPU across its submitters; one machine's own
 * answer is `gmpbench run --gmp A --gmp B` (docs/gmp-builds.md). */
#include "server/web/web_cpu_builds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "server/web/web_page.h"
#include "server/web/web_nodes.h"

#define REFERENCE_KIND "distribution"
#define MAX_KINDS 8

struct kind
{
  struct board_filter bf;
  size_t n;                     /* the CPU's results of this kind */
  struct node_scores ns;
};

/* Whether NODE belongs to the compatible hierarchy. */
static int
compatible (const char *node)
{
  return strcmp (node, "gmpbench") == 0 || strncmp (node, "gmpbench.", 9) == 0;
}

/* The kinds with results for BF's CPU into K, the reference first; how
 * many. */
static size_t
kinds_of (const struct board *b, const struct board_filter *bf, struct kind *k)
{
  const char *const *names;
  const size_t *counts;
  size_t nk = 0, nnames = board_values (b, BF_BUILD, &names, &counts);
  size_t *of_cpu = gb_xmalloc ((nnames + 1) * sizeof *of_cpu);
  board_cpu_tally (b, bf, BF_BUILD, of_cpu);
  for (size_t i = 0; i < nnames && nk < MAX_KINDS; i++)
    {
      struct kind x = { *bf, of_cpu[i], { NULL, NULL, 0, NULL } };
      x.bf.value[BF_BUILD] = names[i];
      if (x.n == 0)
        continue;
      if (strcmp (names[i], REFERENCE_KIND) == 0)
        {
          memmove (k + 1, k, nk * sizeof *k);
          k[0] = x;
        }
      else
        k[nk] = x;
      nk++;
    }
  free (of_cpu);
  return nk;
}

/* "native / distribution": the name of kind J's ratio to K[0]'s. */
static void
ratio_name (FILE *f, const struct kind *k, size_t j)
{
  web_text (f, k[j].bf.value[BF_BUILD]);
  fputs (" / ", f);
  web_text (f, k[0].bf.value[BF_BUILD]);
}

static void
table (FILE *f, const struct kind *k, size_t nk)
{
  fputs ("<h2 id=\"by-build-kind\">By GMP build kind</h2>\n<p class=\"note\">The median score "
         "of every node over each build kind's newest results on this CPU (under the other "
         "filters), each source counted once by the median of its results, and each kind's ratio "
         "to the ", f);
  web_text (f, k[0].bf.value[BF_BUILD]);
  fputs (" build's median (above 1: faster).  Different machines and sittings: <code>gmpbench "
         "run --gmp A --gmp B</code> measures two builds on one machine.</p>\n<div "
         "class=\"scroll\"><table class=\"stack tree\">\n<thead><tr><th scope=\"col\">Node</th>",
         f);
  for (size_t j = 0; j < nk; j++)
    {
      fputs ("<th class=\"num\" scope=\"col\">", f);
      web_text (f, k[j].bf.value[BF_BUILD]);
      fprintf (f, " (%zu)</th>", k[j].n);
    }
  for (size_t j = 1; j < nk; j++)
    {
      fputs ("<th class=\"num\" scope=\"col\">", f);
      ratio_name (f, k, j);
      fputs ("</th>", f);
    }
  fputs ("</tr></thead>\n<tbody>\n", f);
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth;
      size_t n;
      const char *node = web_node (i, &depth);
      double median[MAX_KINDS];
      if (!compatible (node))
        continue;
      for (size_t j = 0; j < nk; j++)
        median[j] = node_scores_median (&k[j].ns, node, &n);
      fprintf (f, "<tr%s><td class=\"test depth%d\">", depth == 0 ? " class=\"node\"" : "",
               depth > 4 ? 4 : depth);
      web_text (f, node);
      fputs ("</td>", f);
      for (size_t j = 0; j < nk; j++)
        {
          fputs ("<td class=\"num\" data-label=\"", f);
          web_text (f, k[j].bf.value[BF_BUILD]);
          fputs ("\">", f);
          web_number (f, median[j]);
          fputs ("</td>", f);
        }
      for (size_t j = 1; j < nk; j++)
        {
          fputs ("<td class=\"num\" data-label=\"", f);
          ratio_name (f, k, j);
          fputs ("\">", f);
          if (median[0] > 0 && median[j] > 0)
            fprintf (f, "%.3f", median[j] / median[0]);
          else
            fputs ("\u2013", f);
          fputs ("</td>", f);
        }
      fputs ("</tr>\n", f);
    }
  fputs ("</tbody></table></div>\n", f);
}

int
web_cpu_builds (FILE *f, struct store *st, struct board *b, const struct board_filter *bf)
{
  struct kind k[MAX_KINDS];
  size_t nk = kinds_of (b, bf, k), loaded = 0;
  int status = 0;
  if (nk < 2)
    return 0;
  for (; loaded < nk && status == 0; loaded++)
    status = node_scores_load (b, st, &k[loaded].bf, &k[loaded].ns);
  if (status == 0)
    table (f, k, nk);
  for (size_t j = 0; j < loaded; j++)
    node_scores_free (&k[j].ns);
  return status;
}
