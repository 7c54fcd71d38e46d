/* http_daemon.c: the libmicrohttpd daemon: the listening socket, the
 * list of open connections, start, and the drain on SIGTERM (see http.h,
 * http_internal.h). */
#include "server/http/http_internal.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/util.h"
#include "server/log.h"

#define MEMORY_LIMIT (64 * 1024)        /* per connection: bounds the headers */

/* *WHAT, one of D's counters or flags, read under its lock. */
static int
count (struct http_daemon *d, const int *what)
{
  pthread_mutex_lock (&d->lock);
  int n = *what;
  pthread_mutex_unlock (&d->lock);
  return n;
}

int
http_draining (struct http_daemon *d)
{
  return count (d, &d->draining);
}

/* Every open connection is on the daemon's list, so that draining can
 * shut down the idle ones (shutdown(2) from this thread is safe: the
 * descriptor stays open until libmicrohttpd reports the connection
 * closed, which takes the same lock). */
static void
notify_connection (void *cls, struct MHD_Connection *conn, void **socket_context,
                   enum MHD_ConnectionNotificationCode code)
{
  struct http_daemon *d = cls;
  struct http_conn *c = *socket_context;

  if (code == MHD_CONNECTION_NOTIFY_STARTED)
    {
      const union MHD_ConnectionInfo *info =
        MHD_get_connection_info (conn, MHD_CONNECTION_INFO_CONNECTION_FD);
      c = gb_xcalloc (1, sizeof *c);
      c->fd = info ? info->connect_fd : MHD_INVALID_SOCKET;
      pthread_mutex_lock (&d->lock);
      c->next = d->conns;
      if (d->conns)
        d->conns->prev = c;
      d->conns = c;
      d->open++;
      if (d->draining || c->fd == MHD_INVALID_SOCKET)
        {
          if (c->fd != MHD_INVALID_SOCKET)
            shutdown (c->fd, SHUT_RDWR);
          c->closed = 1;
        }
      pthread_mutex_unlock (&d->lock);
      *socket_context = c;
      return;
    }
  if (!c)
    return;
  pthread_mutex_lock (&d->lock);
  if (c->prev)
    c->prev->next = c->next;
  else
    d->conns = c->next;
  if (c->next)
    c->next->prev = c->prev;
  d->open--;
  pthread_mutex_unlock (&d->lock);
  free (c);
  *socket_context = NULL;
}

/* ------------------------------------------------------------ the daemon */

/* libmicrohttpd's own messages (refused connections, oversized headers)
 * become log lines like every other. */
static void
mhd_log (void *cls, const char *fmt, va_list ap)
{
  char buf[512];
  (void) cls;
  vsnprintf (buf, sizeof buf, fmt, ap);
  buf[strcspn (buf, "\n")] = '\0';
  log_info ("libmicrohttpd: %s", buf);
}

/* LISTEN, the value of the option OPTION, as an address. */
static int
parse_listen (const char *option, const char *listen, struct sockaddr_storage *addr,
              socklen_t *addrlen, char *err, size_t errlen)
{
  char host[256];
  const char *colon = strrchr (listen, ':');
  struct addrinfo hints = { 0 }, *res = NULL;

  if (!colon || colon == listen || (size_t) (colon - listen) >= sizeof host)
    {
      snprintf (err, errlen, "%s %s: expected HOST:PORT", option, listen);
      return -1;
    }
  memcpy (host, listen, (size_t) (colon - listen));
  host[colon - listen] = '\0';
  if (host[0] == '[' && host[strlen (host) - 1] == ']')
    {
      memmove (host, host + 1, strlen (host));
      host[strlen (host) - 1] = '\0';
    }
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo (host, colon + 1, &hints, &res);
  if (rc != 0)
    {
      snprintf (err, errlen, "%s %s: %s", option, listen, gai_strerror (rc));
      return -1;
    }
  memcpy (addr, res->ai_addr, res->ai_addrlen);
  *addrlen = res->ai_addrlen;
  freeaddrinfo (res);
  return 0;
}

/* The listening socket, bound here rather than by libmicrohttpd, so that
 * a failure names the address and the reason. */
static MHD_socket
open_listener (const char *option, const char *address, int *ipv6, char *err, size_t errlen)
{
  struct sockaddr_storage addr;
  socklen_t addrlen;
  int one = 1;

  if (parse_listen (option, address, &addr, &addrlen, err, errlen) < 0)
    return MHD_INVALID_SOCKET;
  *ipv6 = addr.ss_family == AF_INET6;
  int fd = socket (addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      snprintf (err, errlen, "cannot listen on %s: %s", address, strerror (errno));
      return MHD_INVALID_SOCKET;
    }
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (*ipv6)
    setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind (fd, (struct sockaddr *) &addr, addrlen) < 0 || listen (fd, SOMAXCONN) < 0)
    {
      snprintf (err, errlen, "cannot listen on %s: %s", address, strerror (errno));
      close (fd);
      return MHD_INVALID_SOCKET;
    }
  return fd;
}

