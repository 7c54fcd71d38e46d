/* fresh.c: timed rounds on fresh operands and their verdict (see fresh.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* RUSAGE_THREAD */
#endif
#include "engine/fresh.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/rand.h>
#if defined(__linux__)
#include <sys/resource.h>
#endif
#include "engine/guard.h"
#include "engine/prefault.h"
#include "engine/syscall_clock.h"
#include "engine/verify.h"

int
fresh_applies (const struct bench_test *t)
{
  size_t n = strlen (t->program);
  return strncmp (t->program, "gmp.", 4) == 0 && verify_applies (t)
    && !(n >= 7 && strcmp (t->program + n - 7, ".keygen") == 0);
}

/* A stream no one can know before the run: the operands of the copies
 * cannot have been computed in advance.  The wall clock stands in where
 * OpenSSL's generator fails. */
static unsigned
random_stream (void)
{
  unsigned char b[4];
  unsigned s;
  if (RAND_bytes (b, sizeof b) == 1)
    s = (unsigned) b[0] | (unsigned) b[1] << 8 | (unsigned) b[2] << 16
      | (unsigned) b[3] << 24;
  else
    s = (unsigned) fmod (gb_wall_seconds () * 1e9, 4294967296.0);
  return s | FRESH_STREAM_BIT;
}

void
fresh_start (struct fresh_probe *p, const struct bench_test *t, const struct bench_ops *ops,
             void *state)
{
  memset (p, 0, sizeof *p);
  p->test = t;
  p->ops = ops;
  p->state = state;
  p->stream = random_stream ();
}

/* Whether a round is due, TIMED seconds of the test's samples taken. */
static int
due (const struct fresh_probe *p, double timed)
{
  return fresh_applies (p->test) && (p->rounds == 0 || p->spent < FRESH_SHARE * timed);
}

/* The next stream, never one without FRESH_STREAM_BIT. */
static unsigned
next_stream (struct fresh_probe *p)
{
  unsigned s = p->stream;
  p->stream = (p->stream + 1) | FRESH_STREAM_BIT;
  return s;
}

/* Sets up to WANT copies into COPIES, stopping early once their setup has
 * lasted CFG's target length of a sample; how many, 0 after a failed
 * setup (ERR says why) or an interrupt. */
static unsigned
set_up (struct fresh_probe *p, const struct harness_config *cfg, void **copies,
        unsigned want, volatile sig_atomic_t *stop, struct bench_error *err)
{
  double start = cfg->clock ();
  unsigned n = 0;
  guard_enter (p->test->name);
  prefault_begin ();
  while (n < want && !*stop)
    {
      struct bench_error why = { BENCH_OK, "" };
      unsigned stream = next_stream (p);
      copies[n] = p->ops->setup (p->test, stream, &why);
      if (!copies[n])
        {
          bench_fail (err, "the setup of a copy on fresh operands (stream %u) failed: %.200s",
                      stream, why.message[0] ? why.message : "no reason given");
          break;
        }
      n++;
      if (cfg->clock () - start >= cfg->sample_time)
        break;
    }
  prefault_end ();
  if (n < want && (*stop || err->outcome == BENCH_FAILED))
    {
      for (unsigned i = 0; i < n; i++)
        p->ops->teardown (copies[i]);
      return 0;
    }
  return n;
}

/* Checks the N copies, then tears them down; FRESH_WRONG at the first
 * that fails its check. */
static enum fresh_status
check_copies (struct fresh_probe *p, void **copies, unsigned n, struct bench_error *err)
{
  enum fresh_status st = FRESH_OK;
  for (unsigned i = 0; i < n; i++)
    {
      struct bench_error why = { BENCH_OK, "" };
      struct gb_sha256 h;
      unsigned char md[32];
      gb_sha256_init (&h);
      if (st == FRESH_OK && p->ops->check (copies[i], &h, &why))
        {
          bench_fail (err, "a copy on fresh operands, its output empty before the "
                      "repetition, failed its check (the call did no work, or wrong "
                      "work): %.200s", why.message[0] ? why.message : "wrong result");
          st = FRESH_WRONG;
        }
      gb_sha256_final (&h, md);     /* not compared: the operands are this run's */
      p->ops->teardown (copies[i]);
    }
  return st;
}

