/* check.h: the reporting convention of unit test programs: one line per
 * check, "PASS: what" or "FAIL: what", read by tests/run-tests.sh. */
#ifndef GB_TESTS_CHECK_H
#define GB_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_failures;

static void __attribute__ ((format (printf, 2, 3)))
check (int ok, const char *fmt, ...)
{
  va_list ap;
  fputs (ok ? "PASS: " : "FAIL: ", stdout);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  check_failures += !ok;
}

static int
check_exit_status (void)
{
  return check_failures ? 1 : 0;
}

#endif
