/* api_routes.c: the routing table of API v1 (docs/protocol.md): which
 * handler (api_handlers.h) answers each method and path, and the JSON 404
 * and 405 of those no route takes. */
#include "server/api/api.h"

#include <string.h>
#include "common/util.h"
#include "server/api/api_handlers.h"
#include "server/http/route.h"

#define PREFIX "/api/v1/"

static enum MHD_Result
method_not_allowed (struct http_request *r, const char *allow)
{
  r->rule = "method";
  return http_json_header (r, 405, http_error_body ("method", NULL, "method not allowed here"),
                           "Allow", allow);
}

/* The handlers of paths with an id, taking it from the path's segment. */
static enum MHD_Result
result_parsed (struct http_request *r)
{
  return api_result (r, r->segment, NULL);
}

static enum MHD_Result
result_raw (struct http_request *r)
{
  return api_result (r, r->segment, "raw");
}

static enum MHD_Result
result_signature (struct http_request *r)
{
  return api_result (r, r->segment, "signature");
}

static enum MHD_Result
result_retract (struct http_request *r)
{
  return api_retract (r, r->segment);
}

static const struct route routes[] = {
  { "GET", "/healthz", api_health },
  { "GET", PREFIX "results", api_list },
  { "POST", PREFIX "results", api_upload },
  { "GET", PREFIX "results/*", result_parsed },
  { "GET", PREFIX "results/*/raw", result_raw },
  { "GET", PREFIX "results/*/signature", result_signature },
  { "POST", PREFIX "results/*/retract", result_retract },
  { "GET", PREFIX "cpus", api_cpus },
  { "GET", PREFIX "export.csv", api_export },
  { "GET", PREFIX "dump", api_dump },
};

int
api_owns (const char *path)
{
  return strncmp (path, "/api/", 5) == 0 || strcmp (path, "/healthz") == 0;
}

enum MHD_Result
api_handle (struct http_request *r)
{
  route_fn handler;
  char allow[64];

  switch (route_find (routes, GB_ARRAY_SIZE (routes), r, &handler, allow, sizeof allow))
    {
    case ROUTE_FOUND:
      return handler (r);
    case ROUTE_WRONG_METHOD:
      return method_not_allowed (r, allow);
    default:
      return http_error (r, 404, "not-found", NULL, "no such endpoint");
    }
}
