/* guard.c: the end of a setup loop that a broken library made endless
 * (see guard.h). */
#include "engine/guard.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *current_test;

void
guard_enter (const char *test_name)
{
  current_test = test_name;
}

void
guard_fail (const char *call, const char *fmt, ...)
{
  char what[300];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (what, sizeof what, fmt, ap);
  va_end (ap);
  fprintf (stderr, "gmpbench: %s: stopped: %s misbehaved: %s; the library is "
           "broken.  This run has no score.\n",
           current_test ? current_test : "(no test)", call, what);
  exit (GUARD_EXIT);
}

void
guard_step (unsigned long *steps, unsigned long bound, const char *call, const char *what)
{
  if (++*steps > bound)
    guard_fail (call, "%s", what);
}
