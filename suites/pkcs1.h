/* pkcs1.h: PKCS #1 v1.5 signature encoding (RFC 8017, 9.2), computed with
 * GMP as the independent check of every library's RSA signatures.
 *
 *   EM = 0x00 || 0x01 || 0xff...0xff || 0x00 || T
 *
 * T is the raw data for OpenSSL's `speed`-style signatures (a 36-byte
 * input, as TLS 1.0 signed MD5||SHA-1) and the DER DigestInfo of a SHA-256
 * digest for the libraries that sign digests (libgcrypt, Nettle).  With
 * it, GMP signs the inputs the libraries verify, and checks the
 * signatures they make, on the shared keys (rsa_key.h). */
#ifndef GB_PKCS1_H
#define GB_PKCS1_H

#include <stddef.h>
#include <gmp.h>
#include "engine/rsa_key.h"

#define PKCS1_SHA256_BYTES 32

/* The DigestInfo prefix that precedes a SHA-256 digest in T. */
extern const unsigned char pkcs1_sha256_prefix[19];

/* EM for T = PREFIX || DATA and a modulus of BITS bits, as a number;
 * PREFIX may be NULL with PREFIX_LEN 0. */
void pkcs1_encode (mpz_t em, unsigned long bits,
                   const unsigned char *prefix, size_t prefix_len,
                   const unsigned char *data, size_t len);

/* I2OSP: Z (0 <= Z < 256^K) as exactly K big-endian bytes. */
void pkcs1_i2osp (unsigned char *out, size_t k, const mpz_t z);

/* GMP's signature SIG of T = PREFIX || DATA with the key K (CRT,
 * rsa_sign_crt). */
void pkcs1_sign_gmp (mpz_t sig, const struct rsa_key *k,
                     const unsigned char *prefix, size_t prefix_len,
                     const unsigned char *data, size_t len);

/* Whether SIG^e mod n is EM for T = PREFIX || DATA under the key K. */
int pkcs1_signature_valid (const mpz_t sig, const struct rsa_key *k,
                           const unsigned char *prefix, size_t prefix_len,
                           const unsigned char *data, size_t len);

/* The N SHA-256 digests the libraries that sign digests sign, the same
 * for each: drawn from the operand stream STREAM (operand.h) of the name
 * "rsa-sha256-digests". */
void pkcs1_test_digests (unsigned char dig[][PKCS1_SHA256_BYTES], unsigned n, unsigned stream);

#endif
