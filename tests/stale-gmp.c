/* stale-gmp.c: a GMP that skips or caches its work and hides that it is
 * there, for tests/t0130-stale-work.sh.
 *
 * Loaded with LD_PRELOAD, it interposes mpz_mul and mpz_powm and, as the
 * environment variable STALE_GMP says, cheats with right answers:
 *
 *   stale       mpz_mul called again with the destination and operands of
 *               its previous call does nothing: the destination keeps the
 *               previous product, which is right as long as nobody changed
 *               the numbers in between (a timed loop does not);
 *   cache-mul   mpz_mul remembers products by their operands' values and
 *               copies a remembered product instead of multiplying;
 *   cache-powm  mpz_powm does the same with its base, exponent and modulus;
 *   pass        nothing: every call goes to GMP (an honest interposer).
 *
 * With STALE_GMP_HIDE=1 it also wraps dladdr: an address inside this
 * library is reported as inside the real libgmp (its file, base and a
 * symbol of the same name), which hides it from a check of the timed
 * functions that rests on dladdr alone.  The real functions are looked up
 * once, so that the cache costs no more than it must. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>

enum cheat { PASS, STALE, CACHE_MUL, CACHE_POWM };

static enum cheat
cheat (void)
{
  static int known;
  static enum cheat c;
  if (!known)
    {
      const char *s = getenv ("STALE_GMP");
      c = !s ? PASS : strcmp (s, "stale") == 0 ? STALE : strcmp (s, "cache-mul") == 0
        ? CACHE_MUL : strcmp (s, "cache-powm") == 0 ? CACHE_POWM : PASS;
      known = 1;
    }
  return c;
}

typedef void mul_fn (mpz_ptr, mpz_srcptr, mpz_srcptr);
typedef void powm_fn (mpz_ptr, mpz_srcptr, mpz_srcptr, mpz_srcptr);

/* A remembered result: the operands it was computed from, by value. */
#define CACHE_SLOTS 8192
#define CACHE_OPERANDS 3

struct slot
{
  int used;
  uint64_t hash;
  mpz_t in[CACHE_OPERANDS];
  mpz_t out;
};

static struct slot cache[CACHE_SLOTS];

static uint64_t
hash_of (mpz_srcptr const *in, int n)
{
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (int k = 0; k < n; k++)
    {
      int size = in[k]->_mp_size;
      h = (h ^ (uint64_t) (int64_t) size) * 0x100000001b3u;
      for (int i = 0; i < abs (size); i++)
        h = (h ^ in[k]->_mp_d[i]) * 0x100000001b3u;
    }
  return h;
}

/* The slot remembering the N operands IN, whether it holds them yet or
 * is to be filled (*HIT says which). */
static struct slot *
lookup (mpz_srcptr const *in, int n, int *hit)
{
  uint64_t h = hash_of (in, n);
  struct slot *s = &cache[h % CACHE_SLOTS];
  *hit = s->used && s->hash == h;
  for (int k = 0; k < n && *hit; k++)
    *hit = mpz_cmp (s->in[k], in[k]) == 0;
  if (!*hit)
    {
      if (!s->used)
        {
          for (int k = 0; k < CACHE_OPERANDS; k++)
            mpz_init (s->in[k]);
          mpz_init (s->out);
          s->used = 1;
        }
      s->hash = h;
      for (int k = 0; k < n; k++)
        mpz_set (s->in[k], in[k]);
    }
  return s;
}

void
__gmpz_mul (mpz_ptr r, mpz_srcptr u, mpz_srcptr v)
{
  static mul_fn *real;
  static mpz_ptr last_r;
  static mpz_srcptr last_u, last_v;
  if (!real)
    real = (mul_fn *) dlsym (RTLD_NEXT, "__gmpz_mul");
  if (cheat () == STALE)
    {
      if (r == last_r && u == last_u && v == last_v)
        return;
      real (r, u, v);
      int aliased = r == u || r == v;
      last_r = aliased ? NULL : r;
      last_u = u;
      last_v = v;
      return;
    }
  if (cheat () != CACHE_MUL || r == u || r == v)
    {
      real (r, u, v);
      return;
    }
  mpz_srcptr in[2] = { u, v };
  int hit;
  struct slot *s = lookup (in, 2, &hit);
  if (!hit)
    real (s->out, u, v);
  mpz_set (r, s->out);
}

void
__gmpz_powm (mpz_ptr r, mpz_srcptr b, mpz_srcptr e, mpz_srcptr m)
{
  static powm_fn *real;
  if (!real)
    real = (powm_fn *) dlsym (RTLD_NEXT, "__gmpz_powm");
  if (cheat () != CACHE_POWM || r == b || r == e || r == m)
    {
      real (r, b, e, m);
      return;
    }
  mpz_srcptr in[3] = { b, e, m };
  int hit;
  struct slot *s = lookup (in, 3, &hit);
  if (!hit)
    real (s->out, b, e, m);
  mpz_set (r, s->out);
}

/* dladdr, lying for addresses inside this library when asked to. */
int
dladdr (const void *address, Dl_info *info)
{
  static int (*real) (const void *, Dl_info *);
  static Dl_info self, gmp;
  static int known;
  if (!real)
    real = (int (*) (const void *, Dl_info *)) dlsym (RTLD_NEXT, "dladdr");
  int found = real (address, info);
  const char *hide = getenv ("STALE_GMP_HIDE");
  if (!found || !hide || strcmp (hide, "1") != 0)
    return found;
  if (!known)
    {
      known = real ((const void *) __gmpz_powm, &self)
        && real (dlsym (RTLD_NEXT, "__gmpz_init"), &gmp);
      if (!known)
        return found;
    }
  if (info->dli_fbase == self.dli_fbase)
    {
      const char *name = info->dli_sname;
      info->dli_fname = gmp.dli_fname;
      info->dli_fbase = gmp.dli_fbase;
      info->dli_saddr = name ? dlsym (RTLD_NEXT, name) : NULL;
    }
  return found;
}
