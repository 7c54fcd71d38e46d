/* upload.h: one signed POST to the results server, with retries (libcurl),
 * and the plain GET that reads its API.
 *
 * TLS peer and host verification are always on; a private CA is given with
 * a CA file (--cacert).  Proxies come from the standard environment
 * variables (http_proxy, https_proxy, no_proxy...), which libcurl reads by
 * itself.  Each attempt has a connect timeout and a total timeout, and an
 * attempt that moves no byte for a while is abandoned as stalled.
 *
 * Retried, with exponential backoff and jitter: network failures, 408,
 * 429 and 5xx.  A Retry-After header sets the delay instead, unless it
 * asks for more than UPLOAD_MAX_RETRY_AFTER seconds, in which case the
 * upload gives up at once.  Never retried: any other answer, and TLS
 * certificate failures (waiting does not fix a certificate).  Redirects
 * are not followed: a signed result goes only where the user said, and a
 * 3xx answer is reported with where it points, so that the user can fix
 * the server URL. */
#ifndef GB_SUBMIT_UPLOAD_H
#define GB_SUBMIT_UPLOAD_H

#include <stddef.h>
#include <stdio.h>

#define UPLOAD_DEFAULT_RETRIES 4
#define UPLOAD_DEFAULT_TIMEOUT 60.0         /* seconds, per attempt */
#define UPLOAD_CONNECT_TIMEOUT 10.0         /* seconds, at most the timeout */
#define UPLOAD_BACKOFF_BASE 0.5             /* seconds, doubled per retry */
#define UPLOAD_BACKOFF_MAX 30.0
#define UPLOAD_MAX_RETRY_AFTER 60

struct upload_options
{
  const char *cmd;              /* command name for messages */
  const char *cacert;           /* CA file or NULL for the system's */
  double timeout;               /* seconds per attempt */
  int retries;                  /* attempts after the first */
  int quiet;                    /* no retry notices, no progress */
};

enum upload_outcome
{
  UPLOAD_OK,                    /* 200 or 201 */
  UPLOAD_REJECTED,              /* a 4xx that retrying will not change */
  UPLOAD_REDIRECTED,            /* a 3xx: the document is fine, the URL is not */
  UPLOAD_FAILED                 /* no answer, or still 408/429/5xx/other */
};

struct upload_reply
{
  long status;                  /* HTTP status of the last answer, 0: none */
  char *body;                   /* its body, NUL-terminated, or NULL */
  size_t len;
  char *redirect;               /* a 3xx's Location, made absolute, or NULL */
  char problem[512];            /* one line: why it failed */
};

/* POSTs BODY[0..LEN) to URL with the Gmpbench-Signature header SIG_B64
 * (and Content-Type: application/json when LEN > 0). */
enum upload_outcome upload_post (const char *url, const char *body, size_t len,
                                 const char *sig_b64, const struct upload_options *opt,
                                 struct upload_reply *reply);

/* GETs URL (an API read, such as /api/v1/cpus), with the same TLS
 * checks, timeouts and retries; UPLOAD_OK for a 200 or 201. */
enum upload_outcome upload_get (const char *url, const struct upload_options *opt,
                                struct upload_reply *reply);

void upload_reply_free (struct upload_reply *reply);

/* Prints to OUT the request upload_post would send: "POST URL", the
 * headers (those libcurl adds included), an empty line and the body. */
void upload_print_request (FILE *out, const char *url, const char *body, size_t len,
                           const char *sig_b64);

/* The delay in seconds before retry number N (1, 2, ...): D/2 + D/2 *
 * RANDOM / 2^32, where D is UPLOAD_BACKOFF_BASE doubled N-1 times and at
 * most UPLOAD_BACKOFF_MAX; RANDOM is uniform over 32 bits. */
double upload_backoff (int n, unsigned int random);

#endif
