/* report.c: loading and indexing a result document for the renderers
 * (see report.h).  Tests are put in registry order, names the registry
 * does not know (a newer client's tests) after them in document order,
 * and then grouped by node (tree_group), so that every renderer, the CSV
 * too, lists them as the tree draws them. */
#include "client/report.h"
#include "client/tree.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "model/doc_read.h"
#include "model/doc_schema.h"
#include "submit/document.h"
#include "model/registry.h"
#include "sysinfo/sysinfo.h"

#define MAX_FILE_BYTES (1L << 20)

/* The whole of PATH, at most MAX_FILE_BYTES, NUL-terminated; NULL with
 * errno set (EFBIG when too big). */
static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    return NULL;
  char *buf = gb_xmalloc (MAX_FILE_BYTES + 2);
  size_t len = fread (buf, 1, MAX_FILE_BYTES + 1, f);
  int failed = ferror (f), saved = errno;
  fclose (f);
  if (failed || len > MAX_FILE_BYTES)
    {
      free (buf);
      errno = failed ? saved : EFBIG;
      return NULL;
    }
  buf[len] = '\0';
  return buf;
}

int
report_load_file (const char *path, cJSON **doc, char **bytes, char *err, size_t errlen)
{
  char *buf = slurp (path);
  *doc = NULL;
  if (!buf)
    {
      snprintf (err, errlen, "cannot read '%s': %s", path,
                errno == EFBIG ? "larger than 1 MiB" : strerror (errno));
      return -1;
    }
  *doc = cJSON_Parse (buf);
  if (!cJSON_IsObject (*doc)
      || strcmp (report_str (*doc, "format"), DOCUMENT_FORMAT) != 0)
    {
      snprintf (err, errlen, "'%s' is not a gmpbench result document (%s)", path,
                *doc ? "format is not " DOCUMENT_FORMAT : "not JSON");
      cJSON_Delete (*doc);
      *doc = NULL;
      free (buf);
      return -1;
    }
  if (bytes)
    *bytes = buf;
  else
    free (buf);
  return 0;
}

const char *
report_str (const cJSON *o, const char *key)
{
  return doc_string (o, key);
}

double
report_num (const cJSON *o, const char *key)
{
  return doc_number (o, key, NAN);
}

double
report_score (const cJSON *scores, const char *path, size_t pathlen)
{
  const cJSON *s;
  cJSON_ArrayForEach (s, scores)
    if (s->string && strlen (s->string) == pathlen
        && strncmp (s->string, path, pathlen) == 0)
      return cJSON_IsNumber (s) ? s->valuedouble : NAN;
  return NAN;
}

int
report_has_flag (const cJSON *result, const char *flag)
{
  const cJSON *f;
  cJSON_ArrayForEach (f, cJSON_GetObjectItemCaseSensitive (result, "flags"))
    if (cJSON_IsString (f) && strcmp (f->valuestring, flag) == 0)
      return 1;
  return 0;
}

const cJSON *
report_comparison_entry (const cJSON *comparisons, const char *name)
{
  const cJSON *row, *e;
  cJSON_ArrayForEach (row, comparisons)
    cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
      if (strcmp (report_str (e, "test"), name) == 0)
        return e;
  return NULL;
}

size_t
report_count_rows (const cJSON *comparisons, int rng)
{
  const cJSON *row;
  size_t n = 0;
  cJSON_ArrayForEach (row, comparisons)
    n += (strcmp (report_str (row, "operation"), "rng") == 0) == rng;
  return n;
}

void
report_cycles_clock (const struct report *r, char *buf, size_t len)
{
  double ghz = report_num (r->run, DOC_RUN_CYCLES_GHZ);
  const char *how = report_str (r->run, DOC_RUN_CYCLES_CLOCK);
  if (!(ghz > 0))
    snprintf (buf, len, "%s", "");
  else
    snprintf (buf, len, "%.3g GHz, %s", ghz,
              strcmp (how, "given") == 0 ? "given with --cpu-ghz" : "measured");
}

void
report_library_label (const char *library, const char *variant, char *buf, size_t len)
{
  static const char *const display[][2] = {
    { "gmp", "GMP" }, { "openssl", "OpenSSL" }, { "gcrypt", "libgcrypt" }, { "nettle", "Nettle" },
  };
  const char *lib = library;
  for (size_t i = 0; i < GB_ARRAY_SIZE (display); i++)
    if (strcmp (lib, display[i][0]) == 0)
      lib = display[i][1];
  snprintf (buf, len, "%s%s%s", lib, *variant ? " " : "", variant);
}

/* Caches as "L1d 32 KiB, L2 512 KiB, L3 32 MiB". */
static void
caches_line (const cJSON *cache, char *buf, size_t len)
{
  static const char *const levels[][2] = {
    { DOC_SYS_CACHE_L1D, "L1d" }, { DOC_SYS_CACHE_L1I, "L1i" }, { DOC_SYS_CACHE_L2, "L2" },
    { DOC_SYS_CACHE_L3, "L3" }, { DOC_SYS_CACHE_L4, "L4" },
  };
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < GB_ARRAY_SIZE (levels) && used < len; i++)
    {
      double bytes = report_num (cache, levels[i][0]);
      if (isnan (bytes) || bytes <= 0)
        continue;
      int big = bytes >= 1 << 20;
      used += (size_t) snprintf (buf + used, len - used, "%s%s %.0f %s", used ? ", " : "",
                                 levels[i][1], bytes / (big ? 1 << 20 : 1 << 10),
                                 big ? "MiB" : "KiB");
    }
}

