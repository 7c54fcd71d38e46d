/* runner.h: running tests from setup to digest.
 *
 *   setup -> measure (harness), with rounds on fresh operands (fresh.h)
 *   -> check -> digest -> verify every repetition (verify.h) -> judge the
 *   samples against the fresh rounds -> teardown
 *
 * runner_run_tests measures many tests interleaved: all are set up and
 * calibrated, then visited in turn, a short burst of samples each
 * (harness_visit), until every one is done; each is checked and torn down
 * as soon as it is done.
 * On a shared machine, where slow periods last seconds, this spreads every
 * test's samples over the whole run, so that each sees the machine's fast
 * periods and the slow ones hit all tests alike instead of a few tests
 * wholly (docs/timing.md has the measurements).
 *
 * A check that fails makes the result BENCH_FAILED: the caller must stop
 * and report it, never score it.  So does, in runner_run_tests (the
 * single-threaded run, operand stream 0), a digest other than the test's
 * reference digest (model/reference.h), and in runner_run_tests and the
 * batches a test whose samples ran faster than its rounds on fresh
 * operands allow (fresh.h). */
#ifndef GB_RUNNER_H
#define GB_RUNNER_H

#include <signal.h>
#include "engine/bench.h"
#include "engine/harness.h"

struct test_result
{
  const struct bench_test *test;
  enum bench_outcome outcome;
  char message[256];            /* why it was skipped or failed */
  int stale;                    /* failed: its outputs were stale or cached
                                   (fresh.h), not wrong */
  struct measurement m;
  char digest[65];              /* SHA-256 of the outputs, hex */
};

enum runner_status
{
  RUNNER_OK = 0,                /* measured, or skipped (see outcome) */
  RUNNER_FAILED = -1,           /* wrong result or setup failure */
  RUNNER_INTERRUPTED = -2
};

/* Runs T with its program OPS (suites/programs.h finds it).  With CFG NULL
 * the test is run once, unmeasured, for its digest. */
enum runner_status runner_run_test (const struct bench_test *t, const struct bench_ops *ops,
                                    const struct harness_config *cfg,
                                    unsigned stream, struct test_result *r,
                                    volatile sig_atomic_t *stop);

/* What runner_run_tests reports as it goes; any callback may be NULL.
 * PREPARING: the I-th of N tests (from 1) is being set up and calibrated,
 * which all are before the first sample is taken.  VISIT: DONE tests have
 * finished, NAME is being measured and about SECONDS_LEFT remain (the
 * budget and sample lengths of the tests left, as harness.c will spend
 * them, scaled by the overhead measured so far).  FINISHED: R is done, the
 * DONE-th to be (skipped tests are, as soon as their setup says so). */
struct runner_progress
{
  void (*visit) (void *ctx, size_t done, const char *name, double seconds_left);
  void (*finished) (void *ctx, size_t done, const struct test_result *r);
  void *ctx;
  void (*preparing) (void *ctx, size_t i, size_t n, const char *name);
};

/* Measures TESTS[0..N), run by the programs OPS[0..N), with CFG,
 * interleaved, into R[0..N).  On
 * RUNNER_FAILED, *FAILED is the index of the test that failed and the
 * other results are incomplete.  *STOP becoming non-zero, while tests are
 * prepared or measured, ends it with RUNNER_INTERRUPTED. */
enum runner_status runner_run_tests (const struct bench_test *const *tests,
                                     const struct bench_ops *const *ops, size_t n,
                                     const struct harness_config *cfg,
                                     struct test_result *r, size_t *failed,
                                     volatile sig_atomic_t *stop,
                                     const struct runner_progress *progress);

/* The same, one visit at a time, at the caller's pace: a batch of tests
 * set up and calibrated by runner_batch_start (which returns what
 * runner_run_tests would on a failed setup or an interrupt, the batch then
 * empty), each visited when the caller says (runner_batch_visit: *FINISHED
 * set once the test I, an index into the caller's arrays, is done, checked
 * and torn down, or was not active; *VISIT, unless NULL, what the visit
 * measured), so that a caller can interleave the tests of several
 * batches, or of several processes (client/gmp_side.c), and pair their
 * visits.
 * A visit that fails or is interrupted abandons the whole batch, as
 * runner_run_tests does.  runner_batch_abandon tears down what is left. */
struct runner_active;
struct runner_visit
{
  unsigned samples;             /* taken in the visit; 0 when none was */
  double ops;                   /* operations timed in them */
  double wall, cpu;             /* their seconds: wall clock, thread CPU time */
};
struct runner_batch
{
  const struct bench_test *const *tests;
  const struct harness_config *cfg;
  struct test_result *r;
  const struct runner_progress *progress;
  struct runner_active *a;
  size_t nactive, done;
  double started, timed;        /* the clock at the start; seconds timed */
};

enum runner_status runner_batch_start (struct runner_batch *b,
                                       const struct bench_test *const *tests,
                                       const struct bench_ops *const *ops, size_t n,
                                       const struct harness_config *cfg,
                                       struct test_result *r, size_t *failed,
                                       volatile sig_atomic_t *stop,
                                       const struct runner_progress *progress);
enum runner_status runner_batch_visit (struct runner_batch *b, size_t i, int *finished,
                                       struct runner_visit *visit, size_t *failed,
                                       volatile sig_atomic_t *stop);
/* Finishes the test I of B now, with the samples it has, as a visit that
 * ends it would (checked, torn down); nothing if it is not active. */
enum runner_status runner_batch_end (struct runner_batch *b, size_t i, size_t *failed,
                                     volatile sig_atomic_t *stop);
/* Whether the test I of B is still being measured. */
int runner_batch_active (const struct runner_batch *b, size_t i);
void runner_batch_abandon (struct runner_batch *b);

#endif
