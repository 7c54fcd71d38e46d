/* gmp_pi.c: GMPbench's pi program, the first N decimal digits of pi, by
 * the algorithm GMPbench 0.2 measures (Hanhong Xue's, published with GMP):
 *
 *   1. the Chudnovsky series
 *        1/pi = 12/C^(3/2) * sum_k (-1)^k (6k)! (A + B k) / ((3k)! k!^3 C^3k)
 *      summed by binary splitting over floor(N / 14.18...) terms, each
 *      range [a, b) giving integers P (the denominators), G (the numerator
 *      products) and Q (the partial sum), split at 52.24% of the range;
 *   2. along the way, the odd prime factors of every P and G are tracked
 *      (a sieve gives the factors of each term's numbers), and from depth 4
 *      of the splitting down, the common factors of the right half's P and
 *      the left half's G are divided out of both, which keeps the numbers
 *      smaller without changing the sum;
 *   3. pi = P * (C/12) * sqrt(C) / (Q + A P) in floating point of
 *      N * log2(10) + 16 bits, the division and the square root by Newton
 *      iterations that double the precision each step (mpf).
 *
 * The measured operation is all of it, sieve and allocations included, as
 * in GMPbench; turning the result into decimal digits for the check is
 * outside it.  The check compares the digits with known digests
 * (pi_digits.h).  ext.pi.mpz (gmp_pi_mpz.c) is a plainer, faster program:
 * binary splitting with integer square root and division. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include "engine/bench.h"
#include "suites/pi_digits.h"
#include "suites/programs.h"
#include "suites/run_loop.h"

#define CH_A 13591409ul
#define CH_B 545140134ul
#define CH_C 640320ul
#define DIGITS_PER_TERM 14.1816474627254776555  /* log10(C^3 / 1728) */
#define BITS_PER_DIGIT 3.32192809488736234787   /* log2(10) */
#define GUARD_BITS 16
#define SPLIT_AT 0.5224         /* where a range is split */
#define REDUCE_FROM_DEPTH 4     /* common factors are removed from here down */
#define PRODUCT_LEAF 32         /* factors multiplied one by one below this */
#define DOUBLE_BITS 53          /* Newton iterations start from a double */
#define FACTORS_MIN 32

/* ------------------------------------------------------ factored numbers */

/* For odd n below the sieve's size, entry n/2 gives n's smallest prime
 * factor, its exponent in n, and the entry of what is left of n once that
 * prime power is divided out (entry 0 stands for 1). */
struct sieve_entry
{
  unsigned long prime, exp, rest;
};

/* An odd number as its prime factors, in increasing order. */
struct factors
{
  unsigned long *prime, *exp;
  size_t n, cap;
};

static void
factors_init (struct factors *f)
{
  f->prime = gb_xmalloc (2 * FACTORS_MIN * sizeof *f->prime);
  f->exp = f->prime + FACTORS_MIN;
  f->n = 0;
  f->cap = FACTORS_MIN;
}

static void
factors_clear (struct factors *f)
{
  free (f->prime);
}

/* Room for CAP factors; the contents are lost. */
static void
factors_reserve (struct factors *f, size_t cap)
{
  if (f->cap >= cap)
    return;
  free (f->prime);
  f->prime = gb_xmalloc (2 * cap * sizeof *f->prime);
  f->exp = f->prime + cap;
  f->cap = cap;
}

static void
factors_swap (struct factors *a, struct factors *b)
{
  struct factors t = *a;
  *a = *b;
  *b = t;
}

static void
factors_remove_zeros (struct factors *f)
{
  size_t j = 0;
  for (size_t i = 0; i < f->n; i++)
    if (f->exp[i] > 0)
      {
        f->prime[j] = f->prime[i];
        f->exp[j] = f->exp[i];
        j++;
      }
  f->n = j;
}

/* ------------------------------------------------------ the computation */

/* One slot of the splitting: the P, Q, G of a range and the factors of
 * P and G. */
struct slot
{
  mpz_t p, q, g;
  struct factors fp, fg;
};

struct pi_work
{
  struct sieve_entry *sieve;
  unsigned long sieve_size;     /* odd numbers below it are in the sieve */
  struct slot *slots;
  int nslots;
  struct factors power;         /* scratch: one number's factors */
  struct factors merged;        /* scratch: a product's or a gcd's factors */
  mpz_t common;                 /* the gcd removed, as a number */
};

