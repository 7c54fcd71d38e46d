/* web_strip.c: the strip plot over a box plot of web_strip.h.
 *
 * 720 units wide, in the page's width (its caption above it, in the
 * page's text; on a phone, its text is drawn larger and every other tick
 * label of many left out, so that it reads at 11 px or more at 390 px:
 * web_style.c): a point's vertical place is a
 * hash of its result's seq (jitter that stays put from one page to the
 * next).  The points are the results, one each, so that one source's
 * many results show as the cluster they are; the box spans Q1 to Q3
 * with the median of the sources' medians (each source's results reduced
 * to their median first, as the headline's median is: store.h,
 * "Sources"), the whisker the whole range of the results.  Each point's
 * <title> says its score, publisher, flags, GMP version and compiler. */
#include "server/web/web_strip.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "common/util.h"
#include "server/web/web_page.h"

#define MAX_POINTS 400

/* Plot geometry, in SVG units. */
#define W 720
#define H 196
#define LEFT 20
#define RIGHT 700
#define STRIP_TOP 12
#define STRIP_BOTTOM 92
#define BOX_TOP 107
#define BOX_BOTTOM 137
#define AXIS 147
#define TICK_LABEL 20           /* below the axis, room for the phone's larger text */

/* A round step for about five ticks over SPAN. */
static double
tick_step (double span)
{
  double step = pow (10, floor (log10 (span / 5)));
  return span / step > 25 ? 5 * step : span / step > 10 ? 2 * step : step;
}

static double
x_of (double v, double lo, double hi)
{
  return LEFT + (RIGHT - LEFT) * (hi > lo ? (v - lo) / (hi - lo) : 0.5);
}

static void
axis (FILE *f, double lo, double hi, const char *node)
{
  double step = tick_step (hi - lo), first = ceil (lo / step) * step;
  int ticks = (int) floor ((hi - first) / step) + 1, k = 0;
  fprintf (f, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
           LEFT, AXIS, RIGHT, AXIS);
  for (double t = first; t <= hi; t += step, k++)
    {
      double x = x_of (t, lo, hi);
      /* Every other label of more than five is minor: a phone shows the
       * others only, in text large enough to read (web_style.c). */
      fprintf (f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
               "<text%s x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, STRIP_TOP, x, AXIS + 4,
               ticks > 5 && k % 2 ? " class=\"minor\"" : "", x, AXIS + TICK_LABEL);
      web_number (f, t);
      fputs ("</text>\n", f);
    }
  fprintf (f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (LEFT + RIGHT) / 2,
           H - 6);
  if (node)
    {
      fputs ("score of ", f);
      web_text (f, node);
    }
  else
    fputs ("GMPbench score", f);
  fputs (" (higher is faster)</text>\n", f);
}

double
web_strip_quantile (const struct board_entry *e, size_t n, double q)
{
  double pos = (1 - q) * (double) (n - 1);
  size_t i = (size_t) pos;
  double frac = pos - (double) i;
  return i + 1 < n ? e[i].score * (1 - frac) + e[i + 1].score * frac : e[i].score;
}

double
web_strip_value_quantile (const double *v, size_t n, double q)
{
  double pos = (1 - q) * (double) (n - 1);
  size_t i = (size_t) pos;
  double frac = pos - (double) i;
  return i + 1 < n ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

/* A result's score and source, sorted by source, then best first. */
struct sourced
{
  uint64_t source;
  double score;
};

static int
by_source (const void *pa, const void *pb)
{
  const struct sourced *a = pa, *b = pb;
  if (a->source != b->source)
    return a->source < b->source ? -1 : 1;
  return (a->score < b->score) - (a->score > b->score);
}

static int
best_first (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a < b) - (a > b);
}

