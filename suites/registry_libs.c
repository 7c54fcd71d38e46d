/* registry_libs.c: the suites of libraries other than GMP, in run order.
 * GMP's own counterparts of the comparisons come first (suite `ext`; its
 * RSA ones are with GMP's RSA in registry.c), then each library, its key
 * generation right after its RSA so that the names sharing a prefix are
 * adjacent; optional libraries appear only when configure found them. */
#include "suites/registry_libs.h"

const struct bench_suite *const library_suites[] = {
  &suite_gmp_powm,
  &suite_gmp_mulm,
  &suite_gmp_dh_dsa,
  &suite_openssl_bn,
  &suite_openssl_rsa,
  &suite_openssl_keygen,
  &suite_openssl_dh_dsa,
#ifdef HAVE_GCRYPT
  &suite_gcrypt,
  &suite_gcrypt_keygen,
  &suite_gcrypt_mpi,
#endif
#ifdef HAVE_NETTLE
  &suite_nettle,
  &suite_nettle_keygen,
#endif
  &suite_rng,
};

const size_t library_suites_count = GB_ARRAY_SIZE (library_suites);

int
registry_suite_optional (const struct bench_suite *s)
{
#ifdef HAVE_GCRYPT
  if (s == &suite_gcrypt || s == &suite_gcrypt_mpi || s == &suite_gcrypt_keygen)
    return 1;
#endif
#ifdef HAVE_NETTLE
  if (s == &suite_nettle || s == &suite_nettle_keygen)
    return 1;
#endif
  (void) s;
  return 0;
}
