/* http_internal.h: what the files of the HTTP layer share and handlers
 * need not see: the daemon's state, its list of open connections, and
 * the libmicrohttpd callbacks of http_request.c that http_daemon.c
 * registers.
 *
 *   http.c          the answers handlers give (http.h);
 *   http_request.c  a request from its headers to its access log line:
 *                   framing, refusals, the body, the handler;
 *   http_daemon.c   the listening socket, the open connections, start
 *                   and drain. */
#ifndef GB_SERVER_HTTP_INTERNAL_H
#define GB_SERVER_HTTP_INTERNAL_H

#include <pthread.h>
#include "server/http/http.h"

/* An open connection (http_daemon.c keeps the list). */
struct http_conn
{
  struct http_conn *prev, *next;
  MHD_socket fd;
  int busy;                     /* a request is being read or answered */
  int closed;                   /* shut down by draining: no new request */
};

struct http_daemon
{
  struct MHD_Daemon *mhd;
  struct server *srv;
  http_handler_fn handler;
  size_t max_body;
  int counted;                  /* its requests go into the metrics */
  MHD_socket listen_fd;
  pthread_mutex_t lock;         /* guards what follows */
  struct http_conn *conns;
  int open;                     /* connections on the list */
  int draining;                 /* SIGTERM: every answer closes its connection */
  int stopping;                 /* the drain limit passed: no handler starts */
  int answering;                /* requests read whole and not completed */
};

/* The access handler and the request-completed callback. */
enum MHD_Result http_access (void *cls, struct MHD_Connection *conn, const char *url,
                             const char *method, const char *version,
                             const char *upload_data, size_t *upload_data_size,
                             void **con_cls);
void http_completed (void *cls, struct MHD_Connection *conn, void **con_cls,
                     enum MHD_RequestTerminationCode toe);

/* Whether the daemon is draining: answers then close their connection. */
int http_draining (struct http_daemon *d);

#endif
