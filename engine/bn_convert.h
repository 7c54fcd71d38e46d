/* bn_convert.h: moving numbers between GMP and OpenSSL's BIGNUM.
 *
 * The comparison tests draw their operands with GMP (operand.h), so that
 * every library works on the very same numbers, then convert them once in
 * setup; results come back the same way to be checked against GMP.  The
 * conversion goes through big-endian bytes, the one format both libraries
 * read and write, and keeps the sign. */
#ifndef GB_BN_CONVERT_H
#define GB_BN_CONVERT_H

#include <gmp.h>
#include <openssl/bn.h>

/* A new BIGNUM equal to Z, or NULL if OpenSSL could not allocate it. */
BIGNUM *bn_from_mpz (const mpz_t z);

/* Sets Z to B. */
void bn_to_mpz (mpz_t z, const BIGNUM *b);

#endif
