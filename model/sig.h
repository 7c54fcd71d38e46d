/* sig.h: Ed25519 verification and key fingerprints (OpenSSL libcrypto).
 *
 * Keys are the raw 32-byte public keys of RFC 8032, signatures the raw 64
 * bytes; the fingerprint of a key is the lower-case hex SHA-256 of its 32
 * bytes (docs/protocol.md). */
#ifndef GB_SIG_H
#define GB_SIG_H

#include <stddef.h>
#include "model/protocol.h"

#define SIG_KEY_BYTES PROTOCOL_KEY_BYTES
#define SIG_BYTES PROTOCOL_SIGNATURE_BYTES

/* 1 when SIG is a valid signature of MSG[0..LEN) by KEY, 0 otherwise
 * (also when the key is not a valid curve point). */
int sig_verify (const unsigned char key[SIG_KEY_BYTES], const void *msg, size_t len,
                const unsigned char sig[SIG_BYTES]);

void sig_fingerprint (const unsigned char key[SIG_KEY_BYTES], char out[65]);

#endif
