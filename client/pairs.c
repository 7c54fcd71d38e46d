/* pairs.c: ratios of two builds from their paired visits (pairs.h). */
#include "client/pairs.h"

#include <math.h>
#include <stdlib.h>
#include "common/util.h"
#include "model/order_stats.h"

/* Standard deviation over interquartile range of a normal distribution,
 * and the standard error of a median over that of a mean. */
#define IQR_PER_SIGMA 1.349
#define MEDIAN_EFFICIENCY 1.2533

void
pair_visits_add (struct pair_visits *s, double per_op)
{
  if (s->n == s->cap)
    {
      s->cap = s->cap ? 2 * s->cap : 64;
      s->per_op = gb_xrealloc (s->per_op, s->cap * sizeof *s->per_op);
    }
  s->per_op[s->n++] = per_op;
}

void
pair_visits_free (struct pair_visits *s)
{
  free (s->per_op);
  s->per_op = NULL;
  s->n = s->cap = 0;
}

struct pair_ratio
pairs_ratio (const char *test, const struct pair_visits *a, const struct pair_visits *b)
{
  struct pair_ratio r = { test, NAN, NAN, 0 };
  size_t n = a->n < b->n ? a->n : b->n;
  double *logs = gb_xmalloc ((n ? n : 1) * sizeof *logs);
  for (size_t i = 0; i < n; i++)
    if (a->per_op[i] > 0 && b->per_op[i] > 0)
      logs[r.pairs++] = log (a->per_op[i] / b->per_op[i]);
  if (r.pairs > 0)
    {
      stats_sort (logs, r.pairs);
      double median = stats_median_sorted (logs, r.pairs);
      r.ratio = exp (median);
      if (r.pairs >= PAIRS_FOR_IQR)
        r.spread = 2 * MEDIAN_EFFICIENCY / IQR_PER_SIGMA
          * (stats_quantile_sorted (logs, r.pairs, 0.75)
             - stats_quantile_sorted (logs, r.pairs, 0.25)) / sqrt ((double) r.pairs);
      else
        r.spread = fmax (median - logs[0], logs[r.pairs - 1] - median);
    }
  free (logs);
  return r;
}

double
pairs_node_spread (const double *spreads, size_t n)
{
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += spreads[i] * spreads[i];
  return n ? sqrt (sum) / (double) n : NAN;
}
