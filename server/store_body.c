/* store_body.c: result documents compressed for storage and checked on
 * the way out (see store_body.h). */
#include "server/store_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "common/util.h"

/* zstd's level: on whole runs level 1 compresses smaller than 3, and
 * faster (docs/server.md, "Storage", has the measurements). */
#define PACK_LEVEL 1
/* No stored document is larger (uploads are limited to 1 MiB): a frame
 * that says otherwise is damaged, and is not decompressed. */
#define MAX_DOCUMENT (16u << 20)

size_t
store_body_pack (const char *body, size_t len, unsigned char **out)
{
  size_t cap = ZSTD_compressBound (len);
  unsigned char *buf = gb_xmalloc (cap);
  size_t n = ZSTD_compress (buf, cap, body, len, PACK_LEVEL);

  if (ZSTD_isError (n))
    {
      free (buf);
      *out = NULL;
      return 0;
    }
  *out = buf;
  return n;
}

/* Decompresses PACKED into B->owned: 0, or -1 with ERR set. */
static int
unpack (const void *packed, size_t packed_len, struct store_body *b, char *err, size_t errlen)
{
  unsigned long long size = ZSTD_getFrameContentSize (packed, packed_len);

  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > MAX_DOCUMENT)
    {
      snprintf (err, errlen, "its compressed document has no valid zstd frame header");
      return -1;
    }
  b->owned = gb_xmalloc ((size_t) size + 1);
  size_t n = ZSTD_decompress (b->owned, (size_t) size, packed, packed_len);
  if (ZSTD_isError (n) || n != size)
    {
      snprintf (err, errlen, "its compressed document does not decompress (%s)",
                ZSTD_isError (n) ? ZSTD_getErrorName (n) : "short");
      free (b->owned);
      b->owned = NULL;
      return -1;
    }
  b->owned[n] = '\0';
  b->text = b->owned;
  b->len = n;
  return 0;
}

int
store_body_open (const void *packed, size_t packed_len, const char *plain, size_t plain_len,
                 const char *sha256, struct store_body *b, char *err, size_t errlen)
{
  char hex[65];

  memset (b, 0, sizeof *b);
  if (packed)
    {
      if (unpack (packed, packed_len, b, err, errlen) < 0)
        return -1;
    }
  else if (plain)
    {
      b->text = plain;
      b->len = plain_len;
    }
  else
    {
      snprintf (err, errlen, "no document is stored");
      return -1;
    }
  gb_sha256_hex (b->text, b->len, hex);
  if (!sha256 || strcmp (hex, sha256) != 0)
    {
      snprintf (err, errlen, "its stored document's SHA-256 is %s, not the %s it was stored "
                "with", hex, sha256 ? sha256 : "(none)");
      store_body_close (b);
      return -1;
    }
  return 0;
}

void
store_body_close (struct store_body *b)
{
  free (b->owned);
  memset (b, 0, sizeof *b);
}
