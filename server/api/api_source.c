/* api_source.c: the source of an upload (see api_source.h): the network of the
 * client address (an IPv4 /24, an IPv6 /48; an IPv4 address mapped into
 * IPv6 counts as IPv4), or the verified publisher whose key signed it,
 * hashed by the store under its secret (store_source_hash).  The address
 * is the HTTP layer's: the peer's, or the one a trusted proxy forwarded
 * in X-Forwarded-For (server/http/proxy.h).  A /24 and a /48 are what one
 * customer of a provider commonly holds, so a source costs a network, not
 * a key; every address the server cannot read is one source,
 * "unknown". */
#include "server/api/api_source.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include "server/server.h"

/* The network of ADDRESS as text into OUT: "ipv4 A.B.C.0/24",
 * "ipv6 H:H:H::/48" or "unknown". */
static void
network_of (const char *address, char *out, size_t size)
{
  unsigned char a[16];
  if (inet_pton (AF_INET, address, a) == 1)
    {
      snprintf (out, size, "ipv4 %u.%u.%u.0/24", a[0], a[1], a[2]);
      return;
    }
  if (inet_pton (AF_INET6, address, a) != 1)
    {
      snprintf (out, size, "unknown");
      return;
    }
  static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
  if (memcmp (a, mapped, sizeof mapped) == 0)
    snprintf (out, size, "ipv4 %u.%u.%u.0/24", a[12], a[13], a[14]);
  else
    snprintf (out, size, "ipv6 %x:%x:%x::/48", a[0] << 8 | a[1], a[2] << 8 | a[3],
              a[4] << 8 | a[5]);
}

void
api_source_of (const struct http_request *r, const char *publisher_fingerprint,
               char out[STORE_SOURCE_HEX])
{
  char what[128];
  if (publisher_fingerprint)
    snprintf (what, sizeof what, "publisher %s", publisher_fingerprint);
  else
    network_of (r->remote, what, sizeof what);
  store_source_hash (r->srv->store, what, out);
}