static void
build_sieve (struct pi_work *w, unsigned long size)
{
  unsigned long root = (unsigned long) sqrt ((double) size);
  w->sieve_size = size;
  w->sieve = gb_xmalloc (size / 2 * sizeof *w->sieve);
  memset (w->sieve, 0, size / 2 * sizeof *w->sieve);
  for (unsigned long n = 3; n < size; n += 2)
    {
      struct sieve_entry *e = &w->sieve[n / 2];
      if (e->prime != 0)
        continue;
      e->prime = n;
      e->exp = 1;
      if (n > root)
        continue;
      /* Odd multiples m = n * k from n^2 up; k's entry is k / 2. */
      for (unsigned long m = n * n, k = n / 2; m < size; m += 2 * n, k++)
        {
          struct sieve_entry *me = &w->sieve[m / 2];
          if (me->prime != 0)
            continue;
          me->prime = n;
          if (w->sieve[k].prime == n)
            {
              me->exp = w->sieve[k].exp + 1;
              me->rest = w->sieve[k].rest;
            }
          else
            {
              me->exp = 1;
              me->rest = k;
            }
        }
    }
}

/* F = N^POWER, N odd and in the sieve. */
static void
factors_of (const struct pi_work *w, struct factors *f, unsigned long n,
            unsigned long power)
{
  size_t i = 0;
  for (unsigned long e = n / 2; e != 0; e = w->sieve[e].rest, i++)
    {
      f->prime[i] = w->sieve[e].prime;
      f->exp[i] = w->sieve[e].exp * power;
    }
  f->n = i;
}

/* F *= G. */
static void
factors_mul (struct pi_work *w, struct factors *f, const struct factors *g)
{
  struct factors *r = &w->merged;
  size_t i = 0, j = 0, k = 0;
  factors_reserve (r, f->n + g->n);
  while (i < f->n && j < g->n)
    {
      if (f->prime[i] == g->prime[j])
        {
          r->prime[k] = f->prime[i];
          r->exp[k++] = f->exp[i++] + g->exp[j++];
        }
      else if (f->prime[i] < g->prime[j])
        {
          r->prime[k] = f->prime[i];
          r->exp[k++] = f->exp[i++];
        }
      else
        {
          r->prime[k] = g->prime[j];
          r->exp[k++] = g->exp[j++];
        }
    }
  for (; i < f->n; i++, k++)
    {
      r->prime[k] = f->prime[i];
      r->exp[k] = f->exp[i];
    }
  for (; j < g->n; j++, k++)
    {
      r->prime[k] = g->prime[j];
      r->exp[k] = g->exp[j];
    }
  r->n = k;
  factors_swap (f, r);
}

/* F *= N^POWER. */
static void
factors_mul_power (struct pi_work *w, struct factors *f, unsigned long n,
                   unsigned long power)
{
  factors_of (w, &w->power, n, power);
  factors_mul (w, f, &w->power);
}

/* R = the product of the prime powers F[lo, hi), by a product tree. */
static void
factors_product (mpz_t r, const struct factors *f, size_t lo, size_t hi)
{
  if (hi - lo <= PRODUCT_LEAF)
    {
      mpz_set_ui (r, 1);
      for (size_t i = lo; i < hi; i++)
        for (unsigned long e = 0; e < f->exp[i]; e++)
          mpz_mul_ui (r, r, f->prime[i]);
      return;
    }
  mpz_t left;
  mpz_init (left);
  factors_product (left, f, lo, lo + (hi - lo) / 2);
  factors_product (r, f, lo + (hi - lo) / 2, hi);
  mpz_mul (r, r, left);
  mpz_clear (left);
}

/* Divides the common factor of X (factors FX) and Y (factors FY) out of
 * both. */
