/* log.h: the server's log, one JSON object per line on stderr.
 *
 * Every line has "time" (RFC 3339 UTC with milliseconds) and "level";
 * messages have "message", requests (the access log) have their fields.
 * One line is written with one write(2), so lines of concurrent threads
 * never interleave. */
#ifndef GB_SERVER_LOG_H
#define GB_SERVER_LOG_H

#include <stddef.h>

void log_info (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
void log_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

struct log_access
{
  const char *remote, *method, *path, *rule, *id;      /* rule, id: NULL if none */
  int status;
  size_t bytes_in;
  double ms;
};
void log_request (const struct log_access *a);

/* The current time as RFC 3339 UTC with seconds ("2026-11-30T05:00:00Z")
 * for a Unix time T. */
void log_time (long long t, char out[21]);

#endif
