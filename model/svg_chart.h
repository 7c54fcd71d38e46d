/* svg_chart.h: charts as inline SVG for the HTML report.
 *
 * Two kinds: a line chart on log-log axes (ops/s against operand size,
 * one series per library), and horizontal bars, either on a log axis
 * centred at 1 (ratios) or on a linear axis from 0 (MiB/s).  Axes carry
 * decade or round ticks, labels and units; every point and bar has a
 * <title> tooltip with its exact value.  The SVG uses no script, no font
 * file and no external reference, so the page stays self-contained.  All
 * text is escaped (escape.h). */
#ifndef GB_SVG_CHART_H
#define GB_SVG_CHART_H

#include <stddef.h>
#include <stdio.h>

/* Series colours are taken from a fixed colour-blind-safe palette by
 * STYLE, so that one library keeps its colour across charts. */
struct chart_series
{
  const char *label;
  int style;
  const double *x, *y;          /* N points, X increasing, all positive */
  size_t n;
};

struct line_chart
{
  const char *title, *x_label, *y_label;
  const char *x_unit, *y_unit;  /* for the tooltips: "bits", "ops/s" */
  const struct chart_series *series;
  size_t nseries;
};

void svg_line_chart (FILE *f, const struct line_chart *c);

struct chart_bar
{
  const char *label;
  double value;                 /* positive */
  int muted;                    /* drawn grey: not a meaningful difference */
};

/* Bars from 1 on a log axis: right of 1 in one colour, left in another. */
void svg_ratio_bars (FILE *f, const char *title, const char *axis_label,
                     const struct chart_bar *bars, size_t n);

/* Bars from 0 on a linear axis, ticked in 1-2-5 steps up to the first one
 * at or above the largest value, labelled with UNIT. */
void svg_value_bars (FILE *f, const char *title, const char *axis_label, const char *unit,
                     const struct chart_bar *bars, size_t n);

#endif
