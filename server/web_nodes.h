/* web_nodes.h: the nodes of the hierarchy in tree order, and the median
 * score of every node over a CPU's newest results (the CPU page and the
 * comparison of CPUs share them; see web_nodes.c). */
#ifndef GB_SERVER_WEB_NODES_H
#define GB_SERVER_WEB_NODES_H

#include <stddef.h>
#include "server/board.h"
#include "server/store.h"

/* How many of a CPU's newest results the medians cover. */
#define NODE_RESULTS 200

/* Every inner node of the registry once, in tree order: a node right
 * before its children, the children in the registry's run order (so
 * gmpbench, the compatible score, first, then the extended tests, then
 * the other libraries).  DEPTH is the number of dots in the name. */
size_t web_node_count (void);
const char *web_node (size_t i, int *depth);

/* The node scores of the newest NODE_RESULTS results under F (F's CPU,
 * mode, build and other filters): for the node at place i of the tree
 * order, count[i] scores from values[i * NODE_RESULTS]. */
struct node_scores
{
  double *values;
  size_t *count;
  int results;
};

/* The store's filter of the newest NODE_RESULTS results under F. */
void node_store_filter (const struct board_filter *f, struct store_filter *sf);

/* Loads S; ALSO (when not NULL) is called with every row too.  0, or -1
 * when the store fails (S then holds what was read, and is valid). */
int node_scores_load (struct store *st, const struct board_filter *f, store_list_fn also,
                      void *ctx, struct node_scores *s);
/* The median of NODE's scores and their count in *N; NAN when none. */
double node_scores_median (const struct node_scores *s, const char *node, size_t *n);
void node_scores_free (struct node_scores *s);

#endif
