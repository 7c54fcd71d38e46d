/* registry_table.c: every test gmpbench knows, as plain data.
 *
 * A row names a test, the program that runs it (the benchmark programs of
 * suites/ implement each program once, suites/programs.c), its parameters
 * and its flags.  The score nodes a test feeds are the prefixes of its
 * dotted name; the weights of the nodes that GMPbench weighs are at the
 * end.  Adding a test to an existing program is one row here (and its
 * reference digest, scripts/update-reference).
 *
 * The order of suites is the order in which `gmpbench run` runs them:
 * GMPbench's own tests first (base, then app), then the extensions and the
 * other libraries.  Within a suite the tests whose names share a prefix
 * are adjacent (every ext.rsa test, key generation and the large sizes
 * included), so that listings show each branch once; each library's key
 * generation follows its RSA.  The libgcrypt and Nettle suites are
 * optional: a client has their tests only when configure found the
 * library, and the registry id leaves them out (registry.h). */
#include "model/registry.h"

#define SQR(n) { "gmpbench.base.multiply." #n, "gmp.multiply", n, 0, BENCH_COMPAT }
#define MUL(a, b) { "gmpbench.base.multiply." #a "," #b, "gmp.multiply", a, b, BENCH_COMPAT }
#define DIV(a, b) { "gmpbench.base.divide." #a "," #b, "gmp.divide", a, b, BENCH_COMPAT }
#define GCD(p, n) { "gmpbench.base." p "." #n "," #n, "gmp." p, n, n, BENCH_COMPAT }

static const struct bench_test base_tests[] = {
  SQR (128), SQR (512), SQR (8192), SQR (131072), SQR (2097152),
  MUL (128, 128), MUL (512, 512), MUL (8192, 8192), MUL (131072, 131072),
  MUL (2097152, 2097152), MUL (15000, 10000), MUL (20000, 10000),
  MUL (30000, 10000), MUL (16777216, 512), MUL (16777216, 262144),
  DIV (8192, 32), DIV (8192, 64), DIV (8192, 128), DIV (8192, 4096),
  DIV (131072, 65536), DIV (8388608, 4194304), DIV (8192, 8064),
  DIV (16777216, 262144),
  GCD ("gcd", 128), GCD ("gcd", 512), GCD ("gcd", 8192), GCD ("gcd", 131072),
  GCD ("gcd", 1048576),
  GCD ("gcdext", 128), GCD ("gcdext", 512), GCD ("gcdext", 8192), GCD ("gcdext", 131072),
  GCD ("gcdext", 1048576),
};

#undef SQR
#undef MUL
#undef DIV
#undef GCD

/* B: the number of messages an RSA test cycles through (GMPbench's 1024). */
#define RSA(n) { "gmpbench.app.rsa." #n, "gmp.rsa.sign", n, 1024, BENCH_COMPAT }
#define PI(n) { "gmpbench.app.pi." #n, "gmp.pi", n, 0, BENCH_COMPAT }

static const struct bench_test app_tests[] = {
  RSA (512), RSA (1024), RSA (2048),
  PI (10000), PI (100000), PI (1000000),
};

#undef RSA
#undef PI

/* NAME.N run by PROGRAM with A = N, and the series of sizes that several
 * libraries' tests share; F marks the sizes of full runs only. */
#define T(name, program, n, f) { name "." #n, program, n, 0, f }
#define MODULAR(name, program) \
  T (name, program, 512, 0), T (name, program, 1024, 0), T (name, program, 2048, 0), \
  T (name, program, 4096, 0), T (name, program, 8192, 0)
#define DH(name, program) \
  T (name, program, 2048, 0), T (name, program, 3072, 0), T (name, program, 4096, 0), \
  T (name, program, 6144, 0), T (name, program, 8192, 0)
#define DSA(name, program) \
  T (name, program, 1024, 0), T (name, program, 2048, 0), \
  T (name, program, 3072, BENCH_FULL_ONLY)
#define KEYGEN(name, program) \
  T (name, program, 1024, 0), T (name, program, 2048, 0), \
  T (name, program, 3072, BENCH_FULL_ONLY), T (name, program, 4096, BENCH_FULL_ONLY)
#define RSA_SIZES(name, program) \
  T (name, program, 512, 0), T (name, program, 1024, 0), T (name, program, 2048, 0), \
  T (name, program, 3072, 0), T (name, program, 4096, 0), \
  T (name, program, 7680, BENCH_FULL_ONLY), T (name, program, 15360, BENCH_FULL_ONLY)

/* The ext RSA tests cycle through 16 messages. */
#define RSA(what, n, f) { "ext.rsa." what "." #n, "gmp.rsa." what, n, 16, f }
/* The compatible gcdext and pi tests' previous definitions: gcdext with
 * both cofactors, pi by plain binary splitting in integers. */
