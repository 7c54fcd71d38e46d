/* score.h: the GMPbench scoring formula over the whole hierarchy.
 *
 * A leaf's score is its test's ops/s.  A node's score is the weighted
 * geometric mean of its children's scores, with the weights of
 * registry_node_weight() (1 unless GMPbench says otherwise).  For the
 * compatible tree this is exactly GMPbench 0.2's runbench: per program the
 * geometric mean of its tests, per category the weighted geometric mean of
 * its programs, overall the geometric mean of base and app.
 *
 * A node is scored only when every test below it in the registry has a
 * result, so a partial run (--only) never shows a misleading total.  The
 * client and the server both call score_compute(), so a document's scores
 * can be recomputed exactly.
 */
#ifndef GB_SCORE_H
#define GB_SCORE_H

#include <stddef.h>

struct score_input
{
  const char *name;             /* test name */
  double ops_per_sec;
};

struct score_node
{
  char *name;                   /* dotted node name, e.g. gmpbench.base */
  double score;
  int depth;                    /* number of dots in the name */
};

/* Scores of every complete inner node, in pre-order of the registry
 * (parents before children, siblings in run order).  Returns the count;
 * free the array with score_free. */
size_t score_compute (const struct score_input *in, size_t n, struct score_node **out);

/* The same for a run that leaves some tests out by design: those with any
 * of the flags NOT_REQUIRED (registry.h) are then not required for a node to
 * be complete.  A quick run (`gmpbench run --quick`, "quick": true in the
 * document) leaves out BENCH_FULL_ONLY; a document of the previous
 * registry (registry.h) lacks the tests BENCH_NEW_DEFINITIONS. */
size_t score_compute_run (const struct score_input *in, size_t n, unsigned not_required,
                          struct score_node **out);
void score_free (struct score_node *nodes, size_t n);

/* Whether two scores agree to rounding (relative 1e-9 or, for values
 * printed with 6 significant digits, 5e-6). */
int score_equal (double a, double b);

#endif
