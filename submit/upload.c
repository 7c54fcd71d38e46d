/* upload.c: the libcurl side of uploads, and of the reads of the API
 * (upload_get), see upload.h.  One easy handle
 * per attempt keeps attempts independent; the answer's body is collected
 * in memory (the API's answers are small) and, for errors, condensed into
 * one readable line from the protocol's {"error", "rule", "field",
 * "tests"} shape. */
#include "submit/upload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <openssl/rand.h>
#include "build_config.h"
#include "common/util.h"
#include "model/protocol.h"

#define MAX_REPLY_BYTES (1L << 20)
#define STALL_SECONDS 30
#define USER_AGENT "gmpbench/" GB_VERSION

struct transfer
{
  struct upload_reply *reply;
  const struct upload_options *opt;
  int get;                      /* a GET (upload_get), not a POST */
  int progress_shown;
};

static void
notice (const struct upload_options *opt, const char *fmt, ...)
{
  va_list ap;
  if (opt->quiet)
    return;
  fprintf (stderr, "gmpbench %s: ", opt->cmd);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static size_t
collect (char *data, size_t size, size_t nmemb, void *arg)
{
  struct upload_reply *r = arg;
  size_t n = size * nmemb;
  if (r->len + n > MAX_REPLY_BYTES)
    return 0;                   /* libcurl ends the transfer: CURLE_WRITE_ERROR */
  r->body = gb_xrealloc (r->body, r->len + n + 1);
  memcpy (r->body + r->len, data, n);
  r->len += n;
  r->body[r->len] = '\0';
  return n;
}

static int
show_progress (void *arg, curl_off_t dltotal, curl_off_t dlnow,
               curl_off_t ultotal, curl_off_t ulnow)
{
  struct transfer *a = arg;
  (void) dltotal, (void) dlnow;
  if (ultotal > 0)
    {
      fprintf (stderr, "\rgmpbench %s: uploading %3d%% (%ld of %ld bytes)", a->opt->cmd,
               (int) (100 * ulnow / ultotal), (long) ulnow, (long) ultotal);
      a->progress_shown = 1;
    }
  return 0;
}

/* Copies TEXT into OUT as one printable line of at most OUTLEN-1 chars. */
static void
one_line (const char *text, char *out, size_t outlen)
{
  size_t o = 0;
  for (; text && *text && o + 1 < outlen; text++)
    out[o++] = (unsigned char) *text < 32 || *text == 127 ? ' ' : *text;
  out[o] = '\0';
}

/* The protocol's error body as "ERROR [rule RULE, field FIELD, tests A B]". */
static void
describe_error (const struct upload_reply *r, char *out, size_t outlen)
{
  cJSON *j = r->body ? cJSON_ParseWithLength (r->body, r->len) : NULL;
  const char *error = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "error"));
  const char *rule = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "rule"));
  const char *field = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "field"));
  const cJSON *tests = cJSON_GetObjectItemCaseSensitive (j, "tests"), *t;
  char line[1024];
  size_t n;

  if (!error)
    {
      n = (size_t) snprintf (line, sizeof line, "the server answered %ld", r->status);
      if (r->body && r->len)
        snprintf (line + n, sizeof line - n, ": %.200s", r->body);
      one_line (line, out, outlen);
      cJSON_Delete (j);
      return;
    }
  n = (size_t) snprintf (line, sizeof line, "%s (%ld%s%s%s%s", error, r->status,
                         rule ? ", rule " : "", rule ? rule : "",
                         field ? ", field " : "", field ? field : "");
  if (cJSON_IsArray (tests) && cJSON_GetArraySize (tests) > 0 && n < sizeof line)
    {
      n += (size_t) snprintf (line + n, sizeof line - n, ", tests");
      cJSON_ArrayForEach (t, tests)
        if (cJSON_IsString (t) && n < sizeof line)
          n += (size_t) snprintf (line + n, sizeof line - n, " %s", t->valuestring);
    }
  if (n < sizeof line)
    snprintf (line + n, sizeof line - n, ")");
  one_line (line, out, outlen);
  cJSON_Delete (j);
}

