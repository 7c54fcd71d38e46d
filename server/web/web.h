/* web.h: the pages' room's interface to the rest of the server: the
 * answer to a request for a page.  Inside the room, web_page.h says what
 * the pages share and which file does what. */
#ifndef GB_SERVER_WEB_H
#define GB_SERVER_WEB_H

#include "server/http/http.h"

/* Answers a complete request for a page: through the routing table, or a
 * 404 (405 for a method other than GET) page. */
enum MHD_Result web_handle (struct http_request *r);
/* The leaderboard's view that R's query asks for (the home page's
 * arguments) as data, FORMAT "json" or "csv": the answer of
 * /api/v1/leaderboard and /api/v1/leaderboard.csv, which the API
 * serves through server.h (the same rows as the page, drawn here); its
 * errors are JSON. */
enum MHD_Result web_leaderboard_data (struct http_request *r, const char *format);

#endif
