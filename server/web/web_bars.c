/* web_bars.c: the bar charts of web_bars.h.
 *
 * A chart is 400 units wide, so at a phone's width its 14-unit text
 * shows at about 12.5 px; the stylesheet caps its width on wide screens
 * (svg.bars), where the text then grows to about 18 px.  Each row is a
 * label line and a bar under it, so long CPU names need no left margin.
 * Every bar has a <title> with its exact values and whole label (a label
 * longer than the width is cut with an ellipsis).  No script, no inline
 * style: the classes come from /style.css. */
#include "server/web/web_bars.h"

#include <math.h>
#include <string.h>
#include "server/web/web_page.h"

#define WIDTH 400
#define LEFT 14
#define RIGHT 370
#define ROW 34
#define TOP 30
#define BAR_TOP 16
#define BAR_H 12
#define MAX_LABEL 46              /* bytes of a label that fit the width */

#define LEGEND 18                 /* a legend line's height */
#define CHECKED "\u2713"          /* the mark of a verified publisher's bar */

static void
begin (FILE *f, const char *title, size_t n, int legends)
{
  int height = TOP + ROW * (int) n + 40 + LEGEND * legends;
  fprintf (f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars\" viewBox=\"0 0 %d "
           "%d\" role=\"img\"><title>", WIDTH, height);
  web_text (f, title);
  fputs ("</title>\n<text class=\"title\" x=\"4\" y=\"16\">", f);
  web_text (f, title);
  fputs ("</text>\n", f);
}

static void
label (FILE *f, const struct web_bar *b, double y)
{
  if (b->href)
    fprintf (f, "<a href=\"%s\">", b->href);
  fprintf (f, "<text x=\"4\" y=\"%.1f\">", y + 12);
  if (strlen (b->label) > MAX_LABEL)
    {
      char cut[MAX_LABEL + 1];
      size_t len = MAX_LABEL - 1;
      while (len > 0 && ((unsigned char) b->label[len] & 0xc0) == 0x80)
        len--;                  /* not inside a UTF-8 sequence */
      memcpy (cut, b->label, len);
      cut[len] = '\0';
      web_text (f, cut);
      fputs ("\u2026", f);
    }
  else
    web_text (f, b->label);
  fputs ("</text>", f);
  fputs (b->href ? "</a>\n" : "\n", f);
}

static void
tick (FILE *f, double x, double bottom, double v, const char *suffix)
{
  fprintf (f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\"/>"
           "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, TOP, x, bottom + 4, x,
           bottom + 17);
  web_number (f, v);
  fputs (suffix, f);
  fputs ("</text>\n", f);
}

static void
axis_label (FILE *f, double bottom, const char *text)
{
  fprintf (f, "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">", WIDTH / 2,
           bottom + 34);
  web_text (f, text);
  fputs ("</text>\n", f);
}

static double
step_for (double span)
{
  double step = pow (10, floor (log10 (span / 4)));
  return span / step > 20 ? 5 * step : span / step > 8 ? 2 * step : step;
}

/* Bar B of a linear chart whose axis ends at TOP, its row at Y: its
 * label, and unless its value is unknown the bar, its interquartile
 * range, its tooltip and the mark of verified publishers. */
static void
linear_bar (FILE *f, const struct web_bar *b, double y, double top)
{
  label (f, b, y);
  if (!isfinite (b->value))
    return;
  fprintf (f, "<g class=\"bar%s\"><rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>",
           b->marked ? " marked" : "", LEFT, y + BAR_TOP, (RIGHT - LEFT) * b->value / top, BAR_H);
  if (isfinite (b->lo) && isfinite (b->hi))
    fprintf (f, "<line class=\"range\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
             LEFT + (RIGHT - LEFT) * b->lo / top, y + BAR_TOP + BAR_H / 2.0,
             LEFT + (RIGHT - LEFT) * b->hi / top, y + BAR_TOP + BAR_H / 2.0);
  fputs ("<title>", f);
  web_text (f, b->label);
  fputs (": ", f);
  web_number (f, b->value);
  if (isfinite (b->lo) && isfinite (b->hi))
    {
      fputs (" (IQR ", f);
      web_number (f, b->lo);
      fputs ("\u2013", f);
      web_number (f, b->hi);
      fputc (')', f);
    }
  fputs (b->verified ? ", of verified publishers</title></g>" : "</title></g>", f);
  if (b->verified)
    fprintf (f, "<text class=\"checked\" x=\"%d\" y=\"%.1f\">" CHECKED "</text>", RIGHT + 8,
             y + BAR_TOP + BAR_H - 1);
  fputc ('\n', f);
}