static void
remove_common (struct pi_work *w, mpz_t x, struct factors *fx, mpz_t y,
               struct factors *fy)
{
  struct factors *c = &w->merged;
  size_t i = 0, j = 0;
  factors_reserve (c, fx->n < fy->n ? fx->n : fy->n);
  c->n = 0;
  while (i < fx->n && j < fy->n)
    {
      if (fx->prime[i] == fy->prime[j])
        {
          unsigned long e = fx->exp[i] < fy->exp[j] ? fx->exp[i] : fy->exp[j];
          fx->exp[i++] -= e;
          fy->exp[j++] -= e;
          c->prime[c->n] = fx->prime[i - 1];
          c->exp[c->n++] = e;
        }
      else if (fx->prime[i] < fy->prime[j])
        i++;
      else
        j++;
    }
  if (c->n == 0)
    return;
  factors_product (w->common, c, 0, c->n);
  mpz_tdiv_q (x, x, w->common);
  mpz_tdiv_q (y, y, w->common);
  factors_remove_zeros (fx);
  factors_remove_zeros (fy);
}

/* The single term K >= 1 into slot S:
 *   P = K^3 C^3 / 24,  G = (6K-5)(2K-1)(6K-1),  Q = (-1)^K G (A + B K). */
static void
split_leaf (struct pi_work *w, struct slot *s, unsigned long k)
{
  unsigned long odd = k;
  mpz_set_ui (s->p, k);
  mpz_mul_ui (s->p, s->p, k);
  mpz_mul_ui (s->p, s->p, k);
  mpz_mul_ui (s->p, s->p, (CH_C / 24) * (CH_C / 24));
  mpz_mul_ui (s->p, s->p, CH_C * 24);
  mpz_set_ui (s->g, 2 * k - 1);
  mpz_mul_ui (s->g, s->g, 6 * k - 1);
  mpz_mul_ui (s->g, s->g, 6 * k - 5);
  mpz_set_ui (s->q, k);
  mpz_mul_ui (s->q, s->q, CH_B);
  mpz_add_ui (s->q, s->q, CH_A);
  mpz_mul (s->q, s->q, s->g);
  if (k & 1)
    mpz_neg (s->q, s->q);

  /* The odd part of C^3 / 24 is 3^2 (5 * 23 * 29)^3: the cube of
   * 3 * 5 * 23 * 29 with one 3 (the first factor) taken back. */
  while ((odd & 1) == 0)
    odd >>= 1;
  factors_of (w, &s->fp, odd, 3);
  factors_mul_power (w, &s->fp, 3 * 5 * 23 * 29, 3);
  s->fp.exp[0]--;
  factors_of (w, &s->fg, 2 * k - 1, 1);
  factors_mul_power (w, &s->fg, 6 * k - 1, 1);
  factors_mul_power (w, &s->fg, 6 * k - 5, 1);
}

/* The terms (A, B] into slot S; the right half of a range goes into the
 * next slot.  G is only needed where a range has a right neighbour. */
static void
split (struct pi_work *w, unsigned long a, unsigned long b, int s, int need_g,
       int depth)
{
  struct slot *l = &w->slots[s], *r = &w->slots[s + 1];
  if (b - a == 1)
    {
      split_leaf (w, l, b);
      return;
    }
  unsigned long mid = a + (unsigned long) ((double) (b - a) * SPLIT_AT);
  split (w, a, mid, s, 1, depth + 1);
  split (w, mid, b, s + 1, need_g, depth + 1);
  if (depth >= REDUCE_FROM_DEPTH)
    remove_common (w, r->p, &r->fp, l->g, &l->fg);
  /* P = P1 P2,  Q = Q1 P2 + Q2 G1,  G = G1 G2 */
  mpz_mul (l->p, l->p, r->p);
  mpz_mul (l->q, l->q, r->p);
  mpz_mul (r->q, r->q, l->g);
  mpz_add (l->q, l->q, r->q);
  factors_mul (w, &l->fp, &r->fp);
  if (need_g)
    {
      mpz_mul (l->g, l->g, r->g);
      factors_mul (w, &l->fg, &r->fg);
    }
}

/* ------------------------------------------------- Newton in floating point */

/* The precisions a Newton iteration ending at BITS passes through, from
 * BITS down: each the previous halved, rounded up, down to the first not
 * above DOUBLE_BITS.  Returns how many (BITS > DOUBLE_BITS). */
static int
precisions (unsigned long bits, unsigned long ladder[64])
{
  int n = 0;
  ladder[n++] = bits;
  while (bits > DOUBLE_BITS)
    {
      bits = (bits + 1) / 2;
      ladder[n++] = bits;
    }
  return n;
}

/* R = Y / X, to R's precision, with scratch U and E of at least that
 * precision; R must not be Y. */
