/* unit-ops.c: what the server's operators rely on, without a network:
 * the client address a request is counted under behind trusted proxies
 * (server/http/proxy.c), and the counters of /metrics (server/metrics.c):
 * exact under threads counting at once, escaped, in the text format. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "server/http/proxy.h"
#include "server/metrics.h"
#include "tests/check.h"

static struct sockaddr_in
ipv4 (const char *text)
{
  struct sockaddr_in a = { 0 };
  a.sin_family = AF_INET;
  inet_pton (AF_INET, text, &a.sin_addr);
  return a;
}

/* The client of a request from PEER carrying XFF (NULL: none), under L. */
static const char *
client (const struct proxy_list *l, const char *peer, const char *xff)
{
  static char out[64];
  struct sockaddr_in a = ipv4 (peer);
  proxy_client (l, (const struct sockaddr *) &a, xff, out, sizeof out);
  return out;
}

static void
test_proxy (void)
{
  struct proxy_list none = { 0, 0, NULL }, any = { 1, 0, NULL }, l = { 0, 0, NULL };

  check (proxy_list_add (&l, "127.0.0.1") == 0 && proxy_list_add (&l, "::ffff:10.0.0.2") == 0
         && proxy_list_add (&l, "2001:db8::1") == 0,
         "proxy: numeric IPv4, mapped and IPv6 addresses are taken");
  check (proxy_list_add (&l, "localhost") < 0 && proxy_list_add (&l, "10.0.0.0/8") < 0
         && proxy_list_add (&l, "") < 0 && l.n == 3,
         "proxy: a name, a network or nothing is refused");
  check (strcmp (client (&none, "192.0.2.7", "203.0.113.9"), "192.0.2.7") == 0,
         "proxy: without trusted proxies X-Forwarded-For is ignored");
  check (strcmp (client (&l, "192.0.2.7", "203.0.113.9"), "192.0.2.7") == 0,
         "proxy: from a peer that is not a trusted proxy it is ignored");
  check (strcmp (client (&l, "127.0.0.1", "203.0.113.9"), "203.0.113.9") == 0,
         "proxy: from a trusted proxy its entry is the client");
  check (strcmp (client (&l, "127.0.0.1", NULL), "127.0.0.1") == 0,
         "proxy: a trusted proxy's request without the header is its own");
  check (strcmp (client (&l, "127.0.0.1", "1.2.3.4, 203.0.113.9"), "203.0.113.9") == 0,
         "proxy: what the client wrote to the left of the proxy's entry is not believed");
  check (strcmp (client (&l, "127.0.0.1", "1.2.3.4,203.0.113.9 , 10.0.0.2"), "203.0.113.9") == 0,
         "proxy: a chain of trusted proxies is walked to the first address no proxy has");
  check (strcmp (client (&l, "10.0.0.2", "127.0.0.1, 10.0.0.2"), "127.0.0.1") == 0,
         "proxy: when every entry is a trusted proxy, the leftmost is the client");
  check (strcmp (client (&l, "127.0.0.1", " "), "unknown") == 0,
         "proxy: an empty entry is an unknown client");
  check (strcmp (client (&any, "192.0.2.7", "1.2.3.4, 127.0.0.1"), "127.0.0.1") == 0,
         "proxy: --trust-proxy takes the last entry from any peer");
  proxy_list_free (&l);
}

#define THREADS 4
#define EACH 50000

static void *
count_requests (void *arg)
{
  (void) arg;
  for (int i = 0; i < EACH; i++)
    metrics_request ("GET", "/x/*", 200, 0.002);
  return NULL;
}

/* Whether the exposition has LINE, whole. */
static int
has_line (const char *text, const char *line)
{
  size_t len = strlen (line);
  for (const char *p = text; (p = strstr (p, line)); p += len)
    if ((p == text || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
      return 1;
  return 0;
}

static void
test_metrics (void)
{
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, count_requests, NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  metrics_request ("GET", NULL, 404, 0.2);
  metrics_upload (201, NULL);
  metrics_upload (200, NULL);
  metrics_upload (422, "digest-mismatch");
  metrics_upload (422, "digest-mismatch");
  metrics_upload (400, "we\"ird\\");
  metrics_upload_flags ("outlier,brand-mismatch,,outlier");

  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  metrics_write (out);
  metrics_write_gauge (out, "gmpbench_test_gauge", "A gauge", 2.5);
  fclose (out);
  check (has_line (text, "gmpbench_http_requests_total{method=\"GET\",route=\"/x/*\",status=\"200\"} 200000"),
         "metrics: %d threads counting one series at once lose nothing", THREADS);
  check (has_line (text, "gmpbench_http_request_duration_seconds_bucket{method=\"GET\",route=\"/x/*\",le=\"0.001\"} 0")
         && has_line (text, "gmpbench_http_request_duration_seconds_bucket{method=\"GET\",route=\"/x/*\",le=\"0.0025\"} 200000")
         && has_line (text, "gmpbench_http_request_duration_seconds_bucket{method=\"GET\",route=\"/x/*\",le=\"+Inf\"} 200000")
         && has_line (text, "gmpbench_http_request_duration_seconds_count{method=\"GET\",route=\"/x/*\"} 200000")
         && has_line (text, "gmpbench_http_request_duration_seconds_sum{method=\"GET\",route=\"/x/*\"} 400.000000"),
         "metrics: the latency histogram's buckets are cumulative, its sum in seconds");
  check (has_line (text, "gmpbench_http_requests_total{method=\"none\",route=\"none\",status=\"404\"} 1"),
         "metrics: a request no route answered is counted under none");
  check (has_line (text, "gmpbench_uploads_accepted_total 1")
         && has_line (text, "gmpbench_uploads_refused_total{rule=\"digest-mismatch\"} 2"),
         "metrics: 201 is accepted, 200 neither, 422 refused by its rule");
  check (has_line (text, "gmpbench_uploads_refused_total{rule=\"we\\\"ird\\\\\"} 1"),
         "metrics: label values are escaped");
  check (has_line (text, "gmpbench_upload_flags_total{flag=\"outlier\"} 2")
         && has_line (text, "gmpbench_upload_flags_total{flag=\"brand-mismatch\"} 1"),
         "metrics: flags are counted by name");
  check (has_line (text, "# TYPE gmpbench_http_request_duration_seconds histogram")
         && has_line (text, "# TYPE gmpbench_test_gauge gauge") && has_line (text, "gmpbench_test_gauge 2.5")
         && has_line (text, "gmpbench_metrics_series_dropped_total 0"),
         "metrics: families are typed; gauges written; nothing dropped");
  free (text);
}

int
main (void)
{
  test_proxy ();
  test_metrics ();
  return check_exit_status ();
}
