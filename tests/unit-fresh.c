/* unit-fresh.c: the rounds on fresh operands (engine/fresh.h) as the
 * runner takes them.  The tests are stand-ins whose run moves the test's
 * own clock by what a repetition costs under a library chosen by t->b:
 * an honest one; one whose repeated operations cost a tenth (a cache, or
 * a stale output that skips the work); one that does nothing after its
 * first call (a stale output that fresh copies show empty); a very short
 * operation whose first call on a copy is slow (cold caches, lazy
 * allocation); one whose repeated operands run twice as fast (a branch
 * predictor that learnt them).  The verdicts do not depend on how fast
 * this machine is. */
#include <stdlib.h>
#include <string.h>
#include "engine/fresh.h"
#include "engine/runner.h"
#include "tests/check.h"

enum library { HONEST, CACHED, DEAD, TINY, LEARNT };

#define MAX_STREAMS 4096

static double now;
static unsigned streams[MAX_STREAMS];   /* every stream set up, in order */
static size_t nstreams;
static int live;
static int dead_called;                 /* DEAD: its first call is done */

struct copy
{
  const struct bench_test *t;
  unsigned runs;
  int output;                           /* what the last run left */
};

static double
clock_now (void)
{
  return now;
}

static void *
copy_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct copy *c = gb_xcalloc (1, sizeof *c);
  c->t = t;
  if (nstreams < MAX_STREAMS)
    streams[nstreams++] = stream;
  live++;
  return c;
}

/* Seconds one repetition costs, RUNS repetitions having run on this copy. */
static double
cost (enum library lib, unsigned runs)
{
  switch (lib)
    {
    case CACHED:
      return runs > 0 ? 2e-6 : 20e-6;
    case TINY:
      return runs > 0 ? 5e-9 : 400e-9;
    case LEARNT:
      return runs > 0 ? 10e-6 : 20e-6;
    default:
      return 20e-6;
    }
}

static void
copy_run (void *state, unsigned long reps)
{
  struct copy *c = state;
  enum library lib = (enum library) c->t->b;
  for (unsigned long i = 0; i < reps; i++)
    {
      now += cost (lib, c->runs++);
      if (lib != DEAD || !dead_called)
        c->output = 1;
      dead_called = 1;
    }
}

static int
copy_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct copy *c = state;
  if (!c->output)
    {
      bench_fail (err, "no output");
      return -1;
    }
  gb_sha256_update (digest, "ok", 2);
  return 0;
}

static void
copy_teardown (void *state)
{
  free (state);
  live--;
}

static const struct bench_ops copy_ops = { copy_setup, copy_run, copy_check, copy_teardown };

/* Runs the stand-in under LIB (its program PROGRAM) for 0.06 s of samples
 * into R, as under an emulator when EMULATED. */
static enum runner_status
run_emulated (enum library lib, const char *program, int emulated, struct test_result *r)
{
  struct bench_test t = { "t.fresh", program, 0, lib, 0 };
  const struct bench_test *list[1] = { &t };
  const struct bench_ops *ops[1] = { &copy_ops };
  struct harness_config cfg;
  volatile sig_atomic_t stop = 0;
  size_t failed = 99;
  harness_default_config (&cfg, 0.06);
  cfg.clock = clock_now;
  cfg.emulated = emulated;
  nstreams = 0;
  dead_called = 0;
  enum runner_status st = runner_run_tests (list, ops, 1, &cfg, r, &failed, &stop, NULL);
  r->test = NULL;
  return st;
}

static enum runner_status
run_under (enum library lib, const char *program, struct test_result *r)
{
  return run_emulated (lib, program, 0, r);
}

/* Whether the copies' streams (all but the first, the samples' 0) carry
 * FRESH_STREAM_BIT and are all different; their first one into *FIRST. */
static int
fresh_streams (unsigned *first)
{
  if (nstreams < 2 || streams[0] != 0)
    return 0;
  *first = streams[1];
  for (size_t i = 1; i < nstreams; i++)
    {
      if (!(streams[i] & FRESH_STREAM_BIT))
        return 0;
      for (size_t j = 1; j < i; j++)
        if (streams[j] == streams[i])
          return 0;
    }
  return 1;
}

int
main (void)
{
  struct test_result r;
  unsigned first_a = 0, first_b = 0;

  enum runner_status st = run_under (HONEST, "gmp.unit-fresh", &r);
  check (st == RUNNER_OK && r.outcome == BENCH_OK, "an honest library passes (%d: %s)", st,
         r.message);
  int distinct = fresh_streams (&first_a);
  check (distinct && nstreams > 2,
         "its copies have streams of their own, the top bit set, all different (%zu)",
         nstreams);
  check (live == 0, "every copy set up is torn down (%d left)", live);
  run_under (HONEST, "gmp.unit-fresh", &r);
  distinct = fresh_streams (&first_b);
  check (distinct && first_a != first_b, "another run draws other streams (%08x, %08x)",
         first_a, first_b);

  st = run_under (CACHED, "gmp.unit-fresh", &r);
  check (st == RUNNER_FAILED && r.outcome == BENCH_FAILED && r.stale,
         "repeated operations at a tenth of the fresh ones' cost fail as stale or cached (%d)",
         st);
  check (strstr (r.message, "times as fast as its") != NULL
         && strstr (r.message, "rounds on fresh operands") != NULL,
         "the message says by how much (%s)", r.message);
  check (live == 0, "and everything is torn down (%d left)", live);

  st = run_under (DEAD, "gmp.unit-fresh", &r);
  check (st == RUNNER_FAILED && !r.stale && strstr (r.message, "fresh operands") != NULL
         && strstr (r.message, "no output") != NULL,
         "a library that does nothing after its first call leaves a fresh copy empty: a "
         "wrong result (%s)", r.message);

  st = run_under (TINY, "gmp.unit-fresh", &r);
  check (st == RUNNER_OK && r.outcome == BENCH_OK,
         "a 5 ns operation whose first call on a copy takes 400 ns passes (%s)", r.message);

  st = run_under (LEARNT, "gmp.unit-fresh", &r);
  check (st == RUNNER_OK && r.outcome == BENCH_OK,
         "repeated operands twice as fast as fresh ones pass (%s)", r.message);

  st = run_emulated (CACHED, "gmp.unit-fresh", 1, &r);
  check (st == RUNNER_OK && r.outcome == BENCH_OK && nstreams > 1,
         "under an emulator the bounds on time are not applied, the rounds still taken "
         "(%zu setups: %s)", nstreams, r.message);
  st = run_emulated (DEAD, "gmp.unit-fresh", 1, &r);
  check (st == RUNNER_FAILED && !r.stale && strstr (r.message, "no output") != NULL,
         "but a fresh copy left empty still fails, emulated (%s)", r.message);

  st = run_under (CACHED, "rng.unit", &r);
  check (st == RUNNER_OK && nstreams == 1,
         "a random generator is not probed (%zu setups)", nstreams);
  st = run_under (CACHED, "openssl.unit-fresh", &r);
  check (st == RUNNER_OK && nstreams == 1,
         "nor another library's program: GMP's functions are probed (%zu setups)", nstreams);
  return check_exit_status ();
}
