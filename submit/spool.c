/* spool.c: the offline queue (see spool.h).  Entries are self-contained
 * files; everything about an entry, including where it was meant to go,
 * is in its header, so the queue needs no index that could disagree with
 * the files. */
#include "submit/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/util.h"
#include "submit/config.h"
#include "submit/document.h"

/* MinGW-w64: mkdir takes no mode (a directory under the user's profile
 * is private already); O_CLOEXEC comes from windows/compat.h. */
#ifdef _WIN32
#define spool_mkdir(dir) mkdir (dir)
#else
#define spool_mkdir(dir) mkdir (dir, 0700)
#endif

#define SPOOL_MAGIC "gmpbench-spool/1"
#define SPOOL_SUFFIX ".spool"
#define REJECTED_SUFFIX ".rejected"
#define SPOOL_MAX_BYTES (16L << 20)

static char *
join (const char *dir, const char *name, const char *suffix)
{
  size_t n = strlen (dir) + strlen (name) + strlen (suffix) + 2;
  char *s = gb_xmalloc (n);
  snprintf (s, n, "%s/%s%s", dir, name, suffix);
  return s;
}

char *
spool_dir (char *err, size_t errlen)
{
  return config_path_in ('d', 0, "spool", err, errlen);
}

/* The spool directory, created if missing. */
static char *
make_spool_dir (char *err, size_t errlen)
{
  char *dir = config_path_in ('d', 1, "spool", err, errlen);
  if (dir && spool_mkdir (dir) != 0 && errno != EEXIST)
    {
      snprintf (err, errlen, "cannot create the spool directory %s: %s", dir, strerror (errno));
      free (dir);
      dir = NULL;
    }
  return dir;
}

int
spool_add (const char *server, int unlisted, const char *sig_b64,
           const char *bytes, size_t len, char **path_out, char *err, size_t errlen)
{
  char *dir = make_spool_dir (err, errlen);
  char id[65], *path, *buf;
  int hlen, rc;

  if (!dir)
    return -1;
  gb_sha256_hex (bytes, len, id);
  id[16] = '\0';
  path = join (dir, id, SPOOL_SUFFIX);
  hlen = snprintf (NULL, 0, "%s\nserver %s\nunlisted %d\nsignature %s\n\n",
                   SPOOL_MAGIC, server, unlisted ? 1 : 0, sig_b64);
  buf = gb_xmalloc ((size_t) hlen + len + 1);
  snprintf (buf, (size_t) hlen + 1, "%s\nserver %s\nunlisted %d\nsignature %s\n\n",
            SPOOL_MAGIC, server, unlisted ? 1 : 0, sig_b64);
  memcpy (buf + hlen, bytes, len);
  rc = document_write_atomic (path, buf, (size_t) hlen + len);
  if (rc != 0)
    snprintf (err, errlen, "cannot write the spool entry %s: %s", path, strerror (errno));
  if (rc == 0 && path_out)
    *path_out = path;
  else
    free (path);
  free (buf);
  free (dir);
  return rc;
}

static int
has_suffix (const char *name, const char *suffix)
{
  size_t n = strlen (name), s = strlen (suffix);
  return n > s && strcmp (name + n - s, suffix) == 0;
}

static int
compare_paths (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
spool_list (const char *suffix, char ***paths, size_t *n, char *err, size_t errlen)
{
  char *dir = spool_dir (err, errlen);
  DIR *d = dir ? opendir (dir) : NULL;
  struct dirent *de;

  *paths = NULL;
  *n = 0;
  if (!dir)
    return -1;
  if (!d)
    {
      int missing = errno == ENOENT;
      if (!missing)
        snprintf (err, errlen, "cannot read the spool directory %s: %s", dir, strerror (errno));
      free (dir);
      return missing ? 0 : -1;
    }
  while ((de = readdir (d)))
    if (has_suffix (de->d_name, suffix))
      {
        *paths = gb_xrealloc (*paths, (*n + 1) * sizeof **paths);
        (*paths)[(*n)++] = join (dir, de->d_name, "");
      }
  closedir (d);
  free (dir);
  if (*n)
    qsort (*paths, *n, sizeof **paths, compare_paths);
  return 0;
}

void
spool_list_free (char **paths, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (paths[i]);
  free (paths);
}

/* Reads the whole regular file PATH (at most SPOOL_MAX_BYTES). */
static char *
slurp (const char *path, size_t *len, char *err, size_t errlen)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  char *buf = NULL;
  size_t got = 0;

  if (fd < 0 || fstat (fd, &st) != 0)
    snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
  else if (!S_ISREG (st.st_mode) || st.st_size > SPOOL_MAX_BYTES)
    snprintf (err, errlen, "%s is not a spool entry (not a file, or too large)", path);
  else
    {
      buf = gb_xmalloc ((size_t) st.st_size + 1);
      while (got < (size_t) st.st_size)
        {
          ssize_t r = read (fd, buf + got, (size_t) st.st_size - got);
          if (r < 0 && errno == EINTR)
            continue;
          if (r <= 0)
            break;
          got += (size_t) r;
        }
      if (got != (size_t) st.st_size)
        {
          snprintf (err, errlen, "cannot read %s: %s", path, got ? "file changed" : strerror (errno));
          free (buf);
          buf = NULL;
        }
      else
        buf[got] = '\0';
    }
  if (fd >= 0)
    close (fd);
  *len = got;
  return buf;
}

