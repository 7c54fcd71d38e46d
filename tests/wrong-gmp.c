/* wrong-gmp.c: a deliberately faulty GMP, for the tests of wrong results.
 *
 * Loaded with LD_PRELOAD, it interposes the GMP function named by the
 * environment variable WRONG_GMP (for example "mpz_mul") and spoils its
 * results when it is called from the program; GMP's calls to itself
 * (mpz_probab_prime_p calling mpz_powm, say) stay right, so key generation
 * still terminates.  The mpn functions (mpn_mul, mpn_mul_n, mpn_sqr) are
 * spoiled wherever they are called from, GMP included, as a broken build
 * of GMP would be.  Every other call goes to the real GMP.
 *
 *   WRONG_GMP_RATE=N   spoils one call in N: the N-th, the 2N-th... of the
 *                      function (default 1, every call);
 *   WRONG_GMP_MODE     how: "off-by-one" (default; the result plus one, or a
 *                      primality answer flipped; for mpn the low bit flipped),
 *                      "skip" (the work is not done: the result keeps what
 *                      it held before), "garbage" (the result's limbs are
 *                      overwritten with arbitrary bits), "hang" (the call
 *                      never returns) or "plausible" (a wrong answer that
 *                      looks right: mpz_gcd gives 1, as it nearly always
 *                      does for random operands; mpz_gcdext gives cofactors
 *                      that still satisfy G = S*A + T*B, S + B/G and
 *                      T - A/G, but not the smallest ones GMP documents).
 *
 * mpz_urandomb can be spoiled too ("off-by-one"): the library then draws
 * other operands than GMPbench's.
 *
 * A benchmark that trusts its library would report a "fast but wrong"
 * score; gmpbench must refuse to, and must not hang. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gmp.h>

enum mode { OFF_BY_ONE, SKIP, GARBAGE, HANG, PLAUSIBLE };

static void *
real (const char *symbol)
{
  return dlsym (RTLD_NEXT, symbol);
}

static enum mode
mode (void)
{
  const char *m = getenv ("WRONG_GMP_MODE");
  if (m && strcmp (m, "skip") == 0)
    return SKIP;
  if (m && strcmp (m, "garbage") == 0)
    return GARBAGE;
  if (m && strcmp (m, "hang") == 0)
    return HANG;
  if (m && strcmp (m, "plausible") == 0)
    return PLAUSIBLE;
  return OFF_BY_ONE;
}

/* Whether this call of the chosen function is the one in WRONG_GMP_RATE. */
static int
its_turn (void)
{
  static unsigned long calls;
  const char *r = getenv ("WRONG_GMP_RATE");
  unsigned long rate = r ? strtoul (r, NULL, 10) : 1;
  return ++calls % (rate ? rate : 1) == 0;
}

/* Whether CALLER, a return address, lies outside the real libgmp. */
static int
outside_gmp (void *caller)
{
  Dl_info at, gmp;
  if (!dladdr (caller, &at) || !dladdr (real ("__gmpz_init"), &gmp))
    return 1;
  return at.dli_fbase != gmp.dli_fbase;
}

static int
chosen (const char *name)
{
  const char *w = getenv ("WRONG_GMP");
  return w && strcmp (w, name) == 0;
}

/* Whether the call of NAME from CALLER is to be spoiled. */
static int
wrong_from (const char *name, void *caller)
{
  return chosen (name) && outside_gmp (caller) && its_turn ();
}

#define wrong(name) wrong_from (name, __builtin_return_address (0))

/* Arbitrary bits into the N limbs at D. */
static void
scribble (mp_limb_t *d, mp_size_t n)
{
  static mp_limb_t x = 0x9e3779b97f4a7c15u;
  for (mp_size_t i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      d[i] = x;
    }
}

/* A call that never returns; signal handlers still run. */
static void
hang_if_asked (int bad)
{
  while (bad && mode () == HANG)
    pause ();
}

/* Spoils R, whose right value the real function has just computed. */
static void
spoil (mpz_ptr r)
{
  if (mode () == GARBAGE && r->_mp_size != 0)
    scribble (r->_mp_d, r->_mp_size < 0 ? -r->_mp_size : r->_mp_size);
  else
    __gmpz_add_ui (r, r, 1);
}

/* Calls the real function F unless this call is skipped, then spoils the
 * result if it is the turn of this call. */
#define SPOILED(name, result, call)                                     \
  do                                                                    \
    {                                                                   \
      int bad = wrong (name);                                           \
      hang_if_asked (bad);                                              \
      if (!bad || mode () != SKIP)                                      \
        call;                                                           \
      if (bad && mode () != SKIP)                                       \
        spoil (result);                                                 \
    }                                                                   \
  while (0)

#define WRAP3(fn, sym)                                                  \
  void fn (mpz_ptr r, mpz_srcptr a, mpz_srcptr b)                       \
  {                                                                     \
    void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr) = real (sym);           \
    SPOILED (#fn + 3, r, f (r, a, b));                                  \
  }

WRAP3 (__gmpz_mul, "__gmpz_mul")
WRAP3 (__gmpz_tdiv_q, "__gmpz_tdiv_q")

