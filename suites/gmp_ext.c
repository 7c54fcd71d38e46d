/* gmp_ext.c: GMP operations beyond GMPbench 0.2, in the `ext` tree: square
 * and k-th roots, modular inverse, factorial and primality testing.  They
 * have their own score and never change the compatible one.  Each is
 * checked by an independent route:
 *   sqrt, root   r^k <= x < (r+1)^k;
 *   invert       x * r = 1 (mod m);
 *   fac          n! modulo primes above n against a plain running product,
 *                and its power of two against Legendre's formula;
 *   prime        (one operation tests a batch: 16 random odd numbers, or
 *                the two primes of an RSA key) every answer confirmed: "composite" by a Fermat witness or
 *                a small factor, "probably prime" by a Fermat test. */
#include <stdlib.h>
#include <gmp.h>
#include "engine/bench.h"
#include "engine/check.h"
#include "engine/guard.h"
#include "engine/key_cache.h"
#include "engine/operand.h"
#include "suites/programs.h"
#include "suites/run_loop.h"
#include "suites/verdict.h"

#define PRIME_INPUTS 16

struct ext_state
{
  const struct bench_test *t;
  mpz_t x, m, r;
  mpz_t in[PRIME_INPUTS];
  int answer[PRIME_INPUTS];
  int ninputs;                  /* how many of IN are initialised */
};

static struct ext_state *
ext_new (const struct bench_test *t)
{
  struct ext_state *s = gb_xcalloc (1, sizeof *s);
  s->t = t;
  mpz_inits (s->x, s->m, s->r, NULL);
  return s;
}

static void *
root_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct ext_state *s = ext_new (t);
  struct gb_rng r;
  gb_rng_init (&r, t->name, stream);
  gb_rng_mpz (s->x, &r, t->a);
  return s;
}

RUN_LOOP (sqrt_run, struct ext_state, mpz_sqrt (s->r, s->x))
RUN_LOOP (root_run, struct ext_state, mpz_root (s->r, s->x, s->t->b))

static int
root_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct ext_state *s = state;
  unsigned long k = s->t->b ? (unsigned long) s->t->b : 2;
  mpz_t lo, hi;
  mpz_inits (lo, hi, NULL);
  mpz_pow_ui (lo, s->r, k);
  mpz_add_ui (hi, s->r, 1);
  mpz_pow_ui (hi, hi, k);
  int ok = mpz_cmp (lo, s->x) <= 0 && mpz_cmp (s->x, hi) < 0;
  mpz_clears (lo, hi, NULL);
  return verdict_mpz (ok, s->r, digest, err, "wrong root: r^%lu <= x < (r+1)^%lu fails", k, k);
}

static void *
invert_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct ext_state *s = ext_new (t);
  struct gb_rng r;
  mpz_t g;
  mpz_init (g);
  gb_rng_init (&r, t->name, stream);
  gb_rng_mpz (s->m, &r, t->a);
  mpz_setbit (s->m, 0);
  unsigned long draws = 0;
  do
    {
      guard_step (&draws, 1000, "mpz_gcd", "1000 random operands were none prime to the modulus");
      gb_rng_mpz_below (s->x, &r, s->m);
      mpz_gcd (g, s->x, s->m);
    }
  while (mpz_cmp_ui (g, 1) != 0);
  mpz_clear (g);
  return s;
}

RUN_LOOP (invert_run, struct ext_state, mpz_invert (s->r, s->x, s->m))

static int
invert_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct ext_state *s = state;
  mpz_t p;
  mpz_init (p);
  mpz_mul (p, s->x, s->r);
  mpz_mod (p, p, s->m);
  int ok = mpz_cmp_ui (p, 1) == 0;
  mpz_clear (p);
  return verdict_mpz (ok, s->r, digest, err, "mpz_invert gave a wrong inverse (x * r mod m != 1)");
}

static void *
fac_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) stream;
  (void) err;
  return ext_new (t);
}

RUN_LOOP (fac_run, struct ext_state, mpz_fac_ui (s->r, s->t->a))

