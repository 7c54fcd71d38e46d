/* server-load.c: load generator for gmpbench-server (bench/server-load.sh
 * builds and drives it).
 *
 *   server-load upload HOST:PORT[,HOST:PORT...] FIXTURE N C
 *       signs N distinct documents (FIXTURE with its ops/s and scores
 *       scaled by a factor of its own between 0.7 and 1.4, drawn from a
 *       sequence seeded by the process, so that their rows land at
 *       different places in the server's ranked indexes as real results
 *       do and no two hold the same measurements, and a submitter added,
 *       the submitter name numbered), then posts them over C keep-alive
 *       connections (spread over the servers given) and reports
 *       accepted/s and latency percentiles;
 *   server-load list HOST:PORT C N PATH...
 *       sends N GET requests cycling through the PATHs over C
 *       connections and reports latency percentiles;
 *   server-load fresh HOST:PORT FIXTURE N C P
 *       posts N documents as upload does and, while they go in, P probes
 *       one after another, each of a CPU identity of its own; after each
 *       probe's 201 it asks for that CPU's page every 50 ms until it
 *       answers 200 (404 while the leaderboard's snapshot lacks the CPU;
 *       for 60 s at most), and reports
 *       how long after the 201 each probe showed, how many showed on the
 *       first page asked for, and the latency of those pages;
 *   server-load steady HOST:PORT FIXTURE CPU U V S PATH
 *       for S seconds, posts U documents a second of the CPU identity
 *       CPU (one connection, paced) while asking for PATH V times a
 *       second (another connection, paced), and reports the latency
 *       percentiles of both: a page of CPU under a steady stream of its
 *       uploads;
 *   server-load validate FIXTURE N
 *       times what the server does with every upload before it stores
 *       it (validate_document(), then the Ed25519 verification) N times
 *       on FIXTURE in this one thread, and prints the rate all cores
 *       could reach doing nothing else: a ceiling for uploads of such
 *       documents, whatever the storage.
 *
 * The HTTP client is the smallest that works with gmpbench-server:
 * HTTP/1.1 keep-alive, responses with Content-Length. */
#define _GNU_SOURCE               /* memmem */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include "bench/bench-doc.h"
#include "common/util.h"
#include "model/b64.h"
#include "model/sig.h"
#include "model/validate.h"
#include "model/order_stats.h"

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

#define MAX_SERVERS 8

/* Runs the N requests over C connections, connection I to the server
 * I modulo their number in HOSTPORTS (HOST:PORT, comma-separated);
 * returns the elapsed seconds. */
