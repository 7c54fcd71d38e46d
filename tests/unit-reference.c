/* unit-reference.c: the reference digests (model/reference.c) are what
 * the tests compute.  Every test of the registry has one, no two related
 * tests share one, and the tests
 * cheap enough to run here (the 39 of GMPbench and the fast extensions)
 * reproduce theirs.  If this fails after a deliberate change of operands,
 * run scripts/update-reference. */
#include <string.h>
#include "model/reference.h"
#include "engine/runner.h"
#include "model/registry.h"
#include "tests/check.h"
#include "suites/programs.h"

static const char *const fast[] = {
  "ext.sqrt.8192", "ext.root.8192,3", "ext.invert.512", "ext.fac.10000",
  "ext.prime.random.512", "ext.prime.prime.512", "ext.rsa.verify.1024",
  "ext.rsa.sign-sec.1024",
};

/* Whether tests A and B (registry indexes) share a reference digest. */
static int
share_digest (size_t a, size_t b)
{
  const char *da = reference_digest (registry_test (a)->name);
  const char *db = reference_digest (registry_test (b)->name);
  return da && db && strcmp (da, db) == 0;
}

/* Whether tests A and B lie in one tree (gmpbench, ext, openssl...). */
static int
same_tree (const struct bench_test *a, const struct bench_test *b)
{
  size_t n = strcspn (a->name, ".");
  return strncmp (a->name, b->name, n + 1) == 0;
}

/* No two of GMPbench's tests share a digest, nor two tests of one program
 * in one tree: each digest depends on its test's own operands (the gcd
 * tests' through their witness, engine/check.h).  Other tests may share
 * one by design: OpenSSL's mirror GMP's results (engine/mirror.h), and
 * ext.rsa.sign.N signs what gmpbench.app.rsa.N signs. */
static void
digests_distinct (void)
{
  size_t n = registry_count (), compat = 0, shared = 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct bench_test *a = registry_test (i);
      compat += (a->flags & BENCH_COMPAT) != 0;
      for (size_t j = i + 1; j < n; j++)
        {
          const struct bench_test *b = registry_test (j);
          int related = ((a->flags & b->flags) & BENCH_COMPAT)
            || (strcmp (a->program, b->program) == 0 && same_tree (a, b));
          if (related && share_digest (i, j))
            {
              check (0, "%s and %s share a reference digest", a->name, b->name);
              shared++;
            }
        }
    }
  check (compat == 39 && shared == 0,
         "no two of the %zu compatible tests, nor two tests of one program in one "
         "tree, share a digest",
         compat);
}

static void
reproduce (const struct bench_test *t)
{
  volatile sig_atomic_t never = 0;
  struct test_result r;
  const char *want = reference_digest (t->name);
  runner_run_test (t, program_ops (t), NULL, 0, &r, &never);
  check (r.outcome == BENCH_OK && want && strcmp (r.digest, want) == 0,
         "%s computes its reference digest (%s)", t->name,
         r.outcome == BENCH_OK ? r.digest : r.message);
}

int
main (void)
{
  size_t n = runnable_count (), missing = 0;
  volatile sig_atomic_t never = 0;
  for (size_t i = 0; i < n; i++)
    if (!reference_digest (runnable_test (i)->name))
      {
        /* Only a test that cannot run on the machine that made the table
         * (hardware it lacks) may be missing from it. */
        struct test_result r;
        runner_run_test (runnable_test (i), program_ops (runnable_test (i)), NULL, 0, &r,
                         &never);
        if (r.outcome == BENCH_SKIPPED)
          continue;
        check (0, "%s has a reference digest", runnable_test (i)->name);
        missing++;
      }
  check (missing == 0, "every test that runs here has a reference digest (of %zu)", n);
  check (reference_digest ("gmpbench.no.such.test") == NULL, "unknown names have none");
  digests_distinct ();

  for (size_t i = 0; i < n; i++)
    if (runnable_test (i)->flags & BENCH_COMPAT)
      reproduce (runnable_test (i));
  for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++)
    {
      const struct bench_test *t = runnable_find (fast[i]);
      if (t)
        reproduce (t);
      else
        check (0, "%s is in the registry", fast[i]);
    }
  return check_exit_status ();
}
