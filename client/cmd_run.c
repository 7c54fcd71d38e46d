/* cmd_run.c: `gmpbench run`, the benchmark itself.
 *
 * Chooses the tests, records the machine (with its clock measured before
 * and after), runs each test through the harness, stops at the first wrong
 * result, computes the scores and writes the result document.  An
 * interrupted run writes nothing: the output file is only ever replaced
 * whole, by rename. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "client/gmpbench.h"
#include "client/output.h"
#include "client/progress.h"
#include "submit/document.h"
#include "suites/score.h"
#include "sysinfo/sysinfo.h"

#define FULL_TIME_PER_TEST 2.0
#define QUICK_TIME_PER_TEST 0.2

static const char run_usage[] =
  "usage: gmpbench run [options]\n"
  "\n"
  "Run the GMPbench hierarchy and print the scores.\n"
  "  --quick                 the same tests with a short budget per test (%.1f s)\n"
  "  --time-per-test SECS    budget per test (default %.1f s)\n"
  "  --only PATTERN          only tests matching the glob PATTERN, or the subtree\n"
  "                          it names (repeatable); 'gmpbench list' shows names\n"
  "  --suite NAME            only the tests of a suite: base, app, ext (repeatable)\n"
  "  --format text|json      what to print on standard output (default text)\n"
  "  -o, --output FILE       write the result document (JSON) to FILE\n"
  "  -q, --quiet             no progress display\n"
  "  -h, --help              this text\n"
  "\n"
  "Exit status: 0 success, 2 usage error, 3 a test computed a wrong result,\n"
  "130 interrupted (nothing is written).\n";

static volatile sig_atomic_t interrupted;

static void
on_signal (int sig)
{
  (void) sig;
  interrupted = 1;
}

struct run_options
{
  struct test_selection sel;
  double time_per_test;
  int quick, custom_time, quiet, json;
  const char *output;
};

/* Fail early, before minutes of benchmarking, if FILE cannot be written. */
static int
check_writable (const char *file)
{
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

static int
parse_options (int argc, char **argv, struct run_options *o)
{
  static const struct option longopts[] = {
    { "quick", no_argument, NULL, 'Q' },
    { "time-per-test", required_argument, NULL, 'T' },
    { "only", required_argument, NULL, 'O' },
    { "suite", required_argument, NULL, 'S' },
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":o:qh", longopts, NULL)) != -1)
    switch (c)
      {
      case 'Q': o->quick = 1; break;
      case 'T':
        if (gb_parse_seconds (optarg, &o->time_per_test) != 0)
          {
            gb_error ("run", "--time-per-test '%s' is not a number of seconds in (0, 3600]", optarg);
            return -1;
          }
        o->custom_time = 1;
        break;
      case 'O': selection_add_pattern (&o->sel, optarg); break;
      case 'S': selection_add_suite (&o->sel, optarg); break;
      case 'f':
        if (strcmp (optarg, "json") == 0)
          o->json = 1;
        else if (strcmp (optarg, "text") != 0)
          {
            gb_error ("run", "unknown format '%s' (use text or json)", optarg);
            return -1;
          }
        break;
      case 'o': o->output = optarg; break;
      case 'q': o->quiet = 1; break;
      case 'h':
        printf (run_usage, QUICK_TIME_PER_TEST, FULL_TIME_PER_TEST);
        return 1;
      case ':':
        gb_error ("run", "option '%s' needs a value", argv[optind - 1]);
        return -1;
      default:
        gb_error ("run", "unknown option '%s'; see 'gmpbench run --help'", argv[optind - 1]);
        return -1;
      }
  if (optind < argc)
    {
      gb_error ("run", "unexpected argument '%s'; see 'gmpbench run --help'", argv[optind]);
      return -1;
    }
  if (!o->custom_time)
    o->time_per_test = o->quick ? QUICK_TIME_PER_TEST : FULL_TIME_PER_TEST;
  o->sel.quick = o->quick;
  return 0;
}

