/* api.h: the handlers of API v1 (docs/protocol.md), by concern:
 *   api.c          the routing table, and the JSON shapes shared by handlers;
 *   api_upload.c   POST results, POST retract;
 *   api_results.c  one result (parsed, raw, signature) and listings;
 *   api_stats.c    aggregates per CPU, health;
 *   api_stream.c   the NDJSON dump and the CSV export, streamed.
 * Every handler answers exactly once through the http.h helpers. */
#ifndef GB_SERVER_API_H
#define GB_SERVER_API_H

#include "server/http/http.h"
#include "server/store/store.h"
#include "model/validate.h"

/* Whether PATH is the API's (under /api/, and /healthz): the API answers
 * it, with JSON errors, where pages would answer HTML. */
int api_owns (const char *path);
/* Answers a complete request for a path the API owns: through the
 * routing table, or 404/405 in JSON. */
enum MHD_Result api_handle (struct http_request *r);

enum MHD_Result api_upload (struct http_request *r);
enum MHD_Result api_retract (struct http_request *r, const char *id);
enum MHD_Result api_result (struct http_request *r, const char *id, const char *part);
enum MHD_Result api_list (struct http_request *r);
enum MHD_Result api_cpus (struct http_request *r);
/* Starts the thread that computes the rows of /api/v1/cpus again when
 * they are older than SRV->aggregate_ttl (api_stats.c): 0, or -1 when it
 * cannot start.  api_cpus_stop stops it, and lets the rows go. */
int api_cpus_start (struct server *srv);
void api_cpus_stop (struct server *srv);
enum MHD_Result api_health (struct http_request *r);
enum MHD_Result api_dump (struct http_request *r);
enum MHD_Result api_export (struct http_request *r);

/* The filters of a listing or export from the query (arch, cpu, vendor,
 * os, gmp, compiler, mode, build exactly; verified=0|1; flagged=0|1, 1
 * by default: flagged results included) into F, cleared first.  0, or
 * -1 with the offending argument in *BAD. */
int api_filter (struct http_request *r, struct store_filter *f, const char **bad);

/* The summary object of a stored result, as listings and GET show it. */
cJSON *api_row_summary (const struct store_row *row);
/* "a,b" -> ["a", "b"]; "" -> []. */
cJSON *api_flags_array (const char *flags);
/* The error answer of a document that failed validation. */
enum MHD_Result api_validation_error (struct http_request *r, const struct validate_error *e);
/* 503 for a database failure. */
enum MHD_Result api_unavailable (struct http_request *r);

#endif
