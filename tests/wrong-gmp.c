/* wrong-gmp.c: a deliberately wrong GMP, for tests/t0120-wrong-results.sh.
 *
 * Loaded with LD_PRELOAD, it interposes the GMP function named by the
 * environment variable WRONG_GMP (for example "mpz_mul") and makes every
 * result of it wrong by one (or flips a primality answer) when it is called
 * from the program; GMP's calls to itself (mpz_probab_prime_p calling
 * mpz_powm, say) stay right, so key generation still terminates.  Every
 * other call goes to the real GMP.  A benchmark that trusts its library would
 * report a "fast but wrong" score; gmpbench must refuse to. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>

static void *
real (const char *symbol)
{
  return dlsym (RTLD_NEXT, symbol);
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

#define wrong(name) wrong_from (name, __builtin_return_address (0))

static int
wrong_from (const char *name, void *caller)
{
  const char *w = getenv ("WRONG_GMP");
  return w && strcmp (w, name) == 0 && outside_gmp (caller);
}

#define WRAP3(fn, sym)                                                  \
  void fn (mpz_ptr r, mpz_srcptr a, mpz_srcptr b)                       \
  {                                                                     \
    void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr) = real (sym);           \
    f (r, a, b);                                                        \
    if (wrong (#fn + 3))                                                \
      __gmpz_add_ui (r, r, 1);                                          \
  }

WRAP3 (__gmpz_mul, "__gmpz_mul")
WRAP3 (__gmpz_tdiv_q, "__gmpz_tdiv_q")
WRAP3 (__gmpz_gcd, "__gmpz_gcd")

void
__gmpz_gcdext (mpz_ptr g, mpz_ptr s, mpz_ptr t, mpz_srcptr a, mpz_srcptr b)
{
  void (*f) (mpz_ptr, mpz_ptr, mpz_ptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_gcdext");
  f (g, s, t, a, b);
  if (wrong ("mpz_gcdext") && s)
    __gmpz_add_ui (s, s, 1);
}

void
__gmpz_powm (mpz_ptr r, mpz_srcptr b, mpz_srcptr e, mpz_srcptr m)
{
  void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_powm");
  f (r, b, e, m);
  if (wrong ("mpz_powm"))
    __gmpz_add_ui (r, r, 1);
}

void
__gmpz_powm_sec (mpz_ptr r, mpz_srcptr b, mpz_srcptr e, mpz_srcptr m)
{
  void (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_powm_sec");
  f (r, b, e, m);
  if (wrong ("mpz_powm_sec"))
    __gmpz_add_ui (r, r, 1);
}

void
__gmpz_sqrt (mpz_ptr r, mpz_srcptr a)
{
  void (*f) (mpz_ptr, mpz_srcptr) = real ("__gmpz_sqrt");
  f (r, a);
  if (wrong ("mpz_sqrt"))
    __gmpz_add_ui (r, r, 1);
}

int
__gmpz_invert (mpz_ptr r, mpz_srcptr a, mpz_srcptr m)
{
  int (*f) (mpz_ptr, mpz_srcptr, mpz_srcptr) = real ("__gmpz_invert");
  int ok = f (r, a, m);
  if (wrong ("mpz_invert"))
    __gmpz_add_ui (r, r, 1);
  return ok;
}

void
__gmpz_fac_ui (mpz_ptr r, unsigned long n)
{
  void (*f) (mpz_ptr, unsigned long) = real ("__gmpz_fac_ui");
  f (r, n);
  if (wrong ("mpz_fac_ui"))
    __gmpz_add_ui (r, r, 1);
}

int
__gmpz_probab_prime_p (mpz_srcptr n, int reps)
{
  int (*f) (mpz_srcptr, int) = real ("__gmpz_probab_prime_p");
  int answer = f (n, reps);
  return wrong ("mpz_probab_prime_p") ? !answer : answer;
}
