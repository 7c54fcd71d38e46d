/* progress.h: what `gmpbench run` says on stderr while tests run.
 *
 * Two independent displays: a progress bar (with the test running and an
 * estimate of the time left) redrawn in place, only when stderr is a
 * terminal; and with --verbose one plain line per finished test, which is
 * what a log file or a pipe gets.  Standard output never carries progress,
 * so the report can be redirected while the bar is watched. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stddef.h>
#include "suites/runner.h"

struct progress
{
  int bar;                      /* draw the bar (stderr is a terminal) */
  int verbose;                  /* a line per finished test */
  size_t total;
  int width;                    /* terminal columns */
};

void progress_init (struct progress *p, int bar, int verbose, size_t total);
/* DONE tests have finished; NAME is being measured, and about SECONDS_LEFT
 * remain. */
void progress_show (struct progress *p, size_t done, const char *name, double seconds_left);
/* R has finished, the DONE-th test to do so (from 1): measured, skipped or
 * failed. */
void progress_done (struct progress *p, size_t done, const struct test_result *r);
/* Erase the bar. */
void progress_clear (struct progress *p);

#endif