void
web_bars_linear (FILE *f, const char *title, const char *axis_label_text,
                 const char *mark_legend, const struct web_bar *bars, size_t n)
{
  double hi = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (isfinite (bars[i].value) && bars[i].value > hi)
        hi = bars[i].value;
      if (isfinite (bars[i].hi) && bars[i].hi > hi)
        hi = bars[i].hi;
    }
  double step = step_for (hi > 0 ? hi : 1);
  double top = ceil ((hi > 0 ? hi : 1) / step) * step;
  double bottom = TOP + ROW * (double) n, legend = bottom + 42;
  int checked = 0;
  for (size_t i = 0; i < n; i++)
    checked |= bars[i].verified;

  begin (f, title, n, (mark_legend != NULL) + checked);
  for (double t = 0; t <= top + step / 2; t += step)
    tick (f, LEFT + (RIGHT - LEFT) * t / top, bottom, t, "");
  for (size_t i = 0; i < n; i++)
    linear_bar (f, &bars[i], TOP + ROW * (double) i, top);
  axis_label (f, bottom, axis_label_text);
  if (mark_legend)
    {
      fprintf (f, "<g class=\"bar marked\"><rect x=\"%d\" y=\"%.1f\" width=\"14\" "
               "height=\"10\"/></g><text x=\"%d\" y=\"%.1f\">", LEFT, legend, LEFT + 20,
               legend + 9);
      web_text (f, mark_legend);
      fputs ("</text>\n", f);
      legend += LEGEND;
    }
  if (checked)
    fprintf (f, "<text class=\"checked\" x=\"%d\" y=\"%.1f\">" CHECKED "</text><text x=\"%d\" "
             "y=\"%.1f\">some results from verified publishers</text>\n", LEFT, legend + 10,
             LEFT + 20, legend + 10);
  fputs ("</svg>\n", f);
}

void
web_bars_ratio (FILE *f, const char *title, const char *axis_label_text,
                const struct web_bar *bars, size_t n)
{
  double span = log (1.25);     /* at least 0.8 to 1.25 */
  for (size_t i = 0; i < n; i++)
    if (isfinite (bars[i].value) && bars[i].value > 0 && fabs (log (bars[i].value)) > span)
      span = fabs (log (bars[i].value));
  span *= 1.1;
  double mid = (LEFT + RIGHT) / 2.0, half = (RIGHT - LEFT) / 2.0;
  double bottom = TOP + ROW * (double) n;

  begin (f, title, n, 0);
  double t = span > log (2) ? 2 : 1.25;
  tick (f, mid - half * log (t) / span, bottom, 1 / t, "");
  tick (f, mid, bottom, 1, "");
  tick (f, mid + half * log (t) / span, bottom, t, "");
  for (size_t i = 0; i < n; i++)
    {
      const struct web_bar *b = &bars[i];
      double y = TOP + ROW * (double) i;
      label (f, b, y);
      if (!isfinite (b->value) || b->value <= 0)
        continue;
      double x = mid + half * log (b->value) / span;
      fprintf (f, "<g class=\"bar%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
               "height=\"%d\"/><title>", b->value < 1 ? " marked" : "", x < mid ? x : mid,
               y + BAR_TOP, fabs (x - mid), BAR_H);
      web_text (f, b->label);
      fputs (": ", f);
      web_number (f, b->value);
      fputs ("</title></g>\n", f);
    }
  fprintf (f, "<line class=\"frame\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\"/>\n", mid,
           TOP, mid, bottom);
  axis_label (f, bottom, axis_label_text);
  fputs ("</svg>\n", f);
}
