/* board_memo.c: the values pages compute from a CPU's results in the
 * store (board_cpu_memo), kept with the CPU's block.
 *
 * A block holds the memos of its CPU under a lock of their own: an
 * update shares them with the blocks it shares, and a full build gives
 * them to the blocks whose results (seqs, verified, flagged) it finds
 * as the snapshot before had them, when that snapshot included every
 * change journaled before the build began (board_carry_memos).  A CPU
 * keeps MAX_MEMOS values at most, and the values of all CPUs in all
 * snapshots hold MEMO_BUDGET bytes at most.
 */
#include "server/board/board_internal.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

#define MEMO_BUDGET ((size_t) 128 << 20)        /* bytes they keep in all, at most */

static atomic_size_t memo_bytes;        /* of every memo kept, in all snapshots */

/* A new block's memos: none yet, held by the block. */
struct memos *
board_memos_new (void)
{
  struct memos *ms = gb_xmalloc (sizeof *ms);
  board_ref_init (&ms->ref);
  pthread_mutex_init (&ms->lock, NULL);
  ms->n = 0;
  return ms;
}

/* Frees MEMOS (a struct memos), which no block holds, and its values. */
void
board_memos_free (void *memos)
{
  struct memos *ms = memos;
  for (size_t i = 0; i < ms->n; i++)
    {
      free (ms->m[i].key);
      ms->m[i].drop (ms->m[i].value);
      atomic_fetch_sub (&memo_bytes, ms->m[i].bytes);
    }
  pthread_mutex_destroy (&ms->lock);
  free (ms);
}

/* The value kept in MS for KEY, or NULL; under MS's lock. */
static void *
memo_find (const struct memos *ms, const char *key)
{
  for (size_t i = 0; i < ms->n; i++)
    if (strcmp (ms->m[i].key, key) == 0)
      return ms->m[i].value;
  return NULL;
}

void *
board_cpu_memo (struct board *b, const char *cpu, const char *key, board_memo_make make,
                void *ctx, void (*drop) (void *value), int *owned)
{
  int64_t c = board_lookup (&b->tab[BF_CPU], cpu);
  struct memos *ms = c >= 0 ? b->blocks[c]->memos : NULL;
  void *value = NULL, *kept = NULL;
  size_t bytes = 0;

  *owned = 0;
  if (ms)
    {
      pthread_mutex_lock (&ms->lock);
      value = memo_find (ms, key);
      pthread_mutex_unlock (&ms->lock);
    }
  if (value || !(value = make (ctx, &bytes)))
    return value;
  bytes += sizeof (struct memo) + strlen (key) + 1;
  if (ms)
    {
      pthread_mutex_lock (&ms->lock);
      kept = memo_find (ms, key);       /* made meanwhile by another page */
      if (!kept && ms->n < MAX_MEMOS
          && atomic_fetch_add (&memo_bytes, bytes) + bytes <= MEMO_BUDGET)
        {
          ms->m[ms->n++] = (struct memo) { gb_xstrdup (key), value, drop, bytes };
          kept = value;
        }
      else if (!kept)
        atomic_fetch_sub (&memo_bytes, bytes);
      pthread_mutex_unlock (&ms->lock);
    }
  if (kept == value)
    return value;
  if (kept)
    {
      drop (value);
      return kept;
    }
  *owned = 1;
  return value;
}

/* Whether blocks A and B hold the same results, as verified and flagged. */
static int
same_results (const struct block *a, const struct block *b)
{
  if (a->n != b->n)
    return 0;
  for (size_t k = 0; k < a->n; k++)
    if (a->items[k].seq != b->items[k].seq || a->items[k].verified != b->items[k].verified
        || a->items[k].flagged != b->items[k].flagged)
      return 0;
  return 1;
}

/* Gives the blocks of a full build B (not yet published) the values kept
 * with OLD's blocks of the same CPUs where their results are the same.
 * OLD must include every change the journal had when B's build began, so
 * that the changes after are the ones B is brought up to date with. */
void
board_carry_memos (struct board *b, const struct board *old)
{
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    {
      int64_t o = board_lookup (&old->tab[BF_CPU], b->tab[BF_CPU].names[c]);
      if (o >= 0 && same_results (b->blocks[c], old->blocks[o]))
        {
          board_ref_release (b->blocks[c]->memos, board_memos_free);
          b->blocks[c]->memos = board_ref_retain (old->blocks[o]->memos);
        }
    }
}
