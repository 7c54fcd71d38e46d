/* web.h: the pages' room's interface to the rest of the server: the
 * answer to a request for a page.  Inside the room, web_page.h says what
 * the pages share and which file does what. */
#ifndef GB_SERVER_WEB_H
#define GB_SERVER_WEB_H

#include "server/http/http.h"

/* Answers a complete request for a page: through the routing table, or a
 * 404 (405 for a method other than GET) page. */
enum MHD_Result web_handle (struct http_request *r);

#endif
