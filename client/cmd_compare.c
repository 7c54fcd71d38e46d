/* cmd_compare.c: `gmpbench compare BASE.json OTHER.json...`, the honest
 * answer to "is my new build faster?".
 *
 * Every test of BASE measured in another run gets the ratio of that run's
 * ops/s to BASE's (above 1: faster), and is marked within the spreads
 * when the ratio differs from 1 by no more than the two relative spreads
 * together, the rule of the library comparisons (client/compare.h).  Each
 * node of the tree gets the geometric mean of the ratios of its tests
 * measured in both runs, marked within the spreads when it differs from 1
 * by no more than the mean of those tests' spreads.  Lines are computed
 * once (struct line) and then printed in the chosen format.
 *
 * `gmpbench run --gmp A --gmp B` prints its builds through the same code
 * with the ratios of their paired visits instead (client/pairs.h), where
 * it has them: a test's the median of its pairs' ratios, a node's the
 * geometric mean of those, each with two standard errors as its spread.
 *
 * What the ratios cannot show is said on stderr, as notes: tests another
 * run measured that BASE lacks (left out), and runs made in another mode
 * or with another budget per test, or on another CPU, than BASE.
 *
 * The lines are built here and rendered here, but for HTML
 * (compare_html.c, which shares struct comparison through compare_runs.h).
 * `--server URL RESULT.json` compares with a server's medians instead
 * (compare_server.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "client/color.h"
#include "model/escape.h"
#include "model/si_format.h"
#include "client/gmpbench.h"
#include "client/compare_runs.h"
#include "client/compare_server.h"
#include "client/output.h"
#include "client/tree.h"
#include "common/util.h"
#include "model/doc_schema.h"
#include "submit/config.h"

static const char compare_usage[] =
  "usage: gmpbench compare [options] BASE.json OTHER.json...\n"
  "       gmpbench compare --server URL [options] RESULT.json\n"
  "\n"
  "Compare saved results with a baseline: for each test the ratio of its\n"
  "ops/s in OTHER to BASE (above 1: OTHER is faster), for each node the\n"
  "geometric mean of its tests' ratios; ~ marks a difference within the\n"
  "reported spreads, which is noise, not a result.  With --server, compare\n"
  "a result with the medians of its CPU on that results server, node by node\n"
  "(~: within their quartiles).\n";

static const char compare_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 a file or the server cannot be read (or has no\n"
  "results of this CPU), 2 usage error.\n";

/* Attempts after the first to read a server's rows: a comparison is
 * asked for at a terminal, where a long wait helps nobody. */
#define COMPARE_RETRIES 1

/* The command line: the format, and --server's. */
struct compare_cmd
{
  enum report_format format;
  const char *server;
  struct upload_options uo;
};

/* The row of the test NAME in R, or NULL. */
static const struct report_row *
find_row (const struct report *r, const char *name)
{
  for (size_t i = 0; i < r->nrows; i++)
    if (strcmp (r->rows[i].name, name) == 0)
      return &r->rows[i];
  return NULL;
}

static const cJSON *
find_result (const struct report *r, const char *name)
{
  const struct report_row *row = find_row (r, name);
  return row ? row->result : NULL;
}

static struct line *
new_line (struct comparison *c, int node, int depth)
{
  c->lines = gb_xrealloc (c->lines, (c->nlines + 1) * sizeof *c->lines);
  struct line *l = &c->lines[c->nlines++];
  memset (l, 0, sizeof *l);
  l->node = node;
  l->depth = depth;
  l->cells = gb_xcalloc (c->nruns, sizeof *l->cells);
  return l;
}

static void
on_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
         size_t labellen)
{
  struct line *l = new_line (ctx, 1, depth);
  snprintf (l->name, sizeof l->name, "%.*s", (int) pathlen, path);
  snprintf (l->label, sizeof l->label, "%.*s", (int) labellen, label);
}

/* The paired ratio of the test NAME in run K, or NULL. */
static const struct pair_ratio *
find_pair (const struct comparison *c, size_t k, const char *name)
{
  const struct pair_ratio *p = c->paired ? c->paired + (k - 1) * c->npaired : NULL;
  for (size_t i = 0; p && i < c->npaired; i++)
    if (strcmp (p[i].test, name) == 0)
      return isnan (p[i].ratio) ? NULL : &p[i];
  return NULL;
}