/* A daemon on LISTEN (the value of OPTION) with THREADS worker threads;
 * COUNTED: its requests go into the metrics. */
static struct http_daemon *
start_daemon (struct server *srv, const char *option, const char *listen,
              http_handler_fn handler, size_t max_body, unsigned threads, int counted,
              char *err, size_t errlen)
{
  unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
  int ipv6;
  MHD_socket fd = open_listener (option, listen, &ipv6, err, errlen);

  if (fd == MHD_INVALID_SOCKET)
    return NULL;
  if (ipv6)
    flags |= MHD_USE_IPv6;
  struct http_daemon *d = gb_xcalloc (1, sizeof *d);
  d->srv = srv;
  d->handler = handler;
  d->max_body = max_body;
  d->counted = counted;
  d->listen_fd = fd;
  pthread_mutex_init (&d->lock, NULL);
  d->mhd = MHD_start_daemon (flags, 0, NULL, NULL, http_access, d,
                             MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
                             MHD_OPTION_LISTEN_SOCKET, fd,
                             MHD_OPTION_THREAD_POOL_SIZE, threads,
                             MHD_OPTION_CONNECTION_LIMIT, srv->max_connections,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, srv->per_ip_connections,
                             MHD_OPTION_CONNECTION_TIMEOUT, srv->timeout,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) MEMORY_LIMIT,
                             MHD_OPTION_NOTIFY_COMPLETED, http_completed, d,
                             MHD_OPTION_NOTIFY_CONNECTION, notify_connection, d,
                             MHD_OPTION_END);
  if (!d->mhd)
    {
      /* libmicrohttpd closes the socket on some of its failures, so it is
       * left alone here: the process ends anyway. */
      snprintf (err, errlen, "cannot serve on %s: libmicrohttpd did not start "
                "(its message is in the log)", listen);
      pthread_mutex_destroy (&d->lock);
      free (d);
      return NULL;
    }
  return d;
}

struct http_daemon *
http_start (struct server *srv, const char *listen, http_handler_fn handler, size_t max_body,
            char *err, size_t errlen)
{
  return start_daemon (srv, "--listen", listen, handler, max_body, srv->threads, 1, err,
                       errlen);
}

struct http_daemon *
http_start_side (struct server *srv, const char *listen, http_handler_fn handler, char *err,
                 size_t errlen)
{
  return start_daemon (srv, "--metrics-listen", listen, handler, 0, 1, 0, err, errlen);
}

/* Waits while *WHAT is not 0, until UNTIL (monotonic seconds); its last
 * value. */
static int
wait_for_none (struct http_daemon *d, const int *what, double until)
{
  int n;
  while ((n = count (d, what)) > 0 && gb_wall_seconds () < until)
    usleep (10000);
  return n;
}

int
http_stop (struct http_daemon *d, double drain)
{
  MHD_quiesce_daemon (d->mhd);
  /* Refuses the connections waiting to be accepted, and new ones; the
   * descriptor itself stays open until libmicrohttpd has stopped. */
  shutdown (d->listen_fd, SHUT_RDWR);
  int idle = 0;
  pthread_mutex_lock (&d->lock);
  d->draining = 1;
  for (struct http_conn *c = d->conns; c; c = c->next)
    if (!c->busy && !c->closed)
      {
        shutdown (c->fd, SHUT_RDWR);
        c->closed = 1;
        idle++;
      }
  int open = d->open;
  pthread_mutex_unlock (&d->lock);
  log_info ("draining: %d connections open, %d of them idle and closed", open, idle);

  int left = wait_for_none (d, &d->open, gb_wall_seconds () + drain);
  if (left)
    {
      pthread_mutex_lock (&d->lock);
      d->stopping = 1;
      pthread_mutex_unlock (&d->lock);
      int answering = wait_for_none (d, &d->answering, gb_wall_seconds () + d->srv->timeout);
      log_error ("%d connections still open after %g s; %d of them still sending an answer "
                 "after %u s more; stopping anyway", left, drain, answering, d->srv->timeout);
    }
  MHD_stop_daemon (d->mhd);
  close (d->listen_fd);
  pthread_mutex_destroy (&d->lock);
  free (d);
  return left ? -1 : 0;
}
