/* output_text.c: the text renderings: the bare test tree of `gmpbench
 * list`, and a whole result document (`run`, `show`): the machine
 * summary, the tree with ops/s at the leaves and scores at the nodes, the
 * comparison tables and the all-core results. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "client/color.h"
#include "model/escape.h"
#include "client/output.h"
#include "client/report.h"
#include "client/tree.h"
#include "common/util.h"
#include "client/compare.h"
#include "model/doc_schema.h"
#include "model/score.h"
#include "sysinfo/sysinfo.h"

#define NAME_WIDTH 44

struct text_ctx
{
  FILE *f;
  const struct report *r;
  const struct palette *c;
};

static void
list_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
           size_t labellen)
{
  (void) path;
  (void) pathlen;
  fprintf (ctx, "%*s%.*s\n", 2 * depth, "", (int) labellen, label);
}

static void
list_leaf (void *ctx, int depth, size_t index, const char *label)
{
  (void) index;
  fprintf (ctx, "%*s%s\n", 2 * depth, "", label);
}

void
output_text_tree (FILE *f, const struct bench_test *const *tests, size_t n)
{
  const char **names = gb_xmalloc ((n ? n : 1) * sizeof *names);
  const struct tree_visitor v = { list_node, list_leaf };
  for (size_t i = 0; i < n; i++)
    names[i] = tests[i]->name;
  tree_walk (names, n, &v, f);
  free (names);
}

static void
doc_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
          size_t labellen)
{
  struct text_ctx *t = ctx;
  double score = report_score (t->r->scores, path, pathlen);
  char name[256];
  snprintf (name, sizeof name, "%.*s", (int) labellen, label);
  fprintf (t->f, "%*s%s", 2 * depth, "", t->c->bold);
  escape_text (t->f, name);
  fputs (t->c->reset, t->f);
  if (!isnan (score))
    fprintf (t->f, "%*s %s%14.6g score%s", NAME_WIDTH - 2 * depth - (int) strlen (name), "",
             t->c->bold, score, t->c->reset);
  fputc ('\n', t->f);
}

static void
doc_leaf (void *ctx, int depth, size_t index, const char *label)
{
  struct text_ctx *t = ctx;
  const struct report_row *row = &t->r->rows[index];
  fprintf (t->f, "%*s", 2 * depth, "");
  escape_text (t->f, label);
  fprintf (t->f, "%*s", NAME_WIDTH - 2 * depth - (int) strlen (label), "");
  if (!row->result)
    {
      fprintf (t->f, " %sskipped: ", t->c->dim);
      escape_text (t->f, row->reason);
      fprintf (t->f, "%s\n", t->c->reset);
      return;
    }
  double ops = report_num (row->result, DOC_RESULT_OPS_PER_SEC);
  double fast = report_num (row->result, DOC_RESULT_FAST_OPS_PER_SEC);
  fprintf (t->f, " %14.6g ops/s  ±%.1f%%", ops, 100 * report_num (row->result, DOC_RESULT_SPREAD));
  if (!isnan (fast) && !score_equal (fast, ops))
    fprintf (t->f, "  (fastest samples %.6g)", fast);
  if (report_has_flag (row->result, "noisy"))
    fprintf (t->f, "  %snoisy%s", t->c->warn, t->c->reset);
  if (report_has_flag (row->result, "cpu-diverged"))
    fprintf (t->f, "  %scpu<wall%s", t->c->warn, t->c->reset);
  fputc ('\n', t->f);
}

/* The all-core results of `run --threads N`. */
static void
print_threads (FILE *f, const cJSON *threads)
{
  double count = report_num (threads, "count");
  const cJSON *r;
  fprintf (f, "\nAll cores, %.0f copies at once%s (aggregate ops/s, scaling efficiency):\n",
           count, cJSON_IsFalse (cJSON_GetObjectItemCaseSensitive (threads, "pinned"))
           ? ", not pinned" : "");
  cJSON_ArrayForEach (r, cJSON_GetObjectItemCaseSensitive (threads, "results"))
    {
      double eff = report_num (r, DOC_RESULT_EFFICIENCY);
      fputs ("  ", f);
      escape_text (f, report_str (r, "name"));
      fprintf (f, "%*s %14.6g ops/s  ±%.1f%%  x%.2f  efficiency %.0f%%\n",
               44 - (int) strlen (report_str (r, "name")), "", report_num (r, DOC_RESULT_OPS_PER_SEC),
               100 * report_num (r, DOC_RESULT_SPREAD), eff * count, 100 * eff);
    }
  double total = report_num (cJSON_GetObjectItemCaseSensitive (threads, "scores"), "gmpbench");
  if (!isnan (total))
    fprintf (f, "  GMPbench score with %.0f copies: %.6g\n", count, total);
}

/* What PRINT writes for ARG, with any control character of the document
 * neutralised (the summary and the comparison tables print strings of the
 * document as they are). */
static void
print_sanitized (FILE *f, void (*print) (FILE *, const cJSON *), const cJSON *arg)
{
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream (&text, &size);
  if (!mem)
    return;
  print (mem, arg);
  fclose (mem);
  escape_text (f, text);
  free (text);
}

void
report_text (FILE *f, const struct report *r, int color)
{
  struct text_ctx t = { f, r, color_palette (color) };
  const struct tree_visitor v = { doc_node, doc_leaf };
  print_sanitized (f, sysinfo_print_summary, r->system);
  fputc ('\n', f);
  tree_walk (r->names, r->nrows, &v, &t);
  if (cJSON_GetArraySize (r->comparisons) > 0)
    {
      fputc ('\n', f);
      print_sanitized (f, compare_print_text, r->comparisons);
      char clock[64];
      report_cycles_clock (r, clock, sizeof clock);
      if (*clock && report_count_rows (r->comparisons, 1))
        fprintf (f, "  (cycles/byte at %s)\n", clock);
    }
  if (cJSON_IsObject (r->threads))
    print_threads (f, r->threads);
}

void
output_json_print (FILE *f, const cJSON *json)
{
  char *s = cJSON_Print (json);
  fputs (s, f);
  fputc ('\n', f);
  free (s);
}
