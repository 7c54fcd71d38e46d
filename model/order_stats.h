/* order_stats.h: order statistics and means of plain arrays of doubles,
 * shared by the client's timing harness (engine/stats.h) and the server's
 * plausibility checks and statistics pages. */
#ifndef GB_ORDER_STATS_H
#define GB_ORDER_STATS_H

#include <stddef.h>

void stats_sort (double *x, size_t n);
double stats_median_sorted (const double *x, size_t n);
/* The Q-quantile (0..1) of sorted X, interpolated between neighbours. */
double stats_quantile_sorted (const double *x, size_t n, double q);

/* Weighted geometric mean of N positive values; 0 if any value is not
 * positive or the weights sum to zero. */
double stats_weighted_geomean (const double *values, const double *weights, size_t n);

#endif
