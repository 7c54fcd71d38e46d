/* http_request.c: a request from its headers to its access log line:
 * the client address, message framing (RFC 9112 section 6), refusals
 * decided from the headers, the body, the handler, and the completion that
 * frees the connection for draining (see http.h, http_internal.h). */
#include "server/http/http_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include "common/util.h"
#include "server/http/proxy.h"
#include "server/log.h"
#include "server/metrics.h"

/* A refused body is read and thrown away up to this size (see admit). */
#define DISCARD_LIMIT (16 * 1024 * 1024)

/* The client address: the peer's, or the one a trusted proxy forwarded
 * in X-Forwarded-For (proxy.h). */
static void
client_address (struct http_request *r)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  proxy_client (&r->srv->proxies, info ? info->client_addr : NULL,
                http_header (r, "X-Forwarded-For"), r->remote, sizeof r->remote);
}

/* The connection of a request, tracked so that draining can close the
 * idle ones (notify_connection). */
static struct http_conn *
conn_of (struct MHD_Connection *conn)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

/* A new request on CONN, or NULL when draining closed the connection
 * meanwhile (the request is then dropped unread, as on any keep-alive
 * connection the server closes). */
static struct http_request *
begin_request (struct http_daemon *d, struct MHD_Connection *conn, const char *url,
               const char *method, const char *version)
{
  struct http_conn *c = conn_of (conn);

  pthread_mutex_lock (&d->lock);
  int closed = !c || c->closed;
  if (!closed)
    c->busy = 1;
  pthread_mutex_unlock (&d->lock);
  if (closed)
    return NULL;
  struct http_request *r = gb_xcalloc (1, sizeof *r);
  r->daemon = d;
  r->srv = d->srv;
  r->conn = conn;
  r->http_conn = c;
  r->method = gb_xstrdup (method);
  r->path = gb_xstrdup (url);
  r->http10 = strcmp (version, MHD_HTTP_VERSION_1_0) == 0;
  r->start = gb_wall_seconds ();
  client_address (r);
  return r;
}

static void
append_body (struct http_request *r, const char *data, size_t n)
{
  if (r->too_large || r->len + n > r->daemon->max_body)
    {
      r->too_large = 1;
      return;
    }
  if (r->len + n + 1 > r->cap)
    {
      r->cap = r->cap ? r->cap : 4096;
      while (r->cap < r->len + n + 1)
        r->cap *= 2;
      r->body = gb_xrealloc (r->body, r->cap);
    }
  memcpy (r->body + r->len, data, n);
  r->len += n;
  r->body[r->len] = '\0';
}

/* The answers decided before the body is read, given once it is read
 * (and thrown away) unless the client waits for "100 Continue". */
static enum MHD_Result
answer_refusal (struct http_request *r)
{
  switch (r->refusal)
    {
    case REFUSE_TOO_MANY:
      return http_too_many (r, r->wait, "from this address");
    case REFUSE_TOO_LARGE:
      r->close = 1;
      return http_error (r, 413, "too-large", NULL, "the body is larger than %zu bytes",
                         r->daemon->max_body);
    default:
      r->close = 1;
      return http_error (r, 400, "framing", NULL,
                         "Content-Length together with Transfer-Encoding");
    }
}

/* The Transfer-Encoding and Content-Length fields of a request. */
struct framing
{
  char codings[256];            /* every Transfer-Encoding field, joined by "," */
  int te, overflow;
  const char *length;
  int lengths_differ;
};

