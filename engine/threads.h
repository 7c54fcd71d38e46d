/* threads.h: all-core throughput, `gmpbench run --threads N`.
 *
 * N copies of a test run at once, like `openssl speed -multi`, each in its
 * own thread with its own operands (stream = thread index + 1) and, where
 * the OS allows, pinned to its own CPU (Linux, FreeBSD, Windows; a copy
 * that could not be pinned sets MEAS_UNPINNED).  The copies advance in
 * rounds: at a barrier every thread starts a sample of its calibrated
 * repetition count, and the round's throughput is the operations of all
 * copies over the time from the first copy's start to the last copy's
 * finish, so copies that did not actually overlap are not counted as
 * concurrent.  Rounds are repeated and the estimate taken exactly as
 * harness.h does for one thread (the fast end of the rounds, stopping
 * when they agree or the budget is spent), so single- and multi-threaded
 * figures mean the same thing.  The rounds are timed by cfg->clock, which
 * every copy's thread calls, each reading bracketed by the CPU's counter
 * (counter.h); a measurement's counter span is the sum of its copies'.
 *
 * The scaling efficiency is the aggregate over N times the throughput of
 * one copy measured the same way on its own: 1 is perfect scaling.  Every
 * copy's result is checked; the digest covers all of them in thread order.
 */
#ifndef GB_THREADS_H
#define GB_THREADS_H

#include <signal.h>
#include "engine/harness.h"
#include "engine/runner.h"

/* The CPUs this process may run on: what --threads all means. */
unsigned threads_usable_cpus (void);

/* Measures T, run by OPS, with NTHREADS concurrent copies into AGG
 * (aggregate ops/s) and the scaling efficiency against one copy into
 * *EFFICIENCY.  Returns
 * a runner_status, as runner_run_test does: a skip is RUNNER_OK with
 * AGG->outcome BENCH_SKIPPED. */
int threads_measure (const struct bench_test *t, const struct bench_ops *ops,
                     const struct harness_config *cfg, unsigned nthreads,
                     struct test_result *agg, double *efficiency,
                     volatile sig_atomic_t *stop);

#endif
