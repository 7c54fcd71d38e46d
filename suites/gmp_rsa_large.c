/* gmp_rsa_large.c: GMP's RSA at the sizes OpenSSL's comparison adds,
 * 7680 and 15360 bits (ext.rsa.sign, sign-sec and verify), full runs only.
 *
 * The tests are gmp_rsa.c's own (same operations, checks and messages);
 * this file only lists them at the larger sizes, whose keys take seconds
 * (7680) to half a minute (15360) to generate. */
#include "suites/suites.h"

/* Defined in gmp_rsa.c. */
extern const struct bench_ops rsa_sign_ops, rsa_sign_sec_ops, rsa_verify_ops;

#define LARGE(n) \
  { "ext.rsa.sign." #n, &rsa_sign_ops, n, 0, BENCH_FULL_ONLY }, \
  { "ext.rsa.sign-sec." #n, &rsa_sign_sec_ops, n, 0, BENCH_FULL_ONLY }, \
  { "ext.rsa.verify." #n, &rsa_verify_ops, n, 0, BENCH_FULL_ONLY }

static const struct bench_test rsa_large_tests[] = { LARGE (7680), LARGE (15360) };

const struct bench_suite suite_gmp_rsa_large = {
  "ext", rsa_large_tests, GB_ARRAY_SIZE (rsa_large_tests)
};
