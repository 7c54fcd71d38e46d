/* cmd_run.c: `gmpbench run`, the benchmark itself.
 *
 * Chooses the tests, records the machine (with its clock measured before
 * and after), runs each test through the harness, stops at the first wrong
 * result, checks the run's clock against the CPU's counter
 * (engine/clock_check.h), computes the scores and writes the result
 * document.  An interrupted run writes nothing, nor does one whose clock
 * disagrees with the counter: the output file is only ever replaced
 * whole, by rename. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "client/color.h"
#include "client/gmpbench.h"
#include "client/interrupt.h"
#include "client/output.h"
#include "client/progress.h"
#include "client/report.h"
#include "client/upload_options.h"
#include "submit/config.h"
#include "submit/consent.h"
#include "submit/document.h"
#include "submit/identity.h"
#include "submit/redact.h"
#include "submit/submit.h"
#include "client/compare.h"
#include "client/gmp_pin.h"
#include "client/gmp_side.h"
#include "model/doc_schema.h"
#include "model/score.h"
#include "engine/clock_check.h"
#include "engine/threads.h"
#include "sysinfo/sysinfo.h"

#define FULL_TIME_PER_TEST 2.0
#define QUICK_TIME_PER_TEST 0.2

#define STRINGIFY(x) #x
#define SECONDS_TEXT(x) STRINGIFY (x)

static const char run_usage[] =
  "usage: gmpbench run [options]\n"
  "\n"
  "Run the GMPbench hierarchy and print the scores ('gmpbench list' shows\n"
  "the tests that --only and --suite choose from).  With --gmp given more\n"
  "than once, measure the tests against each libgmp in one run, test by\n"
  "test in turn, and print the ratios as 'gmpbench compare' does.\n";

static const char run_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 not saved or rejected, 2 usage error (with\n"
  "--submit also no server set, or no consent to the first upload to it,\n"
  "see --yes: nothing is run), 3 a test computed a wrong result or its\n"
  "outputs were stale or cached, 4 the system clock disagrees with the CPU's\n"
  "counter (nothing is written), 75 --submit queued the result for later,\n"
  "130 (SIGINT) or 143 (SIGTERM) interrupted (nothing is written).  A\n"
  "progress bar is drawn on stderr when it is a terminal, a plain line per\n"
  "finished test otherwise; colour is used on a terminal unless NO_COLOR is\n"
  "set.\n";

/* The values of --gmp, as given. */
struct gmp_list
{
  const char **names;
  size_t n;
};

struct run_options
{
  struct test_selection sel;
  double time_per_test;
  int quick, custom_time, quiet, verbose;
  enum report_format format;
  const char *output;
  unsigned threads;             /* 0: single-threaded only */
  double cpu_ghz;               /* 0: use the measured clock */
  const char *key_file;
  unsigned redact;              /* --redact: REDACT_* of submit/redact.h */
  int submit;
  struct submit_options so;
  struct gb_identity id;
  struct gmp_list gmp;
  int worker;                   /* a worker of a --gmp run (gmp_side.h) */
};

/* Fail early, before minutes of benchmarking, if FILE cannot be written:
 * a device or FIFO must be writable (opening a FIFO would wait for its
 * reader), a file's directory must take a new file. */
static int
check_writable (const char *file)
{
  if (document_special_path (file))
    {
      if (access (file, W_OK) == 0)
        return 0;
      gb_error ("run", "cannot write the output file '%s': %s", file, strerror (errno));
      return -1;
    }
  size_t len = strlen (file) + 32;
  char *probe = gb_xmalloc (len);
  snprintf (probe, len, "%s.tmp.%ld", file, (long) getpid ());
  int fd = open (probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
  int saved = errno;
  if (fd >= 0)
    {
      close (fd);
      unlink (probe);
    }
  free (probe);
  if (fd < 0)
    {
      gb_error ("run", "cannot write the output file '%s': %s", file, strerror (saved));
      return -1;
    }
  return 0;
}

static enum option_result
threads_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  unsigned *threads = opt->value;
  char *end;
  if (strcmp (arg, "all") == 0)
    {
      *threads = threads_usable_cpus ();
      return OPTIONS_OK;
    }
  unsigned long n = strtoul (arg, &end, 10);
  if (end == arg || *end || n < 1 || n > 1024)
    {
      gb_error (cmd, "--threads '%s' is not a count from 1 to 1024 or 'all'", arg);
      return OPTIONS_BAD;
    }
  *threads = (unsigned) n;
  return OPTIONS_OK;
}

