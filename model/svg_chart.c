/* svg_chart.c: log-log line charts and bar charts as inline SVG (see
 * svg_chart.h).  Geometry is in SVG user units with a viewBox, so a chart
 * scales with the page; CSS in the page sets fonts and colours of text. */
#include "model/svg_chart.h"

#include <math.h>
#include "model/escape.h"
#include "model/si_format.h"

#define LC_WIDTH 480
#define LC_PLOT_W 390
#define LC_PLOT_H 220
#define LC_LEFT 70
#define LC_TOP 34
#define LEGEND_ROW 18

#define BAR_WIDTH 640
#define BAR_LEFT 230
#define BAR_PLOT_W 360
#define BAR_ROW 20
#define BAR_TOP 34

static const char *const palette[] = {
  "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999933",
};
#define NCOLORS (sizeof palette / sizeof palette[0])

static void
open_svg (FILE *f, int width, int height, const char *title)
{
  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 %d %d\" "
           "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"", width, height, width, height);
  escape_html (f, title);
  fputs ("\"><title>", f);
  escape_html (f, title);
  fprintf (f, "</title>\n<text class=\"title\" x=\"%d\" y=\"18\" text-anchor=\"middle\">",
           width / 2);
  escape_html (f, title);
  fputs ("</text>\n", f);
}

/* Decade bounds [*LO, *HI] (powers of ten) around the values. */
static void
decades (double min, double max, int *lo, int *hi)
{
  *lo = (int) floor (log10 (min));
  *hi = (int) ceil (log10 (max));
  if (*hi <= *lo)
    *hi = *lo + 1;
}

static double
scale_log (double v, int lo, int hi, double pixels)
{
  return (log10 (v) - lo) / (hi - lo) * pixels;
}

/* Data range of every series along X (or Y). */
static void
range (const struct line_chart *c, int along_x, double *min, double *max)
{
  *min = INFINITY;
  *max = -INFINITY;
  for (size_t s = 0; s < c->nseries; s++)
    for (size_t i = 0; i < c->series[s].n; i++)
      {
        double v = along_x ? c->series[s].x[i] : c->series[s].y[i];
        *min = fmin (*min, v);
        *max = fmax (*max, v);
      }
}

/* Gridlines and labels at each decade of both axes, and axis titles. */
static void
log_axes (FILE *f, const struct line_chart *c, int xlo, int xhi, int ylo, int yhi)
{
  char label[32];
  for (int d = xlo; d <= xhi; d++)
    {
      double x = LC_LEFT + scale_log (pow (10, d), xlo, xhi, LC_PLOT_W);
      si_format (pow (10, d), label, sizeof label);
      fprintf (f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
               "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
               x, LC_TOP, x, LC_TOP + LC_PLOT_H, x, LC_TOP + LC_PLOT_H + 14, label);
    }
  for (int d = ylo; d <= yhi; d++)
    {
      double y = LC_TOP + LC_PLOT_H - scale_log (pow (10, d), ylo, yhi, LC_PLOT_H);
      si_format (pow (10, d), label, sizeof label);
      fprintf (f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
               "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
               LC_LEFT, y, LC_LEFT + LC_PLOT_W, y, LC_LEFT - 4, y + 4, label);
    }
  fprintf (f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
           LC_LEFT, LC_TOP, LC_PLOT_W, LC_PLOT_H);
  fprintf (f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
           LC_LEFT + LC_PLOT_W / 2, LC_TOP + LC_PLOT_H + 32);
  escape_html (f, c->x_label);
  fprintf (f, "</text>\n<text class=\"axis\" transform=\"translate(14 %d) rotate(-90)\" "
           "text-anchor=\"middle\">", LC_TOP + LC_PLOT_H / 2);
  escape_html (f, c->y_label);
  fputs ("</text>\n", f);
}

static void
series_path (FILE *f, const struct line_chart *c, const struct chart_series *s,
             int xlo, int xhi, int ylo, int yhi)
{
  const char *color = palette[(size_t) s->style % NCOLORS];
  fprintf (f, "<g class=\"series\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
           "points=\"", color);
  for (size_t i = 0; i < s->n; i++)
    fprintf (f, "%s%.1f,%.1f", i ? " " : "", LC_LEFT + scale_log (s->x[i], xlo, xhi, LC_PLOT_W),
             LC_TOP + LC_PLOT_H - scale_log (s->y[i], ylo, yhi, LC_PLOT_H));
  fputs ("\"/>\n", f);
  for (size_t i = 0; i < s->n; i++)
    {
      fprintf (f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
               LC_LEFT + scale_log (s->x[i], xlo, xhi, LC_PLOT_W),
               LC_TOP + LC_PLOT_H - scale_log (s->y[i], ylo, yhi, LC_PLOT_H), color);
      escape_html (f, s->label);
      fprintf (f, ": %.6g ", s->x[i]);
      escape_html (f, c->x_unit);
      fprintf (f, ", %.6g ", s->y[i]);
      escape_html (f, c->y_unit);
      fputs ("</title></circle>\n", f);
    }
  fputs ("</g>\n", f);
}

static void
legend (FILE *f, const struct line_chart *c)
{
  int top = LC_TOP + LC_PLOT_H + 44;
  for (size_t s = 0; s < c->nseries; s++)
    {
      int x = LC_LEFT + (int) (s % 2) * (LC_PLOT_W / 2), y = top + (int) (s / 2) * LEGEND_ROW;
      fprintf (f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
               "stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">", x, y, x + 18, y,
               palette[(size_t) c->series[s].style % NCOLORS], x + 24, y + 4);
      escape_html (f, c->series[s].label);
      fputs ("</text>\n", f);
    }
}

