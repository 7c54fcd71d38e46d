/* programs.c: the benchmark programs by name, and the registry's tests
 * that this build can run with them (see programs.h). */
#include "suites/programs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
  const char *name;
  const struct bench_ops *ops;
} programs[] = {
  { "gmp.multiply", &gmp_multiply_ops },
  { "gmp.divide", &gmp_divide_ops },
  { "gmp.gcd", &gmp_gcd_ops },
  { "gmp.gcdext", &gmp_gcdext_ops },
  { "gmp.gcdext.both", &gmp_gcdext_both_ops },
  { "gmp.rsa.sign", &gmp_rsa_sign_ops },
  { "gmp.rsa.sign-sec", &gmp_rsa_sign_sec_ops },
  { "gmp.rsa.verify", &gmp_rsa_verify_ops },
  { "gmp.rsa.keygen", &gmp_rsa_keygen_ops },
  { "gmp.pi", &gmp_pi_ops },
  { "gmp.pi.mpz", &gmp_pi_mpz_ops },
  { "gmp.sqrt", &gmp_sqrt_ops },
  { "gmp.root", &gmp_root_ops },
  { "gmp.invert", &gmp_invert_ops },
  { "gmp.fac", &gmp_fac_ops },
  { "gmp.prime", &gmp_prime_ops },
  { "gmp.powm", &gmp_powm_ops },
  { "gmp.powm-sec", &gmp_powm_sec_ops },
  { "gmp.mulm", &gmp_mulm_ops },
  { "gmp.dh.derive", &gmp_dh_ops },
  { "gmp.dh.derive-sec", &gmp_dh_sec_ops },
  { "gmp.dsa.sign", &gmp_dsa_sign_ops },
  { "gmp.dsa.sign-sec", &gmp_dsa_sign_sec_ops },
  { "gmp.dsa.verify", &gmp_dsa_verify_ops },
  { "openssl.square", &openssl_square_ops },
  { "openssl.multiply", &openssl_multiply_ops },
  { "openssl.divide", &openssl_divide_ops },
  { "openssl.gcd", &openssl_gcd_ops },
  { "openssl.invert", &openssl_invert_ops },
  { "openssl.powm", &openssl_powm_ops },
  { "openssl.powm-sec", &openssl_powm_sec_ops },
  { "openssl.rsa.sign", &openssl_rsa_sign_ops },
  { "openssl.rsa.verify", &openssl_rsa_verify_ops },
  { "openssl.rsa.keygen", &openssl_rsa_keygen_ops },
  { "openssl.dh.derive", &openssl_dh_ops },
  { "openssl.dsa.sign", &openssl_dsa_sign_ops },
  { "openssl.dsa.verify", &openssl_dsa_verify_ops },
#ifdef HAVE_GCRYPT
  { "gcrypt.rsa.sign", &gcrypt_rsa_sign_ops },
  { "gcrypt.rsa.sign-noblind", &gcrypt_rsa_sign_noblind_ops },
  { "gcrypt.rsa.verify", &gcrypt_rsa_verify_ops },
  { "gcrypt.rsa.keygen", &gcrypt_rsa_keygen_ops },
  { "gcrypt.mulm", &gcrypt_mulm_ops },
  { "gcrypt.powm", &gcrypt_powm_ops },
#endif
#ifdef HAVE_NETTLE
  { "nettle.rsa.sign", &nettle_rsa_sign_ops },
  { "nettle.rsa.sign-tr", &nettle_rsa_sign_tr_ops },
  { "nettle.rsa.verify", &nettle_rsa_verify_ops },
  { "nettle.rsa.keygen", &nettle_rsa_keygen_ops },
#endif
  { "rng.gmp-mt", &rng_gmp_ops },
  { "rng.gmp-lc", &rng_gmp_ops },
  { "rng.openssl", &rng_openssl_ops },
  { "rng.os", &rng_os_ops },
  { "rng.rdrand", &rng_instruction_ops },
  { "rng.rdseed", &rng_instruction_ops },
  { "rng.rndr", &rng_instruction_ops },
};

const struct bench_ops *
program_ops (const struct bench_test *t)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (programs); i++)
    if (strcmp (programs[i].name, t->program) == 0)
      return programs[i].ops;
  return NULL;
}

/* Registry indices of the runnable tests, found once, thread-safely. */
static size_t *runnable;
static size_t nrunnable;
static pthread_once_t runnable_once = PTHREAD_ONCE_INIT;

static void
find_runnable (void)
{
  size_t n = registry_count ();
  runnable = gb_xmalloc ((n ? n : 1) * sizeof *runnable);
  for (size_t i = 0; i < n; i++)
    if (program_ops (registry_test (i)))
      runnable[nrunnable++] = i;
}

size_t
runnable_count (void)
{
  pthread_once (&runnable_once, find_runnable);
  return nrunnable;
}

const struct bench_test *
runnable_test (size_t i)
{
  return i < runnable_count () ? registry_test (runnable[i]) : NULL;
}

const char *
runnable_suite_name (size_t i)
{
  return i < runnable_count () ? registry_suite (runnable[i])->name : NULL;
}

const struct bench_test *
runnable_find (const char *name)
{
  const struct bench_test *t = registry_find (name);
  return t && program_ops (t) ? t : NULL;
}
