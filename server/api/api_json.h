/* api_json.h: what the API's handlers share (api_json.c, and the query's
 * filters from api_results.c): the JSON of a stored result and of errors. */
#ifndef GB_SERVER_API_JSON_H
#define GB_SERVER_API_JSON_H

#include <cjson/cJSON.h>
#include "server/http/http.h"
#include "server/store/store.h"
#include "model/validate.h"

/* The filters of a listing or export from the query (arch, cpu, vendor,
 * os, gmp, compiler, mode, build exactly; machine=bare-metal|virtual|all,
 * all by default; verified=0|1; flagged=0|1, 1 by default: flagged
 * results included) into F, cleared first.  0, or -1 with the offending
 * argument in *BAD. */
int api_filter (struct http_request *r, struct store_filter *f, const char **bad);

/* The summary object of a stored result, as listings and GET show it. */
cJSON *api_row_summary (const struct store_row *row);
/* "a,b" -> ["a", "b"]; "" -> []. */
cJSON *api_flags_array (const char *flags);
/* The error answer of a document that failed validation. */
enum MHD_Result api_validation_error (struct http_request *r, const struct validate_error *e);
/* The "standing" object of an upload's answer (api_standing.c): DOC's
 * GMPbench score within its CPU row and architecture, of its run mode
 * and GMP build kind BUILD; COUNTED: the result is listed and unflagged,
 * one of the values it is compared with. */
cJSON *api_standing (struct server *srv, const struct doc_summary *doc, const char *build,
                     int counted);
/* 503 for a database failure. */
enum MHD_Result api_unavailable (struct http_request *r);

#endif
