/* store_dict.c: the zstd dictionaries of stored documents, in memory
 * (see store_dict.h). */
#include "server/store/store_dict.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include <zstd.h>
#include "common/util.h"

/* zstd's level for an upload, with a dictionary or without: with one,
 * level 1 is within 0.5% of level 3 on whole runs and the fastest; and
 * for the repack, in the background, where a higher level is worth its
 * time (docs/server.md, "Storage", has the measurements). */
#define UPLOAD_LEVEL 1
#define REPACK_LEVEL 15
/* The largest dictionary trained (zstd's own default): on whole runs of
 * 180 KB, smaller ones lose more than they save. */
#define DICT_CAPACITY (110u << 10)

struct dict
{
  uint32_t id;
  ZSTD_CDict *cdict[2];          /* at UPLOAD_LEVEL, at REPACK_LEVEL */
  ZSTD_DDict *ddict;
};

struct store_dicts
{
  pthread_rwlock_t lock;
  struct dict *all;
  size_t n, cap;
  size_t newest;                /* index in ALL, when N > 0 */
};

struct store_dicts *
store_dicts_new (void)
{
  struct store_dicts *d = gb_xcalloc (1, sizeof *d);
  pthread_rwlock_init (&d->lock, NULL);
  return d;
}

void
store_dicts_free (struct store_dicts *d)
{
  if (!d)
    return;
  for (size_t i = 0; i < d->n; i++)
    {
      ZSTD_freeCDict (d->all[i].cdict[0]);
      ZSTD_freeCDict (d->all[i].cdict[1]);
      ZSTD_freeDDict (d->all[i].ddict);
    }
  free (d->all);
  pthread_rwlock_destroy (&d->lock);
  free (d);
}

/* The index of ID in D->all, or D->n; the caller holds the lock. */
static size_t
find (const struct store_dicts *d, uint32_t id)
{
  size_t i = 0;
  while (i < d->n && d->all[i].id != id)
    i++;
  return i;
}

int
store_dicts_add (struct store_dicts *d, uint32_t id, const void *content, size_t len,
                 int newest, char *err, size_t errlen)
{
  struct dict e = { id, { NULL, NULL }, NULL };
  size_t i;

  if (id == 0 || ZDICT_getDictID (content, len) != id)
    {
      snprintf (err, errlen, "dictionary %lu is not a zstd dictionary of that id",
                (unsigned long) id);
      return -1;
    }
  pthread_rwlock_wrlock (&d->lock);
  i = find (d, id);
  if (i == d->n)
    {
      e.cdict[0] = ZSTD_createCDict (content, len, UPLOAD_LEVEL);
      e.cdict[1] = ZSTD_createCDict (content, len, REPACK_LEVEL);
      e.ddict = ZSTD_createDDict (content, len);
      if (!e.cdict[0] || !e.cdict[1] || !e.ddict)
        {
          pthread_rwlock_unlock (&d->lock);
          ZSTD_freeCDict (e.cdict[0]);
          ZSTD_freeCDict (e.cdict[1]);
          ZSTD_freeDDict (e.ddict);
          snprintf (err, errlen, "zstd cannot load dictionary %lu", (unsigned long) id);
          return -1;
        }
      if (d->n == d->cap)
        {
          d->cap = d->cap ? 2 * d->cap : 4;
          d->all = gb_xrealloc (d->all, d->cap * sizeof *d->all);
        }
      d->all[d->n++] = e;
    }
  if (newest || d->n == 1)
    d->newest = i;
  pthread_rwlock_unlock (&d->lock);
  return 0;
}

int
store_dicts_known (struct store_dicts *d, uint32_t id)
{
  pthread_rwlock_rdlock (&d->lock);
  int known = find (d, id) < d->n;
  pthread_rwlock_unlock (&d->lock);
  return known;
}

uint32_t
store_dicts_newest (struct store_dicts *d)
{
  pthread_rwlock_rdlock (&d->lock);
  uint32_t id = d->n ? d->all[d->newest].id : 0;
  pthread_rwlock_unlock (&d->lock);
  return id;
}

size_t
store_dicts_pack (struct store_dicts *d, const char *body, size_t len, int repack,
                  unsigned char **out)
{
  size_t cap = ZSTD_compressBound (len), n;
  unsigned char *buf = gb_xmalloc (cap);
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();

  pthread_rwlock_rdlock (&d->lock);
  if (!cctx)
    n = (size_t) -1;
  else if (d->n)
    n = ZSTD_compress_usingCDict (cctx, buf, cap, body, len, d->all[d->newest].cdict[repack]);
  else
    n = ZSTD_compressCCtx (cctx, buf, cap, body, len, repack ? REPACK_LEVEL : UPLOAD_LEVEL);
  pthread_rwlock_unlock (&d->lock);
  ZSTD_freeCCtx (cctx);
  if (ZSTD_isError (n))
    {
      free (buf);
      *out = NULL;
      return 0;
    }
  *out = buf;
  return n;
}

long
store_dicts_unpack (struct store_dicts *d, const void *packed, size_t packed_len, char *out,
                    size_t cap, uint32_t *id, char *err, size_t errlen)
{
  ZSTD_DCtx *dctx = ZSTD_createDCtx ();
  size_t n, i;

  *id = ZSTD_getDictID_fromFrame (packed, packed_len);
  if (!dctx)
    {
      snprintf (err, errlen, "zstd cannot make a decompression context");
      return -1;
    }
  pthread_rwlock_rdlock (&d->lock);
  i = find (d, *id);
  if (*id && i == d->n)
    {
      pthread_rwlock_unlock (&d->lock);
      ZSTD_freeDCtx (dctx);
      snprintf (err, errlen, "its compressed document names dictionary %lu, which is not "
                "stored", (unsigned long) *id);
      return -2;
    }
  n = *id ? ZSTD_decompress_usingDDict (dctx, out, cap, packed, packed_len, d->all[i].ddict)
    : ZSTD_decompressDCtx (dctx, out, cap, packed, packed_len);
  pthread_rwlock_unlock (&d->lock);
  ZSTD_freeDCtx (dctx);
  if (ZSTD_isError (n) || n != cap)
    {
      snprintf (err, errlen, "its compressed document does not decompress (%s)",
                ZSTD_isError (n) ? ZSTD_getErrorName (n) : "short");
      return -1;
    }
  return (long) n;
}

size_t
store_dict_train (const void *samples, const size_t *sizes, unsigned n, unsigned char **out,
                  char *err, size_t errlen)
{
  unsigned char *buf = gb_xmalloc (DICT_CAPACITY);
  size_t len = ZDICT_trainFromBuffer (buf, DICT_CAPACITY, samples, sizes, n);

  if (ZDICT_isError (len))
    {
      snprintf (err, errlen, "zstd cannot train a dictionary on %u documents (%s)", n,
                ZDICT_getErrorName (len));
      free (buf);
      *out = NULL;
      return 0;
    }
  *out = buf;
  return len;
}