static void
newton_divide (mpf_t r, const mpf_t y, const mpf_t x, mpf_t u, mpf_t e)
{
  unsigned long bits = mpf_get_prec (r), ladder[64];
  unsigned long ubits = mpf_get_prec (u), ebits = mpf_get_prec (e);
  if (bits <= DOUBLE_BITS)
    {
      mpf_set_d (r, mpf_get_d (y) / mpf_get_d (x));
      return;
    }
  int n = precisions (bits, ladder);
  /* U = 1/X to double precision, then U += U (1 - X U) at each step. */
  mpf_set_prec_raw (u, DOUBLE_BITS);
  mpf_ui_div (u, 1, x);
  for (int i = n - 2; i > 0; i--)
    {
      mpf_set_prec_raw (e, ladder[i]);
      mpf_mul (e, x, u);
      mpf_ui_sub (e, 1, e);
      mpf_set_prec_raw (e, ladder[i] / 2);
      mpf_mul (e, e, u);
      mpf_set_prec_raw (u, ladder[i]);
      mpf_add (u, u, e);
    }
  /* Last step on the quotient itself: Z = Y U at half precision, then
   * R = Z + U (Y - X Z). */
  mpf_set_prec_raw (e, bits / 2);
  mpf_mul (e, u, y);
  mpf_mul (r, x, e);
  mpf_sub (r, y, r);
  mpf_mul (u, u, r);
  mpf_add (r, u, e);
  mpf_set_prec_raw (u, ubits);
  mpf_set_prec_raw (e, ebits);
}

/* R = sqrt(X), to R's precision, with scratch U and E as above. */
static void
newton_sqrt_ui (mpf_t r, unsigned long x, mpf_t u, mpf_t e)
{
  unsigned long bits = mpf_get_prec (r), ladder[64];
  unsigned long ubits = mpf_get_prec (u), ebits = mpf_get_prec (e);
  if (bits <= DOUBLE_BITS)
    {
      mpf_set_d (r, sqrt ((double) x));
      return;
    }
  int n = precisions (bits, ladder);
  /* U = 1/sqrt(X) to double precision, then U += U (1 - X U^2) / 2. */
  mpf_set_prec_raw (u, DOUBLE_BITS);
  mpf_set_d (u, 1 / sqrt ((double) x));
  for (int i = n - 2; i > 0; i--)
    {
      mpf_set_prec_raw (e, ladder[i]);
      mpf_mul (e, u, u);
      mpf_mul_ui (e, e, x);
      mpf_ui_sub (e, 1, e);
      mpf_set_prec_raw (e, ladder[i] / 2);
      mpf_div_2exp (e, e, 1);
      mpf_mul (e, e, u);
      mpf_set_prec_raw (u, ladder[i]);
      mpf_add (u, u, e);
    }
  /* Last step: Z = X U at half precision, R = Z + U (X - Z^2) / 2. */
  mpf_set_prec_raw (e, bits / 2);
  mpf_mul_ui (e, u, x);
  mpf_mul (r, e, e);
  mpf_ui_sub (r, x, r);
  mpf_mul (u, u, r);
  mpf_div_2exp (u, u, 1);
  mpf_add (r, u, e);
  mpf_set_prec_raw (u, ubits);
  mpf_set_prec_raw (e, ebits);
}

/* ------------------------------------------------------------------- pi */

static unsigned long
pi_bits (long digits)
{
  return (unsigned long) ((double) digits * BITS_PER_DIGIT + GUARD_BITS);
}

