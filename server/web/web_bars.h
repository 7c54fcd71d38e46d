/* web_bars.h: horizontal bar charts as inline SVG that stay readable on
 * a phone: each bar under its own label line, in a 400-unit-wide view
 * (web_bars.c).  Used by the leaderboard (median and interquartile range
 * per CPU) and the comparisons (ratios per node). */
#ifndef GB_SERVER_WEB_BARS_H
#define GB_SERVER_WEB_BARS_H

#include <stddef.h>
#include <stdio.h>

struct web_bar
{
  const char *label;            /* text, escaped here */
  const char *href;             /* a link for the label (already a safe URL), or NULL */
  double value;                 /* the bar: a median, or a ratio */
  double lo, hi;                /* a range drawn over the bar (Q1-Q3), NAN for none */
  int marked;                   /* drawn in the second colour (flagged...) */
  int verified;                 /* checked after the bar: of verified publishers */
};

/* Bars from 0 on a linear axis (scores).  MARK_LEGEND says what a marked
 * bar means (NULL when none is); a legend says what the check means when
 * a bar has it. */
void web_bars_linear (FILE *f, const char *title, const char *axis_label,
                      const char *mark_legend, const struct web_bar *bars, size_t n);

/* Bars from 1 on a log axis (ratios): right of 1 faster, left slower. */
void web_bars_ratio (FILE *f, const char *title, const char *axis_label,
                     const struct web_bar *bars, size_t n);

#endif
