/* server.h: the state every request handler shares.
 *
 * One struct server lives for the whole run of `gmpbench-server`; the
 * HTTP layer passes it to every handler.  Everything in it is either
 * read-only after start or thread-safe by itself (the store's pool, the
 * rate limiters, the atomic counter). */
#ifndef GB_SERVER_SERVER_H
#define GB_SERVER_SERVER_H

#include <stdatomic.h>
#include "server/ratelimit.h"
#include "server/store.h"

struct server
{
  struct store *store;
  struct ratelimit *by_address;         /* every request */
  struct ratelimit *by_key;             /* uploads and retractions */
  int trust_proxy;                      /* take the client from X-Forwarded-For */
  unsigned threads, max_connections, per_ip_connections, timeout;
  atomic_int inflight;                  /* requests begun and not completed */
};

#endif
