/* document.c: building, serialising and atomically writing the result
 * document (see document.h and docs/result-format.md). */
#include "submit/document.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "build_config.h"
#include "engine/operand.h"
#include "model/doc_schema.h"
#include "model/registry.h"

static cJSON *
result_json (const struct test_result *r)
{
  cJSON *o = cJSON_CreateObject ();
  cJSON *flags = cJSON_CreateArray ();
  cJSON_AddStringToObject (o, DOC_RESULT_NAME, r->test->name);
  cJSON_AddNumberToObject (o, DOC_RESULT_OPS_PER_SEC, r->m.ops_per_sec);
  cJSON_AddNumberToObject (o, DOC_RESULT_SECONDS_PER_OP, r->m.seconds_per_op);
  cJSON_AddNumberToObject (o, DOC_RESULT_FAST_OPS_PER_SEC, r->m.fast_ops_per_sec);
  cJSON_AddNumberToObject (o, DOC_RESULT_SPREAD, r->m.spread);
  cJSON_AddNumberToObject (o, DOC_RESULT_MEDIAN_OPS_PER_SEC, r->m.median_ops_per_sec);
  cJSON_AddNumberToObject (o, DOC_RESULT_SAMPLES, r->m.samples);
  cJSON_AddNumberToObject (o, DOC_RESULT_REPS_PER_SAMPLE, (double) r->m.reps_per_sample);
  cJSON_AddNumberToObject (o, DOC_RESULT_WALL_SECONDS, r->m.wall_seconds);
  cJSON_AddNumberToObject (o, DOC_RESULT_CPU_SECONDS, r->m.cpu_seconds);
  cJSON_AddNumberToObject (o, DOC_RESULT_KERNEL_SECONDS, r->m.kernel_seconds);
  cJSON_AddBoolToObject (o, DOC_RESULT_CONVERGED, r->m.converged);
  if (r->m.flags & MEAS_NOISY)
    cJSON_AddItemToArray (flags, cJSON_CreateString (DOC_FLAG_NOISY));
  if (r->m.flags & MEAS_CPU_DIVERGED)
    cJSON_AddItemToArray (flags, cJSON_CreateString (DOC_FLAG_CPU_DIVERGED));
  cJSON_AddItemToObject (o, DOC_RESULT_FLAGS, flags);
  cJSON_AddStringToObject (o, DOC_RESULT_DIGEST, r->digest);
  return o;
}

static cJSON *
scores_json (const struct score_node *scores, size_t nscores)
{
  cJSON *sc = cJSON_CreateObject ();
  for (size_t i = 0; i < nscores; i++)
    cJSON_AddNumberToObject (sc, scores[i].name, scores[i].score);
  return sc;
}

/* What else the run was asked for, into RUN: the --suite names, and the
 * clock that the cycles figures use (none when it is not known). */
static void
add_run_choices (cJSON *run, const struct run_info *info)
{
  if (info->nsuites)
    {
      cJSON *suites = cJSON_CreateArray ();
      for (size_t i = 0; i < info->nsuites; i++)
        cJSON_AddItemToArray (suites, cJSON_CreateString (info->suites[i]));
      cJSON_AddItemToObject (run, DOC_RUN_SUITES, suites);
    }
  if (info->cycles_ghz > 0)
    {
      cJSON_AddNumberToObject (run, DOC_RUN_CYCLES_GHZ, info->cycles_ghz);
      cJSON_AddStringToObject (run, DOC_RUN_CYCLES_CLOCK, info->cycles_clock);
    }
}

