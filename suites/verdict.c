/* verdict.c: the end of a program's check, the result digested or the
 * test failed (see verdict.h). */
#include "suites/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include "engine/check.h"
#include "engine/rsa_key.h"

/* Fails the test in ERR with the message FMT and its arguments AP. */
static void
fail_with (struct bench_error *err, const char *fmt, va_list ap)
{
  char message[sizeof err->message];
  vsnprintf (message, sizeof message, fmt, ap);
  bench_fail (err, "%s", message);
}

int
verdict_mpz (int ok, const mpz_t result, struct gb_sha256 *digest, struct bench_error *err,
             const char *fmt, ...)
{
  if (ok)
    {
      digest_mpz (digest, result);
      return 0;
    }
  va_list ap;
  va_start (ap, fmt);
  fail_with (err, fmt, ap);
  va_end (ap);
  return -1;
}

void *
verdict_setup_failed (struct bench_error *err, void (*teardown) (void *state), void *state,
                      const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fail_with (err, fmt, ap);
  va_end (ap);
  teardown (state);
  return NULL;
}

int
verdict_rsa_keygen (int ok, const char *library, unsigned long bits,
                    struct gb_sha256 *digest, struct bench_error *err)
{
  if (ok)
    {
      rsa_keygen_digest (digest, bits);
      return 0;
    }
  bench_fail (err, "%s's %lu-bit RSA key is missing, of the wrong size or e, "
              "or does not sign and verify", library, bits);
  return -1;
}
