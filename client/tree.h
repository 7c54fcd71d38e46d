/* tree.h: dotted test names as the hierarchy they spell.
 *
 * gmpbench.base.gcd.128,128 is the leaf 128,128 under the nodes gmpbench,
 * gmpbench.base and gmpbench.base.gcd.  tree_walk() reports each node
 * once, before its first leaf, and every leaf, each with its depth, so
 * that every renderer (text, HTML, Markdown, compare, list) draws the same
 * tree.  Names under one node need not be adjacent (the registry lists the
 * RSA key generation tests of every library last): the walk groups them
 * by node, in the order each node first appears. */
#ifndef GB_TREE_H
#define GB_TREE_H

#include <stddef.h>

struct tree_visitor
{
  /* A node: its full dotted PATH (PATHLEN bytes, not NUL-terminated) and
   * the last component LABEL (LABELLEN bytes). */
  void (*node) (void *ctx, int depth, const char *path, size_t pathlen,
                const char *label, size_t labellen);
  /* Leaf INDEX of NAMES, LABEL its last component (NUL-terminated). */
  void (*leaf) (void *ctx, int depth, size_t index, const char *label);
};

void tree_walk (const char *const *names, size_t n, const struct tree_visitor *v, void *ctx);

/* The order tree_walk() visits NAMES[0..N) in, as indexes into ORDER[0..N):
 * grouped by node, stably (a.b.1, c.1, a.b.2 becomes a.b.1, a.b.2, c.1). */
void tree_group (const char *const *names, size_t n, size_t *order);

/* Whether NAME lies under the node PATH (PATHLEN bytes). */
int tree_under (const char *name, const char *path, size_t pathlen);

#endif