static enum MHD_Result
note_framing (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct framing *f = cls;
  (void) kind;
  if (strcasecmp (key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0)
    {
      size_t used = strlen (f->codings);
      if ((size_t) snprintf (f->codings + used, sizeof f->codings - used, "%s%s",
                             f->te ? "," : "", value) >= sizeof f->codings - used)
        f->overflow = 1;
      f->te = 1;
    }
  else if (strcasecmp (key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
    {
      if (f->length && strcmp (f->length, value) != 0)
        f->lengths_differ = 1;
      f->length = value;
    }
  return MHD_YES;
}

/* Of a comma-separated list of transfer codings: how many there are,
 * whether the last is chunked, whether chunked comes more than once. */
static void
read_codings (const char *list, int *count, int *last_chunked, int *chunked_twice)
{
  int chunked = 0;
  *count = 0;
  *last_chunked = 0;
  while (*list)
    {
      list += strspn (list, " \t,");
      size_t len = strcspn (list, " \t,;");
      if (!len)
        break;
      *last_chunked = len == 7 && strncasecmp (list, "chunked", 7) == 0;
      chunked += *last_chunked;
      ++*count;
      list += len;
      list += strcspn (list, ",");      /* transfer parameters */
    }
  *chunked_twice = chunked > 1;
}

/* RFC 9112 section 6.  A body whose length cannot be told (a final
 * coding other than chunked, Transfer-Encoding in HTTP/1.0, conflicting
 * Content-Length values) is answered 400 at once and the connection
 * closed; a coding other than chunked before a final chunked, 501 and
 * closed; Content-Length together with chunked is read as chunked,
 * thrown away, and answered 400 with the connection closed.  Returns 1
 * when answered (*RC set). */
static int
check_framing (struct http_request *r, enum MHD_Result *rc)
{
  struct framing f = { "", 0, 0, NULL, 0 };
  int count, last_chunked, chunked_twice;
  const char *why = NULL;

  MHD_get_connection_values (r->conn, MHD_HEADER_KIND, note_framing, &f);
  read_codings (f.codings, &count, &last_chunked, &chunked_twice);
  if (f.te && r->http10)
    why = "Transfer-Encoding in an HTTP/1.0 request";
  else if (f.te && (f.overflow || !last_chunked || chunked_twice))
    why = "the final transfer coding is not chunked (once): the body's length is unknown";
  else if (!f.te && f.lengths_differ)
    why = "conflicting Content-Length values";
  if (why)
    {
      r->close = 1;
      *rc = http_error (r, 400, "framing", NULL, "%s", why);
      return 1;
    }
  if (f.te && count > 1)
    {
      r->close = 1;
      *rc = http_error (r, 501, "transfer-coding", NULL,
                        "no transfer coding but chunked is supported");
      return 1;
    }
  if (f.te && f.length)
    r->refusal = REFUSE_FRAMING;
  return 0;
}

static int
expects_continue (struct http_request *r)
{
  const char *expect = http_header (r, MHD_HTTP_HEADER_EXPECT);
  return expect && strcasecmp (expect, "100-continue") == 0 && !r->http10;
}

/* The first call, once the headers are read: the framing, the rate, the
 * announced size.  A refusal waits for the end of the body, which is
 * read and thrown away, so that a client which sends its body without
 * waiting for "100 Continue" reads the answer instead of a reset; it is
 * given at once when the client does wait, or when the announced body is
 * over DISCARD_LIMIT (the connection is then closed while the client may
 * still be sending). */
static enum MHD_Result
admit (struct http_request *r)
{
  enum MHD_Result rc;
  if (check_framing (r, &rc))
    return rc;
  int wait = ratelimit_take (r->srv->by_address, r->remote, gb_wall_seconds ());
  const char *length = http_header (r, MHD_HTTP_HEADER_CONTENT_LENGTH);
  unsigned long long announced = length ? strtoull (length, NULL, 10) : 0;
  if (wait)
    {
      r->refusal = REFUSE_TOO_MANY;
      r->wait = wait;
    }
  else if (announced > r->daemon->max_body)
    r->refusal = REFUSE_TOO_LARGE;
  if (r->refusal && (expects_continue (r) || announced > DISCARD_LIMIT))
    return answer_refusal (r);
  return MHD_YES;
}

/* Whether the handler may run: not once the drain limit has passed.
 * Either way the request, read whole, is answered, and counted until it
 * completes: after the drain limit, draining waits for the requests being
 * answered. */
static int
begin_answer (struct http_request *r)
{
  struct http_daemon *d = r->daemon;
  pthread_mutex_lock (&d->lock);
  d->answering++;
  r->answering = 1;
  int stopping = d->stopping;
  pthread_mutex_unlock (&d->lock);
  return !stopping;
}

enum MHD_Result
http_access (void *cls, struct MHD_Connection *conn, const char *url, const char *method,
             const char *version, const char *upload_data, size_t *upload_data_size,
             void **con_cls)
{
  struct http_request *r = *con_cls;

  if (!r)
    {
      *con_cls = r = begin_request (cls, conn, url, method, version);
      return r ? admit (r) : MHD_NO;
    }
  if (r->status)                /* answered at once */
    {
      *upload_data_size = 0;
      return MHD_YES;
    }
  if (*upload_data_size)
    {
      r->received += *upload_data_size;
      if (r->received > DISCARD_LIMIT)
        return MHD_NO;          /* a chunked body without end: close */
      if (!r->refusal)
        append_body (r, upload_data, *upload_data_size);
      *upload_data_size = 0;
      return MHD_YES;
    }
  int may_run = begin_answer (r);
  if (r->too_large && !r->refusal)
    r->refusal = REFUSE_TOO_LARGE;
  if (r->refusal)
    return answer_refusal (r);
  if (!may_run)
    {
      r->close = 1;
      return http_error (r, 503, "shutting-down", NULL,
                         "the server is shutting down; try again later");
    }
  if (!r->body)
    append_body (r, "", 0);
  return r->daemon->handler (r);
}

void
http_completed (void *cls, struct MHD_Connection *conn, void **con_cls,
                enum MHD_RequestTerminationCode toe)
{
  struct http_daemon *d = cls;
  struct http_request *r = *con_cls;
  (void) conn;

  if (!r)
    return;
  struct log_access a = {
    r->remote, r->method, r->path, r->rule, r->id[0] ? r->id : NULL,
    toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? r->status : 499,
    r->received, (gb_wall_seconds () - r->start) * 1000
  };
  log_request (&a);
  if (d->counted)
    metrics_request (r->route_method, r->route_pattern, a.status, a.ms / 1000);
  pthread_mutex_lock (&d->lock);
  d->answering -= r->answering;
  r->http_conn->busy = 0;
  if (d->draining && !r->http_conn->closed)
    {
      shutdown (r->http_conn->fd, SHUT_RDWR);    /* answered: now idle */
      r->http_conn->closed = 1;
    }
  pthread_mutex_unlock (&d->lock);
  free (r->method);
  free (r->path);
  free (r->body);
  free (r);
  *con_cls = NULL;
}

