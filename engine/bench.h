/* bench.h: what a benchmark test is.
 *
 * A test is a row of the registry (model/registry.h: its dotted name, its
 * program, its parameters, flags); its program is a table of four
 * functions (suites/programs.h finds it).  The harness calls them in this
 * order:
 *
 *   setup     builds operands and result storage: everything that is not
 *             the measured operation (allocation, random operands, keys);
 *   run       performs the measured operation REPS times: this and only
 *             this is inside the timed region (REPS 0 does nothing, and
 *             times what a call costs: engine/fresh.h);
 *   check     verifies the last result by an independent route and feeds
 *             the outputs into a SHA-256 digest, outside the timed region;
 *   teardown  frees what setup made.
 *
 * A test that cannot run here (hardware or library absent) says so from
 * setup with bench_skip(); a wrong answer is reported with bench_fail()
 * from check and fails the whole run.
 */
#ifndef GB_BENCH_H
#define GB_BENCH_H

#include <stddef.h>
#include "common/util.h"
#include "model/registry.h"

enum bench_outcome
{
  BENCH_OK = 0,
  BENCH_SKIPPED,
  BENCH_FAILED
};

struct bench_error
{
  enum bench_outcome outcome;
  char message[256];
};

void bench_fail (struct bench_error *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
void bench_skip (struct bench_error *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

struct bench_test;

struct bench_ops
{
  /* STREAM selects an independent operand stream (0 for the headline,
   * single-threaded run; thread i of a multi-threaded run uses i). */
  void *(*setup) (const struct bench_test *t, unsigned stream,
                  struct bench_error *err);
  void (*run) (void *state, unsigned long reps);
  int (*check) (void *state, struct gb_sha256 *digest, struct bench_error *err);
  void (*teardown) (void *state);
};

#endif
