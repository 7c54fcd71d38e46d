/* html_charts.c: chart data gathered from a result document and drawn
 * with svg_chart.h.
 *
 * Size charts read test names with test_pairing_parse() (operation, size,
 * library, variant), so GMP-only operations get a chart as well as the
 * compared ones.  A size is one operand ("8192": x = 8192) or two equal
 * ones ("8192,8192"); unbalanced operands ("15000,10000") have no line to
 * sit on and stay in the tables.  A library keeps its colour in every
 * chart: styles are numbered by first appearance. */
#include "client/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/svg_chart.h"
#include "common/util.h"
#include "client/compare.h"
#include "model/doc_schema.h"

#define LABEL_LEN 128

struct acc_series
{
  char label[LABEL_LEN];
  int style;
  double *x, *y;
  size_t n;
};

struct acc_chart
{
  char operation[TEST_PAIR_FIELD];
  int operands;                 /* 1, or 2 equal ones */
  struct acc_series *series;
  size_t nseries;
};

struct acc
{
  struct acc_chart *charts;
  size_t ncharts;
  char (*styles)[LABEL_LEN];    /* series labels, by style number */
  size_t nstyles;
};

static int
style_of (struct acc *a, const char *label)
{
  for (size_t i = 0; i < a->nstyles; i++)
    if (strcmp (a->styles[i], label) == 0)
      return (int) i;
  a->styles = gb_xrealloc (a->styles, (a->nstyles + 1) * sizeof *a->styles);
  snprintf (a->styles[a->nstyles], LABEL_LEN, "%s", label);
  return (int) a->nstyles++;
}

static struct acc_chart *
chart_for (struct acc *a, const char *operation, int operands)
{
  for (size_t i = 0; i < a->ncharts; i++)
    if (strcmp (a->charts[i].operation, operation) == 0 && a->charts[i].operands == operands)
      return &a->charts[i];
  a->charts = gb_xrealloc (a->charts, (a->ncharts + 1) * sizeof *a->charts);
  struct acc_chart *c = &a->charts[a->ncharts++];
  memset (c, 0, sizeof *c);
  snprintf (c->operation, sizeof c->operation, "%s", operation);
  c->operands = operands;
  return c;
}

static struct acc_series *
series_for (struct acc *a, struct acc_chart *c, const char *label)
{
  for (size_t i = 0; i < c->nseries; i++)
    if (strcmp (c->series[i].label, label) == 0)
      return &c->series[i];
  c->series = gb_xrealloc (c->series, (c->nseries + 1) * sizeof *c->series);
  struct acc_series *s = &c->series[c->nseries++];
  memset (s, 0, sizeof *s);
  snprintf (s->label, sizeof s->label, "%s", label);
  s->style = style_of (a, label);
  return s;
}

/* Inserts (X, Y) keeping X increasing. */
static void
add_point (struct acc_series *s, double x, double y)
{
  size_t i = s->n;
  s->x = gb_xrealloc (s->x, (s->n + 1) * sizeof *s->x);
  s->y = gb_xrealloc (s->y, (s->n + 1) * sizeof *s->y);
  for (; i > 0 && s->x[i - 1] > x; i--)
    {
      s->x[i] = s->x[i - 1];
      s->y[i] = s->y[i - 1];
    }
  s->x[i] = x;
  s->y[i] = y;
  s->n++;
}

/* The operand size of SIZE ("N" or "N,N") and the operand count; 0 for
 * unbalanced or unreadable sizes. */
static int
parse_size (const char *size, double *x)
{
  char *end;
  double a = strtod (size, &end);
  if (end == size || !(a > 0))
    return 0;
  *x = a;
  if (*end == '\0')
    return 1;
  if (*end != ',')
    return 0;
  const char *second = end + 1;
  double b = strtod (second, &end);
  return end != second && *end == '\0' && a == b ? 2 : 0;
}

static void
gather (struct acc *a, const struct report *r)
{
  struct test_pair_key k;
  char label[LABEL_LEN];
  double x, y;
  for (size_t i = 0; i < r->nrows; i++)
    {
      int operands;
      if (!r->rows[i].result || test_pairing_parse (r->rows[i].name, &k) != 0
          || strcmp (k.operation, "rng") == 0 || !(operands = parse_size (k.size, &x)))
        continue;
      y = report_num (r->rows[i].result, DOC_RESULT_OPS_PER_SEC);
      if (!(y > 0) || !isfinite (y))
        continue;
      report_library_label (k.library, k.variant, label, sizeof label);
      add_point (series_for (a, chart_for (a, k.operation, operands), label), x, y);
    }
}

