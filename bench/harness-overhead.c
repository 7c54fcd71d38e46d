/* harness-overhead.c: what does the harness cost on the smallest test?
 *
 * Measures gmpbench.base.multiply.128 through the harness, in its visits
 * as a run takes them, and between the visits the same mpz_mul in a bare
 * hand-written loop timed the plainest way (the fastest of equal batches),
 * so that both see the same stretches of the host: this machine has slow
 * stretches of seconds (docs/timing.md), and a harness measurement and a
 * bare loop timed one after the other could land in different ones.
 * ROUNDS times in one run; prints the median ratio harness/bare of their
 * ops/s.  Target: within 3% of 1.
 * Build and run: make bench/harness-overhead && bench/harness-overhead */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>
#include "engine/harness.h"
#include "engine/operand.h"
#include "engine/stats.h"
#include "model/registry.h"
#include "suites/programs.h"

#define ROUNDS 7
#define BATCHES_PER_VISIT 20

/* The bare loop's operands and its fastest batch so far. */
struct bare
{
  mpz_t x, y, z;
  double best;
};

static void
bare_init (struct bare *b)
{
  struct gb_rng r;
  mpz_inits (b->x, b->y, b->z, NULL);
  gb_rng_init (&r, "gmpbench.base.multiply.128,128", 0);
  gb_rng_mpz (b->x, &r, 128);
  gb_rng_mpz (b->y, &r, 128);
  b->best = 1e30;
}

/* BATCHES_PER_VISIT batches of REPS products. */
static void
bare_batches (struct bare *b, unsigned long reps)
{
  for (int k = 0; k < BATCHES_PER_VISIT; k++)
    {
      double t0 = gb_wall_seconds ();
      for (unsigned long i = 0; i < reps; i++)
        mpz_mul (b->z, b->x, b->y);
      double t = gb_wall_seconds () - t0;
      if (t < b->best)
        b->best = t;
    }
}

int
main (void)
{
  const struct bench_test *t = registry_find ("gmpbench.base.multiply.128,128");
  const struct bench_ops *ops = program_ops (t);
  struct harness_config cfg;
  volatile sig_atomic_t never = 0;
  double ratio[ROUNDS];
  harness_default_config (&cfg, 2.0);
  for (int i = 0; i < ROUNDS; i++)
    {
      struct bench_error err;
      struct measurement m;
      struct harness_run h;
      struct bare b;
      void *state = ops->setup (t, 0, &err);
      bare_init (&b);
      harness_start (&h, &cfg, ops, state, 0);
      unsigned long reps = h.reps;
      while (harness_visit (&h, &never) == 0)
        bare_batches (&b, reps);
      bare_batches (&b, reps);
      harness_finish (&h, &m);
      ops->teardown (state);
      double bare = reps / b.best;
      mpz_clears (b.x, b.y, b.z, NULL);
      ratio[i] = m.ops_per_sec / bare;
      printf ("round %d: harness %.4g ops/s (spread %.2f%%), bare loop %.4g ops/s, ratio %.4f\n",
              i + 1, m.ops_per_sec, 100 * m.spread, bare, ratio[i]);
    }
  stats_sort (ratio, ROUNDS);
  printf ("median ratio harness/bare: %.4f (target: within 3%% of 1)\n",
          stats_median_sorted (ratio, ROUNDS));
  return 0;
}
