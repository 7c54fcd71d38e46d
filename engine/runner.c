/* runner.c: tests from setup to digest, one at a time or interleaved
 * (see runner.h). */
#include "engine/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/fresh.h"
#include "engine/guard.h"
#include "engine/verify.h"
#include "model/reference.h"

/* Sets T up with OPS into R; NULL when it is skipped or its setup failed,
 * with the outcome and message in R. */
static void *
setup_test (const struct bench_test *t, const struct bench_ops *ops, unsigned stream,
            struct test_result *r)
{
  struct bench_error err = { BENCH_OK, "" };
  memset (r, 0, sizeof *r);
  r->test = t;
  guard_enter (t->name);
  void *state = ops->setup (t, stream, &err);
  if (!state)
    {
      r->outcome = err.outcome == BENCH_SKIPPED ? BENCH_SKIPPED : BENCH_FAILED;
      strcpy (r->message, err.message[0] ? err.message : "setup failed");
    }
  return state;
}

/* GMPbench's own tests are scored with GMPbench's estimator, the mean of
 * their samples (harness.h). */
static int
scored_by_mean (const struct bench_test *t)
{
  return (t->flags & BENCH_COMPAT) != 0;
}

static void
choose_estimator (struct test_result *r)
{
  if (scored_by_mean (r->test))
    harness_use_cpu_mean (&r->m);
}

/* Checks the outputs in STATE with OPS, records their digest in R and
 * tears the test down.  A measured test (CFG not NULL) then has its
 * repetitions checked one by one (verify.h), for about as long as it was
 * timed in R->m (0.25 s to 0.5 s). */
static enum runner_status
check_test (const struct bench_ops *ops, void *state, const struct harness_config *cfg,
            struct test_result *r, volatile sig_atomic_t *stop)
{
  struct bench_error err = { BENCH_OK, "" };
  struct gb_sha256 h;
  unsigned char md[32];
  enum verify_status verified = VERIFY_OK;

  gb_sha256_init (&h);
  int bad = ops->check (state, &h, &err);
  gb_sha256_final (&h, md);
  if (!bad && cfg && verify_applies (r->test))
    verified = verify_repetitions (ops, state, md, r->m.wall_seconds, cfg->clock, stop, &err);
  ops->teardown (state);
  if (verified == VERIFY_INTERRUPTED)
    return RUNNER_INTERRUPTED;
  if (bad || verified != VERIFY_OK)
    {
      r->outcome = BENCH_FAILED;
      strcpy (r->message, err.message[0] ? err.message : "wrong result");
      return RUNNER_FAILED;
    }
  gb_hex (md, 32, r->digest);
  r->outcome = BENCH_OK;
  return RUNNER_OK;
}

/* Where the reference table has T's digest (model/reference.h), R's must
 * be it: the single-threaded run's operands are the same everywhere, and
 * so are the outputs of a correct library and their witnesses (a gcd's
 * quotients, a generated key).  A digest the checks let through but the
 * reference does not is a wrong result too. */
static enum runner_status
check_reference (struct test_result *r)
{
  const char *want = reference_digest (r->test->name);
  if (!want || strcmp (want, r->digest) == 0)
    return RUNNER_OK;
  r->outcome = BENCH_FAILED;
  snprintf (r->message, sizeof r->message,
            "its digest %.16s... differs from the reference digest %.16s... that every "
            "correct library computes (model/reference.c)", r->digest, want);
  return RUNNER_FAILED;
}

enum runner_status
runner_run_test (const struct bench_test *t, const struct bench_ops *ops,
                 const struct harness_config *cfg, unsigned stream, struct test_result *r,
                 volatile sig_atomic_t *stop)
{
  void *state = setup_test (t, ops, stream, r);
  if (!state)
    return r->outcome == BENCH_SKIPPED ? RUNNER_OK : RUNNER_FAILED;
  if (cfg)
    {
      if (harness_measure (cfg, ops, state, scored_by_mean (t), &r->m, stop) != 0)
        {
          ops->teardown (state);
          return RUNNER_INTERRUPTED;
        }
      choose_estimator (r);
    }
  else
    ops->run (state, 1);
  return check_test (ops, state, cfg, r, stop);
}