/* The summary lines "Label:   value" as label and value. */
static void
summary_pairs (const cJSON *system, report_machine_fn *fn, void *ctx)
{
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream (&text, &size);
  if (!mem)
    return;
  sysinfo_print_summary (mem, system);
  fclose (mem);
  char *save = NULL;
  for (char *line = strtok_r (text, "\n", &save); line; line = strtok_r (NULL, "\n", &save))
    {
      char *colon = strchr (line, ':');
      if (!colon)
        continue;
      *colon = '\0';
      fn (ctx, line, colon + 1 + strspn (colon + 1, " "));
    }
  free (text);
}

void
report_machine (const struct report *r, report_machine_fn *fn, void *ctx)
{
  const cJSON *build = cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_BUILD);
  const cJSON *configure = cJSON_GetObjectItemCaseSensitive (build, DOC_SYS_BUILD_CONFIGURE);
  const cJSON *gmp = cJSON_GetObjectItemCaseSensitive (build, DOC_SYS_BUILD_GMP);
  char caches[256], library[4200];
  summary_pairs (r->system, fn, ctx);
  caches_line (cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_CACHE), caches, sizeof caches);
  if (*caches)
    fn (ctx, "Caches", caches);
  if (*report_str (configure, DOC_SYS_CONFIGURE_CFLAGS))
    fn (ctx, "CFLAGS", report_str (configure, DOC_SYS_CONFIGURE_CFLAGS));
  if (*report_str (gmp, DOC_SYS_GMP_CFLAGS))
    fn (ctx, "GMP CFLAGS", report_str (gmp, DOC_SYS_GMP_CFLAGS));
  report_gmp_build (gmp, library, sizeof library);
  if (*library)
    fn (ctx, "GMP build", library);
}

void
report_gmp_build (const cJSON *gmp, char *buf, size_t len)
{
  const cJSON *lib = cJSON_GetObjectItemCaseSensitive (gmp, DOC_SYS_LIBRARY);
  const cJSON *entry = cJSON_GetObjectItemCaseSensitive (gmp, DOC_SYS_GMP_ENTRY_POINTS);
  buf[0] = '\0';
  if (!*report_str (gmp, DOC_SYS_GMP_BUILD))
    return;
  snprintf (buf, len, "%s%s%s%s", report_str (gmp, DOC_SYS_GMP_BUILD),
            *report_str (lib, DOC_SYS_LIBRARY_PATH) ? ", " : "",
            report_str (lib, DOC_SYS_LIBRARY_PATH),
            cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (entry, DOC_SYS_ENTRY_POINTS_INTERPOSED))
            ? " (timed functions interposed)" : "");
}

/* Appends every named element of ARRAY (results[] or skipped[]) whose
 * name is NAME, or with NAME NULL every one not yet taken. */
static void
take (struct report *r, const cJSON *array, int measured, const char *name,
      unsigned char *taken)
{
  size_t i = 0;
  const cJSON *e;
  cJSON_ArrayForEach (e, array)
    {
      const char *n = report_str (e, "name");
      if (!taken[i] && *n && (!name || strcmp (n, name) == 0))
        {
          struct report_row *row = &r->rows[r->nrows++];
          taken[i] = 1;
          row->name = n;
          row->result = measured ? e : NULL;
          row->reason = measured ? NULL : report_str (e, "reason");
        }
      i++;
    }
}

/* Puts R's rows in tree order and indexes their names. */
static void
group_rows (struct report *r)
{
  size_t *order = gb_xmalloc ((r->nrows + 1) * sizeof *order);
  struct report_row *rows = gb_xcalloc (r->nrows + 1, sizeof *rows);
  r->names = gb_xcalloc (r->nrows + 1, sizeof *r->names);
  for (size_t i = 0; i < r->nrows; i++)
    r->names[i] = r->rows[i].name;
  tree_group (r->names, r->nrows, order);
  for (size_t i = 0; i < r->nrows; i++)
    rows[i] = r->rows[order[i]];
  for (size_t i = 0; i < r->nrows; i++)
    r->names[i] = rows[i].name;
  free (r->rows);
  free (order);
  r->rows = rows;
}

int
report_open (struct report *r, const cJSON *doc, char *err, size_t errlen)
{
  const cJSON *results = cJSON_GetObjectItemCaseSensitive (doc, "results");
  const cJSON *skipped = cJSON_GetObjectItemCaseSensitive (doc, "skipped");
  memset (r, 0, sizeof *r);
  if (!cJSON_IsArray (results))
    {
      snprintf (err, errlen, "the document has no results[] array");
      return -1;
    }
  size_t nres = (size_t) cJSON_GetArraySize (results);
  size_t nskip = (size_t) cJSON_GetArraySize (skipped);
  unsigned char *taken = gb_xcalloc (nres + nskip + 1, 1);
  r->doc = doc;
  r->system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);
  r->run = cJSON_GetObjectItemCaseSensitive (doc, "run");
  r->scores = cJSON_GetObjectItemCaseSensitive (doc, "scores");
  r->comparisons = cJSON_GetObjectItemCaseSensitive (doc, "comparisons");
  r->threads = cJSON_GetObjectItemCaseSensitive (doc, "threads");
  r->rows = gb_xcalloc (nres + nskip + 1, sizeof *r->rows);
  for (size_t i = 0; i < registry_count (); i++)
    {
      take (r, results, 1, registry_test (i)->name, taken);
      take (r, cJSON_IsArray (skipped) ? skipped : NULL, 0, registry_test (i)->name,
            taken + nres);
    }
  take (r, results, 1, NULL, taken);
  take (r, cJSON_IsArray (skipped) ? skipped : NULL, 0, NULL, taken + nres);
  free (taken);
  group_rows (r);
  return 0;
}

void
report_close (struct report *r)
{
  free (r->rows);
  free (r->names);
  memset (r, 0, sizeof *r);
}