static double
run (const char *hostports, struct request *reqs, size_t n, int c)
{
  char host[MAX_SERVERS][64];
  int port[MAX_SERVERS], nservers = 0;
  for (const char *p = hostports; *p && nservers < MAX_SERVERS; nservers++)
    {
      size_t len = strcspn (p, ",");
      const char *colon = memrchr (p, ':', len);
      if (!colon)
        {
          fprintf (stderr, "server-load: %s: not HOST:PORT\n", hostports);
          exit (2);
        }
      snprintf (host[nservers], sizeof host[nservers], "%.*s", (int) (colon - p), p);
      port[nservers] = atoi (colon + 1);
      p += len + (p[len] == ',');
    }
  pthread_t *t = gb_xmalloc ((size_t) c * sizeof *t);
  struct worker *w = gb_xmalloc ((size_t) c * sizeof *w);
  double t0 = gb_wall_seconds ();
  for (int i = 0; i < c; i++)
    {
      w[i] = (struct worker) { host[i % nservers], port[i % nservers], reqs, (size_t) i,
        (size_t) c, n };
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

/* The load generator's identity and the fixture its documents vary. */
struct signer
{
  cJSON *fixture;
  EVP_PKEY *key;
  char *pub64;
  unsigned long long lcg;       /* the scale factors' generator */
};

static void
signer_init (struct signer *s, const char *fixture)
{
  unsigned char pub[32];
  size_t publen = sizeof pub;
  EVP_PKEY_CTX *kctx = EVP_PKEY_CTX_new_id (EVP_PKEY_ED25519, NULL);

  s->fixture = bench_load_fixture (fixture);
  s->key = NULL;
  if (!kctx || EVP_PKEY_keygen_init (kctx) <= 0 || EVP_PKEY_keygen (kctx, &s->key) <= 0
      || EVP_PKEY_get_raw_public_key (s->key, pub, &publen) <= 0)
    {
      fprintf (stderr, "server-load: cannot make an Ed25519 key\n");
      exit (1);
    }
  EVP_PKEY_CTX_free (kctx);
  s->pub64 = b64_encode (pub, sizeof pub);
  /* Seeded by the process: the documents of two runs against one
   * database hold other measurements (the server refuses a copy of
   * stored ones, 409). */
  s->lcg = 0x2545f4914f6cdd1dull ^ (uint64_t) getpid ();
}

static void
signer_free (struct signer *s)
{
  cJSON_Delete (s->fixture);
  EVP_PKEY_free (s->key);
  free (s->pub64);
}

/* Document number I: the fixture scaled by the next factor, with the
 * submitter added; *LEN its length, SIG64 its signature (base64). */
static char *
signed_document (struct signer *s, size_t i, size_t *len, char sig64[128])
{
  unsigned char sig[64];
  size_t prefix, siglen = sizeof sig;

  s->lcg = s->lcg * 6364136223846793005ull + 1442695040888963407ull;
  double f = 0.7 * pow (2, (double) (s->lcg >> 11) / 9007199254740992.0);
  char *doc = bench_scaled_document (s->fixture, f, &prefix);
  doc = gb_xrealloc (doc, prefix + 256);
  int extra = snprintf (doc + prefix, 256, ",\n \"submitter\": {\"public_key\": \"%s\", "
                        "\"name\": \"load %zu %d\"}\n}\n", s->pub64, i, getpid ());
  *len = prefix + (size_t) extra;
  EVP_MD_CTX *md = EVP_MD_CTX_new ();
  if (!md || EVP_DigestSignInit (md, NULL, NULL, NULL, s->key) <= 0
      || EVP_DigestSign (md, sig, &siglen, (unsigned char *) doc, *len) <= 0)
    {
      fprintf (stderr, "server-load: cannot sign\n");
      exit (1);
    }
  EVP_MD_CTX_free (md);
  char *b64 = b64_encode (sig, sizeof sig);
  snprintf (sig64, 128, "%s", b64);
  free (b64);
  return doc;
}

/* The N upload requests of documents of S. */
static struct request *
upload_requests (struct signer *s, const char *hostport, size_t n, size_t first)
{
  struct request *reqs = gb_xcalloc (n + 1, sizeof *reqs);
  char sig64[128];
  for (size_t i = 0; i < n; i++)
    {
      reqs[i].body = signed_document (s, first + i, &reqs[i].body_len, sig64);
      reqs[i].head = gb_xmalloc (512);
      snprintf (reqs[i].head, 512, "POST /api/v1/results HTTP/1.1\r\nHost: %.*s\r\n"
                "Content-Type: application/json\r\nGmpbench-Signature: %s\r\n"
                "Content-Length: %zu\r\n\r\n", (int) strcspn (hostport, ","), hostport, sig64,
                reqs[i].body_len);
    }
  return reqs;
}

static void
requests_free (struct request *reqs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      free ((char *) reqs[i].body);
      free (reqs[i].head);
    }
  free (reqs);
}

static void
upload (const char *hostport, const char *fixture, size_t n, int c)
{
  struct signer s;

  signer_init (&s, fixture);
  struct request *reqs = upload_requests (&s, hostport, n, 0);
  double elapsed = run (hostport, reqs, n, c);
  report ("upload", reqs, n, elapsed, 201);
  requests_free (reqs, n);
  signer_free (&s);
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

/* ------------------------------------------------------------ fresh */

#define PROBE_PATIENCE 60       /* seconds a probe's CPU page is asked for */

struct background
{
  const char *hostport;
  struct request *reqs;
  size_t n;
  int c;
  double elapsed;
};

static void *
run_background (void *arg)
{
  struct background *bg = arg;
  bg->elapsed = run (bg->hostport, bg->reqs, bg->n, bg->c);
  return NULL;
}

/* Sends REQ on *FD (reconnecting once when the server closed it). */
static int
exchange (int *fd, const char *host, int port, const char *head, const char *body, size_t len)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      send_all (*fd, head, strlen (head));
      send_all (*fd, body, len);
      int status = read_response (*fd);
      if (status >= 0)
        return status;
      close (*fd);
      *fd = connect_to (host, port);
    }
  return -1;
}

