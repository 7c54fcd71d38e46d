/* unit-runner.c: runner_run_tests prepares every test (saying so), then
 * interleaves the tests' visits with an estimate of the time left that is
 * close to the time taken, checks each test when it is done, stops at a
 * setup failure, a wrong result or an interrupt, and tears down every test
 * it set up; a batch (runner_batch_*) visited at the caller's pace does
 * the same.  The tests here are stand-ins whose behaviour (skip, fail
 * the setup or the check, now and then or always, last 20 ms) is set by
 * t->b; every repetition is checked (engine/verify.h).  Time is the
 * test's own clock, which the stand-ins move by what each repetition is
 * said to cost: the verdicts do not depend on how fast this machine is
 * or on what else it is doing. */
#include <stdlib.h>
#include <string.h>
#include "engine/runner.h"
#include "engine/verify.h"
#include "tests/check.h"

/* FLAKY: its check fails once, at the 1000th call; DIFFERS: its 500th
 * result passes the check but differs from the others. */
enum behaviour { WORKS, SKIPS, BROKEN, WRONG, STOPS, SLOW, FLAKY, DIFFERS };

#define MAX_EVENTS 100000

static char order[MAX_EVENTS];  /* the test (as 'a' + t->a) of each run call */
static size_t events;
static int live;                /* set up and not yet torn down */
static volatile sig_atomic_t stop;

struct spin
{
  const struct bench_test *t;
  unsigned calls;
  unsigned checks;
};

/* Seconds on the test's clock; a repetition costs 2 us, a SLOW one 20 ms. */
static double now;

static double
clock_now (void)
{
  return now;
}

static void *
spin_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) stream;
  if (t->b == SKIPS)
    {
      bench_skip (err, "not on this machine");
      return NULL;
    }
  if (t->b == BROKEN)
    {
      bench_fail (err, "no operands");
      return NULL;
    }
  struct spin *s = gb_xcalloc (1, sizeof *s);
  s->t = t;
  live++;
  return s;
}

static void
spin_run (void *state, unsigned long reps)
{
  struct spin *s = state;
  if (events < MAX_EVENTS)
    order[events++] = (char) ('a' + s->t->a);
  if (s->t->b == STOPS && ++s->calls == 20)
    stop = 1;
  now += (s->t->b == SLOW ? 0.02 : 2e-6) * (double) reps;
}

static int
spin_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct spin *s = state;
  s->checks++;
  if (s->t->b == WRONG || (s->t->b == FLAKY && s->checks == 1000))
    {
      bench_fail (err, "deliberately wrong");
      return -1;
    }
  gb_sha256_update (digest, s->t->b == DIFFERS && s->checks == 500 ? "ko" : "ok", 2);
  return 0;
}

static unsigned checks_at_teardown;     /* of the last test torn down */

static void
spin_teardown (void *state)
{
  struct spin *s = state;
  checks_at_teardown = s->checks;
  free (state);
  live--;
}

static const struct bench_ops spin_ops = { spin_setup, spin_run, spin_check, spin_teardown };

/* Whether test C's calls in ORDER are interleaved with the others': some
 * other test runs between C's first and last call. */
static int
interleaved (char c)
{
  const char *first = memchr (order, c, events), *last = first;
  for (size_t i = 0; i < events; i++)
    if (order[i] == c)
      last = order + i;
  for (const char *p = first; p && p < last; p++)
    if (*p != c)
      return 1;
  return 0;
}

/* What the progress callbacks saw. */
struct seen
{
  char prepared[8];             /* the tests prepared, in order, as 'a' + t->a */
  size_t nprepared;
  size_t events_prepared;       /* run calls (in ORDER) before the first visit */
  double first_visit;           /* when the first visit was reported */
  double first_left;            /* and the time left it said */
  int stop_preparing;           /* interrupt while preparing this test (from 1) */
};

static void
saw_preparing (void *ctx, size_t i, size_t n, const char *name)
{
  struct seen *s = ctx;
  (void) n;
  if (s->nprepared < sizeof s->prepared)
    s->prepared[s->nprepared++] = name[2];
  if ((int) i == s->stop_preparing)
    stop = 1;
}

static void
saw_visit (void *ctx, size_t done, const char *name, double seconds_left)
{
  struct seen *s = ctx;
  (void) done;
  (void) name;
  if (s->first_visit == 0)
    {
      s->first_visit = now;
      s->first_left = seconds_left;
      s->events_prepared = events;
    }
}

