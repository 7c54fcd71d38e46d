/* web_routes.c: the routing table of the public pages
 * (docs/leaderboard.md): which handler (web_handlers.h) answers each
 * path, and the 404 and 405 pages of those no route takes.  Every page
 * may be cached for a second or two (HTTP_CACHE_SHORT, http.h). */
#include "server/web/web.h"

#include <string.h>
#include "server/http/route.h"
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

static enum MHD_Result
result_page (struct http_request *r)
{
  return web_result (r, r->segment);
}

static enum MHD_Result
submitter_page (struct http_request *r)
{
  return web_submitter (r, r->segment);
}

static const struct route routes[] = {
  { "GET", "/", web_home },
  { "GET", "/style.css", web_style },
  { "GET", "/about", web_about },
  { "GET", "/cpu", web_cpu },
  { "GET", "/compare", web_compare },
  { "GET", "/results/*", result_page },
  { "GET", "/submitters/*", submitter_page },
};

enum MHD_Result
web_handle (struct http_request *r)
{
  route_fn handler;
  char allow[64];

  if (route_find (routes, sizeof routes / sizeof routes[0], r, &handler, allow, sizeof allow)
      == ROUTE_FOUND)
    {
      r->cache = HTTP_CACHE_SHORT;      /* the pages' 200s: http.h, docs/server.md */
      return handler (r);
    }
  if (strcmp (r->method, "GET") != 0 && strcmp (r->method, "HEAD") != 0)
    return page_error (r, 405, "Pages are read with GET.");
  return page_error (r, 404, "There is no page here.");
}