cJSON *
document_build (const struct run_info *info, cJSON *system,
                const struct test_result *results, size_t n,
                const struct score_node *scores, size_t nscores,
                cJSON *comparisons)
{
  cJSON *doc = cJSON_CreateObject ();
  cJSON *client = cJSON_CreateObject ();
  cJSON *run = cJSON_CreateObject ();
  cJSON *only = cJSON_CreateArray ();
  cJSON *res = cJSON_CreateArray ();
  cJSON *skipped = cJSON_CreateArray ();
  char created[32];
  time_t now = time (NULL);
  struct tm tm;

  gmtime_r (&now, &tm);
  strftime (created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  cJSON_AddStringToObject (doc, DOC_FORMAT, DOCUMENT_FORMAT);
  cJSON_AddStringToObject (client, DOC_CLIENT_NAME, "gmpbench");
  cJSON_AddStringToObject (client, DOC_CLIENT_VERSION, GB_VERSION);
  cJSON_AddItemToObject (doc, DOC_CLIENT, client);
  cJSON_AddStringToObject (doc, DOC_REGISTRY, registry_id ());
  cJSON_AddStringToObject (doc, DOC_CREATED, created);
  cJSON_AddStringToObject (run, DOC_RUN_MODE, info->mode);
  cJSON_AddBoolToObject (run, DOC_RUN_QUICK, info->quick);
  cJSON_AddNumberToObject (run, DOC_RUN_TIME_PER_TEST, info->time_per_test);
  for (size_t i = 0; i < info->nonly; i++)
    cJSON_AddItemToArray (only, cJSON_CreateString (info->only[i]));
  cJSON_AddItemToObject (run, DOC_RUN_ONLY, only);
  cJSON_AddNumberToObject (run, DOC_RUN_THREADS, info->threads);
  cJSON_AddStringToObject (run, DOC_RUN_OPERAND_SEED, GB_OPERAND_SEED);
  add_run_choices (run, info);
  cJSON_AddItemToObject (doc, DOC_RUN, run);
  cJSON_AddItemToObject (doc, DOC_SYSTEM, system);
  for (size_t i = 0; i < n; i++)
    {
      if (results[i].outcome == BENCH_OK)
        cJSON_AddItemToArray (res, result_json (&results[i]));
      else if (results[i].outcome == BENCH_SKIPPED)
        {
          cJSON *s = cJSON_CreateObject ();
          cJSON_AddStringToObject (s, DOC_SKIPPED_NAME, results[i].test->name);
          cJSON_AddStringToObject (s, DOC_SKIPPED_REASON, results[i].message);
          cJSON_AddItemToArray (skipped, s);
        }
    }
  cJSON_AddItemToObject (doc, DOC_RESULTS, res);
  cJSON_AddItemToObject (doc, DOC_SKIPPED, skipped);
  cJSON_AddItemToObject (doc, DOC_SCORES, scores_json (scores, nscores));
  cJSON_AddItemToObject (doc, DOC_COMPARISONS, comparisons);
  return doc;
}

void
document_add_threads (cJSON *doc, unsigned nthreads,
                      const struct test_result *results, const double *efficiency,
                      size_t n, const struct score_node *scores, size_t nscores)
{
  cJSON *threads = cJSON_CreateObject ();
  cJSON *res = cJSON_CreateArray ();
  int pinned = 1;
  cJSON_AddNumberToObject (threads, DOC_THREADS_COUNT, nthreads);
  for (size_t i = 0; i < n; i++)
    if (results[i].outcome == BENCH_OK)
      {
        pinned &= !(results[i].m.flags & MEAS_UNPINNED);
        cJSON *o = result_json (&results[i]);
        cJSON_AddNumberToObject (o, DOC_RESULT_EFFICIENCY, efficiency[i]);
        cJSON_AddItemToArray (res, o);
      }
  cJSON_AddItemToObject (threads, DOC_THREADS_RESULTS, res);
  cJSON_AddBoolToObject (threads, DOC_THREADS_PINNED, pinned);
  cJSON_AddItemToObject (threads, DOC_THREADS_SCORES, scores_json (scores, nscores));
  cJSON_AddItemToObject (doc, DOC_THREADS, threads);
}

/* A rate in MHz, to the kHz. */
static double
mhz (double hz)
{
  return round (hz / 1e3) / 1e3;
}

/* A deviation, to a millionth. */
static double
millionths (double x)
{
  return round (x * 1e6) / 1e6;
}

void
document_add_clock_check (cJSON *doc, const struct clock_check *c)
{
  cJSON *counter = cJSON_CreateObject ();
  if (!c->source)
    {
      cJSON_AddNullToObject (counter, DOC_COUNTER_SOURCE);
      cJSON_AddStringToObject (counter, DOC_COUNTER_SKIPPED, c->skipped);
    }
  else
    {
      cJSON_AddStringToObject (counter, DOC_COUNTER_SOURCE, c->source);
      cJSON_AddStringToObject (counter, DOC_COUNTER_RATE_CLOCK,
                               c->by_syscall ? DOC_RATE_CLOCK_SYSCALL : DOC_RATE_CLOCK_LIBC);
      cJSON_AddNumberToObject (counter, DOC_COUNTER_RATE_MHZ_BEFORE, mhz (c->rate_before));
      cJSON_AddNumberToObject (counter, DOC_COUNTER_RATE_MHZ_AFTER, mhz (c->rate_after));
      if (c->stated_hz > 0)
        cJSON_AddNumberToObject (counter, DOC_COUNTER_STATED_MHZ, mhz (c->stated_hz));
      cJSON_AddNumberToObject (counter, DOC_COUNTER_TESTS, (double) c->tests);
      if (c->tests > 0)
        {
          cJSON_AddNumberToObject (counter, DOC_COUNTER_DEVIATION_MIN,
                                   millionths (c->deviation_min));
          cJSON_AddNumberToObject (counter, DOC_COUNTER_DEVIATION_MAX,
                                   millionths (c->deviation_max));
        }
    }
  cJSON_AddItemToObject (cJSON_GetObjectItemCaseSensitive (doc, DOC_RUN), DOC_RUN_COUNTER,
                         counter);
}

char *
document_serialize (const cJSON *doc)
{
  char *s = cJSON_Print (doc);
  size_t len = strlen (s);
  char *out = gb_xmalloc (len + 2);
  memcpy (out, s, len);
  out[len] = '\n';
  out[len + 1] = '\0';
  free (s);
  return out;
}

static int
write_all (int fd, const char *p, size_t len)
{
  while (len > 0)
    {
      ssize_t w = write (fd, p, len);
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          return -1;
        }
      p += w;
      len -= (size_t) w;
    }
  return 0;
}

