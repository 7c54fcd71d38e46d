/* log.c: JSON lines on stderr (see log.h). */
#include "server/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

void
log_time (long long t, char out[21])
{
  time_t tt = (time_t) t;
  struct tm tm;
  gmtime_r (&tt, &tm);
  strftime (out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static cJSON *
line (const char *level)
{
  struct timespec ts;
  struct tm tm;
  char buf[32], stamp[64];
  cJSON *obj = cJSON_CreateObject ();

  clock_gettime (CLOCK_REALTIME, &ts);
  gmtime_r (&ts.tv_sec, &tm);
  strftime (buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf (stamp, sizeof stamp, "%s.%03dZ", buf, (int) (ts.tv_nsec / 1000000) % 1000);
  cJSON_AddStringToObject (obj, "time", stamp);
  cJSON_AddStringToObject (obj, "level", level);
  return obj;
}

static void
emit (cJSON *obj)
{
  char *text = obj ? cJSON_PrintUnformatted (obj) : NULL;
  if (text)
    {
      size_t len = strlen (text);
      char *out = malloc (len + 2);
      if (out)
        {
          memcpy (out, text, len);
          out[len] = '\n';
          ssize_t rc = write (STDERR_FILENO, out, len + 1);
          (void) rc;            /* nowhere to report a failing log */
          free (out);
        }
      free (text);
    }
  cJSON_Delete (obj);
}

static void
message (const char *level, const char *fmt, va_list ap)
{
  char buf[1024];
  vsnprintf (buf, sizeof buf, fmt, ap);
  cJSON *obj = line (level);
  cJSON_AddStringToObject (obj, "message", buf);
  emit (obj);
}

void
log_info (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message ("info", fmt, ap);
  va_end (ap);
}

void
log_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  message ("error", fmt, ap);
  va_end (ap);
}

void
log_request (const struct log_access *a)
{
  cJSON *obj = line ("access");
  cJSON_AddStringToObject (obj, "remote", a->remote ? a->remote : "");
  cJSON_AddStringToObject (obj, "method", a->method ? a->method : "");
  cJSON_AddStringToObject (obj, "path", a->path ? a->path : "");
  cJSON_AddNumberToObject (obj, "status", a->status);
  cJSON_AddNumberToObject (obj, "bytes_in", (double) a->bytes_in);
  cJSON_AddNumberToObject (obj, "ms", (double) (long long) (a->ms * 1000) / 1000);
  if (a->rule)
    cJSON_AddStringToObject (obj, "rule", a->rule);
  if (a->id)
    cJSON_AddStringToObject (obj, "id", a->id);
  emit (obj);
}
