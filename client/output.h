/* output.h: choosing tests from the command line, and printing results as
 * a text tree or JSON. */
#ifndef GB_OUTPUT_H
#define GB_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "suites/runner.h"
#include "suites/score.h"

/* The tests chosen by --only and --suite, in run order. */
struct test_selection
{
  char **patterns;
  size_t npatterns;
  char **suite_names;
  size_t nsuite_names;
  int quick;                    /* leave out BENCH_FULL_ONLY tests */
  const struct bench_test **tests;
  const char **suites;          /* --suite name of each test */
  size_t ntests;
};

void selection_init (struct test_selection *sel);
void selection_add_pattern (struct test_selection *sel, const char *pattern);
void selection_add_suite (struct test_selection *sel, const char *suite);
/* Fills TESTS; prints a message naming the pattern or suite that matches
 * nothing and returns -1. */
int selection_resolve (struct test_selection *sel, const char *cmd);
void selection_free (struct test_selection *sel);

/* The hierarchy as an indented tree.  With RESULTS (same order as TESTS),
 * each leaf shows its ops/s, spread and flags; with SCORES each node its
 * score. */
void output_text_tree (FILE *f, const struct bench_test *const *tests, size_t n,
                       const struct test_result *results,
                       const struct score_node *scores, size_t nscores);

/* Pretty-printed JSON followed by a newline. */
void output_json_print (FILE *f, const cJSON *json);

#endif