/* The temporary file, fsync, rename and directory fsync of
 * document_write_atomic, PATH being a regular file or none. */
static int
write_replacing (const char *path, const void *data, size_t len)
{
  size_t plen = strlen (path);
  char *tmp = gb_xmalloc (plen + 32);
  char *dircopy = gb_xstrdup (path);
  int saved = 0, fd;

  snprintf (tmp, plen + 32, "%s.tmp.%ld", path, (long) getpid ());
  fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    goto fail;
  if (write_all (fd, data, len) != 0 || fsync (fd) != 0)
    {
      saved = errno;
      close (fd);
      unlink (tmp);
      errno = saved;
      goto fail;
    }
  if (close (fd) != 0 || rename (tmp, path) != 0)
    {
      saved = errno;
      unlink (tmp);
      errno = saved;
      goto fail;
    }
  fd = open (dirname (dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  free (tmp);
  free (dircopy);
  return 0;
fail:
  saved = errno;
  free (tmp);
  free (dircopy);
  errno = saved;
  return -1;
}

int
document_special_path (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && !S_ISREG (st.st_mode);
}

/* Writes DATA to the device or FIFO at PATH as it is. */
static int
write_through (const char *path, const void *data, size_t len)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  if (write_all (fd, data, len) != 0)
    {
      int saved = errno;
      close (fd);
      errno = saved;
      return -1;
    }
  return close (fd);
}

/* PATH with its symbolic links followed to the file they name, which need
 * not exist yet (a copy; PATH itself when it is no link). */
static char *
link_target (const char *path)
{
  char *p = gb_xstrdup (path);
  struct stat st;

  for (int hops = 0; hops < 16 && lstat (p, &st) == 0 && S_ISLNK (st.st_mode); hops++)
    {
      char target[4096];
      ssize_t n = readlink (p, target, sizeof target - 1);
      if (n < 0)
        break;
      target[n] = '\0';
      char *next;
      if (target[0] == '/' || !strchr (p, '/'))
        next = gb_xstrdup (target);
      else
        {
          size_t dir = (size_t) (strrchr (p, '/') - p) + 1;
          next = gb_xmalloc (dir + (size_t) n + 1);
          memcpy (next, p, dir);
          memcpy (next + dir, target, (size_t) n + 1);
        }
      free (p);
      p = next;
    }
  return p;
}

int
document_write_atomic (const char *path, const void *data, size_t len)
{
  if (document_special_path (path))
    return write_through (path, data, len);
  char *target = link_target (path);
  int rc = write_replacing (target, data, len);
  int saved = errno;
  free (target);
  errno = saved;
  return rc;
}

int
document_save (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
  if (document_write_atomic (path, data, len) == 0)
    return 0;
  snprintf (err, errlen, "cannot write %s: %s", path, strerror (errno));
  return -1;
}
