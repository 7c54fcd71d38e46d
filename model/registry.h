/* registry.h: the tests gmpbench knows and the hierarchy they form.
 *
 * The registry is the one place that knows the whole hierarchy: which tests
 * exist, in what order they run, which program runs each, and the weight
 * of each node.  It is plain data (registry_table.c); the client runs the
 * tests through the programs of suites/ (suites/programs.h), and both the
 * client and the server score from it (score.h).
 *
 * Every result document carries the registry's identity ("registry",
 * docs/result-format.md), and the server refuses a document whose registry
 * differs from its own (docs/protocol.md), since it could neither
 * recognise all the tests nor recompute the same scores.  It is the first
 * 16 hex digits of a SHA-256 over what scoring and checking depend on: the
 * generation of the tests' definitions and of their digests, every test's
 * name, its flags, and the weight of each node on its path.  The optional
 * suites (those only some clients have: libgcrypt's and Nettle's) are left
 * out, so that builds with and without them agree; their tests live in
 * hierarchies of their own.
 */
#ifndef GB_REGISTRY_H
#define GB_REGISTRY_H

#include <stddef.h>
#include "common/util.h"

/* Flags of a test. */
#define BENCH_COMPAT    1u      /* one of the 39 tests of GMPbench 0.2 */
#define BENCH_FULL_ONLY 2u      /* too slow for --quick: full runs only */
#define BENCH_NEW_DEFINITIONS 4u /* added with definitions generation 2
                                  * (REGISTRY_DEFINITIONS): the previous
                                  * registry's documents lack it */

struct bench_test
{
  const char *name;             /* dotted path, e.g. gmpbench.app.rsa.2048 */
  const char *program;          /* what runs it, e.g. gmp.rsa.sign */
  long a, b;                    /* parameters: sizes in bits or digits */
  unsigned flags;
};

/* The tests of one --suite name (base, app, ext, openssl...). */
struct bench_suite
{
  const char *name;
  const struct bench_test *tests;
  size_t ntests;
  int optional;                 /* only in clients that have its library */
};

struct registry_weight
{
  const char *node;
  double weight;
};

/* The table (registry_table.c): suites in run order, and the weights of
 * the nodes that do not weigh 1. */
extern const struct bench_suite registry_suites[];
extern const size_t registry_nsuites;
extern const struct registry_weight registry_weights[];
extern const size_t registry_nweights;

/* All tests, in run order. */
size_t registry_count (void);
const struct bench_test *registry_test (size_t i);
const struct bench_test *registry_find (const char *name);
/* The suite of test I: its --suite name (base, app, ext, openssl, ...)
 * and whether it is optional. */
const struct bench_suite *registry_suite (size_t i);

/* The weight of a node (a program within its category, in GMPbench terms)
 * among its siblings; 1 unless the registry says otherwise. */
double registry_node_weight (const char *node);
/* The weight of the program a test belongs to, as GMPbench 0.2 lists it. */
double registry_test_weight (const char *test_name);

/* Whether NAME matches the glob PATTERN (fnmatch-style * ? [..]), or lies
 * in the subtree PATTERN names (PATTERN is a prefix ending at a dot). */
int registry_match (const char *pattern, const char *name);

#define REGISTRY_ID_LEN 16

/* The generation of the tests' definitions, raised whenever a test keeps
 * its name but measures something else, so that the identity changes with
 * it.  2: the compatible tests measure GMPbench 0.2's own operations (its
 * operands, gcdext with one cofactor, rsa over 1024 messages, its pi
 * algorithm).  1 was every registry before it. */
#define REGISTRY_DEFINITIONS 2

/* The identity of the registry before this one (generation 1), whose
 * documents the server still accepts and shows apart (docs/protocol.md). */
#define REGISTRY_PREVIOUS_ID "2b9fafb1342435ad"

/* The generation of the tests' digests, raised whenever what a test's
 * digest covers changes while what it measures does not, so that the
 * server knows which digests a document carries.  2: the gcd tests' digests
 * cover their witness, GMP's RSA key generation the stream's first key,
 * OpenSSL's DSA signing its public key (model/reference_superseded.c
 * keeps what they were before).  1 was every registry before it. */
#define REGISTRY_DIGESTS 2

/* The identity of the registry with the current definitions and the
 * digests of generation 1, whose documents measured what the current ones
 * measure: the server accepts them with those digests and pools them with
 * the current ones. */
#define REGISTRY_PREVIOUS_DIGESTS_ID "74fb001f7eeaca50"

/* 16 lower-case hex digits, computed once. */
const char *registry_id (void);

#endif
