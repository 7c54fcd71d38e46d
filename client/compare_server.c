/* compare_server.c: a local result against its CPU row's medians on a
 * results server (see compare_server.h).  The row is asked for by its
 * three filters and picked out of the answer by them again; the answer is
 * read as untrusted: a node whose median is not a positive number is left
 * out, quartiles that are not numbers mark nothing, and every string from
 * it is escaped when printed. */
#include "client/compare_server.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "client/output.h"
#include "common/util.h"
#include "model/doc_schema.h"
#include "model/escape.h"

#define CPUS_PATH "/api/v1/cpus"
#define UNKNOWN_BUILD "unknown"     /* the kind of a result that names none */

/* What picks the row: the result's CPU identity, run mode, GMP build. */
struct row_key
{
  const char *cpu, *mode, *build;
};

/* Appends S to OUT (at *N, of CAP) percent-encoded for a query value. */
static void
encode (char *out, size_t cap, size_t *n, const char *s)
{
  for (; *s && *n + 4 < cap; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~')
        out[(*n)++] = (char) c;
      else
        *n += (size_t) snprintf (out + *n, cap - *n, "%%%02X", c);
    }
  out[*n] = '\0';
}

/* The URL of the row's query, malloc'ed. */
static char *
row_url (const char *server, const struct row_key *k)
{
  size_t cap = strlen (server) + 3 * (strlen (k->cpu) + strlen (k->mode) + strlen (k->build))
    + 64, n;
  char *url = gb_xmalloc (cap);
  n = (size_t) snprintf (url, cap, "%s" CPUS_PATH "?cpu=", server);
  encode (url, cap, &n, k->cpu);
  n += (size_t) snprintf (url + n, cap - n, "&mode=");
  encode (url, cap, &n, k->mode);
  n += (size_t) snprintf (url + n, cap - n, "&build=");
  encode (url, cap, &n, k->build);
  return url;
}

/* The row of K in the answer BODY, duplicated, or NULL (none there). */
static cJSON *
find_row (const char *body, size_t len, const struct row_key *k, int *parsed)
{
  cJSON *j = cJSON_ParseWithLength (body, len), *row, *found = NULL;
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive (j, "cpus");
  *parsed = cJSON_IsArray (rows);
  cJSON_ArrayForEach (row, rows)
    {
      const char *cpu = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (row, "cpu"));
      const char *mode = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (row, "mode"));
      const char *build = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (row, "build"));
      if (cpu && mode && build && strcmp (cpu, k->cpu) == 0 && strcmp (mode, k->mode) == 0
          && strcmp (build, k->build) == 0)
        {
          found = cJSON_Duplicate (row, 1);
          break;
        }
    }
  cJSON_Delete (j);
  return found;
}

/* The row of K on SERVER, or NULL after a message. */
static cJSON *
fetch_row (const char *server, const struct row_key *k, const struct upload_options *uo)
{
  struct upload_reply reply;
  char *url = row_url (server, k);
  cJSON *row = NULL;
  int parsed = 0;

  if (upload_get (url, uo, &reply) != UPLOAD_OK)
    gb_error ("compare", "cannot read %s: %s", url, reply.problem);
  else if (!(row = find_row (reply.body, reply.len, k, &parsed)) && !parsed)
    gb_error ("compare", "%s did not answer with rows of CPUs (is it a gmpbench-server?)", url);
  else if (!row)
    gb_error ("compare", "%s has no unflagged results of this CPU in %s mode with a GMP build "
              "of kind %s to compare with", server, k->mode, k->build);
  upload_reply_free (&reply);
  free (url);
  return row;
}

/* One node of the row: the result's SCORE against the row's NODE stats. */
struct node_cmp
{
  const char *name;
  double score, median, q1, q3, n, ratio;
  int within;
};

/* Fills C for the node STATS (a member of the row's scores) and the
 * result's SCORES; 0 when the node can be compared. */
static int
node_compare (const cJSON *stats, const cJSON *scores, struct node_cmp *c)
{
  c->name = stats->string;
  c->score = report_num (scores, stats->string);
  c->median = report_num (stats, "median");
  c->q1 = report_num (stats, "q1");
  c->q3 = report_num (stats, "q3");
  c->n = report_num (stats, "n");
  if (!c->name || !(c->median > 0) || !(c->score > 0) || !isfinite (c->median))
    return -1;
  c->ratio = c->score / c->median;
  c->within = c->q1 <= c->score && c->score <= c->q3;
  return 0;
}

