/* rootfs.c: reading the kernel's text files under a root directory, so
 * that the Linux reader works the same on the live system and on a
 * snapshot of /proc and /sys.  Also the two text formats those files use
 * most: CPU lists ("0-3,8") and "key : value" blocks (/proc/cpuinfo,
 * /proc/sysinfo, /etc/os-release after a small conversion). */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SI_MAX_FILE (4 << 20)   /* /proc/cpuinfo of a 1024-CPU box fits */

void
si_root_init (struct si_root *r, const char *root)
{
  size_t len;

  r->live = root == NULL || strcmp (root, "/") == 0 || root[0] == '\0';
  r->dir[0] = '\0';
  if (r->live)
    return;
  len = strlen (root);
  while (len > 1 && root[len - 1] == '/')
    len--;
  if (len >= sizeof r->dir)
    len = sizeof r->dir - 1;
  memcpy (r->dir, root, len);
  r->dir[len] = '\0';
}

static void
full_path (const struct si_root *r, const char *rel, char *buf, size_t n)
{
  snprintf (buf, n, "%s/%s", r->dir, rel[0] == '/' ? rel + 1 : rel);
}

int
si_exists (const struct si_root *r, const char *rel)
{
  char path[8192];
  struct stat st;

  full_path (r, rel, path, sizeof path);
  return stat (path, &st) == 0;
}

char *
si_read_bytes (const struct si_root *r, const char *rel, size_t *n)
{
  char path[8192];
  FILE *f;
  char *buf;
  size_t cap = 4096, len = 0, got;

  full_path (r, rel, path, sizeof path);
  f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  buf = gb_xmalloc (cap);
  while ((got = fread (buf + len, 1, cap - len - 1, f)) > 0)
    {
      len += got;
      if (len + 1 == cap)
        {
          if (cap >= SI_MAX_FILE)
            break;
          cap *= 2;
          buf = gb_xrealloc (buf, cap);
        }
    }
  if (ferror (f))
    {
      fclose (f);
      free (buf);
      return NULL;
    }
  fclose (f);
  buf[len] = '\0';
  *n = len;
  return buf;
}

char *
si_read (const struct si_root *r, const char *rel)
{
  size_t len;
  char *buf = si_read_bytes (r, rel, &len);

  if (buf == NULL)
    return NULL;
  while (len > 0 && isspace ((unsigned char) buf[len - 1]))
    len--;
  buf[len] = '\0';
  return buf;
}

int
si_read_long (const struct si_root *r, const char *rel, long *out)
{
  char *text = si_read (r, rel), *end;
  long v;

  if (text == NULL)
    return -1;
  errno = 0;
  v = strtol (text, &end, 0);
  if (errno != 0 || end == text)
    {
      free (text);
      return -1;
    }
  free (text);
  *out = v;
  return 0;
}

int
si_cpulist (const char *s, unsigned char *set, int max)
{
  int count = 0;

  memset (set, 0, (size_t) max);
  while (*s != '\0')
    {
      char *end;
      long lo = strtol (s, &end, 10), hi = lo;

      if (end == s || lo < 0)
        return -1;
      s = end;
      if (*s == '-')
        {
          hi = strtol (s + 1, &end, 10);
          if (end == s + 1 || hi < lo)
            return -1;
          s = end;
        }
      for (; lo <= hi && lo < max; lo++)
        if (!set[lo])
          {
            set[lo] = 1;
            count++;
          }
      if (*s == ',')
        s++;
      else if (*s != '\0' && !isspace ((unsigned char) *s))
        return -1;
      else
        while (isspace ((unsigned char) *s))
          s++;
    }
  return count;
}

/* Trims white space at both ends of [S, S+LEN) and returns a copy. */
static char *
trimmed_copy (const char *s, size_t len)
{
  char *out;

  while (len > 0 && isspace ((unsigned char) *s))
    s++, len--;
  while (len > 0 && isspace ((unsigned char) s[len - 1]))
    len--;
  out = gb_xmalloc (len + 1);
  memcpy (out, s, len);
  out[len] = '\0';
  return out;
}

static void
block_add (struct si_block *b, const char *line, size_t len)
{
  const char *colon = memchr (line, ':', len);

  if (colon == NULL)
    return;
  b->kv = gb_xrealloc (b->kv, (size_t) (b->n + 1) * sizeof *b->kv);
  b->kv[b->n].key = trimmed_copy (line, (size_t) (colon - line));
  b->kv[b->n].val = trimmed_copy (colon + 1, len - (size_t) (colon - line) - 1);
  b->n++;
}

int
si_kvfile_parse (const char *text, struct si_kvfile *out)
{
  struct si_block *cur = NULL;

  out->blocks = NULL;
  out->nblocks = 0;
  while (*text != '\0')
    {
      const char *nl = strchr (text, '\n');
      size_t len = nl ? (size_t) (nl - text) : strlen (text);
      size_t i = 0;

      while (i < len && isspace ((unsigned char) text[i]))
        i++;
      if (i == len)
        cur = NULL;
      else
        {
          if (cur == NULL)
            {
              out->blocks = gb_xrealloc (out->blocks, (size_t) (out->nblocks + 1)
                                         * sizeof *out->blocks);
              cur = &out->blocks[out->nblocks++];
              cur->kv = NULL;
              cur->n = 0;
            }
          block_add (cur, text, len);
        }
      text += len + (nl != NULL);
    }
  return out->nblocks;
}

void
si_kvfile_free (struct si_kvfile *f)
{
  int i, j;

  for (i = 0; i < f->nblocks; i++)
    {
      for (j = 0; j < f->blocks[i].n; j++)
        {
          free (f->blocks[i].kv[j].key);
          free (f->blocks[i].kv[j].val);
        }
      free (f->blocks[i].kv);
    }
  free (f->blocks);
  f->blocks = NULL;
  f->nblocks = 0;
}

const char *
si_block_get (const struct si_block *b, const char *key)
{
  int i;

  for (i = 0; i < b->n; i++)
    if (strcmp (b->kv[i].key, key) == 0)
      return b->kv[i].val;
  return NULL;
}

const char *
si_kvfile_get (const struct si_kvfile *f, const char *key)
{
  int i;

  for (i = 0; i < f->nblocks; i++)
    {
      const char *v = si_block_get (&f->blocks[i], key);
      if (v != NULL)
        return v;
    }
  return NULL;
}