/* A 3xx answer: where it points (REPLY->redirect) and one line saying so. */
static void
describe_redirect (CURL *h, struct upload_reply *r)
{
  char *location = NULL, line[1024];
  if (curl_easy_getinfo (h, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location)
    {
      r->redirect = gb_xstrdup (location);
      snprintf (line, sizeof line, "the server redirects to %s (%ld)", location, r->status);
    }
  else
    snprintf (line, sizeof line, "the server answered %ld, a redirection, without "
              "saying where to", r->status);
  one_line (line, r->problem, sizeof r->problem);
}

static CURL *
make_handle (const char *url, const char *body, size_t len, struct curl_slist *headers,
             struct transfer *a, char *errbuf)
{
  const struct upload_options *opt = a->opt;
  long total_ms = (long) (opt->timeout * 1000);
  long connect_ms = opt->timeout < UPLOAD_CONNECT_TIMEOUT ? total_ms
    : (long) (UPLOAD_CONNECT_TIMEOUT * 1000);
  CURL *h = curl_easy_init ();
  if (!h)
    return NULL;
  curl_easy_setopt (h, CURLOPT_URL, url);
  if (!a->get)
    {
      curl_easy_setopt (h, CURLOPT_POST, 1L);
      curl_easy_setopt (h, CURLOPT_POSTFIELDS, body ? body : "");
      curl_easy_setopt (h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) len);
    }
  curl_easy_setopt (h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt (h, CURLOPT_USERAGENT, USER_AGENT);
  curl_easy_setopt (h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (h, CURLOPT_SSL_VERIFYHOST, 2L);
  if (opt->cacert)
    curl_easy_setopt (h, CURLOPT_CAINFO, opt->cacert);
  curl_easy_setopt (h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  curl_easy_setopt (h, CURLOPT_TIMEOUT_MS, total_ms);
  curl_easy_setopt (h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt (h, CURLOPT_LOW_SPEED_TIME, (long) STALL_SECONDS);
  curl_easy_setopt (h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (h, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt (h, CURLOPT_WRITEDATA, a->reply);
  curl_easy_setopt (h, CURLOPT_ERRORBUFFER, errbuf);
  if (!opt->quiet && !a->get && isatty (STDERR_FILENO))
    {
      curl_easy_setopt (h, CURLOPT_XFERINFOFUNCTION, show_progress);
      curl_easy_setopt (h, CURLOPT_XFERINFODATA, a);
      curl_easy_setopt (h, CURLOPT_NOPROGRESS, 0L);
    }
  return h;
}

static int
permanent_curl_error (CURLcode c)
{
  return c == CURLE_PEER_FAILED_VERIFICATION || c == CURLE_SSL_CACERT_BADFILE
    || c == CURLE_SSL_CERTPROBLEM || c == CURLE_URL_MALFORMAT
    || c == CURLE_UNSUPPORTED_PROTOCOL;
}

/* One attempt.  Returns its outcome; *RETRYABLE and *RETRY_AFTER (seconds,
 * -1 when absent) say whether and when another attempt makes sense. */
static enum upload_outcome
attempt (const char *url, const char *body, size_t len, struct curl_slist *headers, int get,
         const struct upload_options *opt, struct upload_reply *reply,
         int *retryable, long *retry_after)
{
  char errbuf[CURL_ERROR_SIZE] = "";
  struct transfer a = { reply, opt, get, 0 };
  CURL *h;
  CURLcode rc;
  curl_off_t ra = -1;

  free (reply->body);
  free (reply->redirect);
  reply->body = reply->redirect = NULL;
  reply->len = 0;
  reply->status = 0;
  *retryable = 0;
  *retry_after = -1;
  h = make_handle (url, body, len, headers, &a, errbuf);
  if (!h)
    {
      snprintf (reply->problem, sizeof reply->problem, "libcurl could not start a transfer");
      return UPLOAD_FAILED;
    }
  rc = curl_easy_perform (h);
  if (a.progress_shown)
    fputs ("\r\033[K", stderr);
  if (rc != CURLE_OK)
    {
      snprintf (reply->problem, sizeof reply->problem, "%s",
                errbuf[0] ? errbuf : curl_easy_strerror (rc));
      *retryable = !permanent_curl_error (rc);
      curl_easy_cleanup (h);
      return UPLOAD_FAILED;
    }
  curl_easy_getinfo (h, CURLINFO_RESPONSE_CODE, &reply->status);
  /* libcurl reports 0 both for "Retry-After: 0" and for no header. */
  if (curl_easy_getinfo (h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
    *retry_after = (long) ra;
  if (reply->status >= 300 && reply->status < 400)
    {
      describe_redirect (h, reply);
      curl_easy_cleanup (h);
      return UPLOAD_REDIRECTED;
    }
  curl_easy_cleanup (h);
  if (reply->status == 200 || reply->status == 201)
    return UPLOAD_OK;
  describe_error (reply, reply->problem, sizeof reply->problem);
  if (reply->status >= 400 && reply->status < 500
      && reply->status != 408 && reply->status != 429)
    return UPLOAD_REJECTED;
  *retryable = reply->status == 408 || reply->status == 429 || reply->status >= 500;
  return UPLOAD_FAILED;
}

/* Exponential with "equal jitter", half fixed and half random, so that
 * many clients cut off by the same outage do not come back in lockstep. */
double
upload_backoff (int n, unsigned int random)
{
  double d = UPLOAD_BACKOFF_BASE;
  for (int i = 1; i < n && d < UPLOAD_BACKOFF_MAX; i++)
    d *= 2;
  if (d > UPLOAD_BACKOFF_MAX)
    d = UPLOAD_BACKOFF_MAX;
  return d / 2 + d / 2 * (random / 4294967296.0);
}

static unsigned int
random32 (void)
{
  unsigned int r = 0;
  if (RAND_bytes ((unsigned char *) &r, sizeof r) != 1)
    r = (unsigned int) rand ();
  return r;
}

static void
pause_for (double seconds)
{
  struct timespec ts = { (time_t) seconds, (long) ((seconds - (time_t) seconds) * 1e9) };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* The request's headers, or NULL when memory ran out.  "Name:" removes a
 * header libcurl would add: Expect, and the form Content-Type of a POST
 * without a body. */
static struct curl_slist *
request_headers (const char *sig_b64, int json)
{
  size_t n = strlen (sig_b64) + 32;
  char *sig = gb_xmalloc (n);
  const char *lines[] = { sig, "Expect:",
    json ? "Content-Type: application/json" : "Content-Type:" };
  struct curl_slist *list = NULL;

  snprintf (sig, n, PROTOCOL_SIGNATURE_HEADER ": %s", sig_b64);
  for (size_t i = 0; i < GB_ARRAY_SIZE (lines) && lines[i]; i++)
    {
      struct curl_slist *more = curl_slist_append (list, lines[i]);
      if (!more)
        {
          curl_slist_free_all (list);
          list = NULL;
          break;
        }
      list = more;
    }
  free (sig);
  return list;
}

/* The attempts of one request (a GET when GET), retried as upload.h says. */
static enum upload_outcome
request (const char *url, const char *body, size_t len, struct curl_slist *headers, int get,
         const struct upload_options *opt, struct upload_reply *reply)
{
  enum upload_outcome out = UPLOAD_FAILED;
  for (int n = 0;; n++)
    {
      int retryable;
      long retry_after;
      double delay;
      out = attempt (url, body, len, headers, get, opt, reply, &retryable, &retry_after);
      if (out != UPLOAD_FAILED || !retryable || n >= opt->retries)
        break;
      if (retry_after > UPLOAD_MAX_RETRY_AFTER)
        {
          notice (opt, "%s; the server asks to wait %ld s, not retrying now",
                  reply->problem, retry_after);
          break;
        }
      delay = retry_after >= 0 ? (double) retry_after : upload_backoff (n + 1, random32 ());
      notice (opt, "%s; retrying in %.1f s (%d of %d)", reply->problem, delay,
              n + 1, opt->retries);
      pause_for (delay);
    }
  return out;
}

/* Initialises libcurl once; 0, or -1 with REPLY->problem set. */
static int
start_curl (struct upload_reply *reply)
{
  static int initialised;
  memset (reply, 0, sizeof *reply);
  if (!initialised && curl_global_init (CURL_GLOBAL_DEFAULT) != CURLE_OK)
    {
      snprintf (reply->problem, sizeof reply->problem, "libcurl could not be initialised");
      return -1;
    }
  initialised = 1;
  return 0;
}

enum upload_outcome
upload_post (const char *url, const char *body, size_t len, const char *sig_b64,
             const struct upload_options *opt, struct upload_reply *reply)
{
  struct curl_slist *headers;
  enum upload_outcome out;

  if (start_curl (reply) != 0)
    return UPLOAD_FAILED;
  headers = request_headers (sig_b64, len > 0);
  if (!headers)
    {
      snprintf (reply->problem, sizeof reply->problem, "out of memory for the request headers");
      return UPLOAD_FAILED;
    }
  out = request (url, body, len, headers, 0, opt, reply);
  curl_slist_free_all (headers);
  return out;
}

enum upload_outcome
upload_get (const char *url, const struct upload_options *opt, struct upload_reply *reply)
{
  if (start_curl (reply) != 0)
    return UPLOAD_FAILED;
  return request (url, NULL, 0, NULL, 1, opt, reply);
}

void
upload_reply_free (struct upload_reply *reply)
{
  free (reply->body);
  free (reply->redirect);
  memset (reply, 0, sizeof *reply);
}

/* The Host header libcurl sends for URL: the host, and the port unless it
 * is the scheme's default.  malloc'ed, or NULL for a URL libcurl refuses. */
static char *
host_header (const char *url)
{
  CURLU *u = curl_url ();
  char *host = NULL, *port = NULL, *out = NULL;

  if (u && curl_url_set (u, CURLUPART_URL, url, 0) == CURLUE_OK
      && curl_url_get (u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
    {
      int has_port = curl_url_get (u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT)
        == CURLUE_OK;
      size_t n = strlen (host) + (has_port ? strlen (port) : 0) + 2;
      out = gb_xmalloc (n);
      snprintf (out, n, "%s%s%s", host, has_port ? ":" : "", has_port ? port : "");
    }
  curl_free (host);
  curl_free (port);
  curl_url_cleanup (u);
  return out;
}

void
upload_print_request (FILE *out, const char *url, const char *body, size_t len,
                      const char *sig_b64)
{
  char *host = host_header (url);
  struct curl_slist *headers = request_headers (sig_b64, len > 0);

  fprintf (out, "POST %s\n", url);
  if (host)
    fprintf (out, "Host: %s\n", host);
  fprintf (out, "User-Agent: %s\nAccept: */*\n", USER_AGENT);
  for (const struct curl_slist *l = headers; l; l = l->next)
    if (strchr (l->data, ':')[1] != '\0')   /* "Name:" alone removes a header */
      fprintf (out, "%s\n", l->data);
  fprintf (out, "Content-Length: %zu\n\n", len);
  fwrite (body, 1, len, out);
  fflush (out);
  curl_slist_free_all (headers);
  free (host);
}
