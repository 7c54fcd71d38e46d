/* http.c: the answers handlers give: JSON, bytes, errors, streams, and
 * the headers every answer gets: caching, validators and CORS (see
 * http.h). */
#include "server/http/http.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "server/http/http_internal.h"

/* The Cache-Control of each policy's 200 and 304 answers (the reasons are
 * in docs/server.md, "Caching"): pages and listings may be served by a
 * cache for a second, and a second more while it asks again, so that a
 * new result shows within two; what never changes, for a year. */
static const char *const cache_controls[] = {
  [HTTP_CACHE_NONE] = "no-store",
  [HTTP_CACHE_SHORT] = "public, max-age=1, stale-while-revalidate=1",
  [HTTP_CACHE_IMMUTABLE] = "public, max-age=31536000, immutable",
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
  if (!MHD_get_response_header (resp, "Cache-Control"))
    MHD_add_response_header (resp, "Cache-Control",
                             status == 200 || status == 304 ? cache_controls[r->cache]
                             : cache_controls[HTTP_CACHE_NONE]);
  if (r->cors)
    {
      MHD_add_response_header (resp, "Access-Control-Allow-Origin", "*");
      MHD_add_response_header (resp, "Access-Control-Expose-Headers", "ETag, Retry-After");
    }
  if (r->close || http_draining (r->daemon))
    MHD_add_response_header (resp, MHD_HTTP_HEADER_CONNECTION, "close");
  r->status = status;
  enum MHD_Result rc = MHD_queue_response (r->conn, (unsigned) status, resp);
  MHD_destroy_response (resp);
  return rc;
}

/* Whether the If-None-Match list VALUE names ETAG (weak comparison, RFC
 * 9110 section 13.1.2: a W/ prefix is ignored), or is "*". */
static int
etag_listed (const char *value, const char *etag)
{
  size_t etag_len = strlen (etag);
  while (*value)
    {
      value += strspn (value, " \t,");
      if (*value == '*')
        return 1;
      if (strncmp (value, "W/", 2) == 0)
        value += 2;
      size_t len = *value == '"' ? strcspn (value + 1, "\"") + 2 : strcspn (value, " \t,");
      if (len == etag_len && strncmp (value, etag, len) == 0)
        return 1;
      value += strnlen (value, len);
    }
  return 0;
}

enum MHD_Result
http_queue_body (struct http_request *r, int status, struct MHD_Response *resp, const char *data,
                 size_t len)
{
  char hex[65];
  if (!resp || status != 200 || r->cache == HTTP_CACHE_NONE)
    return http_queue (r, status, resp);
  gb_sha256_hex (data, len, hex);
  return http_queue_tagged (r, status, resp, hex);
}

enum MHD_Result
http_queue_tagged (struct http_request *r, int status, struct MHD_Response *resp,
                   const char *digest)
{
  char etag[36];
  if (!resp || status != 200 || r->cache == HTTP_CACHE_NONE)
    return http_queue (r, status, resp);
  snprintf (etag, sizeof etag, "\"%.32s\"", digest);
  MHD_add_response_header (resp, "ETag", etag);
  /* A 304 is the same response: libmicrohttpd sends no body with it,
   * and a Content-Length of the body's (RFC 9110 section 8.6). */
  const char *asked = http_header (r, "If-None-Match");
  return http_queue (r, asked && etag_listed (asked, etag) ? 304 : status, resp);
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

/* BODY as text, a newline after it, into *TEXT and *LEN; NULL when out
 * of memory.  Takes ownership of BODY. */
static struct MHD_Response *
json_response (cJSON *body, char **text, size_t *len)
{
  *text = cJSON_PrintUnformatted (body);
  cJSON_Delete (body);
  if (!*text)
    return NULL;
  *len = strlen (*text);
  *text = gb_xrealloc (*text, *len + 2);
  (*text)[(*len)++] = '\n';
  return text_response ("application/json", *text, *len);
}

enum MHD_Result
http_json (struct http_request *r, int status, cJSON *body)
{
  return http_json_header (r, status, body, NULL, NULL);
}

enum MHD_Result
http_json_header (struct http_request *r, int status, cJSON *body, const char *name,
                  const char *value)
{
  char *text = NULL;
  size_t len = 0;
  struct MHD_Response *resp = json_response (body, &text, &len);
  if (resp && name)
    MHD_add_response_header (resp, name, value);
  return http_queue_body (r, status, resp, text, len);
}

enum MHD_Result
http_bytes (struct http_request *r, int status, const char *type, const char *data, size_t len)
{
  char *copy = gb_xmalloc (len ? len : 1);
  memcpy (copy, data, len);
  return http_queue_body (r, status, text_response (type, copy, len), copy, len);
}

enum MHD_Result
http_bytes_owned (struct http_request *r, int status, const char *type, char *data, size_t len)
{
  return http_queue_body (r, status, text_response (type, data, len), data, len);
}

enum MHD_Result
http_bytes_tagged (struct http_request *r, int status, const char *type, char *data, size_t len,
                   const char *digest)
{
  return http_queue_tagged (r, status, text_response (type, data, len), digest);
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
  return http_json_header (r, 429, http_error_body ("rate-limit", NULL, message), "Retry-After",
                           seconds);
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

