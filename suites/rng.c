/* rng.c: throughput of random number generators, the `rng` suite.
 *
 * One operation fills a block of t->a bytes (4096); ops/s times the
 * block size is the throughput, which the comparison output shows in
 * MiB/s and cycles per byte (compare.h).  The generators:
 *
 *   gmp-mt, gmp-lc  GMP's Mersenne Twister and 128-bit linear congruential
 *                   gmp_randstate, through mpz_urandomb;
 *   openssl         RAND_bytes, OpenSSL's DRBG;
 *   os              the operating system's generator (getrandom on Linux,
 *                   arc4random_buf on the BSDs and macOS, BCryptGenRandom
 *                   with the system-preferred generator on Windows, which
 *                   needs -lbcrypt);
 *   rdrand, rdseed, rndr   the CPU instructions (rng_hw.h), skipped where
 *                   the CPU lacks them.
 *
 * Check runs a quick statistical sanity test (rng_sanity.h) on the last
 * block.  A good generator fails it about once in 1400 blocks, so for the
 * unpredictable generators a failed block is followed by a fresh one and
 * only two failures in a row fail the run (about once in two million for
 * a good generator; a stuck or biased one fails every block).  The digest must be the same on every machine: for GMP's seeded
 * generators it covers the first block of a freshly seeded state, for the
 * others, whose output is meant to be unpredictable, only the fact that
 * the sanity test passed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <openssl/rand.h>
#if defined(__linux__)
#include <sys/random.h>
#elif defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <bcrypt.h>
#endif
#include "engine/bench.h"
#include "engine/operand.h"
#include "suites/programs.h"
#include "suites/rng_hw.h"
#include "suites/rng_sanity.h"

enum generator { GEN_GMP_MT, GEN_GMP_LC, GEN_OPENSSL, GEN_OS, GEN_RDRAND, GEN_RDSEED, GEN_RNDR };

/* The generator of each program of this file (suites/programs.c). */
static const struct
{
  const char *program;
  enum generator gen;
} generators[] = {
  { "rng.gmp-mt", GEN_GMP_MT }, { "rng.gmp-lc", GEN_GMP_LC }, { "rng.openssl", GEN_OPENSSL },
  { "rng.os", GEN_OS }, { "rng.rdrand", GEN_RDRAND }, { "rng.rdseed", GEN_RDSEED },
  { "rng.rndr", GEN_RNDR },
};

/* The generator test T draws from; 0 (GMP's Mersenne Twister) for a
 * program not listed, which the registry does not have. */
static enum generator
generator_of (const struct bench_test *t)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (generators); i++)
    if (strcmp (generators[i].program, t->program) == 0)
      return generators[i].gen;
  return GEN_GMP_MT;
}

struct rng_state
{
  const struct bench_test *t;
  unsigned stream;
  enum generator gen;
  size_t len;
  unsigned char *buf;
  gmp_randstate_t gmp;          /* GMP generators only */
  mpz_t z;
  int failed;                   /* the generator reported an error */
};

/* A GMP generator of kind GEN, seeded from the test's operand stream. */
static void
gmp_rand_init (gmp_randstate_t st, enum generator gen, const char *name, unsigned stream)
{
  struct gb_rng r;
  mpz_t seed;
  gb_rng_init (&r, name, stream);
  mpz_init (seed);
  gb_rng_mpz (seed, &r, 128);
  if (gen == GEN_GMP_MT)
    gmp_randinit_mt (st);
  else
    gmp_randinit_lc_2exp_size (st, 128);
  gmp_randseed (st, seed);
  mpz_clear (seed);
}

/* The last number drawn, as LEN bytes. */
static void
gmp_block (struct rng_state *s, unsigned char *out)
{
  size_t written = 0;
  memset (out, 0, s->len);
  mpz_export (out, &written, -1, 1, -1, 0, s->z);
}

/* Whether GEN can run here; the reason in ERR if not. */
static int
generator_available (enum generator gen, struct bench_error *err)
{
  char why[128];
  static const enum rng_hw hw[] = { RNG_HW_RDRAND, RNG_HW_RDSEED, RNG_HW_RNDR };
  if (gen == GEN_OS)
    {
#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) \
  || defined(__NetBSD__) || defined(_WIN32)
      return 1;
#else
      bench_skip (err, "no known OS random generator on this system");
      return 0;
#endif
    }
  if (gen < GEN_RDRAND)
    return 1;
  if (rng_hw_available (hw[gen - GEN_RDRAND], why, sizeof why))
    return 1;
  bench_skip (err, "%s", why);
  return 0;
}

static void *
rng_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  enum generator gen = generator_of (t);
  if (!generator_available (gen, err))
    return NULL;
  struct rng_state *s = gb_xcalloc (1, sizeof *s);
  s->t = t;
  s->stream = stream;
  s->gen = gen;
  s->len = (size_t) t->a;
  s->buf = gb_xmalloc (s->len);
  if (gen <= GEN_GMP_LC)
    {
      gmp_rand_init (s->gmp, gen, t->name, stream);
      mpz_init2 (s->z, 8 * s->len);
    }
  return s;
}

