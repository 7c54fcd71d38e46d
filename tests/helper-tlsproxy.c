/* helper-tlsproxy.c: a minimal TLS terminator for the TLS tests, standing
 * in front of a plain-HTTP gmpbench-server as nginx or stunnel would.
 *
 *   helper-tlsproxy CERT KEY BACKEND_PORT PORTFILE
 *
 * Listens on 127.0.0.1 on a free port (written to PORTFILE when ready),
 * completes a TLS handshake with CERT and KEY (PEM), connects to
 * 127.0.0.1:BACKEND_PORT and relays bytes both ways until either side
 * closes.  One connection at a time; a failed handshake (a client that
 * does not trust CERT) just drops that connection.  Ends when killed. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include "tests/helper-listen.h"

static int
connect_backend (int port)
{
  struct sockaddr_in a;
  int s = socket (AF_INET, SOCK_STREAM, 0);
  memset (&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons ((unsigned short) port);
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (s >= 0 && connect (s, (struct sockaddr *) &a, sizeof a) != 0)
    {
      close (s);
      s = -1;
    }
  return s;
}

/* Relays between the TLS session and the backend socket until one ends. */
static void
relay (SSL *ssl, int client, int backend)
{
  char buf[16384];
  for (;;)
    {
      struct pollfd p[2] = { { client, POLLIN, 0 }, { backend, POLLIN, 0 } };
      int n;
      if (SSL_pending (ssl) == 0 && poll (p, 2, -1) < 0)
        return;
      if (SSL_pending (ssl) > 0 || p[0].revents)
        {
          n = SSL_read (ssl, buf, sizeof buf);
          if (n <= 0 || write (backend, buf, (size_t) n) != n)
            return;
        }
      if (p[1].revents)
        {
          n = (int) read (backend, buf, sizeof buf);
          if (n <= 0 || SSL_write (ssl, buf, n) != n)
            return;
        }
    }
}

int
main (int argc, char **argv)
{
  SSL_CTX *ctx;
  int s;

  if (argc != 5)
    {
      fprintf (stderr, "usage: helper-tlsproxy CERT KEY BACKEND_PORT PORTFILE\n");
      return 2;
    }
  signal (SIGPIPE, SIG_IGN);
  ctx = SSL_CTX_new (TLS_server_method ());
  if (!ctx || SSL_CTX_use_certificate_chain_file (ctx, argv[1]) != 1
      || SSL_CTX_use_PrivateKey_file (ctx, argv[2], SSL_FILETYPE_PEM) != 1)
    {
      ERR_print_errors_fp (stderr);
      return 1;
    }
  if ((s = helper_listen (argv[4], "helper-tlsproxy")) < 0)
    return 1;
  for (;;)
    {
      int client = accept (s, NULL, NULL), backend;
      SSL *ssl;
      if (client < 0)
        continue;
      ssl = SSL_new (ctx);
      if (ssl && SSL_set_fd (ssl, client) == 1 && SSL_accept (ssl) == 1
          && (backend = connect_backend (atoi (argv[3]))) >= 0)
        {
          relay (ssl, client, backend);
          close (backend);
          SSL_shutdown (ssl);
        }
      SSL_free (ssl);
      close (client);
    }
}