void
svg_line_chart (FILE *f, const struct line_chart *c)
{
  double xmin, xmax, ymin, ymax;
  int xlo, xhi, ylo, yhi;
  int height = LC_TOP + LC_PLOT_H + 44 + (int) ((c->nseries + 1) / 2) * LEGEND_ROW;
  range (c, 1, &xmin, &xmax);
  range (c, 0, &ymin, &ymax);
  decades (xmin, xmax, &xlo, &xhi);
  decades (ymin, ymax, &ylo, &yhi);
  open_svg (f, LC_WIDTH, height, c->title);
  log_axes (f, c, xlo, xhi, ylo, yhi);
  for (size_t s = 0; s < c->nseries; s++)
    series_path (f, c, &c->series[s], xlo, xhi, ylo, yhi);
  legend (f, c);
  fputs ("</svg>\n", f);
}

/* One bar: label on the left, a rectangle from X0 to X1, value at its
 * end. */
static void
bar_row (FILE *f, int row, const struct chart_bar *b, double x0, double x1,
         const char *color, const char *value)
{
  int y = BAR_TOP + row * BAR_ROW;
  double left = fmin (x0, x1), width = fmax (fabs (x1 - x0), 1);
  fprintf (f, "<g class=\"bar%s\"><title>", b->muted ? " muted" : "");
  escape_html (f, b->label);
  fputs (": ", f);
  escape_html (f, value);
  fprintf (f, "%s</title><text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
           b->muted ? " (within the spreads)" : "", BAR_LEFT - 6, y + 14);
  escape_html (f, b->label);
  fprintf (f, "</text><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
           "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">",
           left, y + 3, width, BAR_ROW - 6, b->muted ? "#b8b8b8" : color,
           x1 >= x0 ? x1 + 4 : x1 - 4, y + 14, x1 >= x0 ? "start" : "end");
  escape_html (f, value);
  fprintf (f, "%s</text></g>\n", b->muted ? " ~" : "");
}

static void
bar_axis (FILE *f, size_t n, const char *axis_label)
{
  int bottom = BAR_TOP + (int) n * BAR_ROW;
  fprintf (f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
           BAR_LEFT + BAR_PLOT_W / 2, bottom + 32);
  escape_html (f, axis_label);
  fputs ("</text>\n", f);
}

static void
bar_tick (FILE *f, double x, size_t n, const char *label)
{
  int bottom = BAR_TOP + (int) n * BAR_ROW;
  fprintf (f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
           "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
           x, BAR_TOP, x, bottom, x, bottom + 14, label);
}

void
svg_ratio_bars (FILE *f, const char *title, const char *axis_label,
                const struct chart_bar *bars, size_t n)
{
  static const double ticks[] = { 0.01, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100 };
  double span = log10 (2);      /* at least 0.5 ... 2 */
  char value[32];
  for (size_t i = 0; i < n; i++)
    span = fmax (span, fabs (log10 (bars[i].value)));
  span = fmin (ceil (span * 2) / 2, 2);         /* half decades, at most 100x */
  double mid = BAR_LEFT + BAR_PLOT_W / 2.0, unit = BAR_PLOT_W / (2 * span);
  open_svg (f, BAR_WIDTH, BAR_TOP + (int) n * BAR_ROW + 44, title);
  for (size_t t = 0; t < sizeof ticks / sizeof ticks[0]; t++)
    if (fabs (log10 (ticks[t])) <= span + 1e-9 && (span <= 1 || fmod (log10 (ticks[t]), 1) == 0))
      {
        snprintf (value, sizeof value, "%g", ticks[t]);
        bar_tick (f, mid + log10 (ticks[t]) * unit, n, value);
      }
  for (size_t i = 0; i < n; i++)
    {
      double l = fmax (-span, fmin (span, log10 (bars[i].value)));
      snprintf (value, sizeof value, "%.3g", bars[i].value);
      bar_row (f, (int) i, &bars[i], mid, mid + l * unit, l >= 0 ? palette[0] : palette[1], value);
    }
  bar_axis (f, n, axis_label);
  fputs ("</svg>\n", f);
}

/* The step between ticks of a value axis up to V: 1, 2 or 5 times a power
 * of ten, the smallest that needs at most MAX_STEPS steps. */
#define MAX_STEPS 5
static double
nice_step (double v)
{
  double raw = v / MAX_STEPS, p = pow (10, floor (log10 (raw)));
  return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

void
svg_value_bars (FILE *f, const char *title, const char *axis_label, const char *unit,
                const struct chart_bar *bars, size_t n)
{
  double max = 0;
  char value[48];
  for (size_t i = 0; i < n; i++)
    max = fmax (max, bars[i].value);
  double step = nice_step (max > 0 ? max : 1);
  int steps = (int) ceil ((max > 0 ? max : 1) / step - 1e-9);
  max = steps * step;
  open_svg (f, BAR_WIDTH, BAR_TOP + (int) n * BAR_ROW + 44, title);
  for (int t = 0; t <= steps; t++)
    {
      snprintf (value, sizeof value, "%g", t * step);
      bar_tick (f, BAR_LEFT + BAR_PLOT_W * t / (double) steps, n, value);
    }
  for (size_t i = 0; i < n; i++)
    {
      snprintf (value, sizeof value, "%.4g %s", bars[i].value, unit);
      bar_row (f, (int) i, &bars[i], BAR_LEFT, BAR_LEFT + BAR_PLOT_W * bars[i].value / max,
               palette[2], value);
    }
  bar_axis (f, n, axis_label);
  fputs ("</svg>\n", f);
}
