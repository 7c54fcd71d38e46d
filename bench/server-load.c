/* server-load.c: load generator for gmpbench-server (bench/server-load.sh
 * builds and drives it).
 *
 *   server-load upload HOST:PORT FIXTURE N C
 *       signs N distinct documents (FIXTURE with a submitter added, the
 *       submitter name numbered), then posts them over C keep-alive
 *       connections and reports accepted/s and latency percentiles;
 *   server-load list HOST:PORT C N PATH...
 *       sends N GET requests cycling through the PATHs over C
 *       connections and reports latency percentiles.
 *
 * The HTTP client is the smallest that works with gmpbench-server:
 * HTTP/1.1 keep-alive, responses with Content-Length. */
#define _GNU_SOURCE               /* memmem */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "common/util.h"
#include "server/b64.h"
#include "suites/stats.h"

struct request
{
  char *head;                   /* request line and headers */
  const char *body;
  size_t body_len;
  double latency;
  int status;
};

struct worker
{
  const char *host;
  int port;
  struct request *reqs;
  size_t first, step, n;
};

/* ------------------------------------------------------------ HTTP */

static int
connect_to (const char *host, int port)
{
  struct sockaddr_in sa = { 0 };
  int fd = socket (AF_INET, SOCK_STREAM, 0), one = 1;
  sa.sin_family = AF_INET;
  sa.sin_port = htons ((unsigned short) port);
  if (fd < 0 || inet_pton (AF_INET, host, &sa.sin_addr) != 1
      || connect (fd, (struct sockaddr *) &sa, sizeof sa) < 0)
    {
      perror ("server-load: connect");
      exit (1);
    }
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static void
send_all (int fd, const char *p, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w <= 0)
        {
          perror ("server-load: write");
          exit (1);
        }
      p += w;
      n -= (size_t) w;
    }
}

/* Reads one response; returns the status. */
static int
read_response (int fd)
{
  static __thread char buf[1 << 16];
  size_t have = 0;
  char *end = NULL;

  while (!(end = memmem (buf, have, "\r\n\r\n", 4)))
    {
      ssize_t r = read (fd, buf + have, sizeof buf - have);
      if (r <= 0)
        return -1;
      have += (size_t) r;
    }
  int status = atoi (buf + 9);
  char *cl = memmem (buf, (size_t) (end - buf), "Content-Length: ", 16);
  size_t body = cl ? strtoul (cl + 16, NULL, 10) : 0;
  size_t got = have - (size_t) (end + 4 - buf);
  while (got < body)
    {
      ssize_t r = read (fd, buf, sizeof buf < body - got ? sizeof buf : body - got);
      if (r <= 0)
        return -1;
      got += (size_t) r;
    }
  return status;
}

static void *
work (void *arg)
{
  struct worker *w = arg;
  int fd = connect_to (w->host, w->port);
  for (size_t i = w->first; i < w->n; i += w->step)
    {
      struct request *q = &w->reqs[i];
      double t0 = gb_wall_seconds ();
      send_all (fd, q->head, strlen (q->head));
      send_all (fd, q->body, q->body_len);
      q->status = read_response (fd);
      q->latency = gb_wall_seconds () - t0;
      if (q->status < 0)
        {
          close (fd);
          fd = connect_to (w->host, w->port);
        }
    }
  close (fd);
  return NULL;
}

/* Runs the N requests over C connections; returns the elapsed seconds. */
static double
run (const char *hostport, struct request *reqs, size_t n, int c)
{
  char host[64];
  const char *colon = strrchr (hostport, ':');
  snprintf (host, sizeof host, "%.*s", (int) (colon - hostport), hostport);
  pthread_t *t = gb_xmalloc ((size_t) c * sizeof *t);
  struct worker *w = gb_xmalloc ((size_t) c * sizeof *w);
  double t0 = gb_wall_seconds ();
  for (int i = 0; i < c; i++)
    {
      w[i] = (struct worker) { host, atoi (colon + 1), reqs, (size_t) i, (size_t) c, n };
      pthread_create (&t[i], NULL, work, &w[i]);
    }
  for (int i = 0; i < c; i++)
    pthread_join (t[i], NULL);
  double elapsed = gb_wall_seconds () - t0;
  free (t);
  free (w);
  return elapsed;
}

static void
report (const char *what, struct request *reqs, size_t n, double elapsed, int want)
{
  double *lat = gb_xmalloc (n * sizeof *lat);
  size_t ok = 0;
  for (size_t i = 0; i < n; i++)
    {
      lat[i] = reqs[i].latency * 1000;
      ok += reqs[i].status == want;
    }
  stats_sort (lat, n);
  printf ("%s: %zu requests, %zu answered %d, %.0f/s, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
          what, n, ok, want, ok / elapsed, stats_quantile_sorted (lat, n, 0.5),
          stats_quantile_sorted (lat, n, 0.99), lat[n - 1]);
  free (lat);
}

