/* sign.h: Ed25519 signatures as docs/protocol.md defines them, and the
 * detached signature file that sits next to a result document.
 *
 * A result FILE is signed in FILE.sig: one line, the standard base64 (RFC
 * 4648, with padding) of the raw 64-byte signature over the exact bytes of
 * FILE, and a newline.  The text is the value of the upload's
 * Gmpbench-Signature header, so a file, its .sig and curl are enough to
 * upload by hand (docs/signing.md).  Base64 decoding is strict (one
 * accepted encoding per byte string), like the server's. */
#ifndef GB_SUBMIT_SIGN_H
#define GB_SUBMIT_SIGN_H

#include <stddef.h>
#include "model/protocol.h"

#define SIGN_KEY_BYTES PROTOCOL_KEY_BYTES
#define SIGN_BYTES PROTOCOL_SIGNATURE_BYTES
#define SIGN_KEY_B64_LEN 44     /* base64 of 32 bytes, without the NUL */
#define SIGN_B64_LEN 88         /* base64 of 64 bytes, without the NUL */

/* Base64 of IN into OUT, which holds 4 * ((LEN + 2) / 3) + 1 chars. */
void sign_b64_encode (const unsigned char *in, size_t len, char *out);

/* Decodes NUL-terminated IN into exactly WANT bytes of OUT; 0, or -1 when
 * IN is not the canonical base64 of WANT bytes. */
int sign_b64_decode (const char *in, unsigned char *out, size_t want);

/* Checks SIG_B64 over DATA[0..LEN) against the base64 public key KEY_B64.
 * 0 when valid; -1 with a message in ERR otherwise. */
int sign_verify (const char *key_b64, const void *data, size_t len,
                 const char *sig_b64, char *err, size_t errlen);

/* The message a retraction signs: "gmpbench-retract:" ID, malloc'ed. */
char *sign_retract_message (const char *id);

/* malloc'ed "FILE.sig". */
char *sign_file_path (const char *file);

/* Reads FILE.sig into SIG_B64 (one base64 line, surrounding blanks and the
 * final newline ignored).  0; 1 when FILE.sig does not exist; -1 with a
 * message in ERR when it cannot be read or holds no signature. */
int sign_read_file (const char *file, char sig_b64[SIGN_B64_LEN + 1],
                    char *err, size_t errlen);

/* Writes SIG_B64 and a newline to FILE.sig atomically.  0, or -1 with a
 * message in ERR. */
int sign_write_file (const char *file, const char *sig_b64, char *err, size_t errlen);

#endif
