/* json_check.h: a strict, allocation-free scan of untrusted JSON bytes.
 *
 * Before a document reaches the cJSON parser, this scanner decides whether
 * the bytes are exactly RFC 8259 JSON text in valid UTF-8 (no overlong
 * forms, no surrogates, no NUL), nested no deeper than a limit.  cJSON is
 * lenient (it accepts leading zeros, raw control characters in strings and
 * more); the scan makes what the server accepts independent of that.
 */
#ifndef GB_JSON_CHECK_H
#define GB_JSON_CHECK_H

#include <stddef.h>

struct json_check_error
{
  const char *rule;             /* "json-syntax", "utf8" or "too-deep" */
  size_t offset;                /* byte offset of the problem */
  const char *what;             /* a short description */
};

/* 0 when BUF[0..LEN) is one JSON value (with optional surrounding
 * whitespace) nested at most MAX_DEPTH arrays/objects deep; -1 with ERR
 * filled otherwise. */
int json_check (const char *buf, size_t len, int max_depth, struct json_check_error *err);

/* Whether BUF[0..LEN) is valid UTF-8 without NUL bytes. */
int json_utf8_valid (const char *buf, size_t len);

#endif
