/* pairs.h: the ratio of two libgmp builds measured side by side (gmpbench
 * run --gmp, gmp_side.h), from their paired visits.
 *
 * The builds take turns every few samples (a visit), so the I-th visit of
 * a test in one build and the I-th in the other were made moments apart,
 * on the same stretch of a noisy machine.  Each pair gives a ratio: the
 * second build's operations per CPU second over the first's, in those two
 * visits.  A test's ratio is the median of its pairs' ratios, which a slow
 * stretch that hits one visit of a pair cannot move; its spread is two
 * standard errors of that median (a relative half-width of about 95%):
 * 1.2533 times the standard deviation of the pairs' log ratios, estimated
 * as their interquartile range over 1.349, over the square root of the
 * number of pairs, doubled.  With fewer than PAIRS_FOR_IQR pairs the
 * spread is the largest distance of a pair's log ratio from the median
 * instead.
 *
 * A node's ratio is the geometric mean of its tests' ratios, as gmpbench
 * compare has it; its spread the root of the sum of its tests' squared
 * spreads over their number (the tests' errors taken as independent).
 *
 * These ratios are a figure of their own: each build's result keeps its
 * scores' estimator (docs/scoring.md), and the ratio of two builds' scores
 * can differ from the paired one by the noise that pairing removes. */
#ifndef GB_PAIRS_H
#define GB_PAIRS_H

#include <stddef.h>

#define PAIRS_FOR_IQR 4

/* The visits of one test in one build, in the order they were made: the
 * seconds of CPU time per operation of each visit's samples, 0 for a
 * visit that took none. */
struct pair_visits
{
  double *per_op;
  size_t n, cap;
};

/* A test's ratio of one build to the first; ratio NAN without pairs. */
struct pair_ratio
{
  const char *test;
  double ratio, spread;
  size_t pairs;
};

void pair_visits_add (struct pair_visits *s, double per_op);
void pair_visits_free (struct pair_visits *s);

/* The ratio of B's speed to A's, for the test named TEST, from the pairs
 * of their visits (as many as the shorter series has; a pair with a
 * visit that took no sample left out). */
struct pair_ratio pairs_ratio (const char *test, const struct pair_visits *a,
                               const struct pair_visits *b);

/* The spread of the geometric mean of N ratios with SPREADS. */
double pairs_node_spread (const double *spreads, size_t n);

#endif
