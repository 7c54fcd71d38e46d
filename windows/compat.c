/* windows/compat.c: the POSIX functions of windows/compat.h and
 * windows/include/ that need code on Windows (rename over an existing
 * file, link, open_memstream, sigaction, fnmatch, the console's width),
 * and binary files by default. */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <windows.h>

#undef fclose
#undef rename
#undef link

/* Files are opened in binary mode unless "t" is asked for, as on POSIX:
 * the bytes of a result document on disk are the bytes that were signed.
 * The standard streams, open already, stay in text mode.  (MinGW-w64's
 * binmode.o, meant for this, is empty in Debian's mingw-w64 10.)  This
 * file is always linked: the sources' rename and fclose are here. */
__attribute__ ((constructor)) static void
binary_files (void)
{
  _fmode = _O_BINARY;
}

/* errno for the last Windows error of a file operation. */
static int
errno_of_last_error (void)
{
  switch (GetLastError ())
    {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
      return ENOENT;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
      return EEXIST;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
      return EACCES;
    case ERROR_NOT_SAME_DEVICE:
      return EXDEV;
    case ERROR_DISK_FULL:
      return ENOSPC;
    default:
      return EIO;
    }
}

int
gb_win_rename (const char *old, const char *new_path)
{
  if (MoveFileExA (old, new_path, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    return 0;
  errno = errno_of_last_error ();
  return -1;
}

int
gb_win_link (const char *old, const char *new_path)
{
  if (CreateHardLinkA (new_path, old, NULL))
    return 0;
  errno = errno_of_last_error ();
  return -1;
}

/* ---------------------------------------------------------------- memstream */

struct memstream
{
  FILE *f;
  char **bufp;
  size_t *sizep;
};

#define MAX_MEMSTREAMS 16
static struct memstream memstreams[MAX_MEMSTREAMS];
static CRITICAL_SECTION memstream_lock;
static INIT_ONCE memstream_once = INIT_ONCE_STATIC_INIT;

static BOOL CALLBACK
init_memstream_lock (PINIT_ONCE once, PVOID param, PVOID *context)
{
  (void) once, (void) param, (void) context;
  InitializeCriticalSection (&memstream_lock);
  return TRUE;
}

/* A temporary file deleted when closed, opened for reading and writing. */
static FILE *
temporary_stream (void)
{
  char dir[MAX_PATH + 1], path[MAX_PATH + 1];
  DWORD n = GetTempPathA (sizeof dir, dir);
  if (n == 0 || n > sizeof dir || !GetTempFileNameA (dir, "gb", 0, path))
    {
      errno = errno_of_last_error ();
      return NULL;
    }
  int fd = _open (path, _O_RDWR | _O_BINARY | _O_TEMPORARY | _O_SHORT_LIVED | _O_NOINHERIT);
  if (fd < 0)
    {
      DeleteFileA (path);
      return NULL;
    }
  FILE *f = _fdopen (fd, "w+b");
  if (!f)
    _close (fd);
  return f;
}

FILE *
open_memstream (char **bufp, size_t *sizep)
{
  InitOnceExecuteOnce (&memstream_once, init_memstream_lock, NULL, NULL);
  FILE *f = temporary_stream ();
  if (!f)
    return NULL;
  EnterCriticalSection (&memstream_lock);
  int slot = 0;
  while (slot < MAX_MEMSTREAMS && memstreams[slot].f)
    slot++;
  if (slot < MAX_MEMSTREAMS)
    memstreams[slot] = (struct memstream) { f, bufp, sizep };
  LeaveCriticalSection (&memstream_lock);
  if (slot == MAX_MEMSTREAMS)
    {
      fclose (f);
      errno = EMFILE;
      return NULL;
    }
  return f;
}

/* The whole content of F as a NUL-terminated string, its length in *SIZE. */
static char *
read_back (FILE *f, size_t *size)
{
  long end;
  if (fflush (f) != 0 || fseek (f, 0, SEEK_END) != 0 || (end = ftell (f)) < 0
      || fseek (f, 0, SEEK_SET) != 0)
    return NULL;
  char *buf = malloc ((size_t) end + 1);
  if (!buf)
    return NULL;
  if (fread (buf, 1, (size_t) end, f) != (size_t) end)
    {
      free (buf);
      return NULL;
    }
  buf[end] = '\0';
  *size = (size_t) end;
  return buf;
}

int
gb_win_fclose (FILE *f)
{
  struct memstream ms = { NULL, NULL, NULL };
  if (InitOnceExecuteOnce (&memstream_once, init_memstream_lock, NULL, NULL))
    {
      EnterCriticalSection (&memstream_lock);
      for (int i = 0; i < MAX_MEMSTREAMS; i++)
        if (memstreams[i].f == f)
          {
            ms = memstreams[i];
            memstreams[i].f = NULL;
          }
      LeaveCriticalSection (&memstream_lock);
    }
  if (!ms.f)
    return fclose (f);
  size_t size = 0;
  char *buf = read_back (f, &size);
  int rc = fclose (f);
  if (!buf)
    return EOF;
  *ms.bufp = buf;
  *ms.sizep = size;
  return rc;
}

/* ---------------------------------------------------------------- signals */

static void (*alarm_handler) (int);
static HANDLE alarm_timer;

static VOID CALLBACK
alarm_fired (PVOID param, BOOLEAN timed_out)
{
  (void) param;
  (void) timed_out;
  if (alarm_handler)
    alarm_handler (SIGALRM);
}

int
setitimer (int which, const struct itimerval *value, struct itimerval *old)
{
  if (which != ITIMER_REAL || !value)
    {
      errno = EINVAL;
      return -1;
    }
  if (old)
    memset (old, 0, sizeof *old);
  if (alarm_timer)
    {
      DeleteTimerQueueTimer (NULL, alarm_timer, NULL);
      alarm_timer = NULL;
    }
  long long ms = (long long) value->it_value.tv_sec * 1000 + value->it_value.tv_usec / 1000;
  if (value->it_value.tv_sec == 0 && value->it_value.tv_usec == 0)
    return 0;
  if (!CreateTimerQueueTimer (&alarm_timer, NULL, alarm_fired, NULL,
                              (DWORD) (ms > 0 ? ms : 1), 0, WT_EXECUTEONLYONCE))
    {
      alarm_timer = NULL;
      errno = ENOMEM;
      return -1;
    }
  return 0;
}

int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  if (sig == SIGALRM)
    {
      if (old)
        *old = (struct sigaction) { alarm_handler ? alarm_handler : SIG_DFL, 0, 0 };
      if (act)
        alarm_handler = act->sa_handler;
      return 0;
    }
  void (*prev) (int) = act ? signal (sig, act->sa_handler) : SIG_DFL;
  if (prev == SIG_ERR)
    return -1;
  if (old)
    *old = (struct sigaction) { prev, 0, 0 };
  return 0;
}

/* ---------------------------------------------------------------- fnmatch */

/* Whether C matches the bracket expression starting after '[' at *P;
 * *P is left after its ']'.  -1 when the expression is not closed. */
static int
bracket_match (const char **p, unsigned char c)
{
  const char *s = *p;
  int negate = *s == '!' || *s == '^';
  int match = 0;
  if (negate)
    s++;
  for (int first = 1; *s && (first || *s != ']'); first = 0)
    {
      unsigned char lo = (unsigned char) *s++, hi = lo;
      if (*s == '-' && s[1] && s[1] != ']')
        {
          hi = (unsigned char) s[1];
          s += 2;
        }
      if (lo <= c && c <= hi)
        match = 1;
    }
  if (*s != ']')
    return -1;
  *p = s + 1;
  return match != negate;
}

int
fnmatch (const char *pattern, const char *string, int flags)
{
  (void) flags;
  const char *p = pattern, *s = string;
  const char *star_p = NULL, *star_s = NULL;
  while (*s)
    {
      const char *next = p + 1;
      int ok;
      if (*p == '*')
        {
          star_p = ++p;
          star_s = s;
          continue;
        }
      if (*p == '?')
        ok = 1;
      else if (*p == '[' && (ok = bracket_match (&next, (unsigned char) *s)) >= 0)
        ;
      else
        ok = *p == *s;
      if (ok && *p)
        {
          p = *p == '[' ? next : p + 1;
          s++;
        }
      else if (star_p)
        {
          p = star_p;
          s = ++star_s;
        }
      else
        return FNM_NOMATCH;
    }
  while (*p == '*')
    p++;
  return *p ? FNM_NOMATCH : 0;
}

/* ---------------------------------------------------------------- ioctl */

int
ioctl (int fd, unsigned long request, ...)
{
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (request != TIOCGWINSZ
      || !GetConsoleScreenBufferInfo ((HANDLE) _get_osfhandle (fd), &info))
    {
      errno = ENOTTY;
      return -1;
    }
  va_list ap;
  va_start (ap, request);
  struct winsize *ws = va_arg (ap, struct winsize *);
  va_end (ap);
  ws->ws_col = (unsigned short) (info.srWindow.Right - info.srWindow.Left + 1);
  ws->ws_row = (unsigned short) (info.srWindow.Bottom - info.srWindow.Top + 1);
  ws->ws_xpixel = ws->ws_ypixel = 0;
  return 0;
}
