/* key_cache.h: RSA keys generated once per process.
 *
 * A deterministic RSA key is cheap at 2048 bits but takes half a minute at
 * 15360, and every library's sign and verify tests of a size need the same
 * key.  The cache keeps each (size, stream) key from its first use to the
 * end of the process; it is safe to call from several threads (--threads),
 * and the keys are freed at exit. */
#ifndef GB_KEY_CACHE_H
#define GB_KEY_CACHE_H

#include "suites/rsa_key.h"

/* The key rsa_key_generate (K, BITS, STREAM) gives; never NULL.  The key
 * is shared: callers must not modify or clear it. */
const struct rsa_key *key_cache_rsa (unsigned long bits, unsigned stream);

#endif