static int
fac_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  static const unsigned long primes[] = { 4294967291ul, 4294967279ul };
  struct ext_state *s = state;
  unsigned long n = s->t->a;
  int ok = 1;
  for (size_t j = 0; j < GB_ARRAY_SIZE (primes) && ok; j++)
    {
      unsigned long long acc = 1;
      for (unsigned long i = 2; i <= n; i++)
        acc = acc * i % primes[j];
      ok = acc == mpz_fdiv_ui (s->r, primes[j]);
    }
  /* Legendre: the power of two in n! is n minus the number of ones in n. */
  unsigned long twos = n - (unsigned long) __builtin_popcountl (n);
  ok = ok && mpz_scan1 (s->r, 0) == twos;
  return verdict_mpz (ok, s->r, digest, err,
                      "mpz_fac_ui(%lu) is wrong (residues or power of two differ)", n);
}

/* Random inputs are 16 random odd numbers; prime inputs are the two
 * primes of the RSA key of twice the size (already made for the RSA
 * tests, where finding 16 fresh primes would take seconds). */
static void *
prime_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) err;
  struct ext_state *s = ext_new (t);
  struct gb_rng r;
  gb_rng_init (&r, t->name, stream);
  if (t->b)
    {
      const struct rsa_key *k = key_cache_rsa (2 * t->a);
      mpz_init_set (s->in[0], k->p);
      mpz_init_set (s->in[1], k->q);
      s->ninputs = 2;
      return s;
    }
  for (int i = 0; i < PRIME_INPUTS; i++)
    {
      mpz_init (s->in[i]);
      gb_rng_mpz (s->in[i], &r, t->a);
      mpz_setbit (s->in[i], 0);
    }
  s->ninputs = PRIME_INPUTS;
  return s;
}

/* One operation tests the whole batch: random inputs differ widely in
 * cost (most fall to trial division), so a batch is the unit that takes
 * the same time every time. */
static void
prime_run (void *state, unsigned long reps)
{
  struct ext_state *s = state;
  for (unsigned long i = 0; i < reps; i++)
    for (int j = 0; j < s->ninputs; j++)
      s->answer[j] = mpz_probab_prime_p (s->in[j], 25);
}

/* 1 if N is certainly composite (a factor below 1000 or a Fermat witness
 * to base 3), 0 if it passes the Fermat test. */
static int
composite_certified (const mpz_t n)
{
  mpz_t b, e;
  for (unsigned long d = 3; d < 1000; d += 2)
    if (mpz_cmp_ui (n, d) > 0 && mpz_divisible_ui_p (n, d))
      return 1;
  mpz_inits (b, e, NULL);
  mpz_set_ui (b, 3);
  mpz_sub_ui (e, n, 1);
  mpz_powm (b, b, e, n);
  int composite = mpz_cmp_ui (b, 1) != 0;
  mpz_clears (b, e, NULL);
  return composite;
}

static int
prime_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct ext_state *s = state;
  for (int i = 0; i < s->ninputs; i++)
    {
      int says_prime = s->answer[i] > 0;
      if (says_prime == composite_certified (s->in[i]))
        {
          bench_fail (err, "mpz_probab_prime_p answered %d for input %d, which is %s",
                      s->answer[i], i, says_prime ? "composite" : "a probable prime");
          return -1;
        }
      unsigned char a = (unsigned char) (says_prime ? 1 : 0);
      digest_mpz (digest, s->in[i]);
      gb_sha256_update (digest, &a, 1);
    }
  return 0;
}

static void
ext_teardown (void *state)
{
  struct ext_state *s = state;
  mpz_clears (s->x, s->m, s->r, NULL);
  for (int i = 0; i < s->ninputs; i++)
    mpz_clear (s->in[i]);
  free (s);
}

const struct bench_ops gmp_sqrt_ops = { root_setup, sqrt_run, root_check, ext_teardown };
const struct bench_ops gmp_root_ops = { root_setup, root_run, root_check, ext_teardown };
const struct bench_ops gmp_invert_ops = { invert_setup, invert_run, invert_check, ext_teardown };
const struct bench_ops gmp_fac_ops = { fac_setup, fac_run, fac_check, ext_teardown };
const struct bench_ops gmp_prime_ops = { prime_setup, prime_run, prime_check, ext_teardown };
