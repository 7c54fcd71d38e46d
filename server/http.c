/* http.c: libmicrohttpd glue: request contexts, bodies, answers, the
 * access log and draining (see http.h). */
#include "server/http.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/util.h"
#include "server/log.h"

#define MEMORY_LIMIT (64 * 1024)        /* per connection: bounds the headers */

struct http_daemon
{
  struct MHD_Daemon *mhd;
  struct server *srv;
  http_handler_fn handler;
  size_t max_body;
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

static struct http_request *
begin_request (struct http_daemon *d, struct MHD_Connection *conn, const char *url,
               const char *method)
{
  struct http_request *r = gb_xcalloc (1, sizeof *r);
  r->daemon = d;
  r->srv = d->srv;
  r->conn = conn;
  r->method = gb_xstrdup (method);
  r->path = gb_xstrdup (url);
  r->start = gb_wall_seconds ();
  client_address (r);
  atomic_fetch_add (&d->srv->inflight, 1);
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

static enum MHD_Result
answer_too_large (struct http_request *r)
{
  return http_error (r, 413, "too-large", NULL, "the body is larger than %zu bytes",
                     r->daemon->max_body);
}

/* Checks done before the body is read: rate and announced size. */
static enum MHD_Result
admit (struct http_request *r)
{
  int wait = ratelimit_take (r->srv->by_address, r->remote, gb_wall_seconds ());
  if (wait)
    return http_too_many (r, wait, "from this address");
  const char *length = http_header (r, "Content-Length");
  if (length && strtoull (length, NULL, 10) > r->daemon->max_body)
    return answer_too_large (r);
  return MHD_YES;
}

static enum MHD_Result
access_handler (void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                const char *version, const char *upload_data, size_t *upload_data_size,
                void **con_cls)
{
  struct http_request *r = *con_cls;
  (void) version;

  if (!r)
    {
      *con_cls = r = begin_request (cls, conn, url, method);
      return admit (r);
    }
  if (r->status)                /* answered already (429, 413) */
    {
      *upload_data_size = 0;
      return MHD_YES;
    }
  if (*upload_data_size)
    {
      append_body (r, upload_data, *upload_data_size);
      *upload_data_size = 0;
      return MHD_YES;
    }
  if (r->too_large)
    return answer_too_large (r);
  if (!r->body)
    append_body (r, "", 0);
  return r->daemon->handler (r);
}

static void
completed (void *cls, struct MHD_Connection *conn, void **con_cls,
           enum MHD_RequestTerminationCode toe)
{
  struct server *srv = cls;
  struct http_request *r = *con_cls;
  (void) conn;

  if (!r)
    return;
  struct log_access a = {
    r->remote, r->method, r->path, r->rule, r->id[0] ? r->id : NULL,
    toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? r->status : 499,
    r->len, (gb_wall_seconds () - r->start) * 1000
  };
  log_request (&a);
  free (r->method);
  free (r->path);
  free (r->body);
  free (r);
  *con_cls = NULL;
  atomic_fetch_sub (&srv->inflight, 1);
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
parse_listen (const char *listen, struct sockaddr_storage *addr, char *err, size_t errlen)
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
  freeaddrinfo (res);
  return 0;
}

struct http_daemon *
http_start (struct server *srv, const char *listen, http_handler_fn handler, size_t max_body,
            char *err, size_t errlen)
{
  struct sockaddr_storage addr;
  unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;

  if (parse_listen (listen, &addr, err, errlen) < 0)
    return NULL;
  if (addr.ss_family == AF_INET6)
    flags |= MHD_USE_IPv6;
  struct http_daemon *d = gb_xcalloc (1, sizeof *d);
  d->srv = srv;
  d->handler = handler;
  d->max_body = max_body;
  d->mhd = MHD_start_daemon (flags, 0, NULL, NULL, access_handler, d,
                             MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
                             MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &addr,
                             MHD_OPTION_THREAD_POOL_SIZE, srv->threads,
                             MHD_OPTION_CONNECTION_LIMIT, srv->max_connections,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, srv->per_ip_connections,
                             MHD_OPTION_CONNECTION_TIMEOUT, srv->timeout,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) MEMORY_LIMIT,
                             MHD_OPTION_NOTIFY_COMPLETED, completed, srv,
                             MHD_OPTION_END);
  if (!d->mhd)
    {
      snprintf (err, errlen, "cannot listen on %s (address in use, or not permitted?)", listen);
      free (d);
      return NULL;
    }
  return d;
}

void
http_stop (struct http_daemon *d, double timeout)
{
  MHD_socket fd = MHD_quiesce_daemon (d->mhd);
  double until = gb_wall_seconds () + timeout;

  while (atomic_load (&d->srv->inflight) > 0 && gb_wall_seconds () < until)
    usleep (10000);
  if (atomic_load (&d->srv->inflight) > 0)
    log_error ("%d requests still running after %.0f s; stopping anyway",
               atomic_load (&d->srv->inflight), timeout);
  MHD_stop_daemon (d->mhd);
  if (fd != MHD_INVALID_SOCKET)
    close (fd);
  free (d);
}
