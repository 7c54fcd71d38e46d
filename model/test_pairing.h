/* test_pairing.h: which tests of different libraries measure the same
 * operation, shared by the client's comparison tables (client/compare.c,
 * client/html_charts.c) and the leaderboard's RSA columns (server/board/).
 *
 * Test names say what they compare: openssl.base.multiply.8192,8192 is
 * gmpbench.base.multiply.8192,8192 through OpenSSL, openssl.rsa.sign.2048
 * is gmpbench.app.rsa.2048 (and ext.rsa.sign-sec.2048), nettle.rsa.verify.N
 * is ext.rsa.verify.N.  test_pairing_parse() reads a name as an operation,
 * a size, a library and a variant (sign-sec: variant "sec"); tests that
 * share operation and size are one comparison.  Random generators
 * (rng.NAME) read as operation "rng" with the generator as library.
 */
#ifndef GB_MODEL_TEST_PAIRING_H
#define GB_MODEL_TEST_PAIRING_H

#define TEST_PAIR_FIELD 48

struct test_pair_key
{
  char operation[TEST_PAIR_FIELD];      /* multiply, rsa.sign, rng... */
  char size[TEST_PAIR_FIELD];           /* 2048, 8192,8192, or bytes for rng */
  char library[TEST_PAIR_FIELD];        /* gmp, openssl, gcrypt, nettle; the
                                         * generator for rng */
  char variant[TEST_PAIR_FIELD];        /* "", sec, noblind, tr... */
};

/* 0 and K filled if NAME takes part in comparisons, -1 if not. */
int test_pairing_parse (const char *name, struct test_pair_key *k);

/* Whether the operation of K runs in constant time: the -sec variants,
 * and the private-key operations of the crypto libraries.  A library's
 * constant-time operation is compared with GMP's constant-time one. */
int test_pairing_constant_time (const struct test_pair_key *k);

/* The one comparison the leaderboard shows for every result: RSA-2048
 * signing in GMP (plain, as GMPbench times it, and constant-time) against
 * OpenSSL.  The three names parse as one operation and size. */
#define TEST_PAIR_RSA_GMP "gmpbench.app.rsa.2048"
#define TEST_PAIR_RSA_GMP_SEC "ext.rsa.sign-sec.2048"
#define TEST_PAIR_RSA_OPENSSL "openssl.rsa.sign.2048"

#endif
