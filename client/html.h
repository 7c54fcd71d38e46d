/* html.h: the parts of the HTML report (output_html.c) that draw charts
 * from a result document (html_charts.c), and the page's opening that
 * the comparison's page (compare_html.c) shares. */
#ifndef GB_HTML_H
#define GB_HTML_H

#include <stdio.h>
#include "client/report.h"

/* The page up to its header's subtitle (R's CPU, date, client, mode and
 * budget), with the style sheet; TITLE is plain text, not escaped. */
void html_page_open (FILE *f, const char *title, const struct report *r);

/* Line charts of ops/s against operand size, one per operation and operand
 * shape, one series per library; nothing when no operation has two sizes. */
void html_size_charts (FILE *f, const struct report *r);

/* Bars of the GMP-over-library ratios, one chart per operation. */
void html_ratio_charts (FILE *f, const cJSON *comparisons);

/* Bars of the MiB/s of each random generator of ROW. */
void html_rng_chart (FILE *f, const cJSON *row);

#endif