/* A test: its ratio in each other run, paired where the run has it. */
static void
on_leaf (void *ctx, int depth, size_t index, const char *label)
{
  struct comparison *c = ctx;
  struct line *l = new_line (c, 0, depth);
  l->row = &c->runs[0].rows[index];
  snprintf (l->name, sizeof l->name, "%s", l->row->name);
  snprintf (l->label, sizeof l->label, "%s", label);
  for (size_t k = 1; k < c->nruns; k++)
    {
      const cJSON *b = l->row->result, *o = find_result (&c->runs[k], l->row->name);
      const struct pair_ratio *p = find_pair (c, k, l->name);
      if (p && b && o)
        {
          l->cells[k] = (struct cell) { p->ratio, p->spread, fabs (p->ratio - 1) <= p->spread,
                                        1, p->pairs };
          continue;
        }
      double ratio = report_num (o, DOC_RESULT_OPS_PER_SEC) / report_num (b, DOC_RESULT_OPS_PER_SEC);
      l->cells[k].ratio = NAN;
      if (!b || !o || !(ratio > 0) || !isfinite (ratio))
        continue;
      l->cells[k].ratio = ratio;
      l->cells[k].spread = report_num (b, DOC_RESULT_SPREAD) + report_num (o, DOC_RESULT_SPREAD);
      l->cells[k].within = fabs (ratio - 1) <= l->cells[k].spread;
      l->cells[k].tests = 1;
    }
}

/* A node: the geometric mean of the ratios of the tests under it; its
 * spread the mean of theirs, or for paired ratios (all of them paired)
 * their root sum of squares over their number (pairs.h). */
static void
summarise (struct comparison *c, struct line *node, size_t run)
{
  double logs = 0, noise = 0;
  double *spreads = gb_xmalloc (c->nlines * sizeof *spreads);
  size_t n = 0, paired = 0, pairs = 0;
  for (size_t i = 0; i < c->nlines; i++)
    {
      const struct line *l = &c->lines[i];
      if (l->node || l->cells[run].tests == 0 || !tree_under (l->name, node->name, strlen (node->name)))
        continue;
      logs += log (l->cells[run].ratio);
      noise += l->cells[run].spread;
      spreads[n++] = l->cells[run].spread;
      paired += l->cells[run].pairs > 0;
      pairs += l->cells[run].pairs;
    }
  node->cells[run].ratio = n ? exp (logs / (double) n) : NAN;
  node->cells[run].spread = !n ? NAN : paired == n ? pairs_node_spread (spreads, n)
    : noise / (double) n;
  node->cells[run].within = n && fabs (node->cells[run].ratio - 1) <= node->cells[run].spread;
  node->cells[run].tests = n;
  node->cells[run].pairs = paired == n ? pairs : 0;
  free (spreads);
}

static void
build (struct comparison *c)
{
  const struct tree_visitor v = { on_node, on_leaf };
  tree_walk (c->runs[0].names, c->runs[0].nrows, &v, c);
  for (size_t i = 0; i < c->nlines; i++)
    if (c->lines[i].node)
      for (size_t k = 1; k < c->nruns; k++)
        summarise (c, &c->lines[i], k);
}

/* Text. */

