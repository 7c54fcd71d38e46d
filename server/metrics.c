/* metrics.c: the server's counters and their text exposition (see
 * metrics.h).
 *
 * A series is a family and a set of labels, already written out as the
 * exposition writes them (method="GET",route="/cpu",status="200").  The
 * table of series never forgets one, so a lookup probes from the hash of
 * its labels until it finds them or a free slot: a slot, once marked
 * ready (with release ordering, after its labels are written), never
 * changes but for its atomic values.  Claiming a free slot takes the
 * lock and probes again from there, since another thread may have
 * claimed that slot, or one further on for the same labels, meanwhile.
 * A histogram keeps the count of each bucket apart (not cumulative) and
 * the sum in microseconds, both atomic integers; the exposition adds the
 * buckets up. */
#include "server/metrics.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "common/util.h"

enum family
{
  F_REQUESTS, F_LATENCY, F_REFUSED, F_FLAGS, F_COUNT
};

static const struct
{
  const char *name, *type, *help;
} families[F_COUNT] = {
  { "gmpbench_http_requests_total", "counter",
    "Requests answered, by the method and pattern of the route that answered "
    "(none: refused before routing, or no route has the path) and status" },
  { "gmpbench_http_request_duration_seconds", "histogram",
    "Time from a request's arrival to its answer sent, by route" },
  { "gmpbench_uploads_refused_total", "counter",
    "Uploads (POST /api/v1/results) refused, by the rule the refusal names" },
  { "gmpbench_upload_flags_total", "counter",
    "Flags the accepted uploads carried when stored, by flag" },
};

/* The latency histogram's upper bounds, in seconds. */
static const double bounds[] = {
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
};
#define NBOUNDS GB_ARRAY_SIZE (bounds)
/* A series' values: a counter uses the first; a histogram one per bucket
 * (the last: above every bound), then the sum in microseconds. */
#define NVALUES (NBOUNDS + 2)
#define SUM_US (NBOUNDS + 1)

#define SLOTS 1024
#define LABELS 200

struct series
{
  atomic_int ready;
  int family;
  char labels[LABELS];
  atomic_uint_fast64_t v[NVALUES];
};

static struct series table[SLOTS];
static pthread_mutex_t claiming = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint_fast64_t accepted, dropped;

static struct series *
claim (int family, const char *labels, size_t from)
{
  struct series *found = NULL;
  pthread_mutex_lock (&claiming);
  for (size_t n = 0, i = from; n < SLOTS && !found; n++, i = (i + 1) % SLOTS)
    {
      struct series *s = &table[i];
      if (!atomic_load_explicit (&s->ready, memory_order_acquire))
        {
          s->family = family;
          snprintf (s->labels, sizeof s->labels, "%s", labels);
          atomic_store_explicit (&s->ready, 1, memory_order_release);
          found = s;
        }
      else if (s->family == family && strcmp (s->labels, labels) == 0)
        found = s;
    }
  pthread_mutex_unlock (&claiming);
  return found;
}

/* The series of FAMILY with LABELS, claimed if new; NULL (counted as
 * dropped) when the table is full. */
static struct series *
series (int family, const char *labels)
{
  size_t i = (size_t) ((gb_hash_string (labels) + (uint64_t) family * 0x9e3779b97f4a7c15u)
                       % SLOTS);
  struct series *found = NULL;
  for (size_t n = 0; n < SLOTS && !found; n++, i = (i + 1) % SLOTS)
    {
      struct series *s = &table[i];
      if (!atomic_load_explicit (&s->ready, memory_order_acquire))
        found = claim (family, labels, i);
      else if (s->family == family && strcmp (s->labels, labels) == 0)
        found = s;
    }
  if (!found)
    atomic_fetch_add (&dropped, 1);
  return found;
}

/* Appends NAME="VALUE" (VALUE escaped as the format asks) to the label
 * set OUT of SIZE bytes; -1 when it does not fit. */
static int
add_label (char *out, size_t size, const char *name, const char *value)
{
  size_t used = strlen (out);
  int n = snprintf (out + used, size - used, "%s%s=\"", used ? "," : "", name);
  if (n < 0 || (size_t) n >= size - used)
    return -1;
  used += (size_t) n;
  for (const char *p = value; *p; p++)
    {
      const char *esc = *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : *p == '\n' ? "\\n" : NULL;
      size_t len = esc ? 2 : 1;
      if (used + len + 2 > size)
        return -1;
      memcpy (out + used, esc ? esc : p, len);
      used += len;
    }
  memcpy (out + used, "\"", 2);
  return 0;
}

