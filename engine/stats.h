/* stats.h: the estimator and stopping rule of the timing harness.
 *
 * Inputs are per-operation times, one per sample.  Noise on a shared or
 * virtual machine only ever slows an operation down (another tenant, a
 * frequency dip, an interrupt), and on the machines we run on it arrives in
 * regimes 20-35% apart that the guest cannot see in its CPU time.  So the
 * estimator looks at the fast end of the distribution, as GMP's
 * tune/speed.c does, keeping the fastest samples that agree with each
 * other, so that one lucky sample cannot move the result:
 *
 *   estimate = the median of the fastest AGREE samples that lie within
 *              TOLERANCE of each other, searched from the fastest sample
 *              up through the fastest quarter; where no such group exists,
 *              the median of the fastest quarter (at least 3 samples, or
 *              all of them when there are fewer); never slower than the
 *              median of all samples (with six samples the agreeing group
 *              can start at the second and sit above the middle);
 *   spread   = the interquartile range of the fastest quarter over the
 *              estimate: how tightly the fast samples agree, blind to the
 *              single fastest and to where the quarter happens to end;
 *   converged when the AGREE fastest samples lie within TOLERANCE of the
 *              fastest one.
 *
 * docs/timing.md explains the choice with measurements.
 */
#ifndef GB_STATS_H
#define GB_STATS_H

#include <stddef.h>
#include "model/order_stats.h"

struct stats_estimate
{
  double time;                  /* estimated seconds per operation */
  double spread;                /* relative, e.g. 0.004 for 0.4% */
  double fastest;               /* fastest sample */
  double median;                /* median of all samples */
  size_t used;                  /* samples the estimate rests on */
  int agreed;                   /* from AGREE samples within TOLERANCE */
};

/* X is left sorted.  AGREE and TOLERANCE as for stats_converged. */
void stats_estimate (double *x, size_t n, size_t agree, double tolerance,
                     struct stats_estimate *e);

/* Whether the AGREE fastest of the sorted samples X lie within TOLERANCE
 * (relative) of the fastest. */
int stats_converged (const double *sorted, size_t n, size_t agree, double tolerance);

#endif