static enum option_result
cpu_ghz_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  double *ghz = opt->value;
  char *end;
  *ghz = strtod (arg, &end);
  if (end == arg || *end || !(*ghz > 0 && *ghz < 100))
    {
      gb_error (cmd, "--cpu-ghz '%s' is not a clock in GHz", arg);
      return OPTIONS_BAD;
    }
  return OPTIONS_OK;
}

static enum option_result
redact_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  char err[256];
  if (redact_parse (arg, opt->value, err, sizeof err) != 0)
    {
      gb_error (cmd, "%s", err);
      return OPTIONS_BAD;
    }
  return OPTIONS_OK;
}

static enum option_result
gmp_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  struct gmp_list *g = opt->value;
  (void) cmd;
  g->names = gb_xrealloc (g->names, (g->n + 1) * sizeof *g->names);
  g->names[g->n++] = arg;
  return OPTIONS_OK;
}

static int
parse_options (int argc, char **argv, struct run_options *o)
{
  const struct gb_option options[] = {
    OPT_FLAG (0, "quick", &o->quick,
              "the same tests with a short budget per test ("
              SECONDS_TEXT (QUICK_TIME_PER_TEST) " s)"),
    OPT_SECONDS (0, "time-per-test", &o->time_per_test,
                 "budget per test (default " SECONDS_TEXT (FULL_TIME_PER_TEST) " s)"),
    SELECTION_OPTIONS (&o->sel),
    OPT_CALLBACK (0, "threads", "N|all", &o->threads, threads_option,
                  "also run N copies of each test at once (all: every\n"
                  "usable CPU) and report all-core throughput"),
    OPT_CALLBACK (0, "gmp", "LIB", &o->gmp, gmp_option,
                  "measure with this libgmp (a libgmp.so.10 file, a\n"
                  "directory or prefix holding libgmp.so, or 'system':\n"
                  "the one gmpbench was linked with); repeatable: each\n"
                  "gets its own result, FILE.gmpN.json with -o FILE.json\n"
                  "(scripts/build-gmp builds one for this CPU)"),
    OPT_CALLBACK (0, "cpu-ghz", "GHZ", &o->cpu_ghz, cpu_ghz_option,
                  "the clock for cycles figures (default: measured)"),
    OPT_CALLBACK (0, "format", "FORMAT", &o->format, report_format_option,
                  "what to print on standard output: text (default),\n"
                  "json (the result document), html (a self-contained\n"
                  "page with charts), csv or markdown"),
    OPT_STRING ('o', "output", "FILE", &o->output,
                "write the result document (JSON) to FILE and its\n"
                "signature to FILE.sig (none for a device or FIFO)"),
    OPT_STRING (0, "key", "FILE", &o->key_file,
                "sign with this key instead of your identity"),
    OPT_CALLBACK (0, "redact", "WHAT", &o->redact, redact_option,
                  "leave out of the result (comma-separated): machine,\n"
                  "the board or system model; kernel, the kernel's\n"
                  "build string (its version stays)"),
    OPT_FLAG ('q', "quiet", &o->quiet, "no progress bar, no notes on stderr"),
    OPT_FLAG ('v', "verbose", &o->verbose,
              "a line on stderr for each finished test under the\n"
              "progress bar too"),
    OPT_FLAG (0, "submit", &o->submit,
              "upload the signed result (see 'gmpbench submit');\n"
              "the options below need it"),
    UPLOAD_UNLISTED_OPTION (&o->so, "submit"),
    UPLOAD_OPTIONS (&o->so, "submit"),
    UPLOAD_CONSENT_OPTION (&o->so, "submit"),
    OPT_END
  };
  const struct option_table table = { "run", run_usage, run_epilogue, options, 0, NULL };
  enum option_result rc = options_parse (&table, argc, argv, NULL);
  if (rc != OPTIONS_OK)
    return rc;
  o->custom_time = o->time_per_test > 0;
  if (!o->custom_time)
    o->time_per_test = o->quick ? QUICK_TIME_PER_TEST : FULL_TIME_PER_TEST;
  o->sel.quick = o->quick;
  if (o->gmp.n && o->threads)
    {
      gb_error ("run", "--threads cannot be combined with --gmp");
      return OPTIONS_BAD;
    }
  return OPTIONS_OK;
}

