/* config.c: per-user directories, the config file and the server URL (see
 * config.h).  The config file is small, so it is read whole and rewritten
 * whole through document_write_atomic: a crash leaves the old or the new
 * file, never a mix. */
#include "submit/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "build_config.h"
#include "common/util.h"
#include "submit/document.h"

#define CONFIG_FILE_NAME "config"

/* MinGW-w64: mkdir takes no mode (a directory under the user's profile
 * is private already). */
#ifdef _WIN32
#define private_mkdir(dir) mkdir (dir)
#else
#define private_mkdir(dir) mkdir (dir, 0700)
#endif

static char *
join (const char *a, const char *b)
{
  size_t n = strlen (a) + strlen (b) + 2;
  char *s = gb_xmalloc (n);
  snprintf (s, n, "%s/%s", a, b);
  return s;
}

/* Whether PATH is absolute: /..., and on Windows also C:\..., C:/... or
 * \\server\share. */
static int
absolute (const char *path)
{
  if (!path)
    return 0;
#ifdef _WIN32
  if (isalpha ((unsigned char) path[0]) && path[1] == ':'
      && (path[2] == '\\' || path[2] == '/'))
    return 1;
  if (path[0] == '\\')
    return 1;
#endif
  return path[0] == '/';
}

/* The XDG variable of the configuration ('c'), data ('d') or state ('s')
 * directory. */
static const char *
xdg_variable (int which)
{
  return which == 'c' ? "XDG_CONFIG_HOME" : which == 'd' ? "XDG_DATA_HOME" : "XDG_STATE_HOME";
}

/* The directory that holds ours, and in *VAR the variable naming it: the
 * XDG variable when it is absolute, else %APPDATA% on Windows, else HOME.
 * NULL when that variable is unset. */
static const char *
base_dir (int which, const char **var)
{
  const char *xdg_var = xdg_variable (which);
  const char *xdg = getenv (xdg_var);

  if (absolute (xdg))
    {
      *var = xdg_var;
      return xdg;
    }
#ifdef _WIN32
  *var = "APPDATA";
#else
  *var = "HOME";
#endif
  return getenv (*var);
}

/* Our directory under HOME: the XDG spec's defaults, or macOS's one
 * directory for all three. */
static const char *
home_subdir (int which)
{
#ifdef __APPLE__
  (void) which;
  return "Library/Application Support/gmpbench";
#else
  return which == 'c' ? ".config/gmpbench" : which == 'd' ? ".local/share/gmpbench"
    : ".local/state/gmpbench";
#endif
}

char *
config_dir (int which, char *err, size_t errlen)
{
  const char *var, *base = base_dir (which, &var);
  const char *sub = "gmpbench";

  if (!absolute (base))
    {
      snprintf (err, errlen, "cannot find the %s directory: set %s or %s",
                which == 'c' ? "configuration" : which == 'd' ? "data" : "state", var,
                xdg_variable (which));
      return NULL;
    }
#ifndef _WIN32
  if (strcmp (var, "HOME") == 0)
    sub = home_subdir (which);
#endif
  return join (base, sub);
}

/* mkdir -p DIR with mode 0700.  0 or -1 (errno). */
static int
mkdirs (const char *dir)
{
  char *p = gb_xstrdup (dir);
  int rc = 0;
  for (char *s = p + 1; rc == 0; s++)
    {
      int end = *s == '\0';
      if (*s != '/' && !end)
        continue;
      *s = '\0';
      if (private_mkdir (p) != 0 && errno != EEXIST)
        rc = -1;
      if (end)
        break;
      *s = '/';
    }
  if (rc == 0)
    {
      struct stat st;
      if (stat (dir, &st) != 0)
        rc = -1;
      else if (!S_ISDIR (st.st_mode))
        {
          errno = ENOTDIR;
          rc = -1;
        }
    }
  int saved = errno;
  free (p);
  errno = saved;
  return rc;
}

char *
config_make_dir (int which, char *err, size_t errlen)
{
  const char *var, *base = base_dir (which, &var);
  char *dir = config_dir (which, err, errlen);
  struct stat st;

  if (!dir)
    return NULL;
  /* An XDG variable's directory is made with ours; a home is not. */
  if (strcmp (var, xdg_variable (which)) != 0
      && (stat (base, &st) != 0 || !S_ISDIR (st.st_mode)))
    snprintf (err, errlen, "the directory %s (%s) does not exist", base, var);
  else if (mkdirs (dir) != 0)
    snprintf (err, errlen, "cannot create %s: %s", dir, strerror (errno));
  else
    return dir;
  free (dir);
  return NULL;
}

char *
config_path_in (int which, int make, const char *name, char *err, size_t errlen)
{
  char *dir = make ? config_make_dir (which, err, errlen) : config_dir (which, err, errlen);
  char *path = dir ? join (dir, name) : NULL;
  free (dir);
  return path;
}

char *
config_file_path (char *err, size_t errlen)
{
  return config_path_in ('c', 0, CONFIG_FILE_NAME, err, errlen);
}

