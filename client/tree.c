/* tree.c: walking dotted names as a tree (see tree.h).  The names are
 * first grouped by node, stably; then each name is compared with the
 * previous one: the nodes they share are already reported, the others are
 * reported now, deepest last. */
#include "client/tree.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* Length of the common prefix of A and B that ends at a dot (dot
 * included). */
static size_t
common_nodes (const char *a, const char *b)
{
  size_t keep = 0;
  for (size_t i = 0; a[i] && a[i] == b[i]; i++)
    if (a[i] == '.')
      keep = i + 1;
  return keep;
}

/* Each name goes right after the last one placed so far that shares the
 * most nodes with it (the end of that node's group, since the groups are
 * contiguous), or last when it shares none. */
void
tree_group (const char *const *names, size_t n, size_t *order)
{
  for (size_t k = 0; k < n; k++)
    {
      size_t at = k, most = 0;
      for (size_t j = 0; j < k; j++)
        {
          size_t shared = common_nodes (names[order[j]], names[k]);
          if (shared > 0 && shared >= most)
            {
              most = shared;
              at = j + 1;
            }
        }
      memmove (order + at + 1, order + at, (k - at) * sizeof *order);
      order[at] = k;
    }
}

void
tree_walk (const char *const *names, size_t n, const struct tree_visitor *v, void *ctx)
{
  size_t *order = gb_xmalloc ((n ? n : 1) * sizeof *order);
  const char *prev = "";
  tree_group (names, n, order);
  for (size_t i = 0; i < n; i++)
    {
      const char *name = names[order[i]];
      size_t start = common_nodes (prev, name);
      int depth = 0;
      for (size_t j = 0; j < start; j++)
        depth += name[j] == '.';
      for (const char *dot = strchr (name + start, '.'); dot; dot = strchr (dot + 1, '.'))
        {
          if (v->node)
            v->node (ctx, depth, name, (size_t) (dot - name), name + start,
                     (size_t) (dot - name) - start);
          start = (size_t) (dot - name) + 1;
          depth++;
        }
      if (v->leaf)
        v->leaf (ctx, depth, order[i], name + start);
      prev = name;
    }
  free (order);
}

int
tree_under (const char *name, const char *path, size_t pathlen)
{
  return strncmp (name, path, pathlen) == 0 && name[pathlen] == '.';
}
