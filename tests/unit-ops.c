/* unit-ops.c: what the server's operators rely on, without a network:
 * the client address a request is counted under behind trusted proxies
 * (server/http/proxy.c). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include "server/http/proxy.h"
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

int
main (void)
{
  test_proxy ();
  return check_exit_status ();
}
