/* tree.c: walking dotted names as a tree (see tree.h).  Each name is
 * compared with the previous one: the nodes they share are already
 * reported, the others are reported now, deepest last. */
#include "client/tree.h"

#include <string.h>

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

void
tree_walk (const char *const *names, size_t n, const struct tree_visitor *v, void *ctx)
{
  const char *prev = "";
  for (size_t i = 0; i < n; i++)
    {
      const char *name = names[i];
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
        v->leaf (ctx, depth, i, name + start);
      prev = name;
    }
}

int
tree_under (const char *name, const char *path, size_t pathlen)
{
  return strncmp (name, path, pathlen) == 0 && name[pathlen] == '.';
}
