/* verify.h: every repetition's result checked, outside the clock.
 *
 * The timed loop (run) overwrites its outputs at every repetition, and
 * check sees only the last.  A library that is wrong now and then (an
 * unstable overclock, marginal memory, a miscompiled build) would pass that
 * single check.  So once a test's samples are taken, the runner calls
 * verify_repetitions: it runs the operation again one repetition at a
 * time, untimed, and checks every result by the program's own independent
 * check; each must pass and give the digest of the first.  The outputs are
 * deterministic (operand.h), so any difference is a wrong result.
 *
 * The pass checks VERIFY_REPS repetitions, or stops earlier once it has
 * spent as long as the test was timed, but at least VERIFY_MIN_SECONDS and
 * at most VERIFY_MAX_SECONDS: a library wrong once in 1000 calls escapes
 * 5000 checked repetitions with probability 0.999^5000 < 0.7%
 * (docs/timing.md has the arithmetic).  The cap keeps the slow tests'
 * passes from doubling a full run: their repetitions make hundreds of
 * calls each into the functions that do the work.
 *
 * Random generators (programs "rng.*") are the exception: their outputs
 * differ from one repetition to the next by design and their check is a
 * statistical test, which thousands of blocks would fail now and then;
 * only their last block is checked. */
#ifndef GB_VERIFY_H
#define GB_VERIFY_H

#include <signal.h>
#include "engine/bench.h"

#define VERIFY_REPS 5000ul
#define VERIFY_MIN_SECONDS 0.25
#define VERIFY_MAX_SECONDS 0.5

enum verify_status
{
  VERIFY_OK = 0,
  VERIFY_WRONG = -1,            /* ERR says which repetition and why */
  VERIFY_INTERRUPTED = -2
};

/* Whether T's repetitions are to be checked one by one. */
int verify_applies (const struct bench_test *t);

/* Runs OPS on STATE one repetition at a time and checks each against
 * DIGEST (the first check's SHA-256): VERIFY_REPS of them, or fewer once
 * TIMED_SECONDS, held between VERIFY_MIN_SECONDS and VERIFY_MAX_SECONDS,
 * have passed on CLOCK.  *STOP
 * becoming non-zero ends it. */
enum verify_status verify_repetitions (const struct bench_ops *ops, void *state,
                                       const unsigned char digest[32], double timed_seconds,
                                       double (*clock) (void), volatile sig_atomic_t *stop,
                                       struct bench_error *err);

#endif