static enum runner_status
run_seen (const struct bench_test *tests, size_t n, struct test_result *r, size_t *failed,
          struct seen *seen)
{
  const struct bench_test *list[8];
  const struct bench_ops *ops[8];
  struct harness_config cfg;
  struct runner_progress hooks = { .visit = saw_visit, .preparing = saw_preparing, .ctx = seen };
  for (size_t i = 0; i < n; i++)
    {
      list[i] = &tests[i];
      ops[i] = &spin_ops;
    }
  harness_default_config (&cfg, 0.06);
  cfg.clock = clock_now;
  events = 0;
  stop = 0;
  return runner_run_tests (list, ops, n, &cfg, r, failed, &stop, seen ? &hooks : NULL);
}

static enum runner_status
run (const struct bench_test *tests, size_t n, struct test_result *r, size_t *failed)
{
  return run_seen (tests, n, r, failed, NULL);
}

int
main (void)
{
  struct test_result r[8];
  size_t failed = 99;

  const struct bench_test good[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, SKIPS, 0 },
    { "t.c", "unit.spin", 2, WORKS, 0 },
    { "t.d", "unit.spin", 3, WORKS, 0 },
  };
  enum runner_status st = run (good, 4, r, &failed);
  check (st == RUNNER_OK, "three working tests and a skipped one: RUNNER_OK (%d)", st);
  check (r[0].outcome == BENCH_OK && r[2].outcome == BENCH_OK && r[3].outcome == BENCH_OK,
         "the working tests are measured");
  check (r[1].outcome == BENCH_SKIPPED && strcmp (r[1].message, "not on this machine") == 0,
         "the skipped one says why");
  check (r[0].m.samples >= 3 && r[0].m.ops_per_sec > 0 && r[0].digest[0] != '\0',
         "a result has samples, ops/s and a digest");
  check (interleaved ('a') && interleaved ('c') && interleaved ('d'),
         "each test's samples are interleaved with the others'");
  check (memchr (order, 'b', events) == NULL, "the skipped test never runs");
  check (live == 0, "every test set up is torn down (%d left)", live);

  const struct bench_test wrong[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, WRONG, 0 },
    { "t.c", "unit.spin", 2, WORKS, 0 },
  };
  st = run (wrong, 3, r, &failed);
  check (st == RUNNER_FAILED && failed == 1, "a wrong result fails the run and names its test");
  check (r[1].outcome == BENCH_FAILED && strstr (r[1].message, "deliberately wrong") != NULL
         && !r[1].stale, "the failed result carries the check's message (%s)", r[1].message);
  check (live == 0, "after a wrong result every test is torn down (%d left)", live);

  const struct bench_test flaky[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, FLAKY, 0 },
  };
  st = run (flaky, 2, r, &failed);
  check (st == RUNNER_FAILED && failed == 1
         && strcmp (r[1].message, "repetition 999 of the verification pass: deliberately wrong") == 0,
         "a result wrong once in 1000 repetitions fails the run, naming the repetition (%s)",
         r[1].message);
  check (live == 0, "after it every test is torn down (%d left)", live);

  const struct bench_test differs[] = {
    { "t.a", "unit.spin", 0, DIFFERS, 0 },
  };
  st = run (differs, 1, r, &failed);
  check (st == RUNNER_FAILED && failed == 0 && strstr (r[0].message, "digest differs"),
         "a result unlike the others fails the run though its check passes (%s)", r[0].message);

  const struct bench_test interrupted[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, STOPS, 0 },
  };
  st = run (interrupted, 2, r, &failed);
  check (st == RUNNER_INTERRUPTED, "an interrupt stops the run (%d)", st);
  check (live == 0, "after an interrupt every test is torn down (%d left)", live);

  const struct bench_test broken[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, BROKEN, 0 },
    { "t.c", "unit.spin", 2, WORKS, 0 },
  };
  st = run (broken, 3, r, &failed);
  check (st == RUNNER_FAILED && failed == 1 && strcmp (r[1].message, "no operands") == 0,
         "a failed setup fails the run, naming its test and why");
  check (live == 0, "after a failed setup every test is torn down (%d left)", live);

  struct seen seen = { .stop_preparing = 2 };
  st = run_seen (good, 4, r, &failed, &seen);
  check (st == RUNNER_INTERRUPTED && seen.first_visit == 0,
         "an interrupt while preparing stops the run before any visit (%d)", st);
  check (live == 0, "after an interrupt while preparing every test is torn down (%d left)",
         live);

  const struct bench_test timed[] = {
    { "t.a", "unit.spin", 0, WORKS, 0 },
    { "t.b", "unit.spin", 1, SLOW, 0 },
    { "t.c", "unit.spin", 2, SKIPS, 0 },
    { "t.d", "unit.spin", 3, SLOW, 0 },
  };
  seen = (struct seen) { .stop_preparing = 0 };
  st = run_seen (timed, 4, r, &failed, &seen);
  double took = now - seen.first_visit;
  check (st == RUNNER_OK && seen.nprepared == 4 && memcmp (seen.prepared, "abcd", 4) == 0,
         "every test is reported as it is prepared, in order");
  check (memchr (order, 'a', seen.events_prepared) && memchr (order, 'b', seen.events_prepared)
         && memchr (order, 'd', seen.events_prepared),
         "all are calibrated while prepared, before the first visit");
  check (seen.first_left > took / 3 && seen.first_left < took * 3,
         "the first estimate of the time left, %.2f s, is within 3x of the %.2f s taken",
         seen.first_left, took);

  /* A slow test timed for longer than VERIFY_MAX_SECONDS: its checking
   * pass stops there (one check after the samples, then the pass). */
  const struct bench_test slow[] = { { "t.a", "unit.spin", 0, SLOW, 0 } };
  const struct bench_test *slow_list[] = { &slow[0] };
  const struct bench_ops *slow_ops[] = { &spin_ops };
  struct harness_config slow_cfg;
  harness_default_config (&slow_cfg, 3.0);
  slow_cfg.clock = clock_now;
  stop = 0;
  st = runner_run_tests (slow_list, slow_ops, 1, &slow_cfg, r, &failed, &stop, NULL);
  check (st == RUNNER_OK && r[0].m.wall_seconds > VERIFY_MAX_SECONDS
         && checks_at_teardown <= 1 + VERIFY_MAX_SECONDS / 0.02 + 1,
         "after %.2f s of samples the checking pass stops at %.2f s (%u checks of 20 ms)",
         r[0].m.wall_seconds, VERIFY_MAX_SECONDS, checks_at_teardown);

  /* A batch visited at the caller's pace, the last test first, as a
   * --gmp run's worker is: the same outcomes as runner_run_tests. */
  const struct bench_test *list[4];
  const struct bench_ops *ops[4];
  struct harness_config cfg;
  struct runner_batch b;
  harness_default_config (&cfg, 0.06);
  cfg.clock = clock_now;
  for (size_t i = 0; i < 4; i++)
    {
      list[i] = &good[i];
      ops[i] = &spin_ops;
    }
  stop = 0;
  st = runner_batch_start (&b, list, ops, 4, &cfg, r, &failed, &stop, NULL);
  int visits = 0, finished, active_b = runner_batch_active (&b, 1);
  while (st == RUNNER_OK && b.nactive > 0 && visits < 10000)
    for (size_t i = 4; i-- > 0 && st == RUNNER_OK;)
      if (runner_batch_active (&b, i))
        {
          st = runner_batch_visit (&b, i, &finished, NULL, &failed, &stop);
          visits++;
        }
  check (st == RUNNER_OK && !active_b && r[0].outcome == BENCH_OK && r[3].outcome == BENCH_OK
         && r[1].outcome == BENCH_SKIPPED && r[0].digest[0] != '\0',
         "a batch visited test by test measures the working tests, skips the skipped one");
  struct runner_visit visit;
  st = runner_batch_visit (&b, 0, &finished, &visit, &failed, &stop);
  check (st == RUNNER_OK && finished && visit.samples == 0 && visit.ops == 0,
         "a test no longer active is reported finished, the visit taking no sample");
  runner_batch_abandon (&b);
  check (live == 0, "after the batch every test is torn down (%d left)", live);

  st = runner_batch_start (&b, list, ops, 4, &cfg, r, &failed, &stop, NULL);
  st = runner_batch_visit (&b, 2, &finished, &visit, &failed, &stop);
  check (st == RUNNER_OK && !finished && live == 3, "one visit leaves the batch's tests set up");
  check (visit.samples >= 1 && visit.ops >= visit.samples && visit.wall > 0,
         "the visit says what it measured (%u samples, %g operations, %g s)", visit.samples,
         visit.ops, visit.wall);
  runner_batch_abandon (&b);
  check (live == 0, "abandoning a batch tears its tests down (%d left)", live);
  return check_exit_status ();
}
