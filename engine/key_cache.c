/* key_cache.c: a mutex-protected list of generated keys (see
 * key_cache.h).  Keys are generated while holding the lock, so two threads
 * asking for the same key never generate it twice. */
#include "engine/key_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include "common/util.h"

enum key_kind { KEY_RSA, KEY_DSA };

struct cached_key
{
  enum key_kind kind;
  unsigned long a, b;           /* RSA: bits, 0; DSA: L, N */
  unsigned stream;
  struct rsa_key rsa;
  struct dsa_key dsa;
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
      if (c->kind == KEY_RSA)
        rsa_key_clear (&c->rsa);
      else
        dsa_key_clear (&c->dsa);
      free (c);
    }
}

/* The entry for the key, generated if it is new. */
static struct cached_key *
lookup (enum key_kind kind, unsigned long a, unsigned long b, unsigned stream)
{
  struct cached_key *c;
  pthread_mutex_lock (&cache_lock);
  for (c = cache; c; c = c->next)
    if (c->kind == kind && c->a == a && c->b == b && c->stream == stream)
      break;
  if (!c)
    {
      if (!cache)
        atexit (key_cache_free);
      c = gb_xcalloc (1, sizeof *c);
      c->kind = kind;
      c->a = a;
      c->b = b;
      c->stream = stream;
      if (kind == KEY_RSA)
        rsa_key_generate (&c->rsa, a);
      else
        dsa_key_generate (&c->dsa, a, b, stream);
      c->next = cache;
      cache = c;
    }
  pthread_mutex_unlock (&cache_lock);
  return c;
}

const struct rsa_key *
key_cache_rsa (unsigned long bits)
{
  return &lookup (KEY_RSA, bits, 0, 0)->rsa;
}

const struct dsa_key *
key_cache_dsa (unsigned long L, unsigned long N, unsigned stream)
{
  return &lookup (KEY_DSA, L, N, stream)->dsa;
}