/* Stops the run at a wrong or interrupted test: 0 to go on, otherwise
 * the exit status. */
static int
verdict (enum runner_status st, const struct test_result *r, struct progress *prog)
{
  if (st == RUNNER_INTERRUPTED || interrupt_signal)
    {
      interrupt_disarm ();
      progress_clear (prog);
      gb_error ("run", "interrupted; no result was written");
      return interrupt_exit_status ();
    }
  if (st == RUNNER_FAILED)
    {
      progress_clear (prog);
      gb_error ("run", r->stale ? "%s: its outputs were stale or cached: %s. This run has "
                "no score." : "%s computed a wrong result: %s. This run has no score.",
                r->test->name, r->message);
      return EXIT_WRONG;
    }
  return 0;
}

/* Runs every selected test, interleaved (runner.h), and with --threads
 * then each one's all-core copies, under an emulator when EMULATED
 * (fresh.h); returns 0, EXIT_WRONG or EXIT_INTERRUPTED. */
static int
run_tests (const struct run_options *o, int emulated, struct test_result *results,
           struct test_result *threaded, double *efficiency)
{
  struct harness_config cfg;
  struct progress prog;
  size_t n = o->sel.ntests, failed = 0;
  harness_default_config (&cfg, o->time_per_test);
  cfg.emulated = emulated;
  progress_init (&prog, !o->quiet && isatty (STDERR_FILENO),
                 !o->quiet && (o->verbose || !isatty (STDERR_FILENO)),
                 o->threads ? 2 * n : n);
  prog.later = o->threads ? (double) n * o->time_per_test : 0;
  struct runner_progress hooks = progress_hooks (&prog);
  enum runner_status st = o->worker
    ? gmp_worker_measure (o->sel.tests, o->sel.ops, n, &cfg, results, &failed, &interrupt_signal)
    : runner_run_tests (o->sel.tests, o->sel.ops, n, &cfg, results, &failed, &interrupt_signal,
                        &hooks);
  int status = verdict (st, &results[failed], &prog);
  /* The all-core phase's time left: the budget per test until one is
   * measured, then the phase's seconds per test so far. */
  double phase_start = gb_wall_seconds ();
  size_t measured = 0;
  for (size_t i = 0; i < n && status == 0 && o->threads; i++)
    {
      if (results[i].outcome != BENCH_OK)
        {
          threaded[i] = results[i];     /* skipped in both runs, and says why */
          continue;
        }
      double per_test = measured ? (gb_wall_seconds () - phase_start) / (double) measured
        : o->time_per_test;
      progress_show (&prog, n + i, o->sel.tests[i]->name, (double) (n - i) * per_test);
      status = verdict (threads_measure (o->sel.tests[i], o->sel.ops[i], &cfg, o->threads,
                                         &threaded[i], &efficiency[i], &interrupt_signal),
                        &threaded[i], &prog);
      measured++;
      if (status == 0)
        progress_done (&prog, n + i + 1, &threaded[i]);
    }
  progress_clear (&prog);
  return status;
}

