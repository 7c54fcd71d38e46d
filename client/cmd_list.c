/* cmd_list.c: `gmpbench list`, the tests of the hierarchy as a tree or as
 * JSON, optionally with the reference digest each test computes. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "client/gmpbench.h"
#include "client/output.h"
#include "suites/runner.h"
#include "suites/suites.h"

static const char list_usage[] =
  "usage: gmpbench list [options]\n"
  "\n"
  "Print the tests of the hierarchy.\n"
  "  --format text|json      a tree (default), or a JSON array of tests with\n"
  "                          name, suite, weight and compat\n"
  "  --only PATTERN          only tests matching the glob or in the subtree\n"
  "                          (repeatable)\n"
  "  --suite NAME            only the tests of a suite (repeatable); '--suite\n"
  "                          help' lists the suites of this build\n"
  "  --digests               run each test once, check it, and print the SHA-256\n"
  "                          of its outputs (the reference digests)\n"
  "  -h, --help              this text\n"
  "\n"
  "Exit status: 0 success, 2 usage error, 3 a test computed a wrong result\n"
  "(--digests).\n";

static int
print_digests (const struct bench_test **tests, size_t n, int json)
{
  volatile sig_atomic_t never = 0;
  cJSON *arr = cJSON_CreateArray ();
  int status = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct test_result r;
      runner_run_test (tests[i], NULL, 0, &r, &never);
      if (r.outcome == BENCH_FAILED)
        {
          gb_error ("list", "%s: %s", tests[i]->name, r.message);
          status = EXIT_WRONG;
          continue;
        }
      if (r.outcome == BENCH_SKIPPED)
        continue;
      if (json)
        {
          cJSON *o = cJSON_CreateObject ();
          cJSON_AddStringToObject (o, "name", tests[i]->name);
          cJSON_AddStringToObject (o, "digest", r.digest);
          cJSON_AddItemToArray (arr, o);
        }
      else
        printf ("%s  %s\n", r.digest, tests[i]->name);
    }
  if (json)
    output_json_print (stdout, arr);
  cJSON_Delete (arr);
  return status;
}

int
cmd_list (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "format", required_argument, NULL, 'f' },
    { "only", required_argument, NULL, 'O' },
    { "suite", required_argument, NULL, 'S' },
    { "digests", no_argument, NULL, 'd' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  struct test_selection sel;
  const char *format = "text";
  int digests = 0, c;

  selection_init (&sel);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'f': format = optarg; break;
      case 'O': selection_add_pattern (&sel, optarg); break;
      case 'S':
        if (strcmp (optarg, "help") == 0)
          {
            selection_print_suites (stdout);
            selection_free (&sel);
            return 0;
          }
        selection_add_suite (&sel, optarg);
        break;
      case 'd': digests = 1; break;
      case 'h': fputs (list_usage, stdout); selection_free (&sel); return 0;
      case ':':
        gb_error ("list", "option '%s' needs a value", argv[optind - 1]);
        selection_free (&sel);
        return EXIT_USAGE;
      default:
        gb_error ("list", "unknown option '%s'; see 'gmpbench list --help'", argv[optind - 1]);
        selection_free (&sel);
        return EXIT_USAGE;
      }
  int status = 0;
  if (strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      gb_error ("list", "unknown format '%s' (use text or json)", format);
      status = EXIT_USAGE;
    }
  else if (optind < argc)
    {
      gb_error ("list", "unexpected argument '%s'", argv[optind]);
      status = EXIT_USAGE;
    }
  else if (selection_resolve (&sel, "list") != 0)
    status = EXIT_USAGE;
  else if (digests)
    status = print_digests (sel.tests, sel.ntests, strcmp (format, "json") == 0);
  else if (strcmp (format, "json") == 0)
    {
      cJSON *arr = cJSON_CreateArray ();
      for (size_t i = 0; i < sel.ntests; i++)
        {
          const struct bench_test *t = sel.tests[i];
          cJSON *o = cJSON_CreateObject ();
          cJSON_AddStringToObject (o, "name", t->name);
          cJSON_AddStringToObject (o, "suite", sel.suites[i]);
          cJSON_AddNumberToObject (o, "weight", registry_test_weight (t->name));
          cJSON_AddBoolToObject (o, "compat", (t->flags & BENCH_COMPAT) != 0);
          cJSON_AddItemToArray (arr, o);
        }
      output_json_print (stdout, arr);
      cJSON_Delete (arr);
    }
  else
    output_text_tree (stdout, sel.tests, sel.ntests);
  selection_free (&sel);
  return status;
}