static void
print_text (FILE *f, const struct comparison *c, const struct palette *p)
{
  char ops[32];
  for (size_t k = 0; k < c->nruns; k++)
    {
      const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (c->runs[k].system, DOC_SYS_CPU);
      if (k)
        fprintf (f, "run %-3zu ", k);
      else
        fputs ("base    ", f);
      escape_text (f, c->files[k]);
      fputs (": ", f);
      escape_text (f, report_str (cpu, DOC_SYS_CPU_NAME));
      fputs (", ", f);
      escape_text (f, report_str (c->runs[k].doc, "created"));
      const cJSON *build = cJSON_GetObjectItemCaseSensitive (c->runs[k].system, DOC_SYS_BUILD);
      const cJSON *gmp = cJSON_GetObjectItemCaseSensitive (build, DOC_SYS_BUILD_GMP);
      char library[4200];
      report_gmp_build (gmp, library, sizeof library);
      if (*library)
        {
          fputs (", GMP ", f);
          escape_text (f, report_str (gmp, DOC_SYS_GMP_VERSION));
          fputs (" ", f);
          escape_text (f, library);
        }
      fputc ('\n', f);
    }
  if (c->paired)
    fputs ("ratio = the run's speed / the base's, the median of the ratios of their visits\n"
           "(a few samples each) made in pairs moments apart (above 1: faster), ± two standard\n"
           "errors of it; ~ = within them; nodes: geometric mean of their tests' ratios, ± two\n"
           "standard errors (tests counted)\n\n", f);
  else
    fputs ("ratio = ops/s of the run / ops/s of the base (above 1: faster), ± the two spreads\n"
           "together; ~ = within them; nodes: geometric mean of their tests' ratios, ± their\n"
           "mean spread (tests counted)\n\n", f);
  fprintf (f, "%-44s %16s", "", "base ops/s");
  for (size_t k = 1; k < c->nruns; k++)
    fprintf (f, "                  run %-2zu", k);
  fputc ('\n', f);
  for (size_t i = 0; i < c->nlines; i++)
    {
      const struct line *l = &c->lines[i];
      fprintf (f, "%*s%s", 2 * l->depth, "", l->node ? p->bold : "");
      escape_text (f, l->label);
      fprintf (f, "%s%*s", l->node ? p->reset : "",
               44 - 2 * l->depth - (int) strlen (l->label), "");
      if (l->node)
        fprintf (f, " %16s", "");
      else if (l->row->result)
        {
          si_format (report_num (l->row->result, DOC_RESULT_OPS_PER_SEC), ops, sizeof ops);
          fprintf (f, " %9s ±%4.1f%%", ops, 100 * report_num (l->row->result, DOC_RESULT_SPREAD));
        }
      else
        fprintf (f, " %16s", "skipped");
      for (size_t k = 1; k < c->nruns; k++)
        {
          const struct cell *x = &l->cells[k];
          if (isnan (x->ratio))
            {
              fprintf (f, " %23s", "-");
              continue;
            }
          const char *color = x->within ? p->dim : x->ratio > 1 ? p->good : p->bad;
          char count[24] = "";
          if (l->node)
            snprintf (count, sizeof count, "(%zu)", x->tests);
          fprintf (f, " %s%8.3f ±%4.1f%% %-2s%5s%s", color, x->ratio, 100 * x->spread,
                   x->within ? "~" : "", count, p->reset);
        }
      fputc ('\n', f);
    }
}

/* JSON: {"base": FILE, "runs": [FILE...], "lines": [{name, node, ratios}]};
 * a ratio's pairs is 0 unless it comes from paired visits. */
static void
print_json (FILE *f, const struct comparison *c)
{
  cJSON *out = cJSON_CreateObject (), *runs = cJSON_CreateArray (), *lines = cJSON_CreateArray ();
  cJSON_AddStringToObject (out, "base", c->files[0]);
  for (size_t k = 1; k < c->nruns; k++)
    cJSON_AddItemToArray (runs, cJSON_CreateString (c->files[k]));
  cJSON_AddItemToObject (out, "runs", runs);
  for (size_t i = 0; i < c->nlines; i++)
    {
      cJSON *o = cJSON_CreateObject (), *ratios = cJSON_CreateArray ();
      cJSON_AddStringToObject (o, "name", c->lines[i].name);
      cJSON_AddBoolToObject (o, "node", c->lines[i].node);
      for (size_t k = 1; k < c->nruns; k++)
        {
          const struct cell *x = &c->lines[i].cells[k];
          cJSON *r = isnan (x->ratio) ? cJSON_CreateNull () : cJSON_CreateObject ();
          if (!isnan (x->ratio))
            {
              cJSON_AddNumberToObject (r, "ratio", x->ratio);
              cJSON_AddNumberToObject (r, "spread", x->spread);
              cJSON_AddBoolToObject (r, "within_spread", x->within);
              cJSON_AddNumberToObject (r, "tests", (double) x->tests);
              cJSON_AddNumberToObject (r, "pairs", (double) x->pairs);
            }
          cJSON_AddItemToArray (ratios, r);
        }
      cJSON_AddItemToObject (o, "ratios", ratios);
      cJSON_AddItemToArray (lines, o);
    }
  cJSON_AddItemToObject (out, "lines", lines);
  output_json_print (f, out);
  cJSON_Delete (out);
}

/* CSV, one record per line and run: kind,name,run,ratio,within_spread,tests. */
static void
print_csv (FILE *f, const struct comparison *c)
{
  fputs ("kind,name,run,ratio,within_spread,tests\n", f);
  for (size_t i = 0; i < c->nlines; i++)
    for (size_t k = 1; k < c->nruns; k++)
      {
        const struct cell *x = &c->lines[i].cells[k];
        fputs (c->lines[i].node ? "node," : "test,", f);
        escape_csv (f, c->lines[i].name);
        fputc (',', f);
        escape_csv (f, c->files[k]);
        if (isnan (x->ratio))
          fputs (",,,0\n", f);
        else
          fprintf (f, ",%.17g,%s,%zu\n", x->ratio, x->within ? "true" : "false", x->tests);
      }
}