static void
print_text (FILE *f, const char *server, const char *file, const cJSON *doc, const cJSON *row)
{
  const cJSON *scores = cJSON_GetObjectItemCaseSensitive (doc, DOC_SCORES), *stats;
  const cJSON *system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CPU);
  struct node_cmp c;

  fputs ("result  ", f);
  escape_text (f, file);
  fputs (": ", f);
  escape_text (f, report_str (cpu, DOC_SYS_CPU_NAME));
  fputs (", ", f);
  escape_text (f, report_str (doc, DOC_CREATED));
  fputs ("\nserver  ", f);
  escape_text (f, server);
  fputs (": ", f);
  escape_text (f, report_str (row, "cpu_name"));
  fputs (", ", f);
  escape_text (f, report_str (row, "mode"));
  fputs (" runs, GMP ", f);
  escape_text (f, report_str (row, "build"));
  if (report_num (row, "sources") > 0)
    fprintf (f, ", %.0f source%s", report_num (row, "sources"),
             report_num (row, "sources") == 1 ? "" : "s");
  fputs ("\nratio = the result's score / the median of the server's results of this CPU\n"
         "(above 1: faster); ~ = the score lies within their quartiles (the middle half)\n\n",
         f);
  fprintf (f, "%-28s %12s %12s %8s %9s\n", "", "score", "median", "results", "ratio");
  cJSON_ArrayForEach (stats, cJSON_GetObjectItemCaseSensitive (row, "scores"))
    {
      if (node_compare (stats, scores, &c) != 0)
        continue;
      int depth = 0;
      for (const char *p = c.name; *p; p++)
        depth += *p == '.';
      fprintf (f, "%*s", 2 * depth, "");
      escape_text (f, c.name);
      fprintf (f, "%*s %12.1f %12.1f %8.0f %8.3f%s\n",
               (int) (28 - 2 * depth - (int) strlen (c.name) > 0
                      ? 28 - 2 * depth - (int) strlen (c.name) : 0), "",
               c.score, c.median, c.n, c.ratio, c.within ? " ~" : "");
    }
}

static void
print_json (FILE *f, const char *server, const char *file, const cJSON *doc, const cJSON *row)
{
  const cJSON *scores = cJSON_GetObjectItemCaseSensitive (doc, DOC_SCORES), *stats;
  cJSON *out = cJSON_CreateObject (), *nodes = cJSON_CreateArray ();
  cJSON *summary = cJSON_Duplicate (row, 1);
  struct node_cmp c;

  cJSON_DeleteItemFromObjectCaseSensitive (summary, "scores");
  cJSON_AddStringToObject (out, "result", file);
  cJSON_AddStringToObject (out, "server", server);
  cJSON_AddItemToObject (out, "row", summary);
  cJSON_ArrayForEach (stats, cJSON_GetObjectItemCaseSensitive (row, "scores"))
    if (node_compare (stats, scores, &c) == 0)
      {
        cJSON *o = cJSON_CreateObject ();
        cJSON_AddStringToObject (o, "name", c.name);
        cJSON_AddNumberToObject (o, "score", c.score);
        cJSON_AddNumberToObject (o, "median", c.median);
        cJSON_AddNumberToObject (o, "results", isnan (c.n) ? 0 : c.n);
        cJSON_AddNumberToObject (o, "ratio", c.ratio);
        cJSON_AddBoolToObject (o, "within_quartiles", c.within);
        cJSON_AddItemToArray (nodes, o);
      }
  cJSON_AddItemToObject (out, "nodes", nodes);
  output_json_print (f, out);
  cJSON_Delete (out);
}

int
compare_server (FILE *f, const char *url, const char *file, const cJSON *doc,
                enum report_format format, const struct upload_options *uo)
{
  const cJSON *system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CPU);
  const cJSON *build = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_BUILD);
  const cJSON *gmp = cJSON_GetObjectItemCaseSensitive (build, DOC_SYS_BUILD_GMP);
  const cJSON *run = cJSON_GetObjectItemCaseSensitive (doc, DOC_RUN);
  struct row_key k = { report_str (cpu, DOC_SYS_CPU_IDENTITY), report_str (run, DOC_RUN_MODE),
                       report_str (gmp, DOC_SYS_GMP_BUILD) };
  cJSON *row;

  if (format != REPORT_TEXT && format != REPORT_JSON)
    {
      gb_error ("compare", "--server prints text or json only");
      return EXIT_USAGE;
    }
  if (!*k.cpu || !*k.mode)
    {
      gb_error ("compare", "%s names no CPU identity or run mode to find its row by", file);
      return 1;
    }
  if (strcmp (k.build, "distribution") != 0 && strcmp (k.build, "fat") != 0
      && strcmp (k.build, "native") != 0)
    k.build = UNKNOWN_BUILD;  /* as the server files it (docs/protocol.md) */
  if (!(row = fetch_row (url, &k, uo)))
    return 1;
  if (format == REPORT_JSON)
    print_json (f, url, file, doc, row);
  else
    print_text (f, url, file, doc, row);
  cJSON_Delete (row);
  return 0;
}
