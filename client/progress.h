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
  double started;
  double budget;                /* seconds per test, for the first estimate */
  int width;                    /* terminal columns */
};

void progress_init (struct progress *p, int bar, int verbose, size_t total, double budget);
/* Test I (from 0) named NAME is starting. */
void progress_show (struct progress *p, size_t i, const char *name);
/* Test I has finished with R (measured, skipped or failed). */
void progress_done (struct progress *p, size_t i, const struct test_result *r);
/* Erase the bar. */
void progress_clear (struct progress *p);

#endif
