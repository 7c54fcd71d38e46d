/* stats.c: the harness's estimator and stopping rule (see stats.h for
 * the design). */
#include "engine/stats.h"


void
stats_estimate (double *x, size_t n, size_t agree, double tolerance,
                struct stats_estimate *e)
{
  stats_sort (x, n);
  size_t k = (n + 3) / 4;
  if (k < 3)
    k = n < 3 ? n : 3;
  e->median = stats_median_sorted (x, n);
  e->fastest = n ? x[0] : 0;
  e->time = stats_median_sorted (x, k);
  e->used = k;
  e->agreed = 0;
  for (size_t i = 0; agree > 0 && i < k && i + agree <= n; i++)
    if (x[i + agree - 1] <= x[i] * (1 + tolerance))
      {
        e->time = stats_median_sorted (x + i, agree);
        e->used = agree;
        e->agreed = 1;
        break;
      }
  if (e->time > e->median)      /* few samples: the group sat above the middle */
    e->time = e->median;
  e->spread = k && e->time > 0
    ? (stats_quantile_sorted (x, k, 0.75) - stats_quantile_sorted (x, k, 0.25)) / e->time : 0;
}

int
stats_converged (const double *sorted, size_t n, size_t agree, double tolerance)
{
  if (n < agree || agree == 0)
    return 0;
  return sorted[agree - 1] <= sorted[0] * (1 + tolerance);
}