/* The tests being measured by runner_run_tests. */
struct runner_active
{
  size_t index;                 /* into the caller's arrays */
  const struct bench_ops *ops;
  void *state;
  double first_sample;          /* seconds one sample is expected to take */
  struct harness_run h;
  struct fresh_probe fresh;     /* its rounds on fresh operands */
};

/* The overhead around the timed samples (warm-up repetitions, checks) is
 * measured once this many seconds have been timed, and capped. */
#define OVERHEAD_AFTER 1.0
#define OVERHEAD_CAP 3.0

/* Seconds one more sample of A takes: its mean so far, or before the
 * first one, what calibrating it took (one operation when a sample is a
 * single one), at least the target length of a sample. */
static double
sample_seconds (const struct runner_active *a)
{
  return a->h.n > 0 && a->h.wall > 0 ? a->h.wall / a->h.n : a->first_sample;
}

/* The timed seconds H will have spent when the harness stops it without
 * its samples agreeing first (harness.c's rule, its cap on the number of
 * samples aside): at the budget with budget_min_samples samples, or at
 * overrun times the budget with hard_min_samples, whichever comes first,
 * in samples of SAMPLE seconds; a test scored by its mean at mean_time
 * with hard_min_samples. */
static double
projected_wall (const struct harness_run *h, double sample)
{
  const struct harness_config *cfg = h->cfg;
  if (h->by_mean)
    return fmax (cfg->hard_min_samples, ceil (cfg->mean_time / sample)) * sample;
  double at_budget = fmax (cfg->budget_min_samples, ceil (cfg->max_time / sample));
  double at_overrun = fmax (cfg->hard_min_samples, ceil (cfg->overrun * cfg->max_time / sample));
  return fmin (at_budget, at_overrun) * sample;
}

/* Seconds left: the timed seconds the active tests still need (at least
 * one more sample each), times the run's measured ratio of ELAPSED to
 * TIMED seconds. */
static double
seconds_left (const struct runner_active *a, size_t nactive, double timed, double elapsed)
{
  double left = 0;
  for (size_t i = 0; i < nactive; i++)
    {
      double sample = sample_seconds (&a[i]);
      left += fmax (projected_wall (&a[i].h, sample) - a[i].h.wall, sample);
    }
  if (timed >= OVERHEAD_AFTER)
    left *= fmin (fmax (elapsed / timed, 1), OVERHEAD_CAP);
  return left;
}

/* Tears down every test still in A and frees the harness storage. */
static void
abandon (struct runner_active *a, size_t nactive, struct test_result *r)
{
  for (size_t i = 0; i < nactive; i++)
    {
      harness_finish (&a[i].h, &r[a[i].index].m);
      a[i].ops->teardown (a[i].state);
    }
}

/* Sets up and calibrates every test into A (*NACTIVE of them; skipped
 * ones are reported finished, counted in *DONE).  On failure or interrupt
 * everything set up is torn down again. */
static enum runner_status
prepare (const struct bench_test *const *tests, const struct bench_ops *const *ops, size_t n,
         const struct harness_config *cfg,
         struct test_result *r, struct runner_active *a, size_t *nactive, size_t *done,
         size_t *failed, volatile sig_atomic_t *stop, const struct runner_progress *progress)
{
  for (size_t i = 0; i < n; i++)
    {
      if (*stop)
        {
          abandon (a, *nactive, r);
          return RUNNER_INTERRUPTED;
        }
      if (progress && progress->preparing)
        progress->preparing (progress->ctx, i + 1, n, tests[i]->name);
      void *state = setup_test (tests[i], ops[i], 0, &r[i]);
      if (state)
        {
          struct runner_active *t = &a[(*nactive)++];
          double before = cfg->clock ();
          t->index = i;
          t->ops = ops[i];
          t->state = state;
          harness_start (&t->h, cfg, ops[i], state, scored_by_mean (tests[i]));
          t->first_sample = fmax (cfg->clock () - before, cfg->sample_time);
          fresh_start (&t->fresh, tests[i], ops[i], state);
        }
      else if (r[i].outcome == BENCH_SKIPPED)
        {
          if (progress && progress->finished)
            progress->finished (progress->ctx, ++*done, &r[i]);
        }
      else
        {
          *failed = i;
          abandon (a, *nactive, r);
          return RUNNER_FAILED;
        }
    }
  return RUNNER_OK;
}

