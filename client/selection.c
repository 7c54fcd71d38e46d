/* selection.c: which tests a command runs, from --only and --suite.
 *
 * A suite of another library (openssl, gcrypt, nettle) chosen without
 * --only brings along GMP's tests of the same operations and sizes, so
 * that `--suite openssl` shows the side-by-side table it is asked for. */
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "client/output.h"
#include "client/compare.h"
#include "model/registry.h"
#include "suites/programs.h"

void
selection_init (struct test_selection *sel)
{
  memset (sel, 0, sizeof *sel);
}

static void
push (char ***list, size_t *n, const char *s)
{
  *list = gb_xrealloc (*list, (*n + 1) * sizeof **list);
  (*list)[(*n)++] = gb_xstrdup (s);
}

enum option_result
selection_only_option (const struct gb_option *opt, const char *cmd, const char *pattern)
{
  struct test_selection *sel = opt->value;
  (void) cmd;
  push (&sel->patterns, &sel->npatterns, pattern);
  return OPTIONS_OK;
}

enum option_result
selection_suite_option (const struct gb_option *opt, const char *cmd, const char *suite)
{
  struct test_selection *sel = opt->value;
  (void) cmd;
  if (strcmp (suite, "help") == 0)
    {
      selection_print_suites (stdout);
      return OPTIONS_DONE;
    }
  push (&sel->suite_names, &sel->nsuite_names, suite);
  return OPTIONS_OK;
}

static int
in_list (char **list, size_t n, const char *name, int (*match) (const char *, const char *))
{
  for (size_t i = 0; i < n; i++)
    if (match (list[i], name))
      return 1;
  return 0;
}

static int
same (const char *a, const char *b)
{
  return strcmp (a, b) == 0;
}

/* Whether test I is chosen by the patterns and suite names of SEL (full
 * runs' tests are left out of quick ones later). */
static int
chosen (const struct test_selection *sel, size_t i)
{
  const struct bench_test *t = runnable_test (i);
  return (!sel->npatterns || in_list (sel->patterns, sel->npatterns, t->name, registry_match))
    && (!sel->nsuite_names
        || in_list (sel->suite_names, sel->nsuite_names, runnable_suite_name (i), same));
}

/* Marks in WANT the GMP tests of the operations and sizes of the other
 * libraries' tests WANT holds (compare.h's keys). */
static void
add_gmp_companions (size_t total, char *want)
{
  struct test_pair_key *keys = gb_xmalloc (total * sizeof *keys);
  char *parsed = gb_xmalloc (total);
  for (size_t i = 0; i < total; i++)
    parsed[i] = test_pairing_parse (runnable_test (i)->name, &keys[i]) == 0
      && strcmp (keys[i].operation, "rng") != 0;
  for (size_t i = 0; i < total; i++)
    if (want[i] && parsed[i] && strcmp (keys[i].library, "gmp") != 0)
      for (size_t j = 0; j < total; j++)
        if (!want[j] && parsed[j] && strcmp (keys[j].library, "gmp") == 0
            && strcmp (keys[j].operation, keys[i].operation) == 0
            && strcmp (keys[j].size, keys[i].size) == 0)
          want[j] = 2;
  free (parsed);
  free (keys);
}

int
selection_resolve (struct test_selection *sel, const char *cmd)
{
  size_t total = runnable_count ();
  char *want = gb_xmalloc (total ? total : 1);
  for (size_t i = 0; i < total; i++)
    want[i] = (char) chosen (sel, i);
  if (sel->nsuite_names && !sel->npatterns)
    add_gmp_companions (total, want);
  sel->tests = gb_xmalloc (total * sizeof *sel->tests);
  sel->ops = gb_xmalloc (total * sizeof *sel->ops);
  sel->suites = gb_xmalloc (total * sizeof *sel->suites);
  sel->ntests = 0;
  for (size_t i = 0; i < total; i++)
    if (want[i] && !(sel->quick && (runnable_test (i)->flags & BENCH_FULL_ONLY)))
      {
        sel->tests[sel->ntests] = runnable_test (i);
        sel->ops[sel->ntests] = program_ops (runnable_test (i));
        sel->suites[sel->ntests++] = runnable_suite_name (i);
      }
  free (want);
  /* Each pattern and suite must select something on its own. */
  for (size_t p = 0; p < sel->npatterns; p++)
    {
      size_t i;
      for (i = 0; i < total; i++)
        if (registry_match (sel->patterns[p], runnable_test (i)->name))
          break;
      if (i == total)
        {
          gb_error (cmd, "--only '%s' matches no test; 'gmpbench list' shows them",
                    sel->patterns[p]);
          return -1;
        }
    }
  for (size_t s = 0; s < sel->nsuite_names; s++)
    {
      size_t i;
      for (i = 0; i < total; i++)
        if (strcmp (sel->suite_names[s], runnable_suite_name (i)) == 0)
          break;
      if (i == total)
        {
          gb_error (cmd, "--suite '%s' is not a suite; 'gmpbench %s --suite help' lists them",
                    sel->suite_names[s], cmd);
          return -1;
        }
    }
  if (sel->ntests == 0)
    {
      gb_error (cmd, "the options given select no test together");
      return -1;
    }
  return 0;
}

/* The index of the first test of suite SUITE. */
static size_t
first_of_suite (const char *suite)
{
  size_t i = 0;
  while (strcmp (runnable_suite_name (i), suite) != 0)
    i++;
  return i;
}

void
selection_print_suites (FILE *f)
{
  size_t total = runnable_count ();
  for (size_t i = 0; i < total; i++)
    {
      const char *suite = runnable_suite_name (i);
      size_t count = 0;
      if (first_of_suite (suite) != i)
        continue;
      for (size_t j = i; j < total; j++)
        count += strcmp (suite, runnable_suite_name (j)) == 0;
      fprintf (f, "%-10s %3zu tests, e.g. %s\n", suite, count, runnable_test (i)->name);
    }
}

void
selection_free (struct test_selection *sel)
{
  for (size_t i = 0; i < sel->npatterns; i++)
    free (sel->patterns[i]);
  for (size_t i = 0; i < sel->nsuite_names; i++)
    free (sel->suite_names[i]);
  free (sel->patterns);
  free (sel->suite_names);
  free (sel->tests);
  free (sel->ops);
  free (sel->suites);
  memset (sel, 0, sizeof *sel);
}
