/* count-ops.c: exactly REPS repetitions of one test's timed loop, for an
 * instruction counter (bench/fidelity-counts.sh runs it under valgrind's
 * callgrind).
 *
 * The test's program is set up as a run sets it up (its setup, stream 0),
 * its run function is called once with one repetition (the first call's
 * allocations and cold paths, which GMPbench's calibration also takes
 * before its timed loop), then once with REPS repetitions from inside
 * count_ops_counted, the one function whose instructions the counter is
 * told to collect (--toggle-collect=count_ops_counted), and the result is
 * checked as a run checks it (one-test.c): a wrong answer exits 1.  The
 * count a repetition costs is then the collected count over REPS; what the
 * call itself costs (a few instructions) is spread over the REPS.
 *
 * Build and run: make bench/count-ops &&
 *   valgrind --tool=callgrind --collect-atstart=no \
 *     --toggle-collect=count_ops_counted bench/count-ops TEST REPS */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench/one-test.h"
#include "engine/bench.h"
#include "model/registry.h"
#include "suites/programs.h"

/* The counted call: REPS repetitions of the test's run, nothing else. */
__attribute__ ((noinline)) void count_ops_counted (const struct bench_ops *ops, void *state,
                                                   unsigned long reps);

void
count_ops_counted (const struct bench_ops *ops, void *state, unsigned long reps)
{
  ops->run (state, reps);
}

/* REPS from its argument: a positive decimal count, else 0. */
static unsigned long
parse_reps (const char *arg)
{
  char *end;
  errno = 0;
  unsigned long reps = strtoul (arg, &end, 10);
  if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-')
    return 0;
  return reps;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s TEST REPS\n", argv[0]);
      return 2;
    }
  const struct bench_test *t = registry_find (argv[1]);
  if (t == NULL)
    {
      fprintf (stderr, "count-ops: %s: no such test (gmpbench list names them)\n", argv[1]);
      return 2;
    }
  const struct bench_ops *ops = program_ops (t);
  if (ops == NULL)
    {
      fprintf (stderr, "count-ops: %s: this build has no program for it\n", argv[1]);
      return 2;
    }
  unsigned long reps = parse_reps (argv[2]);
  if (reps == 0)
    {
      fprintf (stderr, "count-ops: %s: REPS must be a positive whole number\n", argv[2]);
      return 2;
    }
  void *state = one_test_setup ("count-ops", t, ops);
  if (state == NULL)
    return 1;
  ops->run (state, 1);
  count_ops_counted (ops, state, reps);
  return one_test_check ("count-ops", t, ops, state);
}