enum runner_status
runner_batch_start (struct runner_batch *b, const struct bench_test *const *tests,
                    const struct bench_ops *const *ops, size_t n,
                    const struct harness_config *cfg, struct test_result *r, size_t *failed,
                    volatile sig_atomic_t *stop, const struct runner_progress *progress)
{
  b->tests = tests;
  b->cfg = cfg;
  b->r = r;
  b->progress = progress;
  b->a = gb_xmalloc ((n ? n : 1) * sizeof *b->a);
  b->nactive = b->done = 0;
  enum runner_status status = prepare (tests, ops, n, cfg, r, b->a, &b->nactive, &b->done,
                                       failed, stop, progress);
  if (status != RUNNER_OK)
    {
      free (b->a);
      b->a = NULL;
    }
  b->started = cfg->clock ();
  b->timed = 0;
  return status;
}

/* What a round or the verdict of T's probe (fresh.h) says, as the
 * runner's status, the reason in R. */
static enum runner_status
fresh_outcome (enum fresh_status st, const struct bench_error *err, struct test_result *r)
{
  if (st == FRESH_OK)
    return RUNNER_OK;
  if (st == FRESH_INTERRUPTED)
    return RUNNER_INTERRUPTED;
  r->outcome = BENCH_FAILED;
  r->stale = st == FRESH_STALE;
  snprintf (r->message, sizeof r->message, "%s", err->message);
  return RUNNER_FAILED;
}

/* Whether R's samples ran no faster than T's rounds on fresh operands
 * allow (fresh_judge), by the faster of two figures: the fast-sample
 * estimate, and (timed by the wall clock) the samples' CPU time an
 * operation, which GMPbench's mean (a compatible test's score) follows and
 * which is the faster on a machine so busy that even the fastest samples
 * lost the processor. */
static enum runner_status
judge_fresh (struct runner_active *t, const struct harness_config *cfg, struct test_result *r,
             volatile sig_atomic_t *stop)
{
  struct bench_error err = { BENCH_OK, "" };
  const struct measurement *m = &r->m;
  double seconds = m->fast_ops_per_sec > 0 ? 1 / m->fast_ops_per_sec : 0;
  double ops = (double) m->samples * (double) m->reps_per_sample;
  double cpu = ops > 0 && cfg->clock == gb_wall_seconds && !gb_thread_cpu_coarse ()
    ? m->cpu_seconds / ops : 0;
  if (cpu > 0 && (seconds <= 0 || cpu < seconds))
    seconds = cpu;
  return fresh_outcome (fresh_judge (&t->fresh, cfg, t->h.reps, seconds, stop, &err), &err, r);
}

/* Ends the batch B at its K-th active test, which ended with STATUS
 * (failed or interrupted), its state already torn down. */
static enum runner_status
stop_at (struct runner_batch *b, size_t k, size_t *failed, enum runner_status status)
{
  *failed = b->a[k].index;
  b->a[k] = b->a[--b->nactive];
  runner_batch_abandon (b);
  return status;
}

/* Finishes the K-th active test of B: its estimate, its verdict against
 * fresh operands, its check and teardown. */
static enum runner_status
finish_active (struct runner_batch *b, size_t k, size_t *failed, volatile sig_atomic_t *stop)
{
  struct runner_active *t = &b->a[k];
  struct test_result *res = &b->r[t->index];
  harness_finish (&t->h, &res->m);
  choose_estimator (res);
  enum runner_status checked = judge_fresh (t, b->cfg, res, stop);
  if (checked != RUNNER_OK)
    {
      t->ops->teardown (t->state);
      return stop_at (b, k, failed, checked);
    }
  checked = check_test (t->ops, t->state, b->cfg, res, stop);
  if (checked == RUNNER_OK)
    checked = check_reference (res);
  if (checked != RUNNER_OK)
    return stop_at (b, k, failed, checked);
  if (b->progress && b->progress->finished)
    b->progress->finished (b->progress->ctx, ++b->done, res);
  memmove (b->a + k, b->a + k + 1, (b->nactive - k - 1) * sizeof *b->a);
  b->nactive--;
  return RUNNER_OK;
}