/* The run's clock judged against the CPU's counter (engine/clock_check.h)
 * now that every test is measured: 0, or EXIT_CLOCK with the message. */
static int
check_clock (struct clock_check *c, const struct run_options *o,
             const struct test_result *results, const struct test_result *threaded)
{
  const char *which = clock_check_finish (c, results, o->threads ? threaded : NULL,
                                          o->sel.ntests);
  if (!which)
    return 0;
  if (strcmp (which, "the run") == 0)
    gb_error ("run", "the system clock disagrees with the CPU's counter: %s (the counter "
              "ran at %.3f MHz before the tests, %.3f MHz after). No result was written.",
              which, c->rate_before / 1e6, c->rate_after / 1e6);
  else
    gb_error ("run", "the system clock disagrees with the CPU's counter: %s (its samples "
              "read %.2f%% %s time on the clock than on the counter). No result was written.",
              which, fabs (c->deviation) * 100, c->deviation < 0 ? "less" : "more");
  return EXIT_CLOCK;
}

/* The scores of the measured RESULTS; free with score_free. */
static size_t
scores_of (const struct test_result *results, size_t n, int quick, struct score_node **out)
{
  struct score_input *in = gb_xmalloc ((n ? n : 1) * sizeof *in);
  size_t nin = 0;
  for (size_t i = 0; i < n; i++)
    if (results[i].outcome == BENCH_OK)
      {
        in[nin].name = results[i].test->name;
        in[nin++].ops_per_sec = results[i].m.ops_per_sec;
      }
  size_t count = score_compute_run (in, nin, quick ? BENCH_FULL_ONLY : 0, out);
  free (in);
  return count;
}

/* The clock for cycles figures: --cpu-ghz, else the measured one when it
 * is valid, else none (0). */
static double
clock_ghz (const struct run_options *o, const cJSON *system)
{
  if (o->cpu_ghz > 0)
    return o->cpu_ghz;
  const cJSON *clock = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CLOCK);
  const cJSON *measured = cJSON_GetObjectItemCaseSensitive (clock, DOC_SYS_CLOCK_MEASURED);
  const cJSON *mhz = cJSON_GetObjectItemCaseSensitive (measured, DOC_SYS_MEASURED_MHZ);
  const cJSON *valid = cJSON_GetObjectItemCaseSensitive (measured, DOC_SYS_MEASURED_VALID);
  return cJSON_IsNumber (mhz) && !cJSON_IsFalse (valid) ? mhz->valuedouble / 1000 : 0;
}

/* Uploads the signed BYTES for --submit; the exit status of the upload. */
static int
upload (const struct run_options *o, const char *output, const char *bytes, size_t len,
        const char *sig, int saved)
{
  struct submit_options so = o->so;
  so.quiet = o->quiet;
  so.local_copy = saved ? output : NULL;
  return submit_document (bytes, len, sig, &so);
}

/* Fail early, before minutes of benchmarking, on a server URL that
 * --submit could not use, or none set; with the signing identity loaded
 * (CONSENT), also on a first upload to it that is not consented to
 * (asked here, before the run, when there is a terminal). */
static int
check_server (const struct run_options *o, int consent)
{
  char err[512];
  const char *origin;
  char *url = config_server (o->so.server, &origin, err, sizeof err);
  int rc = 0;
  if (!url)
    {
      gb_error ("run", "%s; nothing was run", err);
      return -1;
    }
  if (consent && !o->so.dry_run
      && consent_obtain ("run", url, o->id.public_b64, o->so.yes) != 0)
    {
      gb_error ("run", "nothing was run (without --submit nothing is uploaded)");
      rc = -1;
    }
  free (url);
  return rc;
}

/* Prints DOC (serialised as BYTES, saved in OUTPUT when SAVED) on stdout
 * in the chosen format. */
