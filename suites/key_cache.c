/* key_cache.c: a mutex-protected list of generated RSA keys (see
 * key_cache.h).  Keys are generated while holding the lock, so two threads
 * asking for the same key never generate it twice. */
#include "suites/key_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include "common/util.h"

struct cached_key
{
  struct rsa_key key;
  unsigned stream;
  struct cached_key *next;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cached_key *cache;

static void
key_cache_free (void)
{
  while (cache)
    {
      struct cached_key *c = cache;
      cache = c->next;
      rsa_key_clear (&c->key);
      free (c);
    }
}

const struct rsa_key *
key_cache_rsa (unsigned long bits, unsigned stream)
{
  struct cached_key *c;
  pthread_mutex_lock (&cache_lock);
  for (c = cache; c; c = c->next)
    if (c->key.bits == bits && c->stream == stream)
      break;
  if (!c)
    {
      if (!cache)
        atexit (key_cache_free);
      c = gb_xmalloc (sizeof *c);
      rsa_key_generate (&c->key, bits, stream);
      c->stream = stream;
      c->next = cache;
      cache = c;
    }
  pthread_mutex_unlock (&cache_lock);
  return &c->key;
}