#define GCDEXT_BOTH(n) \
  { "ext.gcdext.both." #n "," #n, "gmp.gcdext.both", n, n, BENCH_NEW_DEFINITIONS }
#define LARGE(n) \
  RSA ("sign", n, BENCH_FULL_ONLY), RSA ("sign-sec", n, BENCH_FULL_ONLY), \
  RSA ("verify", n, BENCH_FULL_ONLY)

static const struct bench_test ext_tests[] = {
  GCDEXT_BOTH (128), GCDEXT_BOTH (512), GCDEXT_BOTH (8192), GCDEXT_BOTH (131072),
  GCDEXT_BOTH (1048576),
  T ("ext.pi.mpz", "gmp.pi.mpz", 10000, BENCH_NEW_DEFINITIONS),
  T ("ext.pi.mpz", "gmp.pi.mpz", 100000, BENCH_NEW_DEFINITIONS),
  T ("ext.pi.mpz", "gmp.pi.mpz", 1000000, BENCH_NEW_DEFINITIONS),
  RSA ("sign", 512, BENCH_NEW_DEFINITIONS), RSA ("sign", 1024, BENCH_NEW_DEFINITIONS),
  RSA ("sign", 2048, BENCH_NEW_DEFINITIONS),
  RSA ("sign", 3072, 0), RSA ("sign", 4096, 0),
  RSA ("sign-sec", 512, 0), RSA ("sign-sec", 1024, 0), RSA ("sign-sec", 2048, 0),
  RSA ("sign-sec", 3072, 0), RSA ("sign-sec", 4096, 0),
  RSA ("verify", 512, 0), RSA ("verify", 1024, 0), RSA ("verify", 2048, 0),
  RSA ("verify", 3072, 0), RSA ("verify", 4096, 0),
  LARGE (7680), LARGE (15360),
  KEYGEN ("ext.rsa.keygen", "gmp.rsa.keygen"),
  T ("ext.sqrt", "gmp.sqrt", 8192, 0), T ("ext.sqrt", "gmp.sqrt", 131072, 0),
  T ("ext.sqrt", "gmp.sqrt", 2097152, 0),
  { "ext.root.8192,3", "gmp.root", 8192, 3, 0 },
  { "ext.root.131072,5", "gmp.root", 131072, 5, 0 },
  T ("ext.invert", "gmp.invert", 512, 0), T ("ext.invert", "gmp.invert", 8192, 0),
  T ("ext.invert", "gmp.invert", 131072, 0),
  T ("ext.fac", "gmp.fac", 10000, 0), T ("ext.fac", "gmp.fac", 100000, 0),
  T ("ext.fac", "gmp.fac", 1000000, 0),
  /* B = 1: the inputs are primes. */
  { "ext.prime.random.512", "gmp.prime", 512, 0, 0 },
  { "ext.prime.random.2048", "gmp.prime", 2048, 0, 0 },
  { "ext.prime.prime.512", "gmp.prime", 512, 1, 0 },
  { "ext.prime.prime.1024", "gmp.prime", 1024, 1, 0 },
  { "ext.prime.prime.2048", "gmp.prime", 2048, 1, 0 },
  MODULAR ("ext.powm", "gmp.powm"),
  MODULAR ("ext.powm-sec", "gmp.powm-sec"),
  MODULAR ("ext.mulm", "gmp.mulm"),
  DH ("ext.dh.derive", "gmp.dh.derive"),
  DH ("ext.dh.derive-sec", "gmp.dh.derive-sec"),
  DSA ("ext.dsa.sign", "gmp.dsa.sign"),
  DSA ("ext.dsa.sign-sec", "gmp.dsa.sign-sec"),
  DSA ("ext.dsa.verify", "gmp.dsa.verify"),
};

#undef RSA
#undef LARGE
#undef GCDEXT_BOTH

#define SQR(n, f) { "openssl.base.multiply." #n, "openssl.square", n, 0, f }
#define MUL(a, b, f) { "openssl.base.multiply." #a "," #b, "openssl.multiply", a, b, f }
#define DIV(a, b, f) { "openssl.base.divide." #a "," #b, "openssl.divide", a, b, f }
#define GCD(n, f) { "openssl.base.gcd." #n "," #n, "openssl.gcd", n, n, f }

static const struct bench_test openssl_tests[] = {
  SQR (128, 0), SQR (512, 0), SQR (8192, 0), SQR (131072, 0), SQR (2097152, BENCH_FULL_ONLY),
  MUL (128, 128, 0), MUL (512, 512, 0), MUL (8192, 8192, 0), MUL (131072, 131072, 0),
  MUL (2097152, 2097152, BENCH_FULL_ONLY),
  MUL (15000, 10000, 0), MUL (20000, 10000, 0), MUL (30000, 10000, 0),
  MUL (16777216, 512, 0), MUL (16777216, 262144, BENCH_FULL_ONLY),
  DIV (8192, 32, 0), DIV (8192, 64, 0), DIV (8192, 128, 0), DIV (8192, 4096, 0),
  DIV (131072, 65536, 0), DIV (8192, 8064, 0), DIV (16777216, 262144, BENCH_FULL_ONLY),
  GCD (128, 0), GCD (512, 0), GCD (8192, 0), GCD (131072, BENCH_FULL_ONLY),
  T ("openssl.ext.invert", "openssl.invert", 512, 0),
  T ("openssl.ext.invert", "openssl.invert", 8192, 0),
  T ("openssl.ext.invert", "openssl.invert", 131072, BENCH_FULL_ONLY),
  MODULAR ("openssl.ext.powm", "openssl.powm"),
  MODULAR ("openssl.ext.powm-sec", "openssl.powm-sec"),
  RSA_SIZES ("openssl.rsa.sign", "openssl.rsa.sign"),
  RSA_SIZES ("openssl.rsa.verify", "openssl.rsa.verify"),
  KEYGEN ("openssl.rsa.keygen", "openssl.rsa.keygen"),
  DH ("openssl.dh.derive", "openssl.dh.derive"),
  DSA ("openssl.dsa.sign", "openssl.dsa.sign"),
  DSA ("openssl.dsa.verify", "openssl.dsa.verify"),
};

#undef SQR
#undef MUL
#undef DIV
#undef GCD

static const struct bench_test gcrypt_tests[] = {
  RSA_SIZES ("gcrypt.rsa.sign", "gcrypt.rsa.sign"),
  RSA_SIZES ("gcrypt.rsa.sign-noblind", "gcrypt.rsa.sign-noblind"),
  RSA_SIZES ("gcrypt.rsa.verify", "gcrypt.rsa.verify"),
  KEYGEN ("gcrypt.rsa.keygen", "gcrypt.rsa.keygen"),
  MODULAR ("gcrypt.ext.mulm", "gcrypt.mulm"),
  MODULAR ("gcrypt.ext.powm", "gcrypt.powm"),
};

static const struct bench_test nettle_tests[] = {
  RSA_SIZES ("nettle.rsa.sign", "nettle.rsa.sign"),
  RSA_SIZES ("nettle.rsa.sign-tr", "nettle.rsa.sign-tr"),
  RSA_SIZES ("nettle.rsa.verify", "nettle.rsa.verify"),
  KEYGEN ("nettle.rsa.keygen", "nettle.rsa.keygen"),
};

#undef T
#undef MODULAR
#undef DH
#undef DSA
#undef KEYGEN
#undef RSA_SIZES

/* One block of 4096 bytes per operation, from the generator NAME. */
#define RNG(name) { name, name, 4096, 0, 0 }

static const struct bench_test rng_tests[] = {
  RNG ("rng.gmp-mt"), RNG ("rng.gmp-lc"), RNG ("rng.openssl"), RNG ("rng.os"),
  RNG ("rng.rdrand"), RNG ("rng.rdseed"), RNG ("rng.rndr"),
};

#undef RNG

const struct bench_suite registry_suites[] = {
  { "base", base_tests, GB_ARRAY_SIZE (base_tests), 0 },
  { "app", app_tests, GB_ARRAY_SIZE (app_tests), 0 },
  { "ext", ext_tests, GB_ARRAY_SIZE (ext_tests), 0 },
  { "openssl", openssl_tests, GB_ARRAY_SIZE (openssl_tests), 0 },
  { "gcrypt", gcrypt_tests, GB_ARRAY_SIZE (gcrypt_tests), 1 },
  { "nettle", nettle_tests, GB_ARRAY_SIZE (nettle_tests), 1 },
  { "rng", rng_tests, GB_ARRAY_SIZE (rng_tests), 0 },
};

const size_t registry_nsuites = GB_ARRAY_SIZE (registry_suites);

/* GMPbench 0.2's weights: within base, multiply and divide weigh 1, gcd
 * and gcdext 0.5; within app, rsa and pi weigh 1. */
const struct registry_weight registry_weights[] = {
  { "gmpbench.base.multiply", 1.0 },
  { "gmpbench.base.divide", 1.0 },
  { "gmpbench.base.gcd", 0.5 },
  { "gmpbench.base.gcdext", 0.5 },
  { "gmpbench.app.rsa", 1.0 },
  { "gmpbench.app.pi", 1.0 },
};

const size_t registry_nweights = GB_ARRAY_SIZE (registry_weights);