static void
print_report (const struct run_options *o, const cJSON *doc, const char *bytes,
              const char *output, int saved)
{
  struct report r;
  char err[256];
  if (report_open (&r, doc, err, sizeof err) != 0)
    {
      gb_error ("run", "%s", err);
      return;
    }
  r.bytes = bytes;
  r.command = "run";
  report_write (stdout, &r, o->format, color_wanted (stdout));
  if (saved && o->format == REPORT_TEXT)
    printf ("\nresult written to %s (signature %s.sig)\n", output, output);
  report_close (&r);
}

/* Redacts DOC as --redact asks, signs it, writes it to OUTPUT (unless
 * NULL), prints its report when REPORT, and uploads it with --submit. */
static int
emit (struct run_options *o, cJSON *doc, const char *output, int report)
{
  char sig[SIGN_B64_LEN + 1], err[512];
  size_t len;
  redact_apply (doc, o->redact);
  char *bytes = identity_sign_document (&o->id, doc, &len, sig);
  int status = 0, saved = 0;
  /* Nothing goes next to a device or FIFO (-o /dev/null, /dev/stdout). */
  int special = output && document_special_path (output);
  if (!bytes)
    {
      gb_error ("run", "cannot sign the result (OpenSSL error); nothing was written");
      return 1;
    }
  if (output && document_write_atomic (output, bytes, len) != 0)
    {
      snprintf (err, sizeof err, "cannot write the output file '%s': %s", output,
                strerror (errno));
      status = 1;
    }
  else if (output && !special && sign_write_file (output, sig, err, sizeof err) != 0)
    status = 1;
  else
    saved = output != NULL && !special;
  if (status && !o->submit)
    submit_rescue (&o->so, err, bytes, len, sig);
  else if (status)
    gb_error ("run", "%s", err);
  if (report)
    print_report (o, doc, bytes, output, saved);
  fflush (stdout);
  if (o->submit)
    {
      int st = upload (o, output, bytes, len, sig, saved);
      if (status == 0)
        status = st;
    }
  free (bytes);
  return status;
}

/* Loads (or on first use creates) the signing identity before any test
 * runs, so that a broken key file stops the run early.  A new identity is
 * announced even with --quiet: the user should know a key was made. */
static int
load_identity (struct run_options *o)
{
  char err[512];
  if (identity_load (o->key_file, 1, &o->id, err, sizeof err) != 0)
    {
      gb_error ("run", "%s", err);
      return -1;
    }
  if (o->id.created)
    fprintf (stderr, "gmpbench run: created your signing key %s (fingerprint %s)\n",
             o->id.path, o->id.fingerprint);
  return 0;
}

/* The result document of a finished run; takes ownership of SYSTEM, to
 * which it adds the clock measured after the run. */
static cJSON *
build_document (const struct run_options *o, cJSON *system,
                const struct test_result *results, const struct test_result *threaded,
                const double *efficiency)
{
  cJSON *clock = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CLOCK);
  if (cJSON_IsObject (clock))
    cJSON_AddItemToObject (clock, DOC_SYS_CLOCK_MEASURED_AFTER, sysinfo_measure_clock ());
  double ghz = clock_ghz (o, system);
  struct score_node *scores;
  size_t nscores = scores_of (results, o->sel.ntests, o->quick, &scores);
  /* The clock of the cycles figures: given with --cpu-ghz, or the
   * measured one; none when neither is known. */
  struct run_info info = {
    o->sel.npatterns || o->sel.nsuite_names || o->custom_time ? DOC_MODE_CUSTOM
      : o->quick ? DOC_MODE_QUICK : DOC_MODE_FULL,
    o->quick, o->time_per_test, o->sel.patterns, o->sel.npatterns,
    o->threads ? (int) o->threads : 1, o->sel.suite_names, o->sel.nsuite_names,
    ghz, o->cpu_ghz > 0 ? "given" : "measured"
  };
  cJSON *cmp = compare_build (results, o->sel.ntests);
  if (ghz > 0)
    compare_add_cycles (cmp, ghz);
  cJSON *doc = document_build (&info, system, results, o->sel.ntests, scores, nscores, cmp);
  score_free (scores, nscores);
  if (o->threads)
    {
      struct score_node *tscores;
      size_t ntscores = scores_of (threaded, o->sel.ntests, o->quick, &tscores);
      document_add_threads (doc, o->threads, threaded, efficiency, o->sel.ntests,
                            tscores, ntscores);
      score_free (tscores, ntscores);
    }
  return doc;
}

