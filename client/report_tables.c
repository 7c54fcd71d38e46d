/* report_tables.c: the rows of a report's comparison tables as text cells
 * (see report.h), so that the HTML and Markdown reports show the same
 * figures, formatted once, each in its own markup. */
#include "client/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/doc_schema.h"
#include "model/si_format.h"

static int
is_rng (const cJSON *row)
{
  return strcmp (report_str (row, "operation"), "rng") == 0;
}

/* ENTRY of the comparison ROW (GMP against another library) as cells. */
static void
comparison_cells (const cJSON *row, const cJSON *entry, struct report_cells *c)
{
  double ratio = report_num (entry, "ratio");
  c->n = 6;
  c->ntext = 3;
  c->within_spread = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (entry, "within_spread"));
  snprintf (c->cell[0], sizeof c->cell[0], "%s", report_str (row, "operation"));
  snprintf (c->cell[1], sizeof c->cell[1], "%s", report_str (row, "size"));
  report_library_label (report_str (entry, "library"), report_str (entry, "variant"),
                        c->cell[2], sizeof c->cell[2]);
  si_format (report_num (entry, DOC_RESULT_OPS_PER_SEC), c->cell[3], sizeof c->cell[3]);
  snprintf (c->cell[4], sizeof c->cell[4], "±%.1f%%", 100 * report_num (entry, DOC_RESULT_SPREAD));
  snprintf (c->cell[5], sizeof c->cell[5], isnan (ratio) ? "" : c->within_spread ? "%.3f ~" : "%.3f",
            ratio);
}

/* ENTRY of a random generators' comparison row as cells. */
static void
generator_cells (const cJSON *entry, struct report_cells *c)
{
  double cpb = report_num (entry, "cycles_per_byte");
  c->n = 4;
  c->ntext = 1;
  c->within_spread = 0;
  snprintf (c->cell[0], sizeof c->cell[0], "%s", report_str (entry, "library"));
  snprintf (c->cell[1], sizeof c->cell[1], "%.1f", report_num (entry, "mib_per_sec"));
  snprintf (c->cell[2], sizeof c->cell[2], isnan (cpb) ? "" : "%.2f", cpb);
  snprintf (c->cell[3], sizeof c->cell[3], "±%.1f%%", 100 * report_num (entry, DOC_RESULT_SPREAD));
}

void
report_comparison_rows (const cJSON *comparisons, report_cells_fn *fn, void *ctx)
{
  const cJSON *row, *e;
  struct report_cells c;
  cJSON_ArrayForEach (row, comparisons)
    if (!is_rng (row))
      cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
        {
          comparison_cells (row, e, &c);
          fn (ctx, &c);
        }
}

void
report_rng_tables (const struct report *r, const struct report_rng_writer *w, void *ctx)
{
  const cJSON *row, *e;
  struct report_cells c;
  char clock[64];
  report_cycles_clock (r, clock, sizeof clock);
  cJSON_ArrayForEach (row, r->comparisons)
    if (is_rng (row))
      {
        w->head (ctx, row, clock);
        cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
          {
            generator_cells (e, &c);
            w->row (ctx, &c);
          }
        if (w->tail)
          w->tail (ctx, row, clock);
      }
}
