/* http.h: the HTTP layer over libmicrohttpd (http.c, http_request.c,
 * http_daemon.c; http_internal.h says which does what).
 *
 * http_start() runs a daemon with a pool of worker threads.  For every
 * request it gathers what handlers need into a struct http_request (the
 * method, the path, the client address, the body, bounded by the size
 * given), applies the per-address rate limit, and calls the handler its
 * caller gave once the request is complete.  This layer knows no path:
 * routing is the handler's (server/http/route.h).  Handlers answer with the
 * helpers below, which also record what the access log line (written when
 * MHD reports the request completed) will say.
 *
 * Framing follows RFC 9112 section 6 (see admit() and check_framing() in
 * http_request.c); a request refused from its headers alone (429, 413,
 * 400) has its body read and thrown away before the answer, so that
 * clients which send the body without waiting for "100 Continue" read the
 * answer.
 *
 * http_stop() drains (below).
 *
 * Caching: an answer is "Cache-Control: no-store" unless its handler (or
 * the room that routed it) set the request's cache policy; then its 200
 * answers carry that policy and, when their body is known in advance, an
 * ETag (a hash of the body), and a GET whose If-None-Match names that
 * ETag is answered 304 without the body (docs/server.md, "Caching").
 * CORS: a request marked cors gets "Access-Control-Allow-Origin: *" on
 * every answer.
 */
#ifndef GB_SERVER_HTTP_H
#define GB_SERVER_HTTP_H

#include <stddef.h>
#include <microhttpd.h>
#include <cjson/cJSON.h>
#include "server/server.h"

struct http_daemon;
struct http_conn;

/* Answers decided from the headers, given once the body is read. */
enum http_refusal
{
  REFUSE_NONE,
  REFUSE_TOO_MANY,              /* the address's rate: 429 */
  REFUSE_TOO_LARGE,             /* over the body limit: 413 */
  REFUSE_FRAMING                /* Content-Length with Transfer-Encoding: 400 */
};

/* How the 200 answers of a request may be kept by caches. */
enum http_cache
{
  HTTP_CACHE_NONE,              /* no-store: the default */
  HTTP_CACHE_SHORT,             /* public for a second or two, with an ETag */
  HTTP_CACHE_IMMUTABLE          /* public for a year, immutable, with an ETag */
};

struct http_request
{
  struct http_daemon *daemon;
  struct http_conn *http_conn;
  struct server *srv;
  struct MHD_Connection *conn;
  char *method, *path;
  int http10;                   /* an HTTP/1.0 request */
  char remote[64];
  char *body;                   /* NUL-terminated after LEN bytes */
  size_t len, cap;
  size_t received;              /* body bytes read, kept or not */
  int too_large;                /* the body went over the limit */
  enum http_refusal refusal;
  int wait;                     /* REFUSE_TOO_MANY: seconds */
  int close;                    /* the answer closes the connection */
  int answering;                /* counted in the daemon's answering */
  double start;
  char segment[128];            /* what a route's "*" matched (route.h) */
  enum http_cache cache;        /* set by the handler or its room */
  int cors;                     /* answers carry Access-Control-Allow-Origin: * */
  const char *route_method;     /* the route that answers (route.h), for the metrics; */
  const char *route_pattern;    /* NULL when none does */
  /* For the access log: */
  int status;
  const char *rule;
  char id[65];
};

/* Answers a complete request, exactly once, through the helpers below. */
typedef enum MHD_Result (*http_handler_fn) (struct http_request *r);

/* LISTEN is "HOST:PORT" with a numeric host ("[::1]:8080" for IPv6);
 * bodies over MAX_BODY bytes are answered 413. */
struct http_daemon *http_start (struct server *srv, const char *listen, http_handler_fn handler,
                                size_t max_body, char *err, size_t errlen);
/* A daemon of its own for LISTEN, with one thread and no request body
 * (--metrics-listen): its requests are not counted in the metrics
 * (server/metrics.h), which every request to http_start's daemon is. */
struct http_daemon *http_start_side (struct server *srv, const char *listen,
                                     http_handler_fn handler, char *err, size_t errlen);
/* Drains and stops (docs/server.md, "Stopping"): stops accepting, closes
 * the idle connections at once and the others after their answer (which
 * says "Connection: close"), until none is left or DRAIN seconds have
 * passed; then the requests already read whole are still answered (for
 * at most the connection timeout more) and the others dropped.  Frees D.
 * 0 when every connection ended within DRAIN, -1 otherwise. */
int http_stop (struct http_daemon *d, double drain);

/* A query argument or request header, or NULL. */
const char *http_arg (struct http_request *r, const char *name);
const char *http_header (struct http_request *r, const char *name);

/* Answers: each queues the response and returns what the access handler
 * returns.  http_json takes ownership of BODY. */
enum MHD_Result http_json (struct http_request *r, int status, cJSON *body);
/* The same with one header more (NAME: VALUE). */
enum MHD_Result http_json_header (struct http_request *r, int status, cJSON *body,
                                  const char *name, const char *value);
enum MHD_Result http_bytes (struct http_request *r, int status, const char *type,
                            const char *data, size_t len);
/* The same, taking ownership of the malloc'ed DATA. */
enum MHD_Result http_bytes_owned (struct http_request *r, int status, const char *type,
                                  char *data, size_t len);
/* The same, with the hex SHA-256 DIGEST (64 digits) its caller made for
 * DATA instead of one of DATA's bytes: for an answer assembled from parts
 * kept with their own hashes, hashed over those (see http_queue_tagged). */
enum MHD_Result http_bytes_tagged (struct http_request *r, int status, const char *type,
                                   char *data, size_t len, const char *digest);
enum MHD_Result http_error (struct http_request *r, int status, const char *rule,
                            const char *field, const char *fmt, ...)
  __attribute__ ((format (printf, 5, 6)));
/* The JSON error body {"error", "field", "rule"}, for answers that add
 * to it. */
cJSON *http_error_body (const char *rule, const char *field, const char *message);
/* 429 with Retry-After: WAIT seconds. */
enum MHD_Result http_too_many (struct http_request *r, int wait, const char *what);
/* Queues RESP (adding the common headers, and a Cache-Control from
 * R->cache and STATUS unless RESP has one of its own) and releases it. */
enum MHD_Result http_queue (struct http_request *r, int status, struct MHD_Response *resp);
/* The same for a response whose body is DATA (LEN bytes, alive until RESP
 * is released): a cacheable 200 gets an ETag from DATA, and becomes a 304
 * without body when the request's If-None-Match names it. */
enum MHD_Result http_queue_body (struct http_request *r, int status, struct MHD_Response *resp,
                                 const char *data, size_t len);
/* The same with the ETag's hash given: DIGEST, 64 hex digits, of which
 * the ETag takes the first 32.  It must change whenever the body's bytes
 * do (docs/server.md, "Caching"). */
enum MHD_Result http_queue_tagged (struct http_request *r, int status,
                                   struct MHD_Response *resp, const char *digest);

/* Streams a body of unknown length: FILL appends the next part to *BUF
 * (growing it, *LEN bytes used) and returns 1 while there is more, 0 at
 * the end, -1 on error; FREE releases CTX. */
typedef int (*http_fill_fn) (void *ctx, char **buf, size_t *len, size_t *cap);
enum MHD_Result http_stream (struct http_request *r, const char *type, http_fill_fn fill,
                             void (*free_ctx) (void *ctx), void *ctx);

#endif