/* The output file of the K-th of N --gmp libraries: FILE.gmpK.json for
 * FILE.json, FILE.gmpK otherwise; a device or FIFO as it is. */
static char *
build_output (const char *file, size_t k)
{
  size_t len = strlen (file) + 32;
  char *out = gb_xmalloc (len);
  const char *dot = strrchr (file, '.');
  if (document_special_path (file))
    snprintf (out, len, "%s", file);
  else if (dot && strcmp (dot, ".json") == 0 && !strchr (dot, '/'))
    snprintf (out, len, "%.*s.gmp%zu.json", (int) (dot - file), file, k + 1);
  else
    snprintf (out, len, "%s.gmp%zu", file, k + 1);
  return out;
}

/* The comparison of the builds' documents DOCS on stdout, the first the
 * base, each named by its library and output file, with the RATIOS of
 * their paired visits (gmp_side_run's). */
static void
print_builds (const struct run_options *o, char **paths, char **outputs, cJSON **docs,
              const struct pair_ratio *ratios)
{
  char **names = gb_xcalloc (o->gmp.n, sizeof *names);
  for (size_t k = 0; k < o->gmp.n; k++)
    {
      size_t len = strlen (paths[k]) + (outputs[k] ? strlen (outputs[k]) : 0) + 8;
      names[k] = gb_xmalloc (len);
      snprintf (names[k], len, "%s%s%s%s", paths[k], outputs[k] ? " (" : "",
                outputs[k] ? outputs[k] : "", outputs[k] ? ")" : "");
    }
  compare_print (stdout, "run", (const char *const *) names, (const cJSON *const *) docs,
                 o->gmp.n, ratios, o->sel.ntests, o->format, color_wanted (stdout));
  fflush (stdout);
  for (size_t k = 0; k < o->gmp.n; k++)
    free (names[k]);
  free (names);
}

/* gmpbench run --gmp A --gmp B...: every library's run side by side
 * (gmp_side.h), each document signed, saved, uploaded like a single
 * run's, and the ratios printed (a single --gmp: its report). */
static int
run_builds (struct run_options *o, int argc, char **argv)
{
  size_t n = o->gmp.n;
  char **paths = gb_xcalloc (n, sizeof *paths), **outputs = gb_xcalloc (n, sizeof *outputs);
  cJSON **docs = gb_xcalloc (n, sizeof *docs);
  struct pair_ratio *ratios = gb_xcalloc ((n - 1) * o->sel.ntests + 1, sizeof *ratios);
  int status = gmp_side_resolve (o->gmp.names, n, paths) == 0 ? 0 : EXIT_USAGE;
  for (size_t k = 0; k < n && status == 0 && o->output; k++)
    {
      outputs[k] = build_output (o->output, k);
      if (check_writable (outputs[k]) != 0)
        status = EXIT_USAGE;
    }
  if (status == 0 && o->submit && check_server (o, 0) != 0)
    status = EXIT_USAGE;
  if (status == 0 && load_identity (o) != 0)
    status = 1;
  if (status == 0 && o->submit && check_server (o, 1) != 0)
    status = EXIT_USAGE;
  if (status == 0)
    {
      struct gmp_side side = { argc, argv, paths, n, &o->sel, o->quiet, o->verbose };
      interrupt_install ();
      status = gmp_side_run (&side, &interrupt_signal, docs, ratios);
    }
  if (status == 0)
    {
      interrupt_disarm ();
      if (n > 1)
        print_builds (o, paths, outputs, docs, ratios);
      for (size_t k = 0; k < n; k++)
        {
          int st = emit (o, docs[k], outputs[k], n == 1);
          if (status == 0)
            status = st;
          if (n > 1 && outputs[k] && o->format == REPORT_TEXT && st == 0
              && !document_special_path (outputs[k]))
            printf ("result of %s written to %s (signature %s.sig)\n", paths[k], outputs[k],
                    outputs[k]);
        }
    }
  for (size_t k = 0; k < n; k++)
    {
      cJSON_Delete (docs[k]);
      free (paths[k]);
      free (outputs[k]);
    }
  free (docs);
  free (ratios);
  free (paths);
  free (outputs);
  return status;
}

