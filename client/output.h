/* output.h: choosing tests from the command line, and printing the test
 * tree or JSON (whole result documents are rendered by report.h). */
#ifndef GB_OUTPUT_H
#define GB_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "client/options.h"
#include "engine/bench.h"

/* The tests chosen by --only and --suite, in run order. */
struct test_selection
{
  char **patterns;
  size_t npatterns;
  char **suite_names;
  size_t nsuite_names;
  int quick;                    /* leave out BENCH_FULL_ONLY tests */
  const struct bench_test **tests;
  const struct bench_ops **ops; /* the program of each test */
  const char **suites;          /* --suite name of each test */
  size_t ntests;
};

void selection_init (struct test_selection *sel);
/* The values of --only and --suite (options.h callbacks): each adds to
 * the selection; '--suite help' prints the suites of this build. */
option_parse_fn selection_only_option, selection_suite_option;
/* Fills TESTS; prints a message naming the pattern or suite that matches
 * nothing and returns -1. */
int selection_resolve (struct test_selection *sel, const char *cmd);
/* One line per --suite name of this build: name, test count, a test. */
void selection_print_suites (FILE *f);
void selection_free (struct test_selection *sel);

/* The rows of --only and --suite, for the option table of a command
 * that runs tests into SEL (a struct test_selection *). */
#define SELECTION_OPTIONS(sel) \
  OPT_CALLBACK (0, "only", "PATTERN", sel, selection_only_option, \
                "only tests matching the glob PATTERN, or the subtree\n" \
                "it names (repeatable)"), \
  OPT_CALLBACK (0, "suite", "NAME", sel, selection_suite_option, \
                "only the tests of a suite: base, app, ext, openssl,\n" \
                "gcrypt, nettle, rng (repeatable; another library's\n" \
                "suite brings GMP's same tests along); '--suite\n" \
                "help' lists the suites of this build")

/* The hierarchy of TESTS as an indented tree of names. */
void output_text_tree (FILE *f, const struct bench_test *const *tests, size_t n);

/* Pretty-printed JSON followed by a newline. */
void output_json_print (FILE *f, const cJSON *json);

#endif
