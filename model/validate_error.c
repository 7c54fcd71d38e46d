/* validate_error.c: recording a broken rule (see validate_error.h). */
#include "model/validate_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void
validate_fail (struct validate_error *err, int status, const char *rule,
               const char *field, const char *fmt, ...)
{
  va_list ap;
  err->status = status;
  err->rule = rule;
  snprintf (err->field, sizeof err->field, "%s", field ? field : "");
  va_start (ap, fmt);
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  va_end (ap);
}

void
validate_error_free (struct validate_error *err)
{
  for (size_t i = 0; i < err->ntests; i++)
    free (err->tests[i]);
  free (err->tests);
  err->tests = NULL;
  err->ntests = 0;
}
