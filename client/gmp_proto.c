/* gmp_proto.c: whole reads and writes on the pipes of gmp_proto.h. */
#include "client/gmp_proto.h"

#include <errno.h>
#include <unistd.h>

int
gmp_proto_write (int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0)
        return -1;
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

int
gmp_proto_read (int fd, void *buf, size_t len)
{
  char *p = buf;
  while (len > 0)
    {
      ssize_t n = read (fd, p, len);
      if (n == 0)
        errno = 0;
      if (n <= 0)
        return -1;
      p += n;
      len -= (size_t) n;
    }
  return 0;
}