static void
print_markdown (FILE *f, const struct comparison *c)
{
  fputs ("Ratio: ops/s of the run over the base's (above 1: faster); ~ marks a ratio "
         "within the spreads; nodes (bold) show the geometric mean of their tests.\n\n"
         "| node or test |", f);
  for (size_t k = 1; k < c->nruns; k++)
    {
      fputc (' ', f);
      escape_markdown (f, c->files[k]);
      fputs (" |", f);
    }
  fputs ("\n|---|", f);
  for (size_t k = 1; k < c->nruns; k++)
    fputs ("--:|", f);
  for (size_t i = 0; i < c->nlines; i++)
    {
      const struct line *l = &c->lines[i];
      fputs (l->node ? "\n| **" : "\n| ", f);
      escape_markdown (f, l->name);
      fputs (l->node ? "** |" : " |", f);
      for (size_t k = 1; k < c->nruns; k++)
        if (isnan (l->cells[k].ratio))
          fputs (" - |", f);
        else
          fprintf (f, " %.3f%s |", l->cells[k].ratio, l->cells[k].within ? " ~" : "");
    }
  fputc ('\n', f);
}

/* OPTIONS_OK with *FILES the index of BASE.json (RESULT.json), else the
 * exit: OPTIONS_DONE after --help, OPTIONS_BAD on a usage error. */
static enum option_result
parse_options (int argc, char **argv, struct compare_cmd *c, int *files)
{
  const struct gb_option options[] = {
    OPT_CALLBACK (0, "format", "FORMAT", &c->format, report_format_option,
                  "text (default), json, html (a self-contained page with\n"
                  "every run's scores side by side), csv or markdown;\n"
                  "with --server text or json"),
    OPT_STRING (0, "server", "URL", &c->server,
                "compare RESULT.json with its CPU's medians on the\n"
                "results server URL"),
    OPT_STRING (0, "cacert", "FILE", &c->uo.cacert,
                "trust the certificate authorities in FILE (PEM) instead\n"
                "of the system's, for a private server", .needs = "server"),
    OPT_SECONDS (0, "timeout", &c->uo.timeout,
                 "give up an attempt after SECS (default 60)", .needs = "server"),
    OPT_END
  };
  const struct option_table table = { "compare", compare_usage, compare_epilogue, options,
                                      OPERANDS_ANY, NULL };
  enum option_result rc = options_parse (&table, argc, argv, files);
  if (rc == OPTIONS_OK && c->server && argc - *files != 1)
    {
      gb_error ("compare", "--server compares one result; see 'gmpbench compare --help'");
      return OPTIONS_BAD;
    }
  if (rc == OPTIONS_OK && !c->server && argc - *files < 2)
    {
      gb_error ("compare", "give a base result and at least one other; see 'gmpbench compare --help'");
      return OPTIONS_BAD;
    }
  return rc;
}

/* gmpbench compare --server URL FILE. */
static int
compare_with_server (const struct compare_cmd *c, const char *file)
{
  char err[512];
  const char *origin;
  cJSON *doc = NULL;
  char *url = config_server (c->server, &origin, err, sizeof err);
  int status;

  if (!url)
    {
      gb_error ("compare", "%s", err);
      return EXIT_USAGE;
    }
  if (report_load_file (file, &doc, NULL, err, sizeof err) != 0)
    {
      gb_error ("compare", "%s", err);
      status = 1;
    }
  else
    status = compare_server (stdout, url, file, doc, c->format, &c->uo);
  cJSON_Delete (doc);
  free (url);
  return status;
}

/* Starts a note on stderr about run K. */
static void
note (const struct comparison *c, size_t k)
{
  fprintf (stderr, "gmpbench %s: note: ", c->cmd);
  escape_text (stderr, c->files[k]);
}

/* "quick, 0.2 s per test": how run R was measured. */
static void
print_mode (const struct report *r)
{
  escape_text (stderr, *report_str (r->run, "mode") ? report_str (r->run, "mode") : "unknown mode");
  fprintf (stderr, ", %g s per test", report_num (r->run, DOC_RUN_TIME_PER_TEST));
}

/* The tests run K measured that the base has no row for: a count and the
 * first few names. */
static void
note_extra_tests (const struct comparison *c, size_t k)
{
  enum { SHOWN = 3 };
  const struct report *r = &c->runs[k];
  size_t extra = 0;
  for (size_t i = 0; i < r->nrows; i++)
    if (r->rows[i].result && !find_row (&c->runs[0], r->rows[i].name))
      {
        if (extra == 0)
          {
            note (c, k);
            fputs (" measured tests the base lacks, left out: ", stderr);
          }
        if (extra < SHOWN)
          {
            fputs (extra ? ", " : "", stderr);
            escape_text (stderr, r->rows[i].name);
          }
        extra++;
      }
  if (extra > SHOWN)
    fprintf (stderr, " and %zu more", extra - SHOWN);
  if (extra)
    fputc ('\n', stderr);
}