/* The copies of one batch: enough for FRESH_BLOCK seconds of the test's
 * operations at the pace its calibration found (REPS a sample), so that
 * the clock's own cost is small against them; 1 to FRESH_COPIES. */
static unsigned
batch_size (const struct harness_config *cfg, unsigned long reps)
{
  double per_op = cfg->sample_time / (double) (reps ? reps : 1);
  double n = ceil (FRESH_BLOCK / per_op);
  return n < 1 ? 1 : n > FRESH_COPIES ? FRESH_COPIES : (unsigned) n;
}

/* Seconds per operation of one repetition of each of the N COPIES, timed
 * in one stretch of CFG's clock. */
static double
time_copies (struct fresh_probe *p, const struct harness_config *cfg, void **copies,
             unsigned n)
{
  double t0 = cfg->clock ();
  for (unsigned i = 0; i < n; i++)
    p->ops->run (copies[i], 1);
  return (cfg->clock () - t0) / n;
}

/* The process's CPU seconds and this thread's voluntary context switches
 * (it waited for something), where Linux tells them, asked by system
 * calls no preloaded library rewrites (syscall_clock.h). */
struct cpu_mark
{
  int known;
  double cpu;
  long waits;
};

static void
cpu_mark (struct cpu_mark *m)
{
#if defined(__linux__) && defined(RUSAGE_THREAD)
  struct rusage u;
  m->known = process_cpu_seconds (&m->cpu) == 0 && thread_rusage (&u) == 0;
  m->cpu = m->known ? m->cpu : 0;
  m->waits = m->known ? u.ru_nvcsw : 0;
#else
  m->known = 0;
  m->cpu = 0;
  m->waits = 0;
#endif
}

/* Seconds per operation of one repetition of each of the N COPIES of a
 * test whose operations last longer than FRESH_BLOCK: the wall clock's,
 * or the process's CPU time where that is less and the thread never
 * waited (it lost the processor to other work, which the test's samples
 * leave out by taking the fastest ones). */
static double
time_long_copies (struct fresh_probe *p, const struct harness_config *cfg, void **copies,
                  unsigned n)
{
  struct cpu_mark before, after;
  cpu_mark (&before);
  double wall = time_copies (p, cfg, copies, n);
  cpu_mark (&after);
  if (cfg->clock != gb_wall_seconds || !before.known || !after.known
      || after.waits != before.waits)
    return wall;
  return fmin (wall, (after.cpu - before.cpu) / n);
}

/* Seconds a call of the test's run costs with nothing to repeat (REPS 0):
 * N calls on the test's own state, timed together. */
static double
time_calls (struct fresh_probe *p, const struct harness_config *cfg, unsigned n)
{
  double t0 = cfg->clock ();
  for (unsigned i = 0; i < n; i++)
    p->ops->run (p->state, 0);
  return (cfg->clock () - t0) / n;
}

/* Keeps the fastest of what a batch measured: FRESH, and with TIMED_AGAIN
 * AGAIN and CALL. */
static void
record (struct fresh_probe *p, double fresh, int timed_again, double again, double call)
{
  if (!p->measured || fresh < p->best)
    p->best = fresh;
  p->measured = 1;
  if (!timed_again)
    return;
  if (!p->measured_again || again < p->best_again)
    p->best_again = again;
  if (!p->measured_again || call < p->best_call)
    p->best_call = call;
  p->measured_again = 1;
}

/* One batch of up to WANT copies: set up, one repetition of each timed on
 * fresh operands, then (several copies) one more of each, timed again,
 * and as many calls of run with no repetition; checked and torn down. */
static enum fresh_status
batch (struct fresh_probe *p, const struct harness_config *cfg, unsigned want,
       volatile sig_atomic_t *stop, struct bench_error *err)
{
  void **copies = gb_xmalloc (want * sizeof *copies);
  unsigned n = set_up (p, cfg, copies, want, stop, err);
  if (n == 0)
    {
      free (copies);
      return *stop ? FRESH_INTERRUPTED : FRESH_WRONG;
    }
  double fresh = want > 1 ? time_copies (p, cfg, copies, n)
    : time_long_copies (p, cfg, copies, n);
  double again = n > 1 ? time_copies (p, cfg, copies, n) : 0;
  double call = n > 1 ? time_calls (p, cfg, n) : 0;
  enum fresh_status st = check_copies (p, copies, n, err);
  free (copies);
  if (st == FRESH_OK)
    record (p, fresh, n > 1, again, call);
  return st;
}