static void
fresh (const char *hostport, const char *fixture, size_t n, int c, size_t probes)
{
  struct signer s;
  char host[64], identity[96], path[160], get[512];
  const char *colon = strrchr (hostport, ':');
  int port = atoi (colon + 1);
  snprintf (host, sizeof host, "%.*s", (int) (colon - hostport), hostport);

  signer_init (&s, fixture);
  struct background bg = { hostport, upload_requests (&s, hostport, n, 0), n, c, 0 };
  cJSON *cpu = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive
                                                 (s.fixture, "system"), "cpu");
  struct request *probe = gb_xcalloc (probes + 1, sizeof *probe);
  for (size_t k = 0; k < probes; k++)
    {
      snprintf (identity, sizeof identity, "x86:AuthenticAMD:family=25:model=%zu:stepping=%d",
                1000 + k, getpid () % 1000);
      cJSON_ReplaceItemInObjectCaseSensitive (cpu, "identity", cJSON_CreateString (identity));
      struct request *one = upload_requests (&s, hostport, 1, n + k);
      probe[k] = *one;
      free (one);
    }
  double *delay = gb_xmalloc ((probes + 1) * sizeof *delay);
  double *page = NULL;
  size_t npages = 0, cap = 0, first_time = 0, shown = 0;

  pthread_t t;
  pthread_create (&t, NULL, run_background, &bg);
  usleep (300000);              /* the uploads under way */
  int fd = connect_to (host, port);
  double probing = gb_wall_seconds ();
  for (size_t k = 0; k < probes; k++)
    {
      if (exchange (&fd, host, port, probe[k].head, probe[k].body, probe[k].body_len) != 201)
        {
          fprintf (stderr, "server-load: probe %zu not stored\n", k);
          exit (1);
        }
      double stored = gb_wall_seconds ();
      snprintf (identity, sizeof identity, "x86:AuthenticAMD:family=25:model=%zu:stepping=%d",
                1000 + k, getpid () % 1000);
      snprintf (path, sizeof path, "/cpu?cpu=%s", identity);
      snprintf (get, sizeof get, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, hostport);
      delay[k] = NAN;
      for (int tries = 0; gb_wall_seconds () - stored < PROBE_PATIENCE; tries++)
        {
          double t0 = gb_wall_seconds ();
          int status = exchange (&fd, host, port, get, "", 0);
          double t1 = gb_wall_seconds ();
          if (npages == cap)
            page = gb_xrealloc (page, (cap = cap ? 2 * cap : 256) * sizeof *page);
          page[npages++] = (t1 - t0) * 1000;
          if (status == 200)
            {
              delay[k] = (t1 - stored) * 1000;
              first_time += tries == 0;
              shown++;
              break;
            }
          usleep (50000);
        }
      usleep (100000);
    }
  double probed = gb_wall_seconds () - probing;
  close (fd);
  pthread_join (t, NULL);
  report ("upload", bg.reqs, n, bg.elapsed, 201);
  stats_sort (page, npages);
  size_t nd = 0;
  for (size_t k = 0; k < probes; k++)
    if (!isnan (delay[k]))
      delay[nd++] = delay[k];
  stats_sort (delay, nd);
  printf ("fresh: %zu probes in %.1f s (%s the uploads), %zu shown on their CPU page, %zu on "
          "the first page asked for; 201 to shown: p50 %.1f ms, max %.1f ms; CPU pages: "
          "p50 %.2f ms, p99 %.2f ms\n", probes, probed,
          probed < bg.elapsed - 0.3 ? "during" : "partly after", shown, first_time,
          nd ? stats_quantile_sorted (delay, nd, 0.5) : NAN, nd ? delay[nd - 1] : NAN,
          npages ? stats_quantile_sorted (page, npages, 0.5) : NAN,
          npages ? stats_quantile_sorted (page, npages, 0.99) : NAN);
  requests_free (bg.reqs, n);
  requests_free (probe, probes);
  free (delay);
  free (page);
  signer_free (&s);
}

/* ------------------------------------------------------------ steady */

/* Requests sent one after another on one connection, request I at
 * START + I / RATE (or as soon as the one before is answered). */
struct paced
{
  const char *host;
  int port;
  struct request *reqs;
  size_t n;
  double start, rate;
};

static void *
run_paced (void *arg)
{
  struct paced *p = arg;
  int fd = connect_to (p->host, p->port);
  for (size_t i = 0; i < p->n; i++)
    {
      struct request *q = &p->reqs[i];
      double wait = p->start + (double) i / p->rate - gb_wall_seconds ();
      if (wait > 0)
        usleep ((useconds_t) (wait * 1e6));
      double t0 = gb_wall_seconds ();
      q->status = exchange (&fd, p->host, p->port, q->head, q->body, q->body_len);
      q->latency = gb_wall_seconds () - t0;
    }
  close (fd);
  return NULL;
}