/* A worker's document, unsigned, with its CPU (gmp_pin.h), handed to its
 * run (gmp_worker.c). */
static int
hand_over (cJSON *doc)
{
  cJSON_AddItemToObject (cJSON_GetObjectItemCaseSensitive (doc, DOC_RUN), DOC_RUN_PINNING,
                         gmp_pin_member ());
  char *json = cJSON_PrintUnformatted (doc);
  int status = gmp_worker_send_document (json);
  free (json);
  return status;
}

/* One run: the tests measured with the libgmp this process has, in a
 * worker of a --gmp run or on their own. */
static int
run_one (struct run_options *o)
{
  struct clock_check counter;
  interrupt_install ();
  clock_check_start (&counter);
  struct sysinfo_options sopt = { NULL, 1 };
  cJSON *system = sysinfo_collect (&sopt);
  struct test_result *results = gb_xcalloc (o->sel.ntests, sizeof *results);
  struct test_result *threaded = gb_xcalloc (o->sel.ntests, sizeof *threaded);
  double *efficiency = gb_xcalloc (o->sel.ntests, sizeof *efficiency);
  const cJSON *cpu = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CPU);
  int emulated = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (cpu, DOC_SYS_CPU_EMULATED));
  int status = run_tests (o, emulated, results, threaded, efficiency);
  if (status == 0)
    status = check_clock (&counter, o, results, threaded);
  if (status == 0)
    {
      interrupt_disarm ();
      cJSON *doc = build_document (o, system, results, threaded, efficiency);
      document_add_clock_check (doc, &counter);
      system = NULL;
      status = o->worker ? hand_over (doc) : emit (o, doc, o->output, 1);
      cJSON_Delete (doc);
    }
  free (threaded);
  free (efficiency);
  cJSON_Delete (system);
  free (results);
  return status;
}

int
cmd_run (int argc, char **argv)
{
  struct run_options o;
  memset (&o, 0, sizeof o);
  o.worker = gmp_worker_active ();
  submit_options_init (&o.so, "run");
  selection_init (&o.sel);
  int status = parse_options (argc, argv, &o);
  if (status == 0 && selection_resolve (&o.sel, "run") != 0)
    status = -1;
  if (status == 0 && o.worker)
    {
      o.quiet = 1;
      status = gmp_worker_check_library () == 0 ? run_one (&o) : 1;
    }
  else if (status == 0 && o.gmp.n)
    status = run_builds (&o, argc, argv);
  else
    {
      if (status == 0 && o.output && check_writable (o.output) != 0)
        status = -1;
      if (status == 0 && o.submit && check_server (&o, 0) != 0)
        status = -1;
      if (status != 0)
        status = status > 0 ? 0 : EXIT_USAGE;
      else if (load_identity (&o) != 0)
        status = 1;
      else if (o.submit && check_server (&o, 1) != 0)
        status = EXIT_USAGE;
      else
        status = run_one (&o);
    }
  free (o.gmp.names);
  selection_free (&o.sel);
  identity_free (&o.id);
  return status;
}
