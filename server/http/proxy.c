/* proxy.c: the trusted proxies and the client address they forward (see
 * proxy.h).  Addresses are compared as bytes, an IPv4 address mapped
 * into IPv6 (::ffff:A.B.C.D) as the IPv4 address it holds, so that
 * "127.0.0.1" and a peer seen as "::ffff:127.0.0.1" are one proxy.
 * X-Forwarded-For is walked from its right end: what a proxy appends is
 * the address it saw, while anything to the left of the nearest trusted
 * proxy's entry was written by the client and proves nothing. */
#include "server/http/proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

static const unsigned char v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* TEXT as an address into A: 0, or -1 when it is not a numeric one. */
static int
parse_address (const char *text, struct proxy_addr *a)
{
  memset (a, 0, sizeof *a);
  if (inet_pton (AF_INET, text, a->bytes) == 1)
    {
      a->family = AF_INET;
      return 0;
    }
  if (inet_pton (AF_INET6, text, a->bytes) != 1)
    return -1;
  a->family = AF_INET6;
  if (memcmp (a->bytes, v4_mapped, sizeof v4_mapped) == 0)
    {
      memmove (a->bytes, a->bytes + 12, 4);
      memset (a->bytes + 4, 0, 12);
      a->family = AF_INET;
    }
  return 0;
}

/* PEER as an address into A: 0, or -1 when it is neither IPv4 nor IPv6. */
static int
peer_address (const struct sockaddr *peer, struct proxy_addr *a)
{
  char text[INET6_ADDRSTRLEN];
  if (!peer)
    return -1;
  if (peer->sa_family == AF_INET)
    inet_ntop (AF_INET, &((const struct sockaddr_in *) peer)->sin_addr, text, sizeof text);
  else if (peer->sa_family == AF_INET6)
    inet_ntop (AF_INET6, &((const struct sockaddr_in6 *) peer)->sin6_addr, text, sizeof text);
  else
    return -1;
  return parse_address (text, a);
}

int
proxy_list_add (struct proxy_list *l, const char *text)
{
  struct proxy_addr a;
  if (parse_address (text, &a) < 0)
    return -1;
  l->addrs = gb_xrealloc (l->addrs, (l->n + 1) * sizeof *l->addrs);
  l->addrs[l->n++] = a;
  return 0;
}

void
proxy_list_free (struct proxy_list *l)
{
  free (l->addrs);
  l->addrs = NULL;
  l->n = 0;
}

static int
listed (const struct proxy_list *l, const struct proxy_addr *a)
{
  for (size_t i = 0; i < l->n; i++)
    if (l->addrs[i].family == a->family
        && memcmp (l->addrs[i].bytes, a->bytes, a->family == AF_INET ? 4 : 16) == 0)
      return 1;
  return 0;
}

/* The entry of the comma-separated list XFF that ends before END (blanks
 * around it left out) into OUT; where it begins (its comma, or XFF). */
static const char *
entry_before (const char *xff, const char *end, char *out, size_t size)
{
  const char *start = end;
  while (start > xff && start[-1] != ',')
    start--;
  const char *from = start, *to = end;
  while (from < to && (*from == ' ' || *from == '\t'))
    from++;
  while (to > from && (to[-1] == ' ' || to[-1] == '\t'))
    to--;
  snprintf (out, size, "%.*s", (int) (to - from), from);
  return start > xff ? start - 1 : xff;
}

/* The client in XFF, which a trusted proxy sent: the last entry under
 * ANY, else the rightmost entry that is not a trusted proxy's (or the
 * leftmost, when they all are). */
static void
forwarded_client (const struct proxy_list *l, const char *xff, char *out, size_t size)
{
  const char *end = xff + strlen (xff);
  struct proxy_addr a;
  for (;;)
    {
      const char *start = entry_before (xff, end, out, size);
      if (l->any || start == xff || parse_address (out, &a) < 0 || !listed (l, &a))
        return;
      end = start;
    }
}

void
proxy_client (const struct proxy_list *l, const struct sockaddr *peer, const char *xff,
              char *out, size_t size)
{
  struct proxy_addr a;
  int known = peer_address (peer, &a) == 0;

  snprintf (out, size, "unknown");
  if (xff && (l->any || (known && listed (l, &a))))
    forwarded_client (l, xff, out, size);
  else if (known)
    inet_ntop (a.family, a.bytes, out, size);
  if (!out[0])
    snprintf (out, size, "unknown");
}