/* One round: FRESH_BATCHES batches of several copies, or one of one. */
static enum fresh_status
fresh_round (struct fresh_probe *p, const struct harness_config *cfg, unsigned long reps,
             volatile sig_atomic_t *stop, struct bench_error *err)
{
  unsigned want = batch_size (cfg, reps);
  unsigned batches = want > 1 ? FRESH_BATCHES : 1;
  double start = cfg->clock ();
  enum fresh_status st = FRESH_OK;
  for (unsigned b = 0; b < batches && st == FRESH_OK; b++)
    st = batch (p, cfg, want, stop, err);
  p->rounds++;
  p->spent += cfg->clock () - start;
  return st;
}

/* The seconds FRESH_SLACK_STEPS steps of a dependent chain of integer
 * multiplications and additions take on this machine, the fastest of
 * five tries, measured once: the slack for a first call on a new copy
 * scales with the machine's pace, a slow processor's or an emulator's
 * (qemu, valgrind). */
static double
slack_seconds (void)
{
  static double slack;
  for (int k = 0; k < 5 && slack == 0; k++)
    {
      volatile uint64_t seed = 1;
      uint64_t x = seed;
      double best = 0;
      for (int try = 0; try < 5; try++)
        {
          double t0 = gb_wall_seconds ();
          for (unsigned i = 0; i < FRESH_SLACK_STEPS; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
          double t = gb_wall_seconds () - t0;
          best = try == 0 || t < best ? t : best;
        }
      seed = x;
      slack = best;
    }
  return slack;
}

enum fresh_status
fresh_visit (struct fresh_probe *p, const struct harness_config *cfg, unsigned long reps,
             double timed, volatile sig_atomic_t *stop, struct bench_error *err)
{
  enum fresh_status st = FRESH_OK;
  for (unsigned k = 0; k < FRESH_ROUNDS_PER_VISIT && st == FRESH_OK && due (p, timed); k++)
    st = fresh_round (p, cfg, reps, stop, err);
  return st;
}

/* Whether the test's estimate SECONDS_PER_OP is faster than its copies
 * allow (or no round has measured them yet): than fresh operands, beyond
 * FRESH_MARGIN and FRESH_SLACK, or than its copies' operands a second
 * time, beyond FRESH_AGAIN_MARGIN. */
static int
too_fast (const struct fresh_probe *p, double seconds_per_op)
{
  return !p->measured || p->best > (1 + FRESH_MARGIN) * seconds_per_op + slack_seconds ()
    || (p->measured_again
        && p->best_again - p->best_call > (1 + FRESH_AGAIN_MARGIN) * seconds_per_op);
}

enum fresh_status
fresh_judge (struct fresh_probe *p, const struct harness_config *cfg, unsigned long reps,
             double seconds_per_op, volatile sig_atomic_t *stop, struct bench_error *err)
{
  if (!fresh_applies (p->test) || seconds_per_op <= 0 || cfg->emulated)
    return FRESH_OK;
  for (unsigned k = 0; k < FRESH_CONFIRM && too_fast (p, seconds_per_op); k++)
    {
      enum fresh_status st = fresh_round (p, cfg, reps, stop, err);
      if (st != FRESH_OK)
        return st;
    }
  if (!too_fast (p, seconds_per_op))
    return FRESH_OK;
  if (p->best > (1 + FRESH_MARGIN) * seconds_per_op + slack_seconds ())
    bench_fail (err, "its samples ran %.2f times as fast as its %u rounds on fresh operands "
                "(%.4g against %.4g operations a second; at most %.2f times, and %.0f ns "
                "an operation more, is allowed)", p->best / seconds_per_op, p->rounds,
                1 / seconds_per_op, 1 / p->best, 1 + FRESH_MARGIN, slack_seconds () * 1e9);
  else
    bench_fail (err, "its samples ran %.2f times as fast as its copies on fresh operands "
                "did a second time, one call each (%.4g against %.4g operations a second, "
                "%.0f ns a call left out; at most %.2f times is allowed)",
                (p->best_again - p->best_call) / seconds_per_op, 1 / seconds_per_op,
                1 / p->best_again, p->best_call * 1e9, 1 + FRESH_AGAIN_MARGIN);
  return FRESH_STALE;
}