/* Runs every selected test; returns 0, EXIT_WRONG or EXIT_INTERRUPTED. */
static int
run_tests (const struct run_options *o, struct test_result *results)
{
  struct harness_config cfg;
  struct progress prog;
  harness_default_config (&cfg, o->time_per_test);
  progress_init (&prog, !o->quiet && isatty (2), o->sel.ntests, o->time_per_test);
  for (size_t i = 0; i < o->sel.ntests; i++)
    {
      const struct bench_test *t = o->sel.tests[i];
      progress_show (&prog, i, t->name);
      enum runner_status st = runner_run_test (t, &cfg, 0, &results[i], &interrupted);
      if (st == RUNNER_INTERRUPTED || interrupted)
        {
          progress_clear (&prog);
          gb_error ("run", "interrupted; no result was written");
          return EXIT_INTERRUPTED;
        }
      if (st == RUNNER_FAILED)
        {
          progress_clear (&prog);
          gb_error ("run", "%s computed a wrong result: %s. This run has no score.",
                    t->name, results[i].message);
          return EXIT_WRONG;
        }
    }
  progress_clear (&prog);
  return 0;
}

static int
emit (const struct run_options *o, cJSON *doc, const struct test_result *results,
      const struct score_node *scores, size_t nscores)
{
  char *bytes = document_serialize (doc);
  int status = 0;
  if (o->output && document_write_atomic (o->output, bytes, strlen (bytes)) != 0)
    {
      gb_error ("run", "cannot write the output file '%s': %s", o->output, strerror (errno));
      status = 1;
    }
  if (o->json)
    fputs (bytes, stdout);
  else
    {
      sysinfo_print_summary (stdout, cJSON_GetObjectItemCaseSensitive (doc, "system"));
      putchar ('\n');
      output_text_tree (stdout, o->sel.tests, o->sel.ntests, results, scores, nscores);
      if (o->output && status == 0)
        printf ("\nresult written to %s\n", o->output);
    }
  free (bytes);
  return status;
}

int
cmd_run (int argc, char **argv)
{
  struct run_options o;
  memset (&o, 0, sizeof o);
  selection_init (&o.sel);
  int status = parse_options (argc, argv, &o);
  if (status == 0 && selection_resolve (&o.sel, "run") != 0)
    status = -1;
  if (status == 0 && o.output && check_writable (o.output) != 0)
    status = -1;
  if (status != 0)
    {
      selection_free (&o.sel);
      return status > 0 ? 0 : EXIT_USAGE;
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  struct sysinfo_options sopt = { NULL, 1 };
  cJSON *system = sysinfo_collect (&sopt);
  struct test_result *results = gb_xcalloc (o.sel.ntests, sizeof *results);
  status = run_tests (&o, results);
  if (status == 0)
    {
      cJSON *clock = cJSON_GetObjectItemCaseSensitive (system, "clock");
      if (cJSON_IsObject (clock))
        cJSON_AddItemToObject (clock, "measured_after", sysinfo_measure_clock ());

      struct score_input *in = gb_xmalloc (o.sel.ntests * sizeof *in);
      size_t nin = 0;
      for (size_t i = 0; i < o.sel.ntests; i++)
        if (results[i].outcome == BENCH_OK)
          {
            in[nin].name = results[i].test->name;
            in[nin++].ops_per_sec = results[i].m.ops_per_sec;
          }
      struct score_node *scores;
      size_t nscores = score_compute (in, nin, &scores);
      struct run_info info = {
        o.sel.npatterns || o.sel.nsuite_names || o.custom_time ? "custom"
          : o.quick ? "quick" : "full",
        o.time_per_test, o.sel.patterns, o.sel.npatterns, 1
      };
      cJSON *doc = document_build (&info, system, results, o.sel.ntests, scores, nscores);
      system = NULL;
      status = emit (&o, doc, results, scores, nscores);
      cJSON_Delete (doc);
      score_free (scores, nscores);
      free (in);
    }
  cJSON_Delete (system);
  free (results);
  selection_free (&o.sel);
  return status;
}
