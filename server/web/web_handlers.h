/* web_handlers.h: the handlers the pages' routing table (web_routes.c)
 * calls, one per page of docs/leaderboard.md. */
#ifndef GB_SERVER_WEB_HANDLERS_H
#define GB_SERVER_WEB_HANDLERS_H

#include "server/http/http.h"

enum MHD_Result web_home (struct http_request *r);
enum MHD_Result web_cpu (struct http_request *r);
enum MHD_Result web_result (struct http_request *r, const char *id);
enum MHD_Result web_compare (struct http_request *r);
enum MHD_Result web_compare_cpus (struct http_request *r);
enum MHD_Result web_submitter (struct http_request *r, const char *fingerprint);
enum MHD_Result web_about (struct http_request *r);
enum MHD_Result web_style (struct http_request *r);
enum MHD_Result web_favicon (struct http_request *r);
#endif
