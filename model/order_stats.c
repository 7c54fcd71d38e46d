/* order_stats.c: sorting, medians, quantiles and geometric means (see
 * order_stats.h). */
#include "model/order_stats.h"

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
