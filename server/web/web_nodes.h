/* web_nodes.h: the nodes of the hierarchy in tree order, and the median
 * score of every node over a CPU's newest results (the CPU page and the
 * comparison of CPUs share them, kept with the leaderboard's snapshot;
 * see web_nodes.c). */
#ifndef GB_SERVER_WEB_NODES_H
#define GB_SERVER_WEB_NODES_H

#include <stddef.h>
#include <stdint.h>
#include "server/board/board.h"
#include "server/store/store.h"

/* How many of a CPU's newest results the medians cover. */
#define NODE_RESULTS 200

/* Every inner node of the registry once, in tree order: a node right
 * before its children, the children in the registry's run order (so
 * gmpbench, the compatible score, first, then the extended tests, then
 * the other libraries).  DEPTH is the number of dots in the name. */
size_t web_node_count (void);
const char *web_node (size_t i, int *depth);

/* The median score of every node over the newest NODE_RESULTS results
 * under F (F's CPU, mode, build and other filters), each source's scores
 * reduced to their median first (server/store/store.h, "Sources"): for
 * the node at place i of the tree order, MEDIAN[i] of COUNT[i] scores
 * from SOURCES[i] sources (NAN when none), over RESULTS results in all. */
struct node_scores
{
  double *median;
  size_t *count;
  int results;
  size_t *sources;
};

/* The store's filter of the newest NODE_RESULTS results under F, none
 * newer than B's newest of F's CPU (when F has one), so that what the
 * store gives is what the snapshot B has. */
void node_store_filter (const struct board *b, const struct board_filter *f,
                        struct store_filter *sf);

/* A key for what a page computes from the results under F, kept with
 * their CPU's (board_cpu_memo): WHAT, then F; malloc'ed (NULL when out
 * of memory). */
char *node_memo_key (const char *what, const struct board_filter *f);

/* Loads S: the medians kept with the snapshot B, made from the store the
 * first time.  0, or -1 when the store fails (S then has no scores, and
 * is valid). */
int node_scores_load (struct board *b, struct store *st, const struct board_filter *f,
                      struct node_scores *s);
/* The median of NODE's scores and their count in *N; NAN when none. */
double node_scores_median (const struct node_scores *s, const char *node, size_t *n);
/* How many sources NODE's scores came from. */
size_t node_scores_sources (const struct node_scores *s, const char *node);

/* The snapshot B's newest NODE_RESULTS results under F (none without F's
 * CPU), sorted by seq, into OUT (room for NODE_RESULTS); how many.  What
 * node_source finds the sources of results read from the store in. */
size_t node_known (const struct board *b, const struct board_filter *f, struct board_entry *out);
/* The source of the result SEQ among the N results KNOWN (node_known's),
 * or a source of its own (as a result stored before sources) when it is
 * not among them. */
uint64_t node_source (const struct board_entry *known, size_t n, int64_t seq);
void node_scores_free (struct node_scores *s);

#endif
