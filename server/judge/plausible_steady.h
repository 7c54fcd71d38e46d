/* plausible_steady.h: the scores the peers judge a node by, with the key
 * generation below it left out (server/judge/plausible.h, "outlier").
 *
 * Key generation takes a random time by nature: each key's primes are
 * found after a random number of candidates, and a quick run makes a
 * handful of keys (OpenSSL's RSA-2048: 2 to 10 a second on one machine,
 * its own spread 22-100%).  Its own node is judged like a single test,
 * with a wide cutoff; the nodes above it (openssl.rsa, openssl, ...: the
 * "mixed" nodes) are judged by their steady score, the weighted geometric
 * mean of their other children as model/score.c makes a score, so that
 * the luck of a few keys neither flags them nor hides a fake in their
 * other tests.
 *
 * The steady scores of one result are computed over a vector of log
 * scores indexed by the names they come from (steady_count, steady_find:
 * the mixed nodes and their children, from the registry). */
#ifndef GB_SERVER_PLAUSIBLE_STEADY_H
#define GB_SERVER_PLAUSIBLE_STEADY_H

#include <stddef.h>

/* Whether NAME is a key generation node or test: one of its dotted
 * components is "keygen". */
int steady_key_generation (const char *name);

/* How many names the steady scores are computed from. */
size_t steady_count (void);

/* The index of NAME among them, or -1. */
long steady_find (const char *name);

/* Whether the name of index I is a mixed node (judged by its steady
 * score). */
int steady_mixed (size_t i);

/* V holds one result's log scores by index (NAN where it has none): the
 * log score of each mixed node it has becomes its steady one (kept when
 * the result has none of the node's other children). */
void steady_apply (double *v);

#endif
