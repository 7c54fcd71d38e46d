/* web_cpu_node.c: the distribution of one node's scores for one CPU,
 * /cpu?cpu=IDENTITY&node=NODE (with the CPU page's filters: its run mode
 * and GMP build kind, unflagged results unless flagged=1), linked from
 * each node of the CPU page's tree: the node's median and spread over
 * the newest NODE_RESULTS matching results, each source's results
 * reduced to their median first (store.h, "Sources"; the sources as the
 * snapshot has them, node_known), and their strip plot over a box plot
 * (web_strip.h).  The page is asked for one node at a time, so
 * the CPU page carries no plot it was not asked for. */
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "server/web/web_nodes.h"
#include "server/web/web_strip.h"

/* The node's scores as they load: one entry per result that has it, its
 * strings copied (a row's live only during the call), its source the
 * snapshot's (KNOWN: node_known's). */
struct node_load
{
  const char *node;
  struct board_entry *e;
  size_t n, cap;
  const struct board_entry *known;
  size_t nknown;
};

static int
take_score (void *ctx, const struct store_row *row, double score)
{
  struct node_load *l = ctx;
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (scores, l->node);

  (void) score;
  if (cJSON_IsNumber (v))
    {
      if (l->n == l->cap)
        {
          l->cap = l->cap ? 2 * l->cap : 64;
          l->e = gb_xrealloc (l->e, l->cap * sizeof *l->e);
        }
      l->e[l->n++] = (struct board_entry) {
        row->seq, gb_xstrdup (row->gmp ? row->gmp : ""),
        gb_xstrdup (row->compiler ? row->compiler : ""), row->publisher != NULL,
        row->flags && *row->flags, v->valuedouble,
        node_source (l->known, l->nknown, row->seq)
      };
    }
  cJSON_Delete (scores);
  return 0;
}

/* Best first, then newest first. */
static int
by_score (const void *pa, const void *pb)
{
  const struct board_entry *a = pa, *b = pb;
  if (a->score != b->score)
    return a->score > b->score ? -1 : 1;
  return a->seq > b->seq ? -1 : a->seq < b->seq;
}

static void
free_load (struct node_load *l)
{
  for (size_t i = 0; i < l->n; i++)
    {
      free ((char *) l->e[i].gmp);
      free ((char *) l->e[i].compiler);
    }
  free (l->e);
}

/* Whether NODE is an inner node of the hierarchy (the ones a result's
 * scores hold). */
static int
inner_node (const char *node)
{
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth;
      if (strcmp (web_node (i, &depth), node) == 0)
        return 1;
    }
  return 0;
}

void
web_cpu_url (FILE *f, const struct board_filter *bf, const char *node)
{
  int first = 1;
  fputs ("/cpu", f);
  for (int k = 0; k < BF_COUNT; k++)
    if (bf->value[k] && *bf->value[k])
      web_arg (f, &first, web_field_arg[k], bf->value[k]);
  if (bf->verified_only)
    web_arg (f, &first, "verified", "1");
  if (bf->include_flagged)
    web_arg (f, &first, "flagged", "1");
  if (node)
    web_arg (f, &first, "node", node);
}

void
web_cpu_node_link (FILE *f, const struct board_filter *bf, const char *node)
{
  fputs ("<a href=\"", f);
  web_cpu_url (f, bf, node);
  fputs ("\">", f);
  web_text (f, node);
  fputs ("</a>", f);
}

/* The median and spread of the sources' medians (each source counted
 * once), then what they cover. */
static void
headline (FILE *f, const struct board_filter *bf, const char *node, const struct node_load *l)
{
  int first = 1;
  double *medians = gb_xmalloc ((l->n ? l->n : 1) * sizeof *medians);
  size_t sources = web_strip_source_medians (l->e, l->n, medians);
  fputs ("<p class=\"headline\" id=\"headline\">Median score of ", f);
  web_text (f, node);
  fputs (" <strong>", f);
  web_number (f, sources ? web_strip_value_quantile (medians, sources, 0.5) : NAN);
  fputs ("</strong>", f);
  if (sources)
    {
      fputs (" <span class=\"note\">IQR ", f);
      web_number (f, web_strip_value_quantile (medians, sources, 0.25));
      fputs ("\u2013", f);
      web_number (f, web_strip_value_quantile (medians, sources, 0.75));
      fputs (", best ", f);
      web_number (f, medians[0]);
      fputs ("</span>", f);
    }
  free (medians);
  fprintf (f, "</p>\n<p class=\"note\" id=\"sources\">%zu of the newest %d matching results "
           "have it, from %zu independent source%s (a network or a verified publisher), each "
           "counted once by the median of its results \u00b7 ", l->n, NODE_RESULTS, sources,
           sources == 1 ? "" : "s");
  web_text (f, bf->value[BF_MODE]);
  fputs (" runs of ", f);
  web_text (f, bf->value[BF_BUILD]);
  fputs (bf->include_flagged ? " GMP builds, flagged results included" : " GMP builds, "
         "flagged results left out", f);
  fputs (" \u00b7 <a href=\"", f);
  web_cpu_url (f, bf, NULL);
  fputs ("\">every node of this CPU</a> \u00b7 <a href=\"/", f);
  web_arg (f, &first, "sort", node);
  fputs ("\">the leaderboard by this node</a></p>\n", f);
}

enum MHD_Result
web_cpu_node (struct http_request *r, const struct board *b, const struct board_filter *bf,
              const char *name, const char *node)
{
  struct store_filter sf;
  struct board_entry known[NODE_RESULTS];
  struct node_load l = { node, NULL, 0, 0, known, 0 };
  struct page p;
  char title[512];

  if (strlen (node) > 256 || !inner_node (node))
    return page_error (r, 400, "The node argument names no inner node of the hierarchy.");
  node_store_filter (b, bf, &sf);
  l.nknown = node_known (b, bf, known);
  if (store_list (r->srv->store, &sf, take_score, &l) != STORE_OK)
    {
      free_load (&l);
      return page_error (r, 503, "The database is unavailable; try again later.");
    }
  qsort (l.e, l.n, sizeof *l.e, by_score);
  snprintf (title, sizeof title, "%s: %s", name, node);
  if (page_begin (&p, r, title) < 0)
    {
      free_load (&l);
      return MHD_NO;
    }
  headline (p.f, bf, node, &l);
  if (l.n)
    web_strip_plot (p.f, l.e, l.n, node);
  else
    fputs ("<p id=\"empty\">No matching result has a score for this node.</p>\n", p.f);
  free_load (&l);
  return page_end (&p, 200);
}
