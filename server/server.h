/* server.h: the state every request handler shares.
 *
 * One struct server lives for the whole run of `gmpbench-server`; the
 * HTTP layer passes it to every handler.  Everything in it is either
 * read-only after start or thread-safe by itself (the store's pool, the
 * rate limiters), or guarded by its own lock. */
#ifndef GB_SERVER_SERVER_H
#define GB_SERVER_SERVER_H

#include <pthread.h>
#include "server/ratelimit.h"
#include "server/store.h"

struct server
{
  struct store *store;
  struct ratelimit *by_address;         /* every request */
  struct ratelimit *by_key;             /* uploads and retractions */
  int trust_proxy;                      /* take the client from X-Forwarded-For */
  unsigned threads, max_connections, per_ip_connections, timeout;
  /* /api/v1/cpus reads every listed score of the headline nodes, so its
   * rows (without and with flagged results), printed, are kept for
   * aggregate_ttl seconds, and served a while longer while one request
   * (aggregate_busy) computes the next (server/api_stats.c); before the
   * first ones, the requests wait for aggregate_done. */
  double aggregate_ttl;
  pthread_mutex_t aggregate_lock;
  pthread_cond_t aggregate_done;
  struct cpu_rows *aggregate_rows[2];
  double aggregate_at[2];
  int aggregate_busy[2];
  /* The leaderboard pages' snapshots, kept up to date with this
   * process's changes and read whole again every aggregate_ttl seconds
   * (server/board.h). */
  struct board_keeper *boards;
};

#endif
