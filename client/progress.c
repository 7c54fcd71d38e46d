/* progress.c: a one-line progress display on a terminal (see progress.h). */
#include "client/progress.h"

#include <stdio.h>
#include "common/util.h"

void
progress_init (struct progress *p, int enabled, size_t total, double budget)
{
  p->enabled = enabled;
  p->total = total;
  p->started = gb_wall_seconds ();
  p->budget = budget;
}

void
progress_show (struct progress *p, size_t i, const char *name)
{
  if (!p->enabled)
    return;
  double elapsed = gb_wall_seconds () - p->started;
  double per_test = i > 0 ? elapsed / i : p->budget;
  double left = per_test * (p->total - i);
  fprintf (stderr, "\r\033[K[%zu/%zu] %s  (about %d:%02d left)", i + 1, p->total,
           name, (int) left / 60, (int) left % 60);
  fflush (stderr);
}

void
progress_clear (struct progress *p)
{
  if (p->enabled)
    {
      fputs ("\r\033[K", stderr);
      fflush (stderr);
    }
}
