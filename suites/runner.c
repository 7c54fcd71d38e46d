/* runner.c: tests from setup to digest, one at a time or interleaved
 * (see runner.h). */
#include "suites/runner.h"

#include <stdlib.h>
#include <string.h>

/* Sets T up into R; NULL when it is skipped or its setup failed, with the
 * outcome and message in R. */
static void *
setup_test (const struct bench_test *t, unsigned stream, struct test_result *r)
{
  struct bench_error err = { BENCH_OK, "" };
  memset (r, 0, sizeof *r);
  r->test = t;
  void *state = t->ops->setup (t, stream, &err);
  if (!state)
    {
      r->outcome = err.outcome == BENCH_SKIPPED ? BENCH_SKIPPED : BENCH_FAILED;
      strcpy (r->message, err.message[0] ? err.message : "setup failed");
    }
  return state;
}

/* Checks the outputs in STATE, records their digest in R and tears the
 * test down. */
static enum runner_status
check_test (void *state, struct test_result *r)
{
  const struct bench_test *t = r->test;
  struct bench_error err = { BENCH_OK, "" };
  struct gb_sha256 h;
  unsigned char md[32];

  gb_sha256_init (&h);
  int bad = t->ops->check (state, &h, &err);
  gb_sha256_final (&h, md);
  t->ops->teardown (state);
  if (bad)
    {
      r->outcome = BENCH_FAILED;
      strcpy (r->message, err.message[0] ? err.message : "wrong result");
      return RUNNER_FAILED;
    }
  gb_hex (md, 32, r->digest);
  r->outcome = BENCH_OK;
  return RUNNER_OK;
}

enum runner_status
runner_run_test (const struct bench_test *t, const struct harness_config *cfg,
                 unsigned stream, struct test_result *r,
                 volatile sig_atomic_t *stop)
{
  void *state = setup_test (t, stream, r);
  if (!state)
    return r->outcome == BENCH_SKIPPED ? RUNNER_OK : RUNNER_FAILED;
  if (cfg)
    {
      if (harness_measure (cfg, t->ops, state, &r->m, stop) != 0)
        {
          t->ops->teardown (state);
          return RUNNER_INTERRUPTED;
        }
    }
  else
    t->ops->run (state, 1);
  return check_test (state, r);
}

/* The tests being measured by runner_run_tests. */
struct active
{
  size_t index;                 /* into the caller's arrays */
  void *state;
  struct harness_run h;
};

/* Seconds left: the budget the active tests have not spent, scaled by how
 * much longer than its timed part the run has taken so far. */
static double
seconds_left (const struct active *a, size_t nactive, const struct harness_config *cfg,
              double timed, double elapsed)
{
  double budget = 0;
  for (size_t i = 0; i < nactive; i++)
    if (a[i].h.wall < cfg->max_time)
      budget += cfg->max_time - a[i].h.wall;
  return budget * (timed > 0 && elapsed > timed ? elapsed / timed : 1);
}

/* Tears down every test still in A and frees the harness storage. */
static void
abandon (struct active *a, size_t nactive, struct test_result *r)
{
  for (size_t i = 0; i < nactive; i++)
    {
      harness_finish (&a[i].h, &r[a[i].index].m);
      r[a[i].index].test->ops->teardown (a[i].state);
    }
}

enum runner_status
runner_run_tests (const struct bench_test *const *tests, size_t n,
                  const struct harness_config *cfg, struct test_result *r,
                  size_t *failed, volatile sig_atomic_t *stop,
                  const struct runner_progress *progress)
{
  struct active *a = gb_xmalloc ((n ? n : 1) * sizeof *a);
  size_t nactive = 0, done = 0;
  double started = gb_wall_seconds (), timed = 0;
  enum runner_status status = RUNNER_OK;

  for (size_t i = 0; i < n && status == RUNNER_OK; i++)
    {
      void *state = setup_test (tests[i], 0, &r[i]);
      if (state)
        {
          a[nactive].index = i;
          a[nactive++].state = state;
        }
      else if (r[i].outcome == BENCH_SKIPPED)
        {
          if (progress && progress->finished)
            progress->finished (progress->ctx, ++done, &r[i]);
        }
      else
        {
          *failed = i;
          status = RUNNER_FAILED;
        }
    }
  if (status != RUNNER_OK)
    {
      for (size_t i = 0; i < nactive; i++)
        tests[a[i].index]->ops->teardown (a[i].state);
      free (a);
      return status;
    }
  for (size_t i = 0; i < nactive; i++)
    harness_start (&a[i].h, cfg, tests[a[i].index]->ops, a[i].state);

  while (nactive > 0)
    for (size_t i = 0; i < nactive;)
      {
        struct active *t = &a[i];
        if (progress && progress->visit)
          progress->visit (progress->ctx, done, tests[t->index]->name,
                           seconds_left (a, nactive, cfg, timed,
                                         gb_wall_seconds () - started));
        double before = t->h.wall;
        int v = harness_visit (&t->h, stop);
        timed += t->h.wall - before;
        if (v < 0)
          {
            abandon (a, nactive, r);
            free (a);
            return RUNNER_INTERRUPTED;
          }
        if (v == 0)
          {
            i++;
            continue;
          }
        struct test_result *res = &r[t->index];
        harness_finish (&t->h, &res->m);
        if (check_test (t->state, res) != RUNNER_OK)
          {
            *failed = t->index;
            a[i] = a[--nactive];
            abandon (a, nactive, r);
            free (a);
            return RUNNER_FAILED;
          }
        if (progress && progress->finished)
          progress->finished (progress->ctx, ++done, res);
        memmove (a + i, a + i + 1, (nactive - i - 1) * sizeof *a);
        nactive--;
      }
  free (a);
  return RUNNER_OK;
}
