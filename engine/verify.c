/* verify.c: the untimed pass that checks every repetition (see verify.h). */
#include "engine/verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int
verify_applies (const struct bench_test *t)
{
  return strncmp (t->program, "rng.", 4) != 0;
}

enum verify_status
verify_repetitions (const struct bench_ops *ops, void *state, const unsigned char digest[32],
                    double timed_seconds, double (*clock) (void), volatile sig_atomic_t *stop,
                    struct bench_error *err)
{
  double limit = fmin (fmax (timed_seconds, VERIFY_MIN_SECONDS), VERIFY_MAX_SECONDS);
  double start = clock ();
  for (unsigned long i = 1; i <= VERIFY_REPS; i++)
    {
      struct bench_error why = { BENCH_OK, "" };
      struct gb_sha256 h;
      unsigned char md[32];
      if (*stop)
        return VERIFY_INTERRUPTED;
      ops->run (state, 1);
      gb_sha256_init (&h);
      int bad = ops->check (state, &h, &why);
      gb_sha256_final (&h, md);
      if (bad)
        {
          bench_fail (err, "repetition %lu of the verification pass: %.200s", i,
                      why.message[0] ? why.message : "wrong result");
          return VERIFY_WRONG;
        }
      if (memcmp (md, digest, sizeof md) != 0)
        {
          bench_fail (err, "repetition %lu of the verification pass gave another result "
                      "than the first (its digest differs)", i);
          return VERIFY_WRONG;
        }
      if (clock () - start >= limit)
        break;
    }
  return VERIFY_OK;
}
