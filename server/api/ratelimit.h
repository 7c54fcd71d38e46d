/* ratelimit.h: token buckets keyed by a string (a client address, a key
 * fingerprint).
 *
 * Each key has a bucket holding up to BURST tokens that refills at RATE
 * tokens per second; a request takes one token or is refused with the
 * number of seconds until one is available.  Buckets that have refilled
 * completely are forgotten, so memory is bounded by the number of clients
 * active within the last BURST/RATE seconds.  Thread-safe.
 */
#ifndef GB_SERVER_RATELIMIT_H
#define GB_SERVER_RATELIMIT_H

struct ratelimit;

/* RATE <= 0 disables the limit (every request is allowed). */
struct ratelimit *ratelimit_new (double rate, double burst);
void ratelimit_free (struct ratelimit *rl);

/* 0 when KEY may proceed at time NOW (seconds, monotonic); otherwise the
 * whole seconds to wait (at least 1), for a Retry-After header. */
int ratelimit_take (struct ratelimit *rl, const char *key, double now);

#endif
