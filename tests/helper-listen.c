/* helper-listen.c: the network helpers' listening socket on a free
 * loopback port (see helper-listen.h). */
#include "tests/helper-listen.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int
helper_listen (const char *portfile, const char *who)
{
  struct sockaddr_in a;
  socklen_t alen = sizeof a;
  int s = socket (AF_INET, SOCK_STREAM, 0);
  memset (&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (s < 0 || bind (s, (struct sockaddr *) &a, sizeof a) != 0 || listen (s, 16) != 0
      || getsockname (s, (struct sockaddr *) &a, &alen) != 0)
    {
      fprintf (stderr, "%s: listen: %s\n", who, strerror (errno));
      if (s >= 0)
        close (s);
      return -1;
    }
  FILE *pf = fopen (portfile, "w");
  if (!pf || fprintf (pf, "%d\n", ntohs (a.sin_port)) < 0 || fclose (pf) != 0)
    {
      fprintf (stderr, "%s: port file %s: %s\n", who, portfile, strerror (errno));
      close (s);
      return -1;
    }
  return s;
}
