/* b64.h: standard base64 (RFC 4648 section 4) for keys and signatures.
 *
 * Decoding is strict: padding is required, no whitespace or other
 * characters are skipped, and the unused bits of the last group must be
 * zero, so every byte string has exactly one accepted encoding. */
#ifndef GB_B64_H
#define GB_B64_H

#include <stddef.h>

/* Decodes IN[0..INLEN) into OUT, which holds CAP bytes.  Returns the
 * decoded length, or -1 when the text is not canonical base64 or does not
 * fit. */
long b64_decode (const char *in, size_t inlen, unsigned char *out, size_t cap);

/* The base64 of IN[0..LEN), NUL-terminated, in malloc'ed memory. */
char *b64_encode (const unsigned char *in, size_t len);

#endif
