/* route.h: routing a request through a table of {method, path pattern,
 * handler}.
 *
 * A pattern is a path whose segments are literal, except that a segment
 * "*" matches any one non-empty segment (no '/'), which the handler finds
 * in r->segment.  The method "GET" also matches HEAD (libmicrohttpd sends
 * no body for HEAD).  What to answer when nothing matches is the caller's
 * concern: an API answers JSON, pages answer HTML. */
#ifndef GB_SERVER_ROUTE_H
#define GB_SERVER_ROUTE_H

#include <stddef.h>
#include "server/http/http.h"

typedef enum MHD_Result (*route_fn) (struct http_request *r);

struct route
{
  const char *method;
  const char *pattern;
  route_fn handler;
};

enum route_outcome
{
  ROUTE_FOUND,                  /* *HANDLER is set, r->segment filled */
  ROUTE_WRONG_METHOD,           /* the path matches, not with this method */
  ROUTE_NONE                    /* no pattern matches the path */
};

/* Looks R up in the N routes of TABLE.  On ROUTE_WRONG_METHOD, ALLOW
 * receives the methods the path accepts ("GET, HEAD, POST"), for the
 * Allow header of a 405. */
enum route_outcome route_find (const struct route *table, size_t n, struct http_request *r,
                               route_fn *handler, char *allow, size_t allowlen);

#endif
