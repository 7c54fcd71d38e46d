/* helper-httpd.c: a scripted HTTP responder for the upload fault tests.
 *
 *   helper-httpd PORTFILE LOGFILE ANSWER...
 *
 * Listens on 127.0.0.1 on a free port, which it writes to PORTFILE once it
 * accepts connections.  The Nth request gets the Nth ANSWER (the last one
 * repeats):
 *   201, 503, 422...  that status, with a body in the protocol's shape
 *   429:SECS          429 with Retry-After: SECS
 *   301:URL, 302:URL  that redirection, with Location: URL
 *   stall             read the request and never answer (the connection
 *                     stays open until the helper is killed)
 *   close             read the request and close without answering
 *   201=FILE, 200=FILE...  that status, with the contents of FILE (JSON,
 *                     at most 4000 bytes) as the body: a 201 with members
 *                     a newer server adds, a GET's answer
 * One line per request is appended to LOGFILE: "N METHOD TARGET LENGTH
 * SIGNATURE" (SIGNATURE "-" when the header is missing), so a test can
 * count attempts and compare what was sent.  One connection at a time;
 * every answer closes its connection.  Ends when killed. */
#define _GNU_SOURCE             /* strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/util.h"
#include "tests/helper-listen.h"

#define MAX_REQUEST (2 << 20)

/* Reads one request (headers and Content-Length bytes of body) into BUF.
 * Returns its total length, or -1. */
static long
read_request (int fd, char *buf, long cap, long *body_at, long *body_len)
{
  long got = 0;
  char *end = NULL;
  while (!end || got < *body_at + *body_len)
    {
      ssize_t r = read (fd, buf + got, (size_t) (cap - got - 1));
      if (r <= 0)
        return -1;
      got += r;
      buf[got] = '\0';
      if (!end && (end = strstr (buf, "\r\n\r\n")))
        {
          char *cl = strcasestr (buf, "\r\nContent-Length:");
          *body_at = end + 4 - buf;
          *body_len = cl && cl < end ? strtol (cl + 17, NULL, 10) : 0;
          if (*body_len < 0 || *body_at + *body_len >= cap)
            return -1;
        }
    }
  return got;
}

/* The value of header NAME in the request, copied into OUT. */
static void
header (const char *req, const char *name, char *out, size_t outlen)
{
  char pat[64];
  const char *h, *e;
  snprintf (pat, sizeof pat, "\r\n%s:", name);
  h = strcasestr (req, pat);
  snprintf (out, outlen, "-");
  if (!h)
    return;
  h += strlen (pat);
  while (*h == ' ')
    h++;
  e = strstr (h, "\r\n");
  snprintf (out, outlen, "%.*s", (int) (e ? e - h : 0), h);
}

/* The body of a STATUS=FILE answer into JSON: 0, or -1 when FILE cannot
 * be read whole. */
static int
file_body (const char *file, char *json, size_t size)
{
  FILE *f = fopen (file, "r");
  size_t n = f ? fread (json, 1, size - 1, f) : 0;
  int whole = f && feof (f) && !ferror (f);
  if (f)
    fclose (f);
  json[n] = '\0';
  if (!whole)
    fprintf (stderr, "helper-httpd: cannot read %s whole\n", file);
  return whole ? 0 : -1;
}

static void
answer (int fd, const char *spec, const char *body, long len)
{
  char id[65], resp[8192], json[4096];
  int status = atoi (spec);
  const char *colon = strchr (spec, ':');
  const char *file = spec[strspn (spec, "0123456789")] == '=' ? strchr (spec, '=') + 1 : NULL;
  const char *reason = status == 201 ? "Created" : status == 200 ? "OK"
    : status == 429 ? "Too Many Requests" : status >= 500 ? "Service Unavailable"
    : status >= 300 && status < 400 ? "Redirect" : "Error";
  const char *extra = status >= 300 && status < 400 ? "Location" : "Retry-After";
  int n;

  gb_sha256_hex (body, (size_t) len, id);
  id[16] = '\0';
  if (file)
    {
      if (file_body (file, json, sizeof json) != 0)
        return;
      colon = NULL;
    }
  else if (status == 200 || status == 201)
    snprintf (json, sizeof json, "{\"id\": \"%s\", \"url\": \"/results/%s\", "
              "\"api\": \"/api/v1/results/%s\", \"flags\": []}", id, id, id);
  else
    snprintf (json, sizeof json, "{\"error\": \"scripted failure %d\", "
              "\"field\": \"results[0].digest\", \"rule\": \"scripted\"}", status);
  n = snprintf (resp, sizeof resp, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                "Content-Length: %zu\r\nConnection: close\r\n", status, reason, strlen (json));
  if (colon)
    n += snprintf (resp + n, sizeof resp - (size_t) n, "%s: %s\r\n", extra, colon + 1);
  snprintf (resp + n, sizeof resp - (size_t) n, "\r\n%s", json);
  if (write (fd, resp, strlen (resp)) < 0)
    perror ("helper-httpd: write");
}

int
main (int argc, char **argv)
{
  char *buf = gb_xmalloc (MAX_REQUEST);
  int s;

  if (argc < 4)
    {
      fprintf (stderr, "usage: helper-httpd PORTFILE LOGFILE ANSWER...\n");
      return 2;
    }
  if ((s = helper_listen (argv[1], "helper-httpd")) < 0)
    return 1;
  for (int n = 0;; n++)
    {
      const char *spec = argv[3 + (n < argc - 3 ? n : argc - 4)];
      char method[16] = "", target[256] = "", sig[256];
      long body_at = 0, body_len = 0;
      int fd = accept (s, NULL, NULL);
      FILE *log;
      if (fd < 0)
        continue;
      if (read_request (fd, buf, MAX_REQUEST, &body_at, &body_len) < 0)
        {
          close (fd);
          continue;
        }
      sscanf (buf, "%15s %255s", method, target);
      header (buf, "Gmpbench-Signature", sig, sizeof sig);
      if ((log = fopen (argv[2], "a")))
        {
          fprintf (log, "%d %s %s %ld %s\n", n + 1, method, target, body_len, sig);
          fclose (log);
        }
      if (strcmp (spec, "stall") == 0)
        continue;               /* the descriptor stays open: a stalled peer */
      if (strcmp (spec, "close") != 0)
        answer (fd, spec, buf + body_at, body_len);
      close (fd);
    }
}
