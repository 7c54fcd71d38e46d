/* proxy.h: which peers are proxies whose X-Forwarded-For the server
 * believes, and the client address a request is counted under
 * (proxy.c; docs/server.md, "Behind a proxy").
 *
 * `--trusted-proxy ADDR` (repeatable) fills the list with numeric IPv4 or
 * IPv6 addresses: X-Forwarded-For is read only from a connection whose
 * peer is one of them, and then from its right end, past the entries
 * that are trusted proxies themselves (a chain of them), to the first
 * address no trusted proxy has: the client as the nearest trusted proxy
 * saw it.  `--trust-proxy` believes every peer (ANY) and takes the last
 * entry, as it always has: for tests, and for a server whose port only
 * its proxy can reach.  A request from any other peer is counted under
 * the peer's own address, whatever it says it was forwarded for. */
#ifndef GB_SERVER_HTTP_PROXY_H
#define GB_SERVER_HTTP_PROXY_H

#include <stddef.h>
#include <sys/socket.h>

struct proxy_addr
{
  int family;                   /* AF_INET or AF_INET6 */
  unsigned char bytes[16];      /* 4 of them for AF_INET */
};

struct proxy_list
{
  int any;                      /* --trust-proxy: every peer is believed */
  size_t n;
  struct proxy_addr *addrs;
};

/* Adds TEXT, a numeric IPv4 or IPv6 address, to L: 0, or -1 when TEXT
 * is not one. */
int proxy_list_add (struct proxy_list *l, const char *text);
void proxy_list_free (struct proxy_list *l);

/* The client address of a request from PEER (NULL: unknown) that carries
 * the X-Forwarded-For header XFF (NULL when it has none), as text into
 * OUT ("unknown" when there is none). */
void proxy_client (const struct proxy_list *l, const struct sockaddr *peer, const char *xff,
                   char *out, size_t size);

#endif
