/* web_strip.h: the distribution of scores as an inline SVG strip plot
 * (one point per result, verified publishers' in green, flagged ones in
 * orange) over a box plot (web_strip.c); the CPU page draws its GMPbench
 * scores with it, a node's page that node's. */
#ifndef GB_SERVER_WEB_STRIP_H
#define GB_SERVER_WEB_STRIP_H

#include <stddef.h>
#include <stdio.h>
#include "server/board/board.h"

/* The strip plot and box plot of the N entries E, best first, every one
 * with a score (N > 0); NODE names what was scored, NULL for the GMPbench
 * score.  At most 400 points are drawn (evenly through the ranking,
 * every verified one included). */
void web_strip_plot (FILE *f, const struct board_entry *e, size_t n, const char *node);

/* The Q-quantile of the N entries E (best first), by linear interpolation. */
double web_strip_quantile (const struct board_entry *e, size_t n, double q);

#endif