/* Visits the K-th active test of B (runner_batch_visit), saying what the
 * visit measured into *VISIT unless it is NULL. */
static enum runner_status
visit_active (struct runner_batch *b, size_t k, struct runner_visit *visit, size_t *failed,
              volatile sig_atomic_t *stop)
{
  struct runner_active *t = &b->a[k];
  const struct runner_progress *progress = b->progress;
  if (progress && progress->visit)
    progress->visit (progress->ctx, b->done, b->tests[t->index]->name,
                     seconds_left (b->a, b->nactive, b->timed, b->cfg->clock () - b->started));
  double before = t->h.wall, cpu_before = t->h.cpu;
  unsigned samples_before = t->h.n;
  guard_enter (b->tests[t->index]->name);
  int v = harness_visit (&t->h, stop);
  b->timed += t->h.wall - before;
  if (visit)
    {
      visit->samples = t->h.n - samples_before;
      visit->ops = (double) visit->samples * (double) t->h.reps;
      visit->wall = t->h.wall - before;
      visit->cpu = t->h.cpu - cpu_before;
    }
  if (v < 0)
    {
      runner_batch_abandon (b);
      return RUNNER_INTERRUPTED;
    }
  struct bench_error err = { BENCH_OK, "" };
  enum runner_status st
    = fresh_outcome (fresh_visit (&t->fresh, b->cfg, t->h.reps, t->h.wall, stop, &err), &err,
                     &b->r[t->index]);
  if (st != RUNNER_OK)
    {
      harness_finish (&t->h, &b->r[t->index].m);
      t->ops->teardown (t->state);
      return stop_at (b, k, failed, st);
    }
  return v == 0 ? RUNNER_OK : finish_active (b, k, failed, stop);
}

enum runner_status
runner_batch_visit (struct runner_batch *b, size_t i, int *finished,
                    struct runner_visit *visit, size_t *failed, volatile sig_atomic_t *stop)
{
  *finished = 1;
  if (visit)
    memset (visit, 0, sizeof *visit);
  for (size_t k = 0; k < b->nactive; k++)
    if (b->a[k].index == i)
      {
        size_t before = b->nactive;
        enum runner_status st = visit_active (b, k, visit, failed, stop);
        *finished = st == RUNNER_OK && b->nactive < before;
        return st;
      }
  return RUNNER_OK;
}

enum runner_status
runner_batch_end (struct runner_batch *b, size_t i, size_t *failed, volatile sig_atomic_t *stop)
{
  for (size_t k = 0; k < b->nactive; k++)
    if (b->a[k].index == i)
      return finish_active (b, k, failed, stop);
  return RUNNER_OK;
}

int
runner_batch_active (const struct runner_batch *b, size_t i)
{
  for (size_t k = 0; k < b->nactive; k++)
    if (b->a[k].index == i)
      return 1;
  return 0;
}

void
runner_batch_abandon (struct runner_batch *b)
{
  if (!b->a)
    return;
  abandon (b->a, b->nactive, b->r);
  b->nactive = 0;
  free (b->a);
  b->a = NULL;
}

enum runner_status
runner_run_tests (const struct bench_test *const *tests, const struct bench_ops *const *ops,
                  size_t n,
                  const struct harness_config *cfg, struct test_result *r,
                  size_t *failed, volatile sig_atomic_t *stop,
                  const struct runner_progress *progress)
{
  struct runner_batch b;
  enum runner_status status = runner_batch_start (&b, tests, ops, n, cfg, r, failed, stop,
                                                  progress);
  while (status == RUNNER_OK && b.nactive > 0)
    for (size_t k = 0; status == RUNNER_OK && k < b.nactive;)
      {
        size_t before = b.nactive;
        status = visit_active (&b, k, NULL, failed, stop);
        if (b.nactive == before)
          k++;
      }
  runner_batch_abandon (&b);
  return status;
}
