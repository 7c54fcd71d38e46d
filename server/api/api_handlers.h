/* api_handlers.h: the handlers the API's routing table (api_routes.c)
 * calls, one per endpoint of docs/protocol.md. */
#ifndef GB_SERVER_API_HANDLERS_H
#define GB_SERVER_API_HANDLERS_H

#include "server/http/http.h"

enum MHD_Result api_upload (struct http_request *r);
enum MHD_Result api_retract (struct http_request *r, const char *id);
/* One result: PART NULL (parsed), "raw" or "signature". */
enum MHD_Result api_result (struct http_request *r, const char *id, const char *part);
enum MHD_Result api_list (struct http_request *r);
enum MHD_Result api_cpus (struct http_request *r);
enum MHD_Result api_health (struct http_request *r);
enum MHD_Result api_dump (struct http_request *r);
enum MHD_Result api_export (struct http_request *r);
/* The API describing itself (api_docs.c): its entry points, its OpenAPI
 * document, the result document's JSON Schema. */
enum MHD_Result api_index (struct http_request *r);
enum MHD_Result api_openapi (struct http_request *r);
enum MHD_Result api_result_schema (struct http_request *r);

#endif
