/* standing.c: the one line saying where an uploaded result stands (see
 * standing.h).  Only well-formed members are used: a count must be a
 * positive whole number, a median positive, a percentile within 0-100,
 * a name printable; anything else is left out as if absent. */
#include "submit/standing.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The number NAME of OBJ within [LO, HI], or NAN. */
static double
number (const cJSON *obj, const char *name, double lo, double hi)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (obj, name);
  return cJSON_IsNumber (v) && v->valuedouble >= lo && v->valuedouble <= hi
    ? v->valuedouble : NAN;
}

/* The string NAME of OBJ when it is short printable ASCII, else NULL. */
static const char *
word (const cJSON *obj, const char *name)
{
  const char *s = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (obj, name));
  if (!s || !*s || strlen (s) > 32)
    return NULL;
  for (const char *p = s; *p; p++)
    if (*p <= ' ' || *p > '~')
      return NULL;
  return s;
}

/* Appends to OUT (of OUTLEN, N used) like printf; the new length. */
static size_t
add (char *out, size_t outlen, size_t n, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static size_t
add (char *out, size_t outlen, size_t n, const char *fmt, ...)
{
  va_list ap;
  if (n >= outlen)
    return n;
  va_start (ap, fmt);
  int w = vsnprintf (out + n, outlen - n, fmt, ap);
  va_end (ap);
  return w < 0 ? n : n + (size_t) w;
}

/* "2% above the median of 14 results (3 sources) of this CPU". */
static size_t
cpu_part (const cJSON *cpu, double score, char *out, size_t outlen, size_t n)
{
  double results = number (cpu, "results", 1, 1e12);
  double sources = number (cpu, "sources", 1, 1e12);
  double median = number (cpu, "median", 1e-300, 1e300);
  double pct;

  if (isnan (results) || isnan (median) || !(score > 0))
    return n;
  pct = 100 * (score / median - 1);
  if (fabs (pct) < 0.5)
    n = add (out, outlen, n, "at the median");
  else
    n = add (out, outlen, n, "%.0f%% %s the median", fabs (pct), pct > 0 ? "above" : "below");
  n = add (out, outlen, n, " of %.0f result%s", results, results == 1 ? "" : "s");
  if (!isnan (sources) && sources < results)
    n = add (out, outlen, n, " (%.0f source%s)", sources, sources == 1 ? "" : "s");
  return add (out, outlen, n, " of this CPU");
}

/* "faster than 63% of 120 x86_64 quick runs". */
static size_t
arch_part (const cJSON *arch, char *out, size_t outlen, size_t n)
{
  double results = number (arch, "results", 1, 1e12);
  double pct = number (arch, "percentile", 0, 100);
  const char *name = word (arch, "name"), *mode = word (arch, "mode");

  if (isnan (pct) || !name)
    return n;
  n = add (out, outlen, n, "faster than %.0f%% of ", pct);
  if (!isnan (results))
    n = add (out, outlen, n, "%.0f ", results);
  return add (out, outlen, n, "%s%s%s run%s", name, mode ? " " : "", mode ? mode : "",
              results == 1 ? "" : "s");
}

int
standing_line (const cJSON *standing, double score, char *out, size_t outlen)
{
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (standing, "cpu");
  const cJSON *arch = cJSON_GetObjectItemCaseSensitive (standing, "arch");
  size_t n = 0, start, mid;

  if (outlen == 0)
    return 0;
  out[0] = '\0';
  if (!cJSON_IsObject (standing))
    return 0;
  if (score > 0)
    n = add (out, outlen, n, "%.0f: ", score);
  start = n;
  n = cpu_part (cJSON_IsObject (cpu) ? cpu : NULL, score, out, outlen, n);
  mid = n;
  if (n > start)
    n = add (out, outlen, n, "; ");
  n = arch_part (cJSON_IsObject (arch) ? arch : NULL, out, outlen, n);
  if (n == mid + 2 && mid > start)
    n = mid;                    /* no arch part after the "; " */
  if (n >= outlen)
    n = outlen - 1;
  out[n] = '\0';
  if (n == start)
    {
      out[0] = '\0';
      return 0;
    }
  return 1;
}
