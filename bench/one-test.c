/* one-test.c: one test's program set up and checked as a run does it
 * (one-test.h), for count-ops.c and timers.c. */
#include "bench/one-test.h"

#include <stdio.h>
#include "common/util.h"

void *
one_test_setup (const char *prog, const struct bench_test *t, const struct bench_ops *ops)
{
  struct bench_error err = { BENCH_OK, "" };
  void *state = ops->setup (t, 0, &err);
  if (state == NULL)
    fprintf (stderr, "%s: %s: setup failed: %s\n", prog, t->name, err.message);
  return state;
}

int
one_test_check (const char *prog, const struct bench_test *t, const struct bench_ops *ops,
                void *state)
{
  struct bench_error err = { BENCH_OK, "" };
  struct gb_sha256 digest;
  gb_sha256_init (&digest);
  int rc = ops->check (state, &digest, &err);
  unsigned char sum[32];
  gb_sha256_final (&digest, sum);       /* frees the digest's context */
  ops->teardown (state);
  if (rc != 0)
    {
      fprintf (stderr, "%s: %s: wrong result: %s\n", prog, t->name, err.message);
      return 1;
    }
  return 0;
}
