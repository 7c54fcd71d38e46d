/* server.h: the state every request handler shares.
 *
 * One struct server lives for the whole run of `gmpbench-server`; the
 * HTTP layer passes it to every handler.  Everything in it is either
 * read-only after start or thread-safe by itself (the store's pool, the
 * rate limiters), or guarded by its own lock. */
#ifndef GB_SERVER_SERVER_H
#define GB_SERVER_SERVER_H

#include <microhttpd.h>
#include "server/api/ratelimit.h"
#include "server/store/store.h"

struct http_request;

struct server
{
  struct store *store;
  struct ratelimit *by_address;         /* every request */
  struct ratelimit *by_key;             /* uploads and retractions */
  struct ratelimit *by_source;          /* uploads, by source (store.h) */
  int trust_proxy;                      /* take the client from X-Forwarded-For */
  unsigned threads, max_connections, per_ip_connections, timeout;
  /* /api/v1/cpus and the leaderboard read every listed result: they are
   * read again at most (cpus) and at least (boards) every aggregate_ttl
   * seconds. */
  double aggregate_ttl;
  /* The rows of /api/v1/cpus, and the thread that computes the next
   * (server/api/api_stats.c). */
  struct cpus_keeper *cpus;
  /* The leaderboard pages' snapshots, kept up to date with this
   * process's changes (server/board/board.h). */
  struct board_keeper *boards;
  /* The leaderboard's view as data, which the pages' room draws
   * (web_leaderboard_data, web.h) and the API serves
   * (/api/v1/leaderboard): lent by main.c, since the API does not use the
   * pages' room. */
  enum MHD_Result (*leaderboard_data) (struct http_request *r, const char *format);
};

#endif
