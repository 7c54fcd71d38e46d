/* progress.h: what `gmpbench run` says on stderr while tests run.
 *
 * Two independent displays: a progress bar (the tests being prepared, then
 * the test running and an estimate of the time left) redrawn in place,
 * only on a terminal that can erase a line (not TERM=dumb); and one plain
 * line per finished test (name, ops/s, spread, samples; no escape codes),
 * which is what a log file, a pipe or a dumb terminal gets, and --verbose
 * adds under the bar.  Standard output never carries progress, so the
 * report can be redirected while the bar is watched. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stddef.h>
#include "engine/runner.h"

struct progress
{
  int bar;                      /* draw the bar (stderr is a terminal) */
  int verbose;                  /* a line per finished test */
  size_t total;
  int width;                    /* terminal columns */
  double later;                 /* seconds of phases after the runner's, added
                                   to the time left it reports */
  const char *label;            /* before the test's name in a finished line, or
                                   NULL ("gmp 2: " for gmpbench run --gmp) */
};

/* BAR: stderr is a terminal (the bar falls back to plain lines when it is
 * a dumb one); VERBOSE: a plain line per finished test; TOTAL: how many
 * tests will finish. */
void progress_init (struct progress *p, int bar, int verbose, size_t total);
/* The I-th of N tests (from 1), NAME, is being set up. */
void progress_preparing (struct progress *p, size_t i, size_t n, const char *name);
/* DONE tests have finished; NAME is being measured, and about SECONDS_LEFT
 * remain. */
void progress_show (struct progress *p, size_t done, const char *name, double seconds_left);
/* R has finished, the DONE-th test to do so (from 1): measured, skipped or
 * failed. */
void progress_done (struct progress *p, size_t done, const struct test_result *r);
/* Erase the bar. */
void progress_clear (struct progress *p);
/* The callbacks that show runner_run_tests's progress on P. */
struct runner_progress progress_hooks (struct progress *p);

#endif
