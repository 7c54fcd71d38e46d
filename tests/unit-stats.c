/* unit-stats.c: the estimator, the stopping rule and geometric means. */
#include <math.h>
#include "engine/stats.h"
#include "tests/check.h"

static int
near (double a, double b)
{
  return fabs (a - b) <= 1e-12 * fabs (b);
}

int
main (void)
{
  double x[] = { 5, 1, 4, 2, 3 };
  stats_sort (x, 5);
  check (x[0] == 1 && x[4] == 5, "stats_sort orders samples");
  check (stats_median_sorted (x, 5) == 3, "median of an odd count");
  check (stats_median_sorted (x, 4) == 2.5, "median of an even count");
  check (near (stats_quantile_sorted (x, 5, 0.25), 2), "first quartile");

  /* Twenty samples: a fast regime at 1.000-1.0045 and a slow one 20%
   * above.  The estimate must come from the fast regime. */
  double two[20];
  for (int i = 0; i < 20; i++)
    two[i] = i % 2 ? 1.2 + 0.001 * i : 1.0 + 0.0005 * i;
  struct stats_estimate e;
  stats_estimate (two, 20, 5, 0.01, &e);
  check (e.agreed && e.used == 5, "five fast samples within 1%% are the estimate's basis");
  check (e.time >= 1.0 && e.time < 1.01, "estimate lies in the fast regime (%.4f)", e.time);
  check (e.spread < 0.01, "spread of the fast regime under 1%% (%.4f)", e.spread);
  check (e.median > 1.1, "median of all samples is reported separately (%.3f)", e.median);

  /* Only a few samples caught the fast regime, but five of them agree:
   * they are the estimate, not the slow regime that fills the quarter. */
  double late[40];
  for (int i = 0; i < 40; i++)
    late[i] = i < 35 ? 1.30 + 0.001 * (i % 9) : 1.0 + 0.001 * (i - 35);
  stats_estimate (late, 40, 5, 0.01, &e);
  check (e.agreed && near (e.time, 1.002), "five agreeing fast samples beat a slow quarter (%.4f)",
         e.time);

  /* Nothing agrees within 1%: the median of the fastest quarter, and the
   * spread is the interquartile range of that quarter. */
  double scattered[8] = { 1.00, 1.04, 1.08, 1.12, 1.16, 1.20, 1.24, 1.28 };
  stats_estimate (scattered, 8, 5, 0.01, &e);
  check (!e.agreed && e.used == 3 && near (e.time, 1.04), "no agreement: median of the fastest 3 (%.3f)",
         e.time);
  check (near (e.spread, (1.06 - 1.02) / 1.04), "spread is the fastest quarter's IQR over the estimate (%.4f)",
         e.spread);

  /* Fewer than 12 samples: at least 3 are used. */
  double few[] = { 2.0, 1.0, 1.5, 3.0 };
  stats_estimate (few, 4, 5, 0.01, &e);
  check (e.used == 3 && e.time == 1.5, "with 4 samples the median of the fastest 3 (%.2f)", e.time);
  /* Six samples whose agreeing five start at the second: their median
   * (1.008) lies above the median of all six (1.0045); the estimate is
   * never slower than the median, which the server requires. */
  double six[] = { 0.90, 1.000, 1.001, 1.008, 1.009, 1.0095 };
  stats_estimate (six, 6, 5, 0.01, &e);
  check (e.time <= e.median, "with six samples the estimate is no slower than the median "
         "(%.4f, median %.4f)", e.time, e.median);
  double one[] = { 7.0 };
  stats_estimate (one, 1, 5, 0.01, &e);
  check (e.used == 1 && e.time == 7.0 && e.spread == 0, "one sample is its own estimate");

  double agree[] = { 1.000, 1.002, 1.004, 1.009, 1.5, 2.0 };
  check (stats_converged (agree, 6, 4, 0.01), "four samples within 1%% converge");
  check (!stats_converged (agree, 6, 5, 0.01), "the fifth at +50%% does not");
  check (!stats_converged (agree, 3, 4, 0.01), "too few samples never converge");

  double v[] = { 4, 16 }, w[] = { 1, 1 }, w2[] = { 1, 0.5 };
  check (near (stats_weighted_geomean (v, w, 2), 8), "geometric mean of 4 and 16 is 8");
  check (near (stats_weighted_geomean (v, w2, 2), pow (4 * 4, 1 / 1.5)),
         "weighted geometric mean: (4^1 * 16^0.5)^(1/1.5)");
  double bad[] = { 4, 0 };
  check (stats_weighted_geomean (bad, w, 2) == 0, "a zero value gives no mean");
  return check_exit_status ();
}
