/* api.h: the API room's interface to the rest of the server: which paths
 * it owns, the answer to a request for one, and the thread behind
 * /api/v1/cpus.  Inside the room (docs/protocol.md):
 *   api_routes.c   the routing table (api_handlers.h names the handlers);
 *   api_json.c     the JSON shapes the handlers share (api_json.h);
 *   api_upload.c   POST results, POST retract;
 *   api_results.c  one result (parsed, raw, signature) and listings;
 *   api_stats.c    aggregates per CPU, health;
 *   api_stream.c   the NDJSON dump and the CSV export, streamed;
 *   api_docs.c     the API's entry points, its OpenAPI document and the
 *                  result document's JSON Schema (docs/);
 *   api_source.c   an upload's source: its network or verified publisher;
 *   ratelimit.c    the token buckets by address, key and source (ratelimit.h).
 * Every handler answers exactly once through the http.h helpers. */
#ifndef GB_SERVER_API_H
#define GB_SERVER_API_H

#include "server/http/http.h"

/* Whether PATH is the API's (under /api/, and /healthz): the API answers
 * it, with JSON errors, where pages would answer HTML. */
int api_owns (const char *path);
/* Answers a complete request for a path the API owns: through the
 * routing table, or 404/405 in JSON. */
enum MHD_Result api_handle (struct http_request *r);

/* Starts the thread that computes the rows of /api/v1/cpus again when
 * they are older than SRV->aggregate_ttl (api_stats.c): 0, or -1 when it
 * cannot start.  api_cpus_stop stops it, and lets the rows go. */
int api_cpus_start (struct server *srv);
void api_cpus_stop (struct server *srv);

#endif