static void
steady (const char *hostport, const char *fixture, const char *identity, double upload_rate,
        double view_rate, double seconds, const char *path)
{
  struct signer s;
  char host[64];
  const char *colon = strrchr (hostport, ':');
  snprintf (host, sizeof host, "%.*s", (int) (colon - hostport), hostport);
  int port = atoi (colon + 1);

  signer_init (&s, fixture);
  cJSON *cpu = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive
                                                 (s.fixture, "system"), "cpu");
  cJSON_ReplaceItemInObjectCaseSensitive (cpu, "identity", cJSON_CreateString (identity));
  size_t nup = (size_t) (upload_rate * seconds), nview = (size_t) (view_rate * seconds);
  struct request *up = upload_requests (&s, hostport, nup, 0);
  struct request *view = gb_xcalloc (nview + 1, sizeof *view);
  for (size_t i = 0; i < nview; i++)
    {
      view[i].head = gb_xmalloc (1024);
      snprintf (view[i].head, 1024, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, hostport);
      view[i].body = gb_xstrdup ("");
    }
  double start = gb_wall_seconds () + 0.1;
  struct paced uploads = { host, port, up, nup, start, upload_rate };
  struct paced views = { host, port, view, nview, start, view_rate };
  pthread_t t;
  pthread_create (&t, NULL, run_paced, &uploads);
  run_paced (&views);
  pthread_join (t, NULL);
  double elapsed = gb_wall_seconds () - start;
  report ("upload", up, nup, elapsed, 201);
  report (path, view, nview, elapsed, 200);
  requests_free (up, nup);
  requests_free (view, nview);
  signer_free (&s);
}

/* ------------------------------------------------------------ validate */

static void
validate (const char *fixture, size_t n)
{
  struct signer s;
  struct doc_summary d;
  struct validate_error err;
  unsigned char sig[SIG_BYTES];
  char sig64[128];
  size_t len;

  signer_init (&s, fixture);
  char *doc = signed_document (&s, 0, &len, sig64);
  if (b64_decode (sig64, strlen (sig64), sig, SIG_BYTES) != SIG_BYTES)
    {
      fprintf (stderr, "server-load: cannot decode the signature\n");
      exit (1);
    }
  if (validate_document (doc, len, &d, &err) < 0)
    {
      fprintf (stderr, "server-load: %s: %s\n", fixture, err.message);
      exit (1);
    }
  double t0 = gb_wall_seconds ();
  for (size_t i = 0; i < n; i++)
    {
      validate_summary_free (&d);
      validate_document (doc, len, &d, &err);
    }
  double t1 = gb_wall_seconds ();
  int verified = 1;
  for (size_t i = 0; i < n; i++)
    verified &= sig_verify (d.public_key, doc, len, sig);
  double t2 = gb_wall_seconds ();
  if (!verified)
    {
      fprintf (stderr, "server-load: the signature does not verify\n");
      exit (1);
    }
  double per_doc = (t2 - t0) / (double) n;
  long cores = sysconf (_SC_NPROCESSORS_ONLN);
  printf ("validate: %.3f ms, verify %.3f ms per document (%zu bytes): at most %.0f/s "
          "on %ld cores doing nothing else\n", (t1 - t0) * 1e3 / (double) n,
          (t2 - t1) * 1e3 / (double) n, len, (double) cores / per_doc, cores);
  validate_summary_free (&d);
  free (doc);
  signer_free (&s);
}

int
main (int argc, char **argv)
{
  if (argc == 6 && strcmp (argv[1], "upload") == 0)
    upload (argv[2], argv[3], strtoul (argv[4], NULL, 10), atoi (argv[5]));
  else if (argc >= 6 && strcmp (argv[1], "list") == 0)
    list (argv[2], atoi (argv[3]), strtoul (argv[4], NULL, 10), argv + 5, argc - 5);
  else if (argc == 7 && strcmp (argv[1], "fresh") == 0)
    fresh (argv[2], argv[3], strtoul (argv[4], NULL, 10), atoi (argv[5]),
           strtoul (argv[6], NULL, 10));
  else if (argc == 9 && strcmp (argv[1], "steady") == 0)
    steady (argv[2], argv[3], argv[4], atof (argv[5]), atof (argv[6]), atof (argv[7]), argv[8]);
  else if (argc == 4 && strcmp (argv[1], "validate") == 0)
    validate (argv[2], strtoul (argv[3], NULL, 10));
  else
    {
      fputs ("usage: server-load upload HOST:PORT[,HOST:PORT...] FIXTURE N C\n"
             "       server-load list HOST:PORT C N PATH...\n"
             "       server-load fresh HOST:PORT FIXTURE N C P\n"
             "       server-load steady HOST:PORT FIXTURE CPU U V S PATH\n"
             "       server-load validate FIXTURE N\n", stderr);
      return 2;
    }
  return 0;
}
