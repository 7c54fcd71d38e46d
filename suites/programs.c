/* programs.c: the benchmark programs by name (the rows of programs.def),
 * the registry's tests that this build can run with them, and the variant
 * of a program whose file serves several (see programs.h). */
#include "suites/programs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM(name, ops) extern const struct bench_ops ops;
#include "suites/programs.def"
#undef PROGRAM

static const struct
{
  const char *name;
  const struct bench_ops *ops;
} programs[] = {
#define PROGRAM(name, ops) { name, &ops },
#include "suites/programs.def"
#undef PROGRAM
};

const struct bench_ops *
program_ops (const struct bench_test *t)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (programs); i++)
    if (strcmp (programs[i].name, t->program) == 0)
      return programs[i].ops;
  return NULL;
}

/* Registry indices of the runnable tests, found once, thread-safely. */
static size_t *runnable;
static size_t nrunnable;
static pthread_once_t runnable_once = PTHREAD_ONCE_INIT;

static void
find_runnable (void)
{
  size_t n = registry_count ();
  runnable = gb_xmalloc ((n ? n : 1) * sizeof *runnable);
  for (size_t i = 0; i < n; i++)
    if (program_ops (registry_test (i)))
      runnable[nrunnable++] = i;
}

size_t
runnable_count (void)
{
  pthread_once (&runnable_once, find_runnable);
  return nrunnable;
}

const struct bench_test *
runnable_test (size_t i)
{
  return i < runnable_count () ? registry_test (runnable[i]) : NULL;
}

const char *
runnable_suite_name (size_t i)
{
  return i < runnable_count () ? registry_suite (runnable[i])->name : NULL;
}

const struct bench_test *
runnable_find (const char *name)
{
  const struct bench_test *t = registry_find (name);
  return t && program_ops (t) ? t : NULL;
}

int
program_variant (const struct bench_test *t, const char *const programs[], size_t n,
                 struct bench_error *err)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (programs[i], t->program) == 0)
      return (int) i;
  bench_fail (err, "the program %s of %s is not one this code runs", t->program, t->name);
  return -1;
}
