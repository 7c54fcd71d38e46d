/* runner.c: one test from setup to digest (see runner.h). */
#include "suites/runner.h"

#include <string.h>

enum runner_status
runner_run_test (const struct bench_test *t, const struct harness_config *cfg,
                 unsigned stream, struct test_result *r,
                 volatile sig_atomic_t *stop)
{
  struct bench_error err = { BENCH_OK, "" };
  struct gb_sha256 h;
  unsigned char md[32];

  memset (r, 0, sizeof *r);
  r->test = t;
  void *state = t->ops->setup (t, stream, &err);
  if (!state)
    {
      r->outcome = err.outcome == BENCH_SKIPPED ? BENCH_SKIPPED : BENCH_FAILED;
      strcpy (r->message, err.message[0] ? err.message : "setup failed");
      return r->outcome == BENCH_SKIPPED ? RUNNER_OK : RUNNER_FAILED;
    }
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
