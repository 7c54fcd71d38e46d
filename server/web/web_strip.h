/* web_strip.h: the distribution of scores as an inline SVG strip plot
 * (one point per result, verified publishers' in green, flagged ones in
 * orange) over a box plot of the sources' medians, each source counted
 * once (web_strip.c); the CPU page draws its GMPbench scores with it, a
 * node's page that node's. */
#ifndef GB_SERVER_WEB_STRIP_H
#define GB_SERVER_WEB_STRIP_H

#include <stddef.h>
#include <stdio.h>
#include "server/board/board.h"

/* The strip plot of the N entries E, best first, every one with a score
 * (N > 0), over the box plot of their sources' medians; NODE names what
 * was scored, NULL for the GMPbench score.  At most 400 points are drawn
 * (evenly through the ranking, every verified one included). */
void web_strip_plot (FILE *f, const struct board_entry *e, size_t n, const char *node);

/* The Q-quantile of the N entries E (best first), by linear interpolation. */
double web_strip_quantile (const struct board_entry *e, size_t n, double q);
/* The same of the N values V, best first. */
double web_strip_value_quantile (const double *v, size_t n, double q);

/* The median score of each source of the N entries E (their `source`),
 * best first, into MEDIANS (room for N); how many sources. */
size_t web_strip_source_medians (const struct board_entry *e, size_t n, double *medians);

#endif
