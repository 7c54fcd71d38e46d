/* harness-overhead.c: what does the harness cost on the smallest test?
 *
 * Measures gmpbench.base.multiply.128 through the harness, and the same
 * mpz_mul in a bare hand-written loop timed the plainest way (the fastest
 * of many equal batches), alternately, ROUNDS times in one run, and prints
 * the median ratio harness/bare of their ops/s.  Target: within 3% of 1.
 * Build and run: make bench/harness-overhead && bench/harness-overhead */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "suites/harness.h"
#include "suites/operand.h"
#include "suites/stats.h"
#include "suites/suites.h"

#define ROUNDS 7
#define BATCHES 200

static double
bare_loop_ops (unsigned long reps)
{
  mpz_t x, y, z;
  struct gb_rng r;
  double best = 1e30;
  mpz_inits (x, y, z, NULL);
  gb_rng_init (&r, "gmpbench.base.multiply.128,128", 0);
  gb_rng_mpz (x, &r, 128);
  gb_rng_mpz (y, &r, 128);
  for (int b = 0; b < BATCHES; b++)
    {
      double t0 = gb_wall_seconds ();
      for (unsigned long i = 0; i < reps; i++)
        mpz_mul (z, x, y);
      double t = gb_wall_seconds () - t0;
      if (t < best)
        best = t;
    }
  mpz_clears (x, y, z, NULL);
  return reps / best;
}

int
main (void)
{
  const struct bench_test *t = registry_find ("gmpbench.base.multiply.128,128");
  struct harness_config cfg;
  volatile sig_atomic_t never = 0;
  double ratio[ROUNDS];
  harness_default_config (&cfg, 2.0);
  for (int i = 0; i < ROUNDS; i++)
    {
      struct bench_error err;
      struct measurement m;
      void *state = t->ops->setup (t, 0, &err);
      harness_measure (&cfg, t->ops, state, &m, &never);
      t->ops->teardown (state);
      double bare = bare_loop_ops (m.reps_per_sample);
      ratio[i] = m.ops_per_sec / bare;
      printf ("round %d: harness %.4g ops/s (spread %.2f%%), bare loop %.4g ops/s, ratio %.4f\n",
              i + 1, m.ops_per_sec, 100 * m.spread, bare, ratio[i]);
    }
  stats_sort (ratio, ROUNDS);
  printf ("median ratio harness/bare: %.4f (target: within 3%% of 1)\n",
          stats_median_sorted (ratio, ROUNDS));
  return 0;
}