static void
draw (FILE *f, const struct acc_chart *c)
{
  char title[2 * TEST_PAIR_FIELD];
  int is_fac = strcmp (c->operation, "fac") == 0;
  struct chart_series *series = gb_xcalloc (c->nseries, sizeof *series);
  for (size_t i = 0; i < c->nseries; i++)
    {
      series[i].label = c->series[i].label;
      series[i].style = c->series[i].style;
      series[i].x = c->series[i].x;
      series[i].y = c->series[i].y;
      series[i].n = c->series[i].n;
    }
  int keyed = strchr (c->operation, '.') != NULL;     /* rsa.sign, dh.derive... */
  snprintf (title, sizeof title, "%s%s", c->operation,
            is_fac ? ", n!" : keyed ? "" : c->operands == 1 ? ", one operand"
            : ", two operands of equal size");
  struct line_chart lc = {
    title, is_fac ? "n" : keyed ? "key or group size (bits)" : "operand size (bits)",
    "operations per second (ops/s)", is_fac ? "" : "bits", "ops/s", series, c->nseries
  };
  svg_line_chart (f, &lc);
  free (series);
}

static int
worth_drawing (const struct acc_chart *c)
{
  for (size_t i = 0; i < c->nseries; i++)
    if (c->series[i].n >= 2)
      return 1;
  return 0;
}

static void
acc_free (struct acc *a)
{
  for (size_t i = 0; i < a->ncharts; i++)
    {
      for (size_t j = 0; j < a->charts[i].nseries; j++)
        {
          free (a->charts[i].series[j].x);
          free (a->charts[i].series[j].y);
        }
      free (a->charts[i].series);
    }
  free (a->charts);
  free (a->styles);
}

void
html_size_charts (FILE *f, const struct report *r)
{
  struct acc a = { NULL, 0, NULL, 0 };
  size_t drawn = 0;
  gather (&a, r);
  for (size_t i = 0; i < a.ncharts; i++)
    if (worth_drawing (&a.charts[i]))
      {
        if (drawn++ == 0)
          fputs ("<section id=\"charts\"><h2>Speed against operand size</h2>\n"
                 "<p>Operations per second on log-log axes; one line per library. "
                 "Hover a point for its value.</p>\n<div class=\"grid\">\n", f);
        draw (f, &a.charts[i]);
      }
  if (drawn)
    fputs ("</div></section>\n", f);
  acc_free (&a);
}

/* The bars of every row of COMPARISONS with operation OP. */
static void
ratio_chart (FILE *f, const cJSON *comparisons, const char *op)
{
  const cJSON *row, *e;
  size_t n = 0;
  cJSON_ArrayForEach (row, comparisons)
    if (strcmp (report_str (row, "operation"), op) == 0)
      n += (size_t) cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (row, "entries"));
  struct chart_bar *bars = gb_xcalloc (n + 1, sizeof *bars);
  char (*labels)[LABEL_LEN] = gb_xcalloc (n + 1, sizeof *labels);
  size_t nbars = 0;
  cJSON_ArrayForEach (row, comparisons)
    if (strcmp (report_str (row, "operation"), op) == 0)
      cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
        {
          char lib[64];
          double ratio = report_num (e, "ratio");
          if (!(ratio > 0) || !isfinite (ratio) || nbars == n)
            continue;
          report_library_label (report_str (e, "library"), report_str (e, "variant"), lib,
                                sizeof lib);
          snprintf (labels[nbars], LABEL_LEN, "%.48s, %s", report_str (row, "size"), lib);
          bars[nbars].label = labels[nbars];
          bars[nbars].value = ratio;
          bars[nbars++].muted = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (e, "within_spread"));
        }
  if (nbars)
    svg_ratio_bars (f, op, "GMP ops/s ÷ library ops/s (log scale; right of 1: GMP faster)",
                    bars, nbars);
  free (labels);
  free (bars);
}

void
html_ratio_charts (FILE *f, const cJSON *comparisons)
{
  const cJSON *row, *prev;
  cJSON_ArrayForEach (row, comparisons)
    {
      const char *op = report_str (row, "operation");
      int seen = strcmp (op, "rng") == 0;
      for (prev = comparisons->child; prev != row && !seen; prev = prev->next)
        seen = strcmp (report_str (prev, "operation"), op) == 0;
      if (!seen)
        ratio_chart (f, comparisons, op);
    }
}

void
html_rng_chart (FILE *f, const cJSON *row)
{
  const cJSON *entries = cJSON_GetObjectItemCaseSensitive (row, "entries"), *e;
  size_t n = (size_t) cJSON_GetArraySize (entries), nbars = 0;
  struct chart_bar *bars = gb_xcalloc (n + 1, sizeof *bars);
  cJSON_ArrayForEach (e, entries)
    {
      double v = report_num (e, "mib_per_sec");
      if (v >= 0 && isfinite (v) && nbars < n)
        {
          bars[nbars].label = report_str (e, "library");
          bars[nbars++].value = v;
        }
    }
  if (nbars)
    svg_value_bars (f, "Random generator throughput", "MiB/s (higher is faster)", "MiB/s",
                    bars, nbars);
  free (bars);
}
