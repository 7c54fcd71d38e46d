/* stats.c: order statistics, the harness's estimator and geometric means
 * (see stats.h for the design). */
#include "suites/stats.h"

#include <math.h>
#include <stdlib.h>

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
stats_sort (double *x, size_t n)
{
  qsort (x, n, sizeof *x, cmp_double);
}

double
stats_median_sorted (const double *x, size_t n)
{
  if (n == 0)
    return 0;
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double
stats_quantile_sorted (const double *x, size_t n, double q)
{
  if (n == 0)
    return 0;
  double pos = q * (n - 1);
  size_t i = (size_t) pos;
  if (i + 1 >= n)
    return x[n - 1];
  return x[i] + (pos - i) * (x[i + 1] - x[i]);
}

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

double
stats_weighted_geomean (const double *values, const double *weights, size_t n)
{
  double acc = 0, wsum = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (!(values[i] > 0))
        return 0;
      acc += weights[i] * log (values[i]);
      wsum += weights[i];
    }
  return wsum > 0 ? exp (acc / wsum) : 0;
}
