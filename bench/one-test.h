/* one-test.h: one test's program set up and its result checked as a run
 * does both, for the bench programs that drive a test's timed loop
 * themselves (count-ops.c, timers.c).  Each failure is said on stderr,
 * naming the program PROG and the test. */
#ifndef GB_BENCH_ONE_TEST_H
#define GB_BENCH_ONE_TEST_H

#include "engine/bench.h"

/* T's program OPS set up as a run sets it up (stream 0): its state, or
 * NULL after saying the setup failed. */
void *one_test_setup (const char *prog, const struct bench_test *t,
                      const struct bench_ops *ops);

/* STATE's result checked as a run checks it (into a digest, which is then
 * dropped) and STATE torn down: 0, or 1 after saying the result is
 * wrong. */
int one_test_check (const char *prog, const struct bench_test *t, const struct bench_ops *ops,
                    void *state);

#endif
