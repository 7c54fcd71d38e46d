/* suites.h: every suite of tests, and the registry that lists them.
 *
 * The registry is the one place that knows the whole hierarchy: which tests
 * exist, in what order they run, and the weight of each node.  Scores are
 * computed from it (score.h) by the client and, identically, by the server.
 */
#ifndef GB_SUITES_H
#define GB_SUITES_H

#include <stddef.h>
#include "suites/bench.h"

extern const struct bench_suite suite_gmp_multiply;
extern const struct bench_suite suite_gmp_divide;
extern const struct bench_suite suite_gmp_gcd;
extern const struct bench_suite suite_gmp_rsa;
extern const struct bench_suite suite_gmp_pi;
extern const struct bench_suite suite_gmp_rsa_ext;
extern const struct bench_suite suite_gmp_rsa_large;
extern const struct bench_suite suite_gmp_keygen;
extern const struct bench_suite suite_gmp_ext;

/* The suites of the other libraries (OpenSSL, libgcrypt, Nettle, random
 * generators...), defined in registry_libs.c, run after GMP's. */
extern const struct bench_suite *const library_suites[];
extern const size_t library_suites_count;

/* All tests, in run order. */
size_t registry_count (void);
const struct bench_test *registry_test (size_t i);
const struct bench_test *registry_find (const char *name);
/* The --suite name of test I (base, app, ext, openssl, ...). */
const char *registry_suite_name (size_t i);

/* The weight of a node (a program within its category, in GMPbench terms)
 * among its siblings; 1 unless the registry says otherwise. */
double registry_node_weight (const char *node);
/* The weight of the program a test belongs to, as GMPbench 0.2 lists it. */
double registry_test_weight (const char *test_name);

/* Whether NAME matches the glob PATTERN (fnmatch-style * ? [..]), or lies
 * in the subtree PATTERN names (PATTERN is a prefix ending at a dot). */
int registry_match (const char *pattern, const char *name);

#endif