/* ------------------------------------------------------------ upload */

static char *
read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      perror (path);
      exit (1);
    }
  char *text = gb_xmalloc (1 << 20);
  *len = fread (text, 1, (1 << 20) - 1, f);
  text[*len] = '\0';
  fclose (f);
  return text;
}

static void
upload (const char *hostport, const char *fixture, size_t n, int c)
{
  size_t len;
  char *base = read_file (fixture, &len);
  char *close_brace = strrchr (base, '}');
  EVP_PKEY_CTX *kctx = EVP_PKEY_CTX_new_id (EVP_PKEY_ED25519, NULL);
  EVP_PKEY *key = NULL;
  unsigned char pub[32], sig[64];
  size_t publen = sizeof pub, siglen;

  EVP_PKEY_keygen_init (kctx);
  EVP_PKEY_keygen (kctx, &key);
  EVP_PKEY_get_raw_public_key (key, pub, &publen);
  char *pub64 = b64_encode (pub, sizeof pub);
  struct request *reqs = gb_xcalloc (n, sizeof *reqs);
  for (size_t i = 0; i < n; i++)
    {
      size_t prefix = (size_t) (close_brace - base);
      char *doc = gb_xmalloc (len + 256);
      int extra = snprintf (doc + prefix, 256, ",\n \"submitter\": {\"public_key\": \"%s\", "
                            "\"name\": \"load %zu %d\"}\n}\n", pub64, i, getpid ());
      memcpy (doc, base, prefix);
      EVP_MD_CTX *md = EVP_MD_CTX_new ();
      siglen = sizeof sig;
      EVP_DigestSignInit (md, NULL, NULL, NULL, key);
      EVP_DigestSign (md, sig, &siglen, (unsigned char *) doc, prefix + (size_t) extra);
      EVP_MD_CTX_free (md);
      char *sig64 = b64_encode (sig, sizeof sig);
      reqs[i].body = doc;
      reqs[i].body_len = prefix + (size_t) extra;
      reqs[i].head = gb_xmalloc (512);
      snprintf (reqs[i].head, 512, "POST /api/v1/results HTTP/1.1\r\nHost: %s\r\n"
                "Content-Type: application/json\r\nGmpbench-Signature: %s\r\n"
                "Content-Length: %zu\r\n\r\n", hostport, sig64, reqs[i].body_len);
      free (sig64);
    }
  double elapsed = run (hostport, reqs, n, c);
  report ("upload", reqs, n, elapsed, 201);
  for (size_t i = 0; i < n; i++)
    {
      free ((char *) reqs[i].body);
      free (reqs[i].head);
    }
  free (reqs);
  free (pub64);
  free (base);
  EVP_PKEY_free (key);
  EVP_PKEY_CTX_free (kctx);
}

/* ------------------------------------------------------------ list */

static void
list (const char *hostport, int c, size_t n, char **paths, int npaths)
{
  struct request *reqs = gb_xcalloc (n, sizeof *reqs);
  for (size_t i = 0; i < n; i++)
    {
      reqs[i].head = gb_xmalloc (1024);
      snprintf (reqs[i].head, 1024, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n",
                paths[i % (size_t) npaths], hostport);
      reqs[i].body = "";
    }
  double elapsed = run (hostport, reqs, n, c);
  report ("list", reqs, n, elapsed, 200);
  /* Each path on its own: requests P, P+NPATHS, ... */
  struct request *one = gb_xcalloc (n, sizeof *one);
  for (int p = 0; p < npaths; p++)
    {
      size_t k = 0;
      for (size_t i = (size_t) p; i < n; i += (size_t) npaths)
        one[k++] = reqs[i];
      if (k)
        report (paths[p], one, k, elapsed, 200);
    }
  free (one);
  for (size_t i = 0; i < n; i++)
    free (reqs[i].head);
  free (reqs);
}

int
main (int argc, char **argv)
{
  if (argc == 6 && strcmp (argv[1], "upload") == 0)
    upload (argv[2], argv[3], strtoul (argv[4], NULL, 10), atoi (argv[5]));
  else if (argc >= 6 && strcmp (argv[1], "list") == 0)
    list (argv[2], atoi (argv[3]), strtoul (argv[4], NULL, 10), argv + 5, argc - 5);
  else
    {
      fputs ("usage: server-load upload HOST:PORT FIXTURE N C\n"
             "       server-load list HOST:PORT C N PATH...\n", stderr);
      return 2;
    }
  return 0;
}