/* The identity of the CPU of run R (vendor, family, model, stepping), or
 * its name when the document has none. */
static const char *
cpu_identity (const struct report *r)
{
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_CPU);
  return *report_str (cpu, DOC_SYS_CPU_IDENTITY) ? report_str (cpu, DOC_SYS_CPU_IDENTITY)
    : report_str (cpu, DOC_SYS_CPU_NAME);
}

/* Notes on how run K differs from the base beyond its speed. */
static void
note_differences (const struct comparison *c, size_t k)
{
  const struct report *b = &c->runs[0], *r = &c->runs[k];
  note_extra_tests (c, k);
  if (strcmp (report_str (b->run, "mode"), report_str (r->run, "mode")) != 0
      || report_num (b->run, DOC_RUN_TIME_PER_TEST) != report_num (r->run, DOC_RUN_TIME_PER_TEST))
    {
      note (c, k);
      fputs (" was measured differently from the base (", stderr);
      print_mode (r);
      fputs (" against ", stderr);
      print_mode (b);
      fputs ("): its ratios include the difference in budget\n", stderr);
    }
  if (strcmp (cpu_identity (b), cpu_identity (r)) != 0)
    {
      note (c, k);
      fputs (" ran on another CPU than the base (", stderr);
      escape_text (stderr, report_str (cJSON_GetObjectItemCaseSensitive (r->system, DOC_SYS_CPU),
                                       DOC_SYS_CPU_NAME));
      fputs (" against ", stderr);
      escape_text (stderr, report_str (cJSON_GetObjectItemCaseSensitive (b->system, DOC_SYS_CPU),
                                       DOC_SYS_CPU_NAME));
      fputs (")\n", stderr);
    }
}

int
compare_print (FILE *f, const char *cmd, const char *const *names, const cJSON *const *docs,
               size_t n, const struct pair_ratio *paired, size_t npaired,
               enum report_format format, int color)
{
  char err[512];
  struct comparison c = { cmd, names, NULL, n, paired, npaired, NULL, 0 };
  int status = 0;
  c.runs = gb_xcalloc (n, sizeof *c.runs);
  for (size_t k = 0; k < n && status == 0; k++)
    if (report_open (&c.runs[k], docs[k], err, sizeof err) != 0)
      {
        gb_error (cmd, "%s", err);
        status = 1;
      }
  if (status == 0)
    {
      for (size_t k = 1; k < n; k++)
        note_differences (&c, k);
      build (&c);
      if (format == REPORT_JSON)
        print_json (f, &c);
      else if (format == REPORT_CSV)
        print_csv (f, &c);
      else if (format == REPORT_MARKDOWN)
        print_markdown (f, &c);
      else if (format == REPORT_HTML)
        compare_html (f, &c);
      else
        print_text (f, &c, color_palette (color));
    }
  for (size_t i = 0; i < c.nlines; i++)
    free (c.lines[i].cells);
  free (c.lines);
  for (size_t k = 0; k < n; k++)
    report_close (&c.runs[k]);
  free (c.runs);
  return status;
}

int
cmd_compare (int argc, char **argv)
{
  struct compare_cmd c = { REPORT_TEXT, NULL,
                           { "compare", NULL, UPLOAD_DEFAULT_TIMEOUT, COMPARE_RETRIES, 1 } };
  char err[512];
  int files, status = parse_options (argc, argv, &c, &files);
  enum report_format format = c.format;
  if (status != OPTIONS_OK)
    return status == OPTIONS_DONE ? 0 : EXIT_USAGE;
  if (c.server)
    return compare_with_server (&c, argv[files]);

  size_t n = (size_t) (argc - files);
  cJSON **docs = gb_xcalloc (n, sizeof *docs);
  for (size_t k = 0; k < n && status == 0; k++)
    if (report_load_file (argv[files + k], &docs[k], NULL, err, sizeof err) != 0)
      {
        gb_error ("compare", "%s", err);
        status = 1;
      }
  if (status == 0)
    status = compare_print (stdout, "compare", (const char *const *) argv + files,
                            (const cJSON *const *) docs, n, NULL, 0, format,
                            color_wanted (stdout));
  for (size_t k = 0; k < n; k++)
    cJSON_Delete (docs[k]);
  free (docs);
  return status;
}
