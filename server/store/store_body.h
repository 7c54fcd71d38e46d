/* store_body.h: result documents as the store keeps them: compressed
 * with zstd (one frame, its content size and its dictionary's id, if
 * any, in its header: store_dict.h), and checked
 * against their SHA-256 whenever they are read back, so that the bytes
 * served are the bytes that were signed or nothing.
 *
 * A result stored before compression (schema 11 and earlier, until the
 * backfill of migration 12 reaches it) still has its document as plain
 * text; store_body_open takes either.
 */
#ifndef GB_SERVER_STORE_BODY_H
#define GB_SERVER_STORE_BODY_H

#include <stddef.h>
#include "server/store/store_dict.h"

/* A document read back: TEXT, LEN bytes, NUL-terminated, valid until
 * store_body_close. */
struct store_body
{
  const char *text;
  size_t len;
  char *owned;                  /* what TEXT points into, when decompressed */
};

/* The document of a stored result: PACKED (PACKED_LEN bytes, with a
 * dictionary of DICTS or none) when not NULL, else PLAIN (PLAIN_LEN
 * bytes), whose SHA-256 must be SHA256 (hex).  0, or -1 with *B empty
 * and a message in ERR saying what is wrong; -2 when PACKED names a
 * dictionary DICTS does not know (yet: it may be stored since). */
int store_body_open (struct store_dicts *dicts, const void *packed, size_t packed_len, const char *plain, size_t plain_len,
                     const char *sha256, struct store_body *b, char *err, size_t errlen);
void store_body_close (struct store_body *b);

#endif
