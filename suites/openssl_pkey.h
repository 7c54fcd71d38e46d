/* openssl_pkey.h: OpenSSL keys made of GMP's numbers (EVP_PKEY_fromdata),
 * so that OpenSSL's RSA, DH and DSA tests compute with the very keys of
 * GMP's (key_cache.h, dl_key.h). */
#ifndef GB_OPENSSL_PKEY_H
#define GB_OPENSSL_PKEY_H

#include <gmp.h>
#include <openssl/evp.h>

/* The most numbers a key is made of (an RSA key pair's eight). */
#define OPENSSL_PKEY_MAX_PARAMS 8

/* A key of TYPE ("RSA", "DH", "DSA") from the N <= OPENSSL_PKEY_MAX_PARAMS
 * numbers VALUES under the parameter names NAMES (OSSL_PKEY_PARAM_...),
 * and the group name GROUP if not NULL; SELECTION as for
 * EVP_PKEY_fromdata.  NULL on failure. */
EVP_PKEY *openssl_pkey_from (const char *type, const char *group, int selection, int n,
                             const char *const names[], const mpz_srcptr values[]);

#endif
