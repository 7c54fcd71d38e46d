/* self_maps.c: /proc/self/maps read and searched (see self_maps.h).  The
 * file is read whole into memory, then split in place into one entry per
 * line: "start-end perms offset dev inode path". */
#include "sysinfo/self_maps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__aarch64__)
/* The system call NUMBER with four arguments, by instruction: the
 * kernel's result, a negated errno on failure. */
static long
raw_call (long number, long a, long b, long c, long d)
{
#if defined(__x86_64__)
  long ret;
  register long r10 __asm__ ("r10") = d;
  __asm__ volatile ("syscall"
                    : "=a" (ret)
                    : "a" (number), "D" (a), "S" (b), "d" (c), "r" (r10)
                    : "rcx", "r11", "memory");
  return ret;
#else
  register long x8 __asm__ ("x8") = number;
  register long x0 __asm__ ("x0") = a;
  register long x1 __asm__ ("x1") = b;
  register long x2 __asm__ ("x2") = c;
  register long x3 __asm__ ("x3") = d;
  __asm__ volatile ("svc 0"
                    : "+r" (x0)
                    : "r" (x8), "r" (x1), "r" (x2), "r" (x3)
                    : "memory", "cc");
  return x0;
#endif
}

static int
open_file (const char *path)
{
  long fd = raw_call (SYS_openat, AT_FDCWD, (long) path, O_RDONLY | O_CLOEXEC, 0);
  return fd < 0 ? -1 : (int) fd;
}

static long
read_some (int fd, char *buf, size_t n)
{
  long got = raw_call (SYS_read, fd, (long) buf, (long) n, 0);
  return got < 0 ? -1 : got;
}

static long
read_link (const char *path, char *buf, size_t n)
{
  long got = raw_call (SYS_readlinkat, AT_FDCWD, (long) path, (long) buf, (long) n);
  return got < 0 ? -1 : got;
}

static void
close_file (int fd)
{
  raw_call (SYS_close, fd, 0, 0, 0);
}
#else
static int
open_file (const char *path)
{
  return open (path, O_RDONLY | O_CLOEXEC);
}

static long
read_some (int fd, char *buf, size_t n)
{
  return (long) read (fd, buf, n);
}

static long
read_link (const char *path, char *buf, size_t n)
{
  return (long) readlink (path, buf, n);
}

static void
close_file (int fd)
{
  close (fd);
}
#endif

/* The whole of PATH, NUL-terminated; NULL if it cannot be read. */
static char *
slurp (const char *path)
{
  int fd = open_file (path);
  if (fd < 0)
    return NULL;
  size_t size = 65536, len = 0;
  char *text = gb_xmalloc (size);
  long got;
  while ((got = read_some (fd, text + len, size - len - 1)) > 0)
    {
      len += (size_t) got;
      if (size - len - 1 == 0)
        text = gb_xrealloc (text, size *= 2);
    }
  close_file (fd);
  if (got < 0)
    {
      free (text);
      return NULL;
    }
  text[len] = '\0';
  return text;
}

/* The hexadecimal number at *P, which moves past it. */
static uintptr_t
hex_at (char **p)
{
  uintptr_t v = 0;
  for (;; ++*p)
    {
      char c = **p;
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0)
        return v;
      v = v << 4 | (uintptr_t) d;
    }
}

/* *P past the next field and the blanks after it. */
static void
skip_field (char **p)
{
  while (**p && **p != ' ' && **p != '\n')
    ++*p;
  while (**p == ' ')
    ++*p;
}

/* Parses the line at LINE (NUL-terminated) into M; 0, or -1 if it is not
 * a mapping. */
static int
parse_line (char *line, struct self_map *m)
{
  char *p = line;
  m->start = hex_at (&p);
  if (*p++ != '-')
    return -1;
  m->end = hex_at (&p);
  if (*p++ != ' ' || strlen (p) < 4)
    return -1;
  m->exec = p[2] == 'x';
  for (int field = 0; field < 4; field++)   /* perms, offset, dev, inode */
    skip_field (&p);
  m->path = p;
  return 0;
}

int
self_maps_read (struct self_maps *maps)
{
  memset (maps, 0, sizeof *maps);
  maps->text = slurp ("/proc/self/maps");
  if (!maps->text)
    return -1;
  size_t lines = 1;
  for (const char *c = maps->text; *c; c++)
    lines += *c == '\n';
  maps->map = gb_xmalloc (lines * sizeof *maps->map);
  for (char *line = maps->text, *next; *line; line = next)
    {
      char *end = strchr (line, '\n');
      next = end ? end + 1 : line + strlen (line);
      if (end)
        *end = '\0';
      if (parse_line (line, &maps->map[maps->n]) == 0)
        maps->n++;
    }
  return 0;
}

int
self_maps_file_name (const char *path, char *out, size_t n)
{
  char link[64];
  int fd = -1;
  if (path[0] == '\0')
    snprintf (link, sizeof link, "/proc/self/exe");
  else if ((fd = open_file (path)) < 0)
    return -1;
  else
    snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  long got = n > 1 ? read_link (link, out, n - 1) : -1;
  if (fd >= 0)
    close_file (fd);
  if (got < 0)
    return -1;
  out[got] = '\0';
  return 0;
}
#else
int
self_maps_read (struct self_maps *maps)
{
  memset (maps, 0, sizeof *maps);
  return -1;
}

int
self_maps_file_name (const char *path, char *out, size_t n)
{
  (void) path, (void) out, (void) n;
  return -1;
}
#endif

void
self_maps_free (struct self_maps *maps)
{
  free (maps->map);
  free (maps->text);
  memset (maps, 0, sizeof *maps);
}

const struct self_map *
self_maps_code_at (const struct self_maps *maps, const void *address)
{
  uintptr_t a = (uintptr_t) address;
  for (size_t i = 0; i < maps->n; i++)
    if (maps->map[i].exec && a >= maps->map[i].start && a < maps->map[i].end)
      return &maps->map[i];
  return NULL;
}
