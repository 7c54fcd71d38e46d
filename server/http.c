/* http.c: libmicrohttpd glue: the listening socket, request contexts,
 * framing, bodies, answers, the access log, and draining with the list of
 * open connections (see http.h). */
#include "server/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/util.h"
#include "server/log.h"

#define MEMORY_LIMIT (64 * 1024)        /* per connection: bounds the headers */
/* A refused body is read and thrown away up to this size (see admit). */
#define DISCARD_LIMIT (16 * 1024 * 1024)

/* An open connection. */
struct http_conn
{
  struct http_conn *prev, *next;
  MHD_socket fd;
  int busy;                     /* a request is being read or answered */
  int closed;                   /* shut down by draining: no new request */
};

struct http_daemon
{
  struct MHD_Daemon *mhd;
  struct server *srv;
  http_handler_fn handler;
  size_t max_body;
  MHD_socket listen_fd;
  pthread_mutex_t lock;         /* guards what follows */
  struct http_conn *conns;
  int open;                     /* connections on the list */
  int draining;                 /* SIGTERM: every answer closes its connection */
  int stopping;                 /* the drain limit passed: no handler starts */
  int answering;                /* requests read whole and not completed */
};

const char *
http_arg (struct http_request *r, const char *name)
{
  return MHD_lookup_connection_value (r->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *
http_header (struct http_request *r, const char *name)
{
  return MHD_lookup_connection_value (r->conn, MHD_HEADER_KIND, name);
}

enum MHD_Result
http_queue (struct http_request *r, int status, struct MHD_Response *resp)
{
  if (!resp)
    return MHD_NO;
  MHD_add_response_header (resp, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header (resp, "Cache-Control", "no-store");
  pthread_mutex_lock (&r->daemon->lock);
  int draining = r->daemon->draining;
  pthread_mutex_unlock (&r->daemon->lock);
  if (r->close || draining)
    MHD_add_response_header (resp, MHD_HTTP_HEADER_CONNECTION, "close");
  r->status = status;
  enum MHD_Result rc = MHD_queue_response (r->conn, (unsigned) status, resp);
  MHD_destroy_response (resp);
  return rc;
}

static struct MHD_Response *
text_response (const char *type, char *data, size_t len)
{
  struct MHD_Response *resp =
    MHD_create_response_from_buffer (len, data, MHD_RESPMEM_MUST_FREE);
  if (!resp)
    free (data);
  else
    MHD_add_response_header (resp, "Content-Type", type);
  return resp;
}

static struct MHD_Response *
json_response (cJSON *body)
{
  char *text = cJSON_PrintUnformatted (body);
  cJSON_Delete (body);
  if (!text)
    return NULL;
  size_t len = strlen (text);
  text = gb_xrealloc (text, len + 2);
  text[len] = '\n';
  return text_response ("application/json", text, len + 1);
}

enum MHD_Result
http_json (struct http_request *r, int status, cJSON *body)
{
  return http_queue (r, status, json_response (body));
}

enum MHD_Result
http_bytes (struct http_request *r, int status, const char *type, const char *data, size_t len)
{
  char *copy = gb_xmalloc (len ? len : 1);
  memcpy (copy, data, len);
  return http_queue (r, status, text_response (type, copy, len));
}

enum MHD_Result
http_bytes_owned (struct http_request *r, int status, const char *type, char *data, size_t len)
{
  return http_queue (r, status, text_response (type, data, len));
}

cJSON *
http_error_body (const char *rule, const char *field, const char *message)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON_AddStringToObject (obj, "error", message);
  if (field && *field)
    cJSON_AddStringToObject (obj, "field", field);
  if (rule)
    cJSON_AddStringToObject (obj, "rule", rule);
  return obj;
}

enum MHD_Result
http_error (struct http_request *r, int status, const char *rule, const char *field,
            const char *fmt, ...)
{
  char message[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (message, sizeof message, fmt, ap);
  va_end (ap);
  r->rule = rule;
  return http_json (r, status, http_error_body (rule, field, message));
}

enum MHD_Result
http_too_many (struct http_request *r, int wait, const char *what)
{
  char message[128], seconds[16];
  snprintf (message, sizeof message, "too many requests %s; retry in %d s", what, wait);
  snprintf (seconds, sizeof seconds, "%d", wait);
  r->rule = "rate-limit";
  struct MHD_Response *resp = json_response (http_error_body ("rate-limit", NULL, message));
  if (resp)
    MHD_add_response_header (resp, "Retry-After", seconds);
  return http_queue (r, 429, resp);
}

/* ------------------------------------------------------------ streams */

struct stream
{
  http_fill_fn fill;
  void (*free_ctx) (void *ctx);
  void *ctx;
  char *buf;
  size_t len, cap, off;
  int more;
};

static ssize_t
stream_read (void *cls, uint64_t pos, char *out, size_t max)
{
  struct stream *s = cls;
  (void) pos;
  while (s->off == s->len)
    {
      if (!s->more)
        return MHD_CONTENT_READER_END_OF_STREAM;
      s->len = s->off = 0;
      s->more = s->fill (s->ctx, &s->buf, &s->len, &s->cap);
      if (s->more < 0)
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
  size_t n = s->len - s->off < max ? s->len - s->off : max;
  memcpy (out, s->buf + s->off, n);
  s->off += n;
  return (ssize_t) n;
}

static void
stream_free (void *cls)
{
  struct stream *s = cls;
  s->free_ctx (s->ctx);
  free (s->buf);
  free (s);
}

enum MHD_Result
http_stream (struct http_request *r, const char *type, http_fill_fn fill,
             void (*free_ctx) (void *ctx), void *ctx)
{
  struct stream *s = gb_xcalloc (1, sizeof *s);
  s->fill = fill;
  s->free_ctx = free_ctx;
  s->ctx = ctx;
  s->more = 1;
  struct MHD_Response *resp = MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, 64 * 1024,
                                                                 stream_read, s, stream_free);
  if (!resp)
    {
      stream_free (s);
      return MHD_NO;
    }
  MHD_add_response_header (resp, "Content-Type", type);
  return http_queue (r, 200, resp);
}

/* ------------------------------------------------------------ requests */

/* The client address: the peer, or with --trust-proxy the last address of
 * X-Forwarded-For (the one the proxy itself appended). */
static void
client_address (struct http_request *r)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  const char *xff = r->srv->trust_proxy ? http_header (r, "X-Forwarded-For") : NULL;

  snprintf (r->remote, sizeof r->remote, "unknown");
  if (xff)
    {
      const char *last = strrchr (xff, ',');
      last = last ? last + 1 : xff;
      while (*last == ' ')
        last++;
      snprintf (r->remote, sizeof r->remote, "%s", last);
    }
  else if (info && info->client_addr)
    {
      const struct sockaddr *sa = info->client_addr;
      if (sa->sa_family == AF_INET)
        inet_ntop (AF_INET, &((const struct sockaddr_in *) sa)->sin_addr, r->remote,
                   sizeof r->remote);
      else if (sa->sa_family == AF_INET6)
        inet_ntop (AF_INET6, &((const struct sockaddr_in6 *) sa)->sin6_addr, r->remote,
                   sizeof r->remote);
    }
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
 * From here on the request is counted until it completes, and draining
 * waits for it. */
static int
begin_answer (struct http_request *r)
{
  struct http_daemon *d = r->daemon;
  pthread_mutex_lock (&d->lock);
  int stopping = d->stopping;
  if (!stopping)
    {
      d->answering++;
      r->answering = 1;
    }
  pthread_mutex_unlock (&d->lock);
  return !stopping;
}

static enum MHD_Result
access_handler (void *cls, struct MHD_Connection *conn, const char *url, const char *method,
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
  if (r->too_large && !r->refusal)
    r->refusal = REFUSE_TOO_LARGE;
  if (r->refusal)
    return answer_refusal (r);
  if (!begin_answer (r))
    {
      r->close = 1;
      return http_error (r, 503, "shutting-down", NULL,
                         "the server is shutting down; try again later");
    }
  if (!r->body)
    append_body (r, "", 0);
  return r->daemon->handler (r);
}

static void
completed (void *cls, struct MHD_Connection *conn, void **con_cls,
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

/* ------------------------------------------------------------ connections */

/* Every open connection is on the daemon's list, so that draining can
 * shut down the idle ones (shutdown(2) from this thread is safe: the
 * descriptor stays open until libmicrohttpd reports the connection
 * closed, which takes the same lock). */
static void
notify_connection (void *cls, struct MHD_Connection *conn, void **socket_context,
                   enum MHD_ConnectionNotificationCode code)
{
  struct http_daemon *d = cls;
  struct http_conn *c = *socket_context;

  if (code == MHD_CONNECTION_NOTIFY_STARTED)
    {
      const union MHD_ConnectionInfo *info =
        MHD_get_connection_info (conn, MHD_CONNECTION_INFO_CONNECTION_FD);
      c = gb_xcalloc (1, sizeof *c);
      c->fd = info ? info->connect_fd : MHD_INVALID_SOCKET;
      pthread_mutex_lock (&d->lock);
      c->next = d->conns;
      if (d->conns)
        d->conns->prev = c;
      d->conns = c;
      d->open++;
      if (d->draining || c->fd == MHD_INVALID_SOCKET)
        {
          if (c->fd != MHD_INVALID_SOCKET)
            shutdown (c->fd, SHUT_RDWR);
          c->closed = 1;
        }
      pthread_mutex_unlock (&d->lock);
      *socket_context = c;
      return;
    }
  if (!c)
    return;
  pthread_mutex_lock (&d->lock);
  if (c->prev)
    c->prev->next = c->next;
  else
    d->conns = c->next;
  if (c->next)
    c->next->prev = c->prev;
  d->open--;
  pthread_mutex_unlock (&d->lock);
  free (c);
  *socket_context = NULL;
}

/* ------------------------------------------------------------ the daemon */

/* libmicrohttpd's own messages (refused connections, oversized headers)
 * become log lines like every other. */
static void
mhd_log (void *cls, const char *fmt, va_list ap)
{
  char buf[512];
  (void) cls;
  vsnprintf (buf, sizeof buf, fmt, ap);
  buf[strcspn (buf, "\n")] = '\0';
  log_info ("libmicrohttpd: %s", buf);
}

static int
parse_listen (const char *listen, struct sockaddr_storage *addr, socklen_t *addrlen,
              char *err, size_t errlen)
{
  char host[256];
  const char *colon = strrchr (listen, ':');
  struct addrinfo hints = { 0 }, *res = NULL;

  if (!colon || colon == listen || (size_t) (colon - listen) >= sizeof host)
    {
      snprintf (err, errlen, "--listen %s: expected HOST:PORT", listen);
      return -1;
    }
  memcpy (host, listen, (size_t) (colon - listen));
  host[colon - listen] = '\0';
  if (host[0] == '[' && host[strlen (host) - 1] == ']')
    {
      memmove (host, host + 1, strlen (host));
      host[strlen (host) - 1] = '\0';
    }
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo (host, colon + 1, &hints, &res);
  if (rc != 0)
    {
      snprintf (err, errlen, "--listen %s: %s", listen, gai_strerror (rc));
      return -1;
    }
  memcpy (addr, res->ai_addr, res->ai_addrlen);
  *addrlen = res->ai_addrlen;
  freeaddrinfo (res);
  return 0;
}

/* The listening socket, bound here rather than by libmicrohttpd, so that
 * a failure names the address and the reason. */
static MHD_socket
open_listener (const char *address, int *ipv6, char *err, size_t errlen)
{
  struct sockaddr_storage addr;
  socklen_t addrlen;
  int one = 1;

  if (parse_listen (address, &addr, &addrlen, err, errlen) < 0)
    return MHD_INVALID_SOCKET;
  *ipv6 = addr.ss_family == AF_INET6;
  int fd = socket (addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      snprintf (err, errlen, "cannot listen on %s: %s", address, strerror (errno));
      return MHD_INVALID_SOCKET;
    }
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (*ipv6)
    setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind (fd, (struct sockaddr *) &addr, addrlen) < 0 || listen (fd, SOMAXCONN) < 0)
    {
      snprintf (err, errlen, "cannot listen on %s: %s", address, strerror (errno));
      close (fd);
      return MHD_INVALID_SOCKET;
    }
  return fd;
}

struct http_daemon *
http_start (struct server *srv, const char *listen, http_handler_fn handler, size_t max_body,
            char *err, size_t errlen)
{
  unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
  int ipv6;
  MHD_socket fd = open_listener (listen, &ipv6, err, errlen);

  if (fd == MHD_INVALID_SOCKET)
    return NULL;
  if (ipv6)
    flags |= MHD_USE_IPv6;
  struct http_daemon *d = gb_xcalloc (1, sizeof *d);
  d->srv = srv;
  d->handler = handler;
  d->max_body = max_body;
  d->listen_fd = fd;
  pthread_mutex_init (&d->lock, NULL);
  d->mhd = MHD_start_daemon (flags, 0, NULL, NULL, access_handler, d,
                             MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
                             MHD_OPTION_LISTEN_SOCKET, fd,
                             MHD_OPTION_THREAD_POOL_SIZE, srv->threads,
                             MHD_OPTION_CONNECTION_LIMIT, srv->max_connections,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, srv->per_ip_connections,
                             MHD_OPTION_CONNECTION_TIMEOUT, srv->timeout,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) MEMORY_LIMIT,
                             MHD_OPTION_NOTIFY_COMPLETED, completed, d,
                             MHD_OPTION_NOTIFY_CONNECTION, notify_connection, d,
                             MHD_OPTION_END);
  if (!d->mhd)
    {
      /* libmicrohttpd closes the socket on some of its failures, so it is
       * left alone here: the process ends anyway. */
      snprintf (err, errlen, "cannot serve on %s: libmicrohttpd did not start "
                "(its message is in the log)", listen);
      pthread_mutex_destroy (&d->lock);
      free (d);
      return NULL;
    }
  return d;
}

static int
count (struct http_daemon *d, const int *what)
{
  pthread_mutex_lock (&d->lock);
  int n = *what;
  pthread_mutex_unlock (&d->lock);
  return n;
}

/* Waits while *WHAT is not 0, until UNTIL (monotonic seconds); its last
 * value. */
static int
wait_for_none (struct http_daemon *d, const int *what, double until)
{
  int n;
  while ((n = count (d, what)) > 0 && gb_wall_seconds () < until)
    usleep (10000);
  return n;
}

int
http_stop (struct http_daemon *d, double drain)
{
  MHD_quiesce_daemon (d->mhd);
  /* Refuses the connections waiting to be accepted, and new ones; the
   * descriptor itself stays open until libmicrohttpd has stopped. */
  shutdown (d->listen_fd, SHUT_RDWR);
  int idle = 0;
  pthread_mutex_lock (&d->lock);
  d->draining = 1;
  for (struct http_conn *c = d->conns; c; c = c->next)
    if (!c->busy && !c->closed)
      {
        shutdown (c->fd, SHUT_RDWR);
        c->closed = 1;
        idle++;
      }
  int open = d->open;
  pthread_mutex_unlock (&d->lock);
  log_info ("draining: %d connections open, %d of them idle and closed", open, idle);

  int left = wait_for_none (d, &d->open, gb_wall_seconds () + drain);
  if (left)
    {
      pthread_mutex_lock (&d->lock);
      d->stopping = 1;
      pthread_mutex_unlock (&d->lock);
      int answering = wait_for_none (d, &d->answering, gb_wall_seconds () + d->srv->timeout);
      log_error ("%d connections still open after %g s; %d of them still sending an answer "
                 "after %u s more; stopping anyway", left, drain, answering, d->srv->timeout);
    }
  MHD_stop_daemon (d->mhd);
  close (d->listen_fd);
  pthread_mutex_destroy (&d->lock);
  free (d);
  return left ? -1 : 0;
}
