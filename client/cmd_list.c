/* cmd_list.c: `gmpbench list`, the tests of the hierarchy as a tree or as
 * JSON, optionally with the reference digest each test computes. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "client/gmpbench.h"
#include "client/output.h"
#include "engine/runner.h"
#include "model/registry.h"

static const char list_usage[] =
  "usage: gmpbench list [options]\n"
  "\n"
  "Print the tests of the hierarchy.\n";

static const char list_epilogue[] =
  "\n"
  "Exit status: 0 success, 2 usage error, 3 a test computed a wrong result\n"
  "(--digests).\n";

static int
print_digests (const struct test_selection *sel, int json)
{
  volatile sig_atomic_t never = 0;
  cJSON *arr = cJSON_CreateArray ();
  int status = 0;
  for (size_t i = 0; i < sel->ntests; i++)
    {
      const struct bench_test *t = sel->tests[i];
      struct test_result r;
      runner_run_test (t, sel->ops[i], NULL, 0, &r, &never);
      if (r.outcome == BENCH_FAILED)
        {
          gb_error ("list", "%s: %s", t->name, r.message);
          status = EXIT_WRONG;
          continue;
        }
      if (r.outcome == BENCH_SKIPPED)
        continue;
      if (json)
        {
          cJSON *o = cJSON_CreateObject ();
          cJSON_AddStringToObject (o, "name", t->name);
          cJSON_AddStringToObject (o, "digest", r.digest);
          cJSON_AddItemToArray (arr, o);
        }
      else
        printf ("%s  %s\n", r.digest, t->name);
    }
  if (json)
    output_json_print (stdout, arr);
  cJSON_Delete (arr);
  return status;
}

int
cmd_list (int argc, char **argv)
{
  struct test_selection sel;
  const char *format = "text";
  int digests = 0;
  const struct gb_option options[] = {
    OPT_STRING (0, "format", "text|json", &format,
                "a tree (default), or a JSON array of tests with\n"
                "name, suite, weight and compat"),
    SELECTION_OPTIONS (&sel),
    OPT_FLAG (0, "digests", &digests,
              "run each test once, check it, and print the SHA-256\n"
              "of its outputs (the reference digests)"),
    OPT_END
  };
  const struct option_table table = { "list", list_usage, list_epilogue, options, 0, NULL };

  selection_init (&sel);
  enum option_result rc = options_parse (&table, argc, argv, NULL);
  if (rc != OPTIONS_OK)
    {
      selection_free (&sel);
      return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
    }
  int status = 0;
  if (strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      gb_error ("list", "unknown format '%s' (use text or json)", format);
      status = EXIT_USAGE;
    }
  else if (selection_resolve (&sel, "list") != 0)
    status = EXIT_USAGE;
  else if (digests)
    status = print_digests (&sel, strcmp (format, "json") == 0);
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
