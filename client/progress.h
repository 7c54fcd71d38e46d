/* progress.h: the progress line on stderr while tests run, with an estimate
 * of the time left.  Shown only when stderr is a terminal. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stddef.h>

struct progress
{
  int enabled;
  size_t total;
  double started;
  double budget;                /* seconds per test, for the first estimate */
};

void progress_init (struct progress *p, int enabled, size_t total, double budget);
/* Test I (from 0) named NAME is starting. */
void progress_show (struct progress *p, size_t i, const char *name);
/* Erase the line. */
void progress_clear (struct progress *p);

#endif
