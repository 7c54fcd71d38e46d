/* output.h: choosing tests from the command line, and printing the test
 * tree or JSON (whole result documents are rendered by report.h). */
#ifndef GB_OUTPUT_H
#define GB_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "suites/bench.h"

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
/* One line per --suite name of this build: name, test count, a test. */
void selection_print_suites (FILE *f);
void selection_free (struct test_selection *sel);

/* The hierarchy of TESTS as an indented tree of names. */
void output_text_tree (FILE *f, const struct bench_test *const *tests, size_t n);

/* Pretty-printed JSON followed by a newline. */
void output_json_print (FILE *f, const cJSON *json);

#endif
