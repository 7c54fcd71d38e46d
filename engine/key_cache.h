/* key_cache.h: RSA keys and DSA parameters generated once per process.
 *
 * Deterministic key material is cheap at small sizes but takes seconds
 * (DSA 2048, RSA 7680) to half a minute (RSA 15360), and every library's
 * tests of a size need the same.  The cache keeps each key
 * from its first use to the end of the process; it is safe to call from
 * several threads (--threads), and the keys are freed at exit. */
#ifndef GB_KEY_CACHE_H
#define GB_KEY_CACHE_H

#include "engine/dl_key.h"
#include "engine/rsa_key.h"

/* The key rsa_key_generate (K, BITS) gives; never NULL.  The key is
 * shared: callers must not modify or clear it. */
const struct rsa_key *key_cache_rsa (unsigned long bits);

/* The key dsa_key_generate (K, L, N, STREAM) gives, shared likewise. */
const struct dsa_key *key_cache_dsa (unsigned long L, unsigned long N, unsigned stream);

#endif