static void
gmp_run (void *state, unsigned long reps)
{
  struct rng_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    mpz_urandomb (s->z, s->gmp, 8 * s->len);
}

static void
openssl_run (void *state, unsigned long reps)
{
  struct rng_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    s->failed |= RAND_bytes (s->buf, (int) s->len) != 1;
}

/* LEN bytes from the OS generator; -1 on error.  getrandom may return
 * less than asked, or be interrupted by a signal before it returns any
 * (requests over 256 bytes): both are retried. */
static int
os_fill (unsigned char *buf, size_t len)
{
#if defined(__linux__)
  while (len > 0)
    {
      ssize_t n = getrandom (buf, len, 0);
      if (n < 0 && errno != EINTR)
        return -1;
      if (n > 0)
        {
          buf += n;
          len -= (size_t) n;
        }
    }
  return 0;
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
  arc4random_buf (buf, len);
  return 0;
#elif defined(_WIN32)
  while (len > 0)
    {
      ULONG n = len < ULONG_MAX ? (ULONG) len : ULONG_MAX;
      if (!BCRYPT_SUCCESS (BCryptGenRandom (NULL, buf, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
        return -1;
      buf += n;
      len -= n;
    }
  return 0;
#else
  (void) buf;
  (void) len;
  return -1;
#endif
}

static void
os_run (void *state, unsigned long reps)
{
  struct rng_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    s->failed |= os_fill (s->buf, s->len) != 0;
}

static void
hw_run (void *state, unsigned long reps)
{
  static const enum rng_hw hw[] = { RNG_HW_RDRAND, RNG_HW_RDSEED, RNG_HW_RNDR };
  struct rng_state *s = state;
  enum rng_hw which = hw[s->gen - GEN_RDRAND];
  for (unsigned long i = 0; i < reps; i++)
    s->failed |= rng_hw_fill (which, s->buf, s->len) != 0;
}

/* For GMP's generators: the first block of a fresh state seeded as in
 * setup, into the digest. */
static void
digest_first_block (struct rng_state *s, struct gb_sha256 *digest)
{
  struct rng_state fresh = *s;
  gmp_rand_init (fresh.gmp, s->gen, s->t->name, s->stream);
  mpz_init (fresh.z);
  mpz_urandomb (fresh.z, fresh.gmp, 8 * s->len);
  gmp_block (&fresh, s->buf);
  gb_sha256_update (digest, s->buf, s->len);
  mpz_clear (fresh.z);
  gmp_randclear (fresh.gmp);
}

/* One more block from S's generator, as its program's run draws it. */
static void
draw_block (struct rng_state *s)
{
  if (s->gen <= GEN_GMP_LC)
    gmp_run (s, 1);
  else if (s->gen == GEN_OPENSSL)
    openssl_run (s, 1);
  else if (s->gen == GEN_OS)
    os_run (s, 1);
  else
    hw_run (s, 1);
}

/* For the unpredictable generators: whether a freshly drawn block fails
 * the sanity test too (a generator error counts as failing). */
static int
redraw_fails (struct rng_state *s, char *why, size_t whylen)
{
  char first[160];
  snprintf (first, sizeof first, "%.159s", why);
  draw_block (s);
  if (s->failed)
    {
      snprintf (why, whylen, "%.159s, and the generator reported an error drawing a second block", first);
      return 1;
    }
  char second[160];
  if (rng_sanity (s->buf, s->len, second, sizeof second) == 0)
    return 0;
  snprintf (why, whylen, "%.159s (and a second block the %.159s)", first, second);
  return 1;
}

static int
rng_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  static const char passed[] = "sanity tests passed";
  struct rng_state *s = state;
  char why[400];
  if (s->failed)
    {
      bench_fail (err, "the generator reported an error%s",
                  s->gen >= GEN_RDRAND ? " (the instruction kept failing after all retries)" : "");
      return -1;
    }
  if (s->gen <= GEN_GMP_LC)
    gmp_block (s, s->buf);
  if (rng_sanity (s->buf, s->len, why, sizeof why) != 0
      && (s->gen <= GEN_GMP_LC || redraw_fails (s, why, sizeof why)))
    {
      bench_fail (err, "the output fails the %s", why);
      return -1;
    }
  if (s->gen <= GEN_GMP_LC)
    digest_first_block (s, digest);
  else
    gb_sha256_update (digest, passed, sizeof passed - 1);
  return 0;
}

static void
rng_teardown (void *state)
{
  struct rng_state *s = state;
  if (s->gen <= GEN_GMP_LC)
    {
      mpz_clear (s->z);
      gmp_randclear (s->gmp);
    }
  free (s->buf);
  free (s);
}

const struct bench_ops rng_gmp_ops = { rng_setup, gmp_run, rng_check, rng_teardown };
const struct bench_ops rng_openssl_ops = { rng_setup, openssl_run, rng_check, rng_teardown };
const struct bench_ops rng_os_ops = { rng_setup, os_run, rng_check, rng_teardown };
const struct bench_ops rng_instruction_ops = { rng_setup, hw_run, rng_check, rng_teardown };
