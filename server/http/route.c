/* route.c: matching a request's method and path against a routing table
 * (see route.h). */
#include "server/http/route.h"

#include <stdio.h>
#include <string.h>

/* Whether PATH matches PATTERN; a "*" segment is copied into SEGMENT. */
static int
path_matches (const char *pattern, const char *path, char *segment, size_t seglen)
{
  while (*pattern)
    {
      if (pattern[0] == '*' && (pattern[1] == '/' || pattern[1] == '\0'))
        {
          size_t len = strcspn (path, "/");
          if (len == 0 || len >= seglen)
            return 0;
          memcpy (segment, path, len);
          segment[len] = '\0';
          path += len;
          pattern++;
        }
      else if (*pattern++ != *path++)
        return 0;
    }
  return *path == '\0';
}

static int
method_matches (const char *route_method, const char *method)
{
  return strcmp (route_method, method) == 0
    || (strcmp (route_method, "GET") == 0 && strcmp (method, "HEAD") == 0);
}

static void
add_allowed (char *allow, size_t allowlen, const char *method)
{
  size_t used = strlen (allow);
  snprintf (allow + used, allowlen - used, "%s%s", used ? ", " : "",
            strcmp (method, "GET") == 0 ? "GET, HEAD" : method);
}

enum route_outcome
route_find (const struct route *table, size_t n, struct http_request *r, route_fn *handler,
            char *allow, size_t allowlen)
{
  enum route_outcome outcome = ROUTE_NONE;

  allow[0] = '\0';
  for (size_t i = 0; i < n; i++)
    {
      if (!path_matches (table[i].pattern, r->path, r->segment, sizeof r->segment))
        continue;
      if (method_matches (table[i].method, r->method))
        {
          *handler = table[i].handler;
          r->route_method = table[i].method;
          r->route_pattern = table[i].pattern;
          return ROUTE_FOUND;
        }
      outcome = ROUTE_WRONG_METHOD;
      add_allowed (allow, allowlen, table[i].method);
    }
  return outcome;
}
