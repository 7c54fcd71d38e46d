/* fresh.h: timed rounds on fresh operands, against stale or cached outputs
 * of GMP's timed functions (the programs "gmp.*": other libraries' tests
 * are not probed; their first calls on a new copy allocate outside GMP's
 * resident memory, which under an emulator costs many times the slack).
 *
 * A test's timed loop repeats its operands (GMPbench's multiply times one
 * product, its rsa program one cycle of messages), and so do its check and
 * the verification pass (verify.h).  A library that does nothing when it
 * is called again with the operands and destination of its previous call
 * (the destination keeps the previous, right, output: a stale output), or
 * that remembers results keyed by the operands' values (a cache), passes
 * every check and makes the repeated samples fast without doing the work.
 *
 * So the runner (runner.c) also times rounds on operands that no sample
 * used.  A batch sets up copies of the test on operand streams drawn at
 * random for this run (FRESH_STREAM_BIT set: never a --threads copy's),
 * outside the clock and with GMP's allocations made resident
 * (prefault.h); times one repetition of each copy, the programs' run
 * calls and nothing else inside one stretch of the clock; when a batch
 * holds several copies, times one more repetition of each (the same
 * operands a second time, in turn); then checks every copy by the
 * program's own check, outside the clock.  A copy's output holds no
 * result before its first run (setup leaves it empty or zero), so a call
 * that did no work fails the check, and the test fails.
 *
 * A batch holds as many copies as make FRESH_BLOCK seconds of the test's
 * operations (from its calibration), 1 to FRESH_COPIES, fewer once their
 * setup has lasted a sample's length; a round is FRESH_BATCHES batches of
 * several copies (the second in the memory the first has used), or one
 * batch of one.  A copy timed alone is an operation longer than
 * FRESH_BLOCK: its time is the process's CPU time where that is less than
 * the wall clock's and the thread did not wait (it lost the processor to
 * other work, which the test's samples leave out by keeping the fastest).
 *
 * Rounds are taken at every visit of the test, up to
 * FRESH_ROUNDS_PER_VISIT, while they have taken less than FRESH_SHARE of
 * the test's timed seconds (the first always), so that they see the
 * machine's fast and slow stretches as the samples do.  When the test is
 * done, with T its fast-sample estimate of the seconds an operation takes
 * (harness.h),
 *   - the fastest batch on fresh operands must have taken at most
 *     (1 + FRESH_MARGIN) T + S an operation, the slack S for what a first
 *     call on a new copy costs (cold caches, an allocation): the time of
 *     FRESH_SLACK_STEPS steps of a dependent chain of multiplications and
 *     additions here, about 2 us on the development machine and as many
 *     times longer as an emulator (qemu, valgrind) makes everything, and
 *   - the fastest second pass over a batch's copies at most
 *     (1 + FRESH_AGAIN_MARGIN) T, once what a call of run costs by itself
 *     (run (STATE, 0), timed in the same batch) is taken off each of its
 *     operations (the samples make one call for many); these operands are
 *     not new, but the calls alternate between copies, which a library
 *     that skips a call repeating the previous one does not skip;
 * otherwise the test is timed again on fresh operands, up to FRESH_CONFIRM
 * rounds more, and fails if it still is (docs/timing.md has what was
 * measured to choose the margins).
 *
 * Under an emulator (CFG's emulated: qemu-user, Rosetta 2) the bounds on
 * time are not applied; the rounds are still taken and their copies
 * checked.  An emulated first call on new operands is slower than the
 * samples by what the emulator adds (likely its translated-code caches
 * and the host's prediction of its jumps), beyond any bound chosen on
 * real processors: qemu-aarch64 made honest 128-bit gcdext rounds 4.2 and 5.2
 * times slower than the samples (the runs of `make check-cross`,
 * 2026-12-06), where 3 times plus the slack is allowed, and an emulated
 * run's times are not the emulated processor's anyway (its clock is
 * marked invalid: docs/sysinfo.md).
 *
 * Programs whose operands do not depend on the stream (pi, factorials)
 * give copies that repeat the samples' work; a cache serves those as fast
 * as the samples, and the comparison cannot see it there.  Random
 * generators ("rng.*") are not probed (verify.h says why), nor key
 * generation (programs "*.keygen"): every repetition draws new candidates,
 * so there is nothing repeated to remember, and its time is random by
 * nature, so that one fresh key says little against the samples' fastest. */
#ifndef GB_FRESH_H
#define GB_FRESH_H

#include <signal.h>
#include "engine/bench.h"
#include "engine/harness.h"

#define FRESH_COPIES 64          /* at most this many copies a batch */
#define FRESH_BLOCK 2e-6         /* seconds of operations a batch times */
#define FRESH_BATCHES 2          /* batches a round */
#define FRESH_SHARE 0.1          /* of the test's timed seconds, for the rounds */
#define FRESH_ROUNDS_PER_VISIT 4 /* at most this many rounds a visit */
#define FRESH_MARGIN 2.0         /* fresh operands: at most (1 + this) times */
#define FRESH_SLACK_STEPS 1600   /* ... plus what this many steps of a
                                    dependent chain take (fresh.c) */
#define FRESH_AGAIN_MARGIN 3.0   /* the copies again: at most (1 + this) times */
#define FRESH_CONFIRM 8          /* rounds more before a test fails */
#define FRESH_STREAM_BIT 0x80000000u

enum fresh_status
{
  FRESH_OK = 0,
  FRESH_WRONG = -1,             /* a copy failed its check (ERR says why) */
  FRESH_STALE = -2,             /* repeated operands too fast (ERR says how) */
  FRESH_INTERRUPTED = -3
};

struct fresh_probe
{
  const struct bench_test *test;
  const struct bench_ops *ops;
  void *state;                  /* the test's own, for calls of run (STATE, 0) */
  unsigned stream;              /* the next copy's operand stream */
  unsigned rounds;
  int measured;                 /* whether a round has measured fresh operands */
  double best;                  /* seconds per operation of the fastest batch */
  int measured_again;           /* whether a batch timed its copies twice */
  double best_again;            /* the fastest second pass */
  double best_call;             /* the fastest call of run with 0 repetitions */
  double spent;                 /* seconds the rounds took, setup and checks too */
};

/* Whether T is probed (not a random generator nor key generation). */
int fresh_applies (const struct bench_test *t);

/* A probe of T, run by OPS, with no round yet; STATE is the test's own
 * (set up, measured), which must live until fresh_judge returns. */
void fresh_start (struct fresh_probe *p, const struct bench_test *t,
                  const struct bench_ops *ops, void *state);

/* The rounds due at a visit of the test, TIMED seconds of its samples
 * taken, REPS its repetitions per sample; timed on CFG's clock. */
enum fresh_status fresh_visit (struct fresh_probe *p, const struct harness_config *cfg,
                               unsigned long reps, double timed,
                               volatile sig_atomic_t *stop, struct bench_error *err);

/* The verdict on a test whose fast-sample estimate is SECONDS_PER_OP,
 * with the confirmation rounds it needs; FRESH_OK under an emulator
 * (CFG's emulated). */
enum fresh_status fresh_judge (struct fresh_probe *p, const struct harness_config *cfg,
                               unsigned long reps, double seconds_per_op,
                               volatile sig_atomic_t *stop, struct bench_error *err);

#endif