static void
count (int family, const char *labels)
{
  struct series *s = series (family, labels);
  if (s)
    atomic_fetch_add_explicit (&s->v[0], 1, memory_order_relaxed);
}

void
metrics_request (const char *method, const char *pattern, int status, double seconds)
{
  char route[LABELS] = "", code[16];
  snprintf (code, sizeof code, "%d", status);
  if (add_label (route, sizeof route, "method", pattern ? method : "none") < 0
      || add_label (route, sizeof route, "route", pattern ? pattern : "none") < 0)
    {
      atomic_fetch_add (&dropped, 1);
      return;
    }
  char with_status[LABELS];
  snprintf (with_status, sizeof with_status, "%s", route);
  if (add_label (with_status, sizeof with_status, "status", code) < 0)
    atomic_fetch_add (&dropped, 1);
  else
    count (F_REQUESTS, with_status);

  struct series *h = series (F_LATENCY, route);
  if (!h)
    return;
  size_t b = 0;
  while (b < NBOUNDS && seconds > bounds[b])
    b++;
  atomic_fetch_add_explicit (&h->v[b], 1, memory_order_relaxed);
  atomic_fetch_add_explicit (&h->v[SUM_US], (uint_fast64_t) (seconds > 0 ? seconds * 1e6 : 0),
                             memory_order_relaxed);
}

/* Counts one of FAMILY's series, labelled NAME="VALUE". */
static void
count_by (int family, const char *name, const char *value)
{
  char labels[LABELS] = "";
  if (add_label (labels, sizeof labels, name, value) < 0)
    atomic_fetch_add (&dropped, 1);
  else
    count (family, labels);
}

void
metrics_upload (int status, const char *rule)
{
  if (status == 201)
    atomic_fetch_add_explicit (&accepted, 1, memory_order_relaxed);
  else if (status >= 400)
    count_by (F_REFUSED, "rule", rule && *rule ? rule : "none");
}

void
metrics_upload_flags (const char *flags)
{
  char name[LABELS];
  for (const char *p = flags; p && *p;)
    {
      size_t len = strcspn (p, ",");
      if (len && len < sizeof name)
        {
          memcpy (name, p, len);
          name[len] = '\0';
          count_by (F_FLAGS, "flag", name);
        }
      p += len + (p[len] == ',');
    }
}

static void
write_family_head (FILE *out, const char *name, const char *type, const char *help)
{
  fprintf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
write_histogram (FILE *out, const char *name, const struct series *s)
{
  uint_fast64_t total = 0;
  for (size_t b = 0; b <= NBOUNDS; b++)
    {
      total += atomic_load_explicit (&s->v[b], memory_order_relaxed);
      if (b < NBOUNDS)
        fprintf (out, "%s_bucket{%s,le=\"%g\"} %" PRIuFAST64 "\n", name, s->labels, bounds[b],
                 total);
      else
        fprintf (out, "%s_bucket{%s,le=\"+Inf\"} %" PRIuFAST64 "\n", name, s->labels, total);
    }
  fprintf (out, "%s_sum{%s} %.6f\n%s_count{%s} %" PRIuFAST64 "\n", name, s->labels,
           atomic_load_explicit (&s->v[SUM_US], memory_order_relaxed) / 1e6, name, s->labels,
           total);
}

void
metrics_write (FILE *out)
{
  for (int f = 0; f < F_COUNT; f++)
    {
      const char *name = families[f].name;
      write_family_head (out, name, families[f].type, families[f].help);
      for (size_t i = 0; i < SLOTS; i++)
        {
          const struct series *s = &table[i];
          if (!atomic_load_explicit (&s->ready, memory_order_acquire) || s->family != f)
            continue;
          if (f == F_LATENCY)
            write_histogram (out, name, s);
          else
            fprintf (out, "%s{%s} %" PRIuFAST64 "\n", name, s->labels,
                     atomic_load_explicit (&s->v[0], memory_order_relaxed));
        }
    }
  write_family_head (out, "gmpbench_uploads_accepted_total", "counter",
                     "Uploads stored as new results (answered 201)");
  fprintf (out, "gmpbench_uploads_accepted_total %" PRIuFAST64 "\n", atomic_load (&accepted));
  write_family_head (out, "gmpbench_metrics_series_dropped_total", "counter",
                     "Counts not kept: their series did not fit the table");
  fprintf (out, "gmpbench_metrics_series_dropped_total %" PRIuFAST64 "\n",
           atomic_load (&dropped));
}

void
metrics_write_gauge (FILE *out, const char *name, const char *help, double value)
{
  write_family_head (out, name, "gauge", help);
  fprintf (out, "%s %.17g\n", name, value);
}
