/* store_body.c: result documents compressed for storage and checked on
 * the way out (see store_body.h). */
#include "server/store/store_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "server/store/store_dict.h"
#include "common/util.h"

/* No stored document is larger (uploads are limited to 1 MiB): a frame
 * that says otherwise is damaged, and is not decompressed. */
#define MAX_DOCUMENT (16u << 20)

/* Decompresses PACKED into B->owned with a dictionary of DICTS: 0, or
 * -1 (-2: its dictionary is not known) with ERR set. */
static int
unpack (struct store_dicts *dicts, const void *packed, size_t packed_len, struct store_body *b,
        char *err, size_t errlen)
{
  unsigned long long size = ZSTD_getFrameContentSize (packed, packed_len);
  uint32_t id;
  long n;

  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > MAX_DOCUMENT)
    {
      snprintf (err, errlen, "its compressed document has no valid zstd frame header");
      return -1;
    }
  b->owned = gb_xmalloc ((size_t) size + 1);
  n = store_dicts_unpack (dicts, packed, packed_len, b->owned, (size_t) size, &id, err, errlen);
  if (n < 0)
    {
      free (b->owned);
      b->owned = NULL;
      return (int) n;
    }
  b->owned[n] = '\0';
  b->text = b->owned;
  b->len = (size_t) n;
  return 0;
}

int
store_body_open (struct store_dicts *dicts, const void *packed, size_t packed_len, const char *plain, size_t plain_len,
                 const char *sha256, struct store_body *b, char *err, size_t errlen)
{
  char hex[65];
  int rc;

  memset (b, 0, sizeof *b);
  if (packed)
    {
      if ((rc = unpack (dicts, packed, packed_len, b, err, errlen)) < 0)
        return rc;
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