void
__gmpz_gcd (mpz_ptr g, mpz_srcptr a, mpz_srcptr b)
{
  void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_gcd");
  if (mode () != PLAUSIBLE)
    SPOILED ("mpz_gcd", g, f (g, a, b));
  else
    {
      f (g, a, b);
      if (wrong ("mpz_gcd"))
        __gmpz_set_ui (g, 1);
    }
}

/* Moves the cofactors S and T of A and B (G = S*A + T*B) to S + B/G and
 * T - A/G, which satisfy the identity too. */
static void
shift_cofactors (mpz_ptr s, mpz_ptr t, mpz_srcptr g, mpz_srcptr a, mpz_srcptr b)
{
  mpz_t q;
  __gmpz_init (q);
  __gmpz_divexact (q, b, g);
  __gmpz_add (s, s, q);
  if (t)
    {
      __gmpz_divexact (q, a, g);
      __gmpz_sub (t, t, q);
    }
  __gmpz_clear (q);
}

void
__gmpz_gcdext (mpz_ptr g, mpz_ptr s, mpz_ptr t, mpz_srcptr a, mpz_srcptr b)
{
  void (*f) (mpz_ptr, mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_gcdext");
  f (g, s, t, a, b);
  if (s && wrong ("mpz_gcdext"))
    {
      if (mode () == PLAUSIBLE)
        shift_cofactors (s, t, g, a, b);
      else
        spoil (s);
    }
}

void
__gmpz_urandomb (mpz_ptr r, gmp_randstate_t state, mp_bitcnt_t bits)
{
  void (*f) (mpz_ptr, __gmp_randstate_struct *, mp_bitcnt_t) = real ("__gmpz_urandomb");
  SPOILED ("mpz_urandomb", r, f (r, state, bits));
}

#define WRAP4(fn, sym)                                                  \
  void fn (mpz_ptr r, mpz_srcptr b, mpz_srcptr e, mpz_srcptr m)         \
  {                                                                     \
    void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr, mpz_srcptr) = real (sym); \
    SPOILED (#fn + 3, r, f (r, b, e, m));                               \
  }

WRAP4 (__gmpz_powm, "__gmpz_powm")
WRAP4 (__gmpz_powm_sec, "__gmpz_powm_sec")

void
__gmpz_sqrt (mpz_ptr r, mpz_srcptr a)
{
  void (*f) (mpz_ptr, mpz_srcptr) = real ("__gmpz_sqrt");
  SPOILED ("mpz_sqrt", r, f (r, a));
}

int
__gmpz_invert (mpz_ptr r, mpz_srcptr a, mpz_srcptr m)
{
  int (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_invert");
  int ok = f (r, a, m);
  if (wrong ("mpz_invert"))
    spoil (r);
  return ok;
}

void
__gmpz_fac_ui (mpz_ptr r, unsigned long n)
{
  void (*f) (mpz_ptr, unsigned long) = real ("__gmpz_fac_ui");
  SPOILED ("mpz_fac_ui", r, f (r, n));
}

int
__gmpz_probab_prime_p (mpz_srcptr n, int reps)
{
  int (*f) (mpz_srcptr, int) = real ("__gmpz_probab_prime_p");
  int answer = f (n, reps);
  return wrong ("mpz_probab_prime_p") ? !answer : answer;
}

/* The low-level products, spoiled wherever they are called from (CALL
 * computes the RN limbs at RP). */
#define SPOILED_LIMBS(name, rp, rn, call)                               \
  do                                                                    \
    {                                                                   \
      int bad = chosen (name) && its_turn ();                           \
      hang_if_asked (bad);                                              \
      if (!bad || mode () != SKIP)                                      \
        call;                                                           \
      if (bad && mode () == GARBAGE)                                    \
        scribble (rp, rn);                                              \
      else if (bad && mode () == OFF_BY_ONE)                            \
        rp[0] ^= 1;                                                     \
    }                                                                   \
  while (0)

mp_limb_t
__gmpn_mul (mp_ptr rp, mp_srcptr up, mp_size_t un, mp_srcptr vp, mp_size_t vn)
{
  mp_limb_t (*f) (mp_ptr, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t) = real ("__gmpn_mul");
  SPOILED_LIMBS ("mpn_mul", rp, un + vn, f (rp, up, un, vp, vn));
  return rp[un + vn - 1];
}

void
__gmpn_mul_n (mp_ptr rp, mp_srcptr up, mp_srcptr vp, mp_size_t n)
{
  void (*f) (mp_ptr, mp_srcptr, mp_srcptr, mp_size_t) = real ("__gmpn_mul_n");
  SPOILED_LIMBS ("mpn_mul_n", rp, 2 * n, f (rp, up, vp, n));
}

void
__gmpn_sqr (mp_ptr rp, mp_srcptr up, mp_size_t n)
{
  void (*f) (mp_ptr, mp_srcptr, mp_size_t) = real ("__gmpn_sqr");
  SPOILED_LIMBS ("mpn_sqr", rp, 2 * n, f (rp, up, n));
}
