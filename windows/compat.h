/* windows/compat.h: the few POSIX names gmpbench's sources use that
 * MinGW-w64 lacks or spells differently.  The Windows build includes it
 * before every source file (-include, set in windows/sources.mk), so the
 * sources themselves stay POSIX; windows/compat.c implements what is not
 * a plain renaming. */
#ifndef GB_WINDOWS_COMPAT_H
#define GB_WINDOWS_COMPAT_H

/* MinGW's own printf family: C99 conversions (%zu, %lld, %Lg) on every
 * Windows, whatever the msvcrt.dll. */
#define __USE_MINGW_ANSI_STDIO 1
/* gmtime_r and localtime_r. */
#define _POSIX_THREAD_SAFE_FUNCTIONS 1

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Descriptors are not inherited by child processes unless asked for. */
#define O_CLOEXEC _O_NOINHERIT
/* gmpbench never creates symbolic links; Windows' stat follows them. */
#define O_NOFOLLOW 0
#define S_ISLNK(mode) 0
#define lstat stat
/* A directory cannot be opened as a file on Windows: the open fails and
 * the fsync of the directory that follows a rename is skipped, which
 * NTFS's journal makes unneeded. */
#define O_DIRECTORY 0
#define fsync _commit

static inline ssize_t
readlink (const char *path, char *buf, size_t len)
{
  (void) path, (void) buf, (void) len;
  errno = EINVAL;
  return -1;
}

/* rename that replaces an existing NEW, as POSIX's does. */
int gb_win_rename (const char *old, const char *new_path);
#define rename gb_win_rename

/* A hard link, failing with EEXIST when NEW exists. */
int gb_win_link (const char *old, const char *new_path);
#define link gb_win_link

/* open_memstream over a temporary file: the buffer and size are set when
 * the stream is closed, which fclose below does. */
FILE *open_memstream (char **bufp, size_t *sizep);
int gb_win_fclose (FILE *f);
#define fclose gb_win_fclose

/* sigaction over signal(): only sa_handler is used. */
struct sigaction
{
  void (*sa_handler) (int);
  int sa_flags;
  int sa_mask;
};
int sigaction (int sig, const struct sigaction *act, struct sigaction *old);

/* setitimer (ITIMER_REAL, ...) over a timer-queue timer: when it fires,
 * the handler sigaction gave SIGALRM runs, on the timer's thread (as the
 * console's Ctrl-C handler runs on a thread of its own).  One shot only:
 * it_interval is ignored. */
#ifndef SIGALRM
#define SIGALRM 14
#endif
#define ITIMER_REAL 0
struct itimerval
{
  struct timeval it_interval, it_value;
};
int setitimer (int which, const struct itimerval *value, struct itimerval *old);

#endif