/* If the line at *P is "KEY VALUE", returns VALUE (NUL-terminated in
 * place) and moves *P past the line; NULL otherwise. */
static char *
header (char **p, char *end, const char *key)
{
  size_t k = strlen (key);
  char *eol = memchr (*p, '\n', (size_t) (end - *p));
  char *val;
  if (!eol || (size_t) (eol - *p) <= k || strncmp (*p, key, k) != 0 || (*p)[k] != ' ')
    return NULL;
  val = *p + k + 1;
  *eol = '\0';
  *p = eol + 1;
  return val;
}

int
spool_read (const char *path, struct spool_entry *e, char *err, size_t errlen)
{
  size_t len;
  char *buf = slurp (path, &len, err, errlen);
  char *p = buf, *end = buf + len, *server, *unlisted, *sig;
  size_t mlen = strlen (SPOOL_MAGIC);

  memset (e, 0, sizeof e[0]);
  if (!buf)
    return -1;
  if (len > mlen && memcmp (p, SPOOL_MAGIC "\n", mlen + 1) == 0
      && (p += mlen + 1, server = header (&p, end, "server"))
      && (unlisted = header (&p, end, "unlisted"))
      && (sig = header (&p, end, "signature"))
      && p < end && *p == '\n'
      && (unlisted[0] == '0' || unlisted[0] == '1') && !unlisted[1]
      && strlen (sig) == SIGN_B64_LEN)
    {
      e->path = gb_xstrdup (path);
      e->server = gb_xstrdup (server);
      e->unlisted = unlisted[0] == '1';
      memcpy (e->signature, sig, SIGN_B64_LEN + 1);
      e->len = (size_t) (end - p - 1);
      e->bytes = gb_xmalloc (e->len + 1);
      memcpy (e->bytes, p + 1, e->len);
      e->bytes[e->len] = '\0';
      free (buf);
      return 0;
    }
  snprintf (err, errlen, "%s is damaged (not a gmpbench spool entry)", path);
  free (buf);
  return -1;
}

void
spool_entry_free (struct spool_entry *e)
{
  free (e->path);
  free (e->server);
  free (e->bytes);
  memset (e, 0, sizeof *e);
}

int
spool_remove (const struct spool_entry *e)
{
  return unlink (e->path);
}

int
spool_reject (const struct spool_entry *e)
{
  size_t n = strlen (e->path);
  char *to = gb_xmalloc (n + sizeof REJECTED_SUFFIX);
  int rc;
  memcpy (to, e->path, n - strlen (SPOOL_SUFFIX));
  strcpy (to + n - strlen (SPOOL_SUFFIX), REJECTED_SUFFIX);
  rc = rename (e->path, to);
  free (to);
  return rc;
}

#ifdef _WIN32
/* Windows has no kill (pid, 0) to tell that the process writing a
 * temporary file has ended, so no file is removed there. */
static int
remove_orphan (DIR *d, const char *name)
{
  (void) d;
  (void) name;
  return 0;
}
#else
/* The PID in a temporary name "....tmp.PID", or 0. */
static long
temp_pid (const char *name)
{
  const char *t = strstr (name, ".tmp.");
  char *end;
  long pid;
  if (!t)
    return 0;
  pid = strtol (t + 5, &end, 10);
  return *end == '\0' && pid > 0 ? pid : 0;
}

/* Removes the temporary file NAME of directory D when the process that
 * was writing it has ended; returns 1 when it did. */
static int
remove_orphan (DIR *d, const char *name)
{
  long pid = temp_pid (name);
  return pid && kill ((pid_t) pid, 0) != 0 && errno == ESRCH
    && unlinkat (dirfd (d), name, 0) == 0;
}
#endif

size_t
spool_clean (void)
{
  char err[256];
  char *dir = spool_dir (err, sizeof err);
  DIR *d = dir ? opendir (dir) : NULL;
  struct dirent *de;
  size_t removed = 0;

  while (d && (de = readdir (d)))
    removed += remove_orphan (d, de->d_name);
  if (d)
    closedir (d);
  free (dir);
  return removed;
}