char *
config_read_text (const char *path, char *err, size_t errlen)
{
  FILE *f = fopen (path, "r");
  char *buf = NULL;
  size_t len = 0, cap = 0;

  if (!f && errno == ENOENT)
    return gb_xstrdup ("");
  if (!f)
    {
      snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
      return NULL;
    }
  for (;;)
    {
      if (cap - len < 4096)
        buf = gb_xrealloc (buf, cap = cap * 2 + 4096);
      size_t n = fread (buf + len, 1, cap - len - 1, f);
      len += n;
      if (n == 0)
        break;
    }
  buf[len] = '\0';
  if (ferror (f))
    {
      snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
      free (buf);
      buf = NULL;
    }
  fclose (f);
  return buf;
}

/* If LINE (up to EOL) is `NAME = VALUE`, points *VAL at VALUE and returns
 * its length (trailing blanks dropped); otherwise -1. */
static long
match_line (const char *line, const char *eol, const char *name, const char **val)
{
  size_t nlen = strlen (name);
  const char *p = line;
  while (p < eol && isblank ((unsigned char) *p))
    p++;
  if ((size_t) (eol - p) < nlen || strncmp (p, name, nlen) != 0)
    return -1;
  p += nlen;
  while (p < eol && isblank ((unsigned char) *p))
    p++;
  if (p == eol || *p != '=')
    return -1;
  p++;
  while (p < eol && isblank ((unsigned char) *p))
    p++;
  const char *e = eol;
  while (e > p && isspace ((unsigned char) e[-1]))
    e--;
  *val = p;
  return e - p;
}

int
config_get (const char *name, char **value, char *err, size_t errlen)
{
  char *path = config_file_path (err, errlen);
  char *text = path ? config_read_text (path, err, errlen) : NULL;
  free (path);
  if (!text)
    return -1;
  *value = NULL;
  for (const char *line = text; *line;)
    {
      const char *eol = strchr (line, '\n');
      const char *val;
      long n;
      if (!eol)
        eol = line + strlen (line);
      if (*line != '#' && (n = match_line (line, eol, name, &val)) >= 0)
        {
          free (*value);
          *value = gb_xmalloc ((size_t) n + 1);
          memcpy (*value, val, (size_t) n);
          (*value)[n] = '\0';
        }
      line = *eol ? eol + 1 : eol;
    }
  free (text);
  return 0;
}

int
config_set (const char *name, const char *value, char *err, size_t errlen)
{
  char *path = config_path_in ('c', 1, CONFIG_FILE_NAME, err, errlen);
  char *text = path ? config_read_text (path, err, errlen) : NULL;
  int rc = -1;

  if (text)
    {
      size_t cap = strlen (text) + strlen (name) + (value ? strlen (value) : 0) + 8;
      char *out = gb_xmalloc (cap), *o = out;
      for (const char *line = text; *line;)
        {
          const char *eol = strchr (line, '\n'), *val;
          if (!eol)
            eol = line + strlen (line);
          if (*line == '#' || match_line (line, eol, name, &val) < 0)
            {
              memcpy (o, line, (size_t) (eol - line));
              o += eol - line;
              *o++ = '\n';
            }
          line = *eol ? eol + 1 : eol;
        }
      if (value && *value)
        o += sprintf (o, "%s = %s\n", name, value);
      rc = document_save (path, out, (size_t) (o - out), err, errlen);
      free (out);
    }
  free (text);
  free (path);
  return rc;
}

/* The message for a client with no server set. */
static void
no_server (char *err, size_t errlen)
{
  char ignored[256];
  char *path = config_file_path (ignored, sizeof ignored);
  snprintf (err, errlen, "no results server is set: give --server URL, set the environment "
            "variable GMPBENCH_SERVER=URL, or write 'server = URL' in %s",
            path ? path : "the config file");
  free (path);
}

char *
config_server (const char *cli, const char **origin, char *err, size_t errlen)
{
  const char *env = getenv ("GMPBENCH_SERVER");
  char *url = NULL;

  *origin = NULL;
  if (cli)
    {
      url = gb_xstrdup (cli);
      *origin = CONFIG_ORIGIN_CLI;
    }
  else if (env && *env)
    {
      url = gb_xstrdup (env);
      *origin = CONFIG_ORIGIN_ENV;
    }
  else if (config_get ("server", &url, err, errlen) != 0)
    return NULL;
  else if (url)
    *origin = CONFIG_ORIGIN_FILE;
  else if (*GB_DEFAULT_SERVER)
    {
      url = gb_xstrdup (GB_DEFAULT_SERVER);
      *origin = CONFIG_ORIGIN_BUILD;
    }
  else
    {
      no_server (err, errlen);
      return NULL;
    }
  if ((strncmp (url, "http://", 7) != 0 && strncmp (url, "https://", 8) != 0)
      || strpbrk (url, " \t\r\n\"<>\\^`{|}"))
    {
      snprintf (err, errlen, "the server URL '%s' (from %s) is not an http:// or "
                "https:// URL", url, *origin);
      free (url);
      return NULL;
    }
  for (size_t n = strlen (url); n > 8 && url[n - 1] == '/'; n--)
    url[n - 1] = '\0';
  return url;
}
