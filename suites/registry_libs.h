/* registry_libs.h: the suites beyond GMPbench's own, as registry_libs.c
 * lists them: GMP's counterparts of the comparisons (in `ext`), OpenSSL,
 * libgcrypt and Nettle (when configure found them), and the random
 * generators. */
#ifndef GB_REGISTRY_LIBS_H
#define GB_REGISTRY_LIBS_H

#include "suites/suites.h"

extern const struct bench_suite suite_gmp_powm;
extern const struct bench_suite suite_gmp_mulm;
extern const struct bench_suite suite_gmp_dh_dsa;
extern const struct bench_suite suite_openssl_bn;
extern const struct bench_suite suite_openssl_rsa;
extern const struct bench_suite suite_openssl_dh_dsa;
extern const struct bench_suite suite_openssl_keygen;
extern const struct bench_suite suite_rng;
/* Whether suite S is one that only some builds have (configure found its
 * library): libgcrypt's and Nettle's. */
int registry_suite_optional (const struct bench_suite *s);

#ifdef HAVE_GCRYPT
extern const struct bench_suite suite_gcrypt;
extern const struct bench_suite suite_gcrypt_mpi;
extern const struct bench_suite suite_gcrypt_keygen;
#endif
#ifdef HAVE_NETTLE
extern const struct bench_suite suite_nettle;
extern const struct bench_suite suite_nettle_keygen;
#endif

#endif
