/* api_routes.c: the routing table of API v1 (docs/protocol.md): which
 * handler (api_handlers.h) answers each method and path, and the JSON 404
 * and 405 of those no route takes.  docs/openapi.json describes every
 * row (tests/t0391-server-api-docs.sh checks it).
 *
 * What reads (GET, HEAD) may be read by any web page: its answers carry
 * Access-Control-Allow-Origin: *, and OPTIONS, a browser's preflight,
 * grants GET and HEAD where a path has a GET route.  Its 200s may be
 * cached for a second or two (HTTP_CACHE_SHORT, http.h) unless the handler
 * says otherwise (health and the streams: never; a result's bytes and
 * signature: for a year). */
#include "server/api/api.h"

#include <stdio.h>
#include <string.h>
#include "common/util.h"
#include "model/protocol.h"
#include "server/api/api_handlers.h"
#include "server/http/route.h"

#define PREFIX "/api/v1/"

static enum MHD_Result
method_not_allowed (struct http_request *r, const char *allow)
{
  r->rule = "method";
  char methods[80];
  snprintf (methods, sizeof methods, "%s, OPTIONS", allow);
  return http_json_header (r, 405, http_error_body ("method", NULL, "method not allowed here"),
                           "Allow", methods);
}

/* The answer to OPTIONS on a path whose routes allow ALLOW: 204, and the
 * CORS grant of GET and HEAD (with If-None-Match, for revalidation) when
 * the path has a GET route; other methods are not granted to other
 * origins. */
static enum MHD_Result
preflight (struct http_request *r, const char *allow)
{
  char methods[80];
  struct MHD_Response *resp = MHD_create_response_from_buffer (0, (void *) "",
                                                               MHD_RESPMEM_PERSISTENT);
  if (!resp)
    return MHD_NO;
  snprintf (methods, sizeof methods, "%s, OPTIONS", allow);
  MHD_add_response_header (resp, "Allow", methods);
  r->cors = strstr (allow, "GET") != NULL;
  if (r->cors)
    {
      MHD_add_response_header (resp, "Access-Control-Allow-Methods", "GET, HEAD");
      MHD_add_response_header (resp, "Access-Control-Allow-Headers", "If-None-Match");
      MHD_add_response_header (resp, "Access-Control-Max-Age", "86400");
    }
  return http_queue (r, 204, resp);
}

/* The handlers of paths with an id, taking it from the path's segment. */
static enum MHD_Result
result_parsed (struct http_request *r)
{
  return api_result (r, r->segment, NULL);
}

/* A result's bytes and signature never change: caches keep them. */
static enum MHD_Result
result_raw (struct http_request *r)
{
  r->cache = HTTP_CACHE_IMMUTABLE;
  return api_result (r, r->segment, "raw");
}

static enum MHD_Result
result_signature (struct http_request *r)
{
  r->cache = HTTP_CACHE_IMMUTABLE;
  return api_result (r, r->segment, "signature");
}

static enum MHD_Result
result_retract (struct http_request *r)
{
  return api_retract (r, r->segment);
}

/* The leaderboard's view as data, drawn by the pages' room (server.h). */
static enum MHD_Result
leaderboard_json (struct http_request *r)
{
  return r->srv->leaderboard_data (r, "json");
}

static enum MHD_Result
leaderboard_csv (struct http_request *r)
{
  return r->srv->leaderboard_data (r, "csv");
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
  { "GET", PREFIX, api_index },
  { "GET", PREFIX "openapi.json", api_openapi },
  { "GET", PREFIX "schema/result.json", api_result_schema },
  { "GET", PROTOCOL_LEADERBOARD_PATH, leaderboard_json },
  { "GET", PROTOCOL_LEADERBOARD_CSV_PATH, leaderboard_csv },
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
  int reading = strcmp (r->method, "GET") == 0 || strcmp (r->method, "HEAD") == 0;

  r->cors = reading;
  switch (route_find (routes, GB_ARRAY_SIZE (routes), r, &handler, allow, sizeof allow))
    {
    case ROUTE_FOUND:
      if (reading)
        r->cache = HTTP_CACHE_SHORT;
      return handler (r);
    case ROUTE_WRONG_METHOD:
      if (strcmp (r->method, "OPTIONS") == 0)
        return preflight (r, allow);
      return method_not_allowed (r, allow);
    default:
      return http_error (r, 404, "not-found", NULL, "no such endpoint");
    }
}
