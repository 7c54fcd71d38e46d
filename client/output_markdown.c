/* output_markdown.c: a result document as GitHub-flavoured Markdown, to
 * paste into an issue or a pull request: the machine as a list, every
 * scored node and test in one table (nodes in bold), the comparisons and
 * the random generators as tables.  Every string from the document goes
 * through escape_markdown(). */
#include <math.h>
#include <string.h>
#include "model/escape.h"
#include "model/si_format.h"
#include "client/report.h"
#include "client/tree.h"
#include "model/doc_schema.h"

struct md_ctx
{
  FILE *f;
  const struct report *r;
};

static void
machine_item (void *ctx, const char *label, const char *value)
{
  FILE *f = ctx;
  fputs ("- **", f);
  escape_markdown (f, label);
  fputs (":** ", f);
  escape_markdown (f, value);
  fputc ('\n', f);
}

static void
header (FILE *f, const struct report *r)
{
  fputs ("# GMPbench result\n\n", f);
  fputs ("Created ", f);
  escape_markdown (f, report_str (r->doc, "created"));
  fputs (" by gmpbench ", f);
  escape_markdown (f, report_str (cJSON_GetObjectItemCaseSensitive (r->doc, "client"),
                                  "version"));
  fputs (", mode ", f);
  escape_markdown (f, report_str (r->run, "mode"));
  fprintf (f, ", %g s per test.\n\n## Machine\n\n", report_num (r->run, DOC_RUN_TIME_PER_TEST));
  report_machine (r, machine_item, f);
}

static void
md_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
         size_t labellen)
{
  struct md_ctx *m = ctx;
  char name[256];
  (void) depth;
  (void) label;
  (void) labellen;
  double v = report_score (m->r->scores, path, pathlen);
  if (isnan (v))
    return;
  snprintf (name, sizeof name, "%.*s", (int) pathlen, path);
  fputs ("| **", m->f);
  escape_markdown (m->f, name);
  fprintf (m->f, "** | **%.6g** | | |\n", v);
}

static void
md_leaf (void *ctx, int depth, size_t index, const char *label)
{
  struct md_ctx *m = ctx;
  const struct report_row *row = &m->r->rows[index];
  char ops[32];
  (void) depth;
  (void) label;
  fputs ("| ", m->f);
  escape_markdown (m->f, row->name);
  if (!row->result)
    {
      fputs (" | | | skipped: ", m->f);
      escape_markdown (m->f, row->reason);
      fputs (" |\n", m->f);
      return;
    }
  si_format (report_num (row->result, DOC_RESULT_OPS_PER_SEC), ops, sizeof ops);
  fprintf (m->f, " | %s | ±%.1f%% | %s%s |\n", ops, 100 * report_num (row->result, DOC_RESULT_SPREAD),
           report_has_flag (row->result, "noisy") ? "noisy " : "",
           report_has_flag (row->result, "cpu-diverged") ? "cpu&lt;wall" : "");
}

/* A row of the comparison tables: the text cells escaped, the figures as
 * they are. */
static void
table_row (void *ctx, const struct report_cells *c)
{
  FILE *f = ctx;
  for (size_t i = 0; i < c->n; i++)
    {
      fputs (i ? " | " : "| ", f);
      if (i < c->ntext)
        escape_markdown (f, c->cell[i]);
      else
        fputs (c->cell[i], f);
    }
  fputs (" |\n", f);
}

static void
comparisons (FILE *f, const cJSON *cmp)
{
  fputs ("\n## GMP and other libraries\n\n"
         "Ratio: GMP's ops/s over the library's (above 1: GMP is faster), against "
         "GMP's constant-time variant for constant-time operations; "
         "~ marks a ratio within the spreads.\n\n"
         "| operation | size | library | ops/s | spread | ratio |\n"
         "|---|---|---|--:|--:|--:|\n", f);
  report_comparison_rows (cmp, table_row, f);
}

static void
generators_head (void *ctx, const cJSON *row, const char *clock)
{
  FILE *f = ctx;
  fputs ("\n## Random generators\n\nBlocks of ", f);
  escape_markdown (f, report_str (row, "size"));
  fputs (" bytes", f);
  if (*clock)
    {
      fputs ("; cycles per byte at ", f);
      escape_markdown (f, clock);
    }
  fputs (".\n\n| generator | MiB/s | cycles/byte | spread |\n|---|--:|--:|--:|\n", f);
}

static void
generators (FILE *f, const struct report *r)
{
  const struct report_rng_writer w = { generators_head, table_row, NULL };
  report_rng_tables (r, &w, f);
}

void
report_markdown (FILE *f, const struct report *r)
{
  struct md_ctx m = { f, r };
  const struct tree_visitor v = { md_node, md_leaf };
  header (f, r);
  fputs ("\n## Scores and tests\n\nNodes show their GMPbench score (bold), tests their "
         "operations per second and spread.\n\n"
         "| node or test | score or ops/s | spread | notes |\n|---|--:|--:|---|\n", f);
  tree_walk (r->names, r->nrows, &v, &m);
  if (report_count_rows (r->comparisons, 0) > 0)
    comparisons (f, r->comparisons);
  generators (f, r);
}