size_t
web_strip_source_medians (const struct board_entry *e, size_t n, double *medians)
{
  struct sourced *s = gb_xmalloc ((n ? n : 1) * sizeof *s);
  size_t k = 0;

  for (size_t i = 0; i < n; i++)
    s[i] = (struct sourced) { e[i].source, e[i].score };
  qsort (s, n, sizeof *s, by_source);
  for (size_t i = 0, j; i < n; i = j)
    {
      for (j = i; j < n && s[j].source == s[i].source; j++)
        ;
      size_t m = j - i;
      medians[k++] = m % 2 ? s[i + m / 2].score : (s[i + m / 2 - 1].score + s[i + m / 2].score) / 2;
    }
  free (s);
  qsort (medians, k, sizeof *medians, best_first);
  return k;
}

static void
point (FILE *f, const struct board_entry *e, double lo, double hi)
{
  unsigned jitter = (unsigned) ((uint64_t) e->seq * 2654435761u % 1000);
  double y = STRIP_TOP + 8 + (STRIP_BOTTOM - STRIP_TOP - 16) * jitter / 1000.0;
  fprintf (f, "<circle class=\"point%s%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"><title>",
           e->verified ? " verified" : "", e->flagged ? " flagged" : "",
           x_of (e->score, lo, hi), y, e->verified ? 5 : 4);
  web_number (f, e->score);
  fputs (e->verified ? " (verified publisher)" : "", f);
  fputs (e->flagged ? " (flagged)" : "", f);
  fputs (", GMP ", f);
  web_text (f, e->gmp);
  fputs (", ", f);
  web_text (f, e->compiler);
  fputs ("</title></circle>\n", f);
}

void
web_strip_plot (FILE *f, const struct board_entry *e, size_t n, const char *node)
{
  double best = e[0].score, worst = e[n - 1].score;
  double pad = best > worst ? (best - worst) * 0.05 : fabs (best) * 0.1 + 1;
  double lo = worst - pad, hi = best + pad;
  double *medians = gb_xmalloc (n * sizeof *medians);
  size_t sources = web_strip_source_medians (e, n, medians);
  double q1 = web_strip_value_quantile (medians, sources, 0.25);
  double med = web_strip_value_quantile (medians, sources, 0.5);
  double q3 = web_strip_value_quantile (medians, sources, 0.75);
  size_t every = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;

  free (medians);
  fprintf (f, "<p class=\"note\" id=\"dist-caption\">%zu result%s from %zu source%s: each point "
           "one result (green: verified publisher, orange: flagged)%s.  <span id=\"box-by-source\">"
           "The box: the quartiles and median of the sources' medians (each source counted "
           "once); the whisker: every result.</span></p>\n", n, web_plural (n), sources,
           web_plural (sources), every > 1 ? ", a sample shown" : "");
  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart strip\" viewBox=\"0 0 %d "
           "%d\" role=\"img\" aria-labelledby=\"dist-title\"><title id=\"dist-title\">"
           "Distribution of %zu ", W, H, n);
  if (node)
    {
      fputs ("scores of ", f);
      web_text (f, node);
    }
  else
    fputs (n == 1 ? "GMPbench score" : "GMPbench scores", f);
  fputs ("</title>\n", f);
  axis (f, lo, hi, node);
  for (size_t i = 0; i < n; i++)
    if (i % every == 0 || e[i].verified)
      point (f, &e[i], lo, hi);
  fprintf (f, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n"
           "<rect class=\"box\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>The "
           "sources' medians: Q1 %g, median %g, Q3 %g</title></rect>\n"
           "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n</svg>\n",
           x_of (worst, lo, hi), (BOX_TOP + BOX_BOTTOM) / 2, x_of (best, lo, hi),
           (BOX_TOP + BOX_BOTTOM) / 2, x_of (q1, lo, hi), BOX_TOP,
           x_of (q3, lo, hi) - x_of (q1, lo, hi), BOX_BOTTOM - BOX_TOP, q1, med, q3,
           x_of (med, lo, hi), BOX_TOP - 4, x_of (med, lo, hi), BOX_BOTTOM + 4);
}
