/* runner.h: running one test from setup to digest.
 *
 *   setup -> measure (harness) -> check -> digest -> teardown
 *
 * A check that fails makes the result BENCH_FAILED: the caller must stop
 * and report it, never score it. */
#ifndef GB_RUNNER_H
#define GB_RUNNER_H

#include <signal.h>
#include "suites/bench.h"
#include "suites/harness.h"

struct test_result
{
  const struct bench_test *test;
  enum bench_outcome outcome;
  char message[256];            /* why it was skipped or failed */
  struct measurement m;
  char digest[65];              /* SHA-256 of the outputs, hex */
};

enum runner_status
{
  RUNNER_OK = 0,                /* measured, or skipped (see outcome) */
  RUNNER_FAILED = -1,           /* wrong result or setup failure */
  RUNNER_INTERRUPTED = -2
};

/* With CFG NULL the test is run once, unmeasured, for its digest. */
enum runner_status runner_run_test (const struct bench_test *t,
                                    const struct harness_config *cfg,
                                    unsigned stream, struct test_result *r,
                                    volatile sig_atomic_t *stop);

#endif