/* PI = pi to its precision (pi_bits (DIGITS)), DIGITS >= 15. */
static void
compute_pi (mpf_t pi, long digits)
{
  unsigned long terms = (unsigned long) ((double) digits / DIGITS_PER_TERM);
  unsigned long bits = mpf_get_prec (pi);
  struct pi_work w;
  int depth = 1;
  while ((1ul << depth) < terms)
    depth++;
  w.nslots = depth + 1;
  build_sieve (&w, terms * 6 > 3 * 5 * 23 * 29 + 1 ? terms * 6 : 3 * 5 * 23 * 29 + 1);
  w.slots = gb_xmalloc ((size_t) w.nslots * sizeof *w.slots);
  for (int i = 0; i < w.nslots; i++)
    {
      mpz_inits (w.slots[i].p, w.slots[i].q, w.slots[i].g, NULL);
      factors_init (&w.slots[i].fp);
      factors_init (&w.slots[i].fg);
    }
  factors_init (&w.power);
  factors_init (&w.merged);
  mpz_init (w.common);

  split (&w, 0, terms, 0, 0, 0);

  free (w.sieve);
  mpz_clear (w.common);
  factors_clear (&w.power);
  factors_clear (&w.merged);
  for (int i = 0; i < w.nslots; i++)
    {
      if (i > 0)
        mpz_clears (w.slots[i].p, w.slots[i].q, NULL);
      mpz_clear (w.slots[i].g);
      factors_clear (&w.slots[i].fp);
      factors_clear (&w.slots[i].fg);
    }

  /* pi = P (C/12) sqrt(C) / (Q + A P) */
  mpf_t num, den, u, e;
  mpz_addmul_ui (w.slots[0].q, w.slots[0].p, CH_A);
  mpz_mul_ui (w.slots[0].p, w.slots[0].p, CH_C / 12);
  mpf_init2 (num, bits);
  mpf_set_z (num, w.slots[0].p);
  mpz_clear (w.slots[0].p);
  mpf_init2 (den, bits);
  mpf_set_z (den, w.slots[0].q);
  mpz_clear (w.slots[0].q);
  free (w.slots);
  mpf_init2 (u, bits);
  mpf_init2 (e, bits);
  newton_divide (den, num, den, u, e);
  newton_sqrt_ui (num, CH_C, u, e);
  mpf_mul (pi, den, num);
  mpf_clears (num, den, u, e, NULL);
}

/* ------------------------------------------------------------------ check */

static const struct
{
  long digits;
  const char *sha256;           /* of "31415..." with DIGITS+1 digits */
} pi_known[] = {
  { 10000, "ab03bf7037718e1525340a0c43f0049ddbe99c6067ad3e08a4de5c591fedc524" },
  { 100000, "79b862cc31ceb97bb3c39d05ae74664c99f0ff7670b3e08a4b21a31ef84d7711" },
  { 1000000, "130203eb055a962b8441af76c22b75627ec18c672a485904e567f59251e8ee18" },
};

int
pi_digits_check (const mpz_t digits, long n, struct gb_sha256 *digest,
                 struct bench_error *err)
{
  char *str = mpz_get_str (NULL, 10, digits);
  size_t len = strlen (str);
  char hex[65];
  gb_sha256_hex (str, len, hex);
  int ok = len == (size_t) n + 1;
  for (size_t i = 0; ok && i < GB_ARRAY_SIZE (pi_known); i++)
    if (pi_known[i].digits == n)
      ok = strcmp (pi_known[i].sha256, hex) == 0;
  if (ok)
    gb_sha256_update (digest, str, len);
  free (str);
  if (!ok)
    {
      bench_fail (err, "the digits of pi are wrong (SHA-256 %s differs from the known digest)", hex);
      return -1;
    }
  return 0;
}

/* ------------------------------------------------------------------ test */

struct pi_state
{
  long digits;
  mpf_t pi;
};

static void *
pi_setup (const struct bench_test *t, unsigned stream, struct bench_error *err)
{
  (void) stream;
  (void) err;
  struct pi_state *s = gb_xmalloc (sizeof *s);
  s->digits = t->a;
  mpf_init2 (s->pi, pi_bits (t->a));
  return s;
}

RUN_LOOP (pi_run, struct pi_state, compute_pi (s->pi, s->digits))

static int
pi_check (void *state, struct gb_sha256 *digest, struct bench_error *err)
{
  struct pi_state *s = state;
  mpz_t scale;
  mpf_t x;
  mpz_init (scale);
  mpz_ui_pow_ui (scale, 10, (unsigned long) s->digits);
  mpf_init2 (x, mpf_get_prec (s->pi) + 64);
  mpf_set_z (x, scale);
  mpf_mul (x, x, s->pi);
  mpz_set_f (scale, x);
  mpf_clear (x);
  int rc = pi_digits_check (scale, s->digits, digest, err);
  mpz_clear (scale);
  return rc;
}

static void
pi_teardown (void *state)
{
  struct pi_state *s = state;
  mpf_clear (s->pi);
  free (s);
}

const struct bench_ops gmp_pi_ops = { pi_setup, pi_run, pi_check, pi_teardown };
