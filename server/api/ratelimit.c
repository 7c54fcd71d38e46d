/* ratelimit.c: token buckets in a chained hash table (see ratelimit.h).
 * Full buckets are dropped whenever their chain is walked. */
#include "server/api/ratelimit.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

#define NCHAINS 4096

struct bucket
{
  struct bucket *next;
  double tokens, stamp;
  char key[];
};

struct ratelimit
{
  double rate, burst;
  pthread_mutex_t lock;
  struct bucket *chains[NCHAINS];
};

struct ratelimit *
ratelimit_new (double rate, double burst)
{
  struct ratelimit *rl = gb_xcalloc (1, sizeof *rl);
  rl->rate = rate;
  rl->burst = burst < 1 ? 1 : burst;
  pthread_mutex_init (&rl->lock, NULL);
  return rl;
}

void
ratelimit_free (struct ratelimit *rl)
{
  for (size_t i = 0; i < NCHAINS; i++)
    while (rl->chains[i])
      {
        struct bucket *b = rl->chains[i];
        rl->chains[i] = b->next;
        free (b);
      }
  pthread_mutex_destroy (&rl->lock);
  free (rl);
}

static size_t
chain_of (const char *key)
{
  uint32_t h = 2166136261u;
  for (; *key; key++)
    h = (h ^ (unsigned char) *key) * 16777619u;
  return h % NCHAINS;
}

/* Refills every bucket of the chain to NOW, drops the full ones, and
 * returns KEY's bucket, if it is still there. */
static struct bucket *
walk (struct ratelimit *rl, struct bucket **link, const char *key, double now)
{
  struct bucket *found = NULL;
  while (*link)
    {
      struct bucket *b = *link;
      b->tokens = fmin (rl->burst, b->tokens + (now - b->stamp) * rl->rate);
      b->stamp = now;
      if (b->tokens >= rl->burst)
        {
          *link = b->next;
          free (b);
          continue;
        }
      if (strcmp (b->key, key) == 0)
        found = b;
      link = &b->next;
    }
  return found;
}

int
ratelimit_take (struct ratelimit *rl, const char *key, double now)
{
  int wait = 0;

  if (rl->rate <= 0)
    return 0;
  pthread_mutex_lock (&rl->lock);
  struct bucket **chain = &rl->chains[chain_of (key)];
  struct bucket *b = walk (rl, chain, key, now);
  if (!b)
    {
      size_t len = strlen (key);
      b = gb_xmalloc (sizeof *b + len + 1);
      memcpy (b->key, key, len + 1);
      b->tokens = rl->burst;
      b->stamp = now;
      b->next = *chain;
      *chain = b;
    }
  if (b->tokens >= 1)
    b->tokens -= 1;
  else
    {
      wait = (int) ceil ((1 - b->tokens) / rl->rate);
      if (wait < 1)
        wait = 1;
    }
  pthread_mutex_unlock (&rl->lock);
  return wait;
}
