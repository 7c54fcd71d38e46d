/* board_journal.c: the journal, the ids of the results changed (stored,
 * retracted, flagged, their key verified or banned) since the snapshots
 * the keeper may still bring up to date (board.c).
 *
 * The store's watcher (changes by this process) and the follower
 * (changes by others) add to it; entry i is at position FIRST + i, and
 * a snapshot includes the changes before its position.  The entries no
 * snapshot needs any more are dropped: those before the current
 * snapshot's position and before that of a full build running or done.
 * When the journal cannot keep an id (JOURNAL_MAX, or a watcher that
 * does not know which results changed), every entry goes and a full
 * build is asked for.  The functions here are called under the keeper's
 * lock, but for the watcher, which takes it.
 */
#include "server/board/board_internal.h"

#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* Ids the journal keeps at most; beyond, they are dropped and a full
 * build brings the snapshot up to date. */
#define JOURNAL_MAX 1000000

/* Frees the journal's N oldest entries, under K's lock. */
void
board_journal_drop (struct board_keeper *k, size_t n)
{
  if (n == 0)
    return;
  for (size_t i = 0; i < n; i++)
    free (k->journal[i]);
  memmove (k->journal, k->journal + n, (k->njournal - n) * sizeof *k->journal);
  k->njournal -= n;
  k->first += n;
}

/* Drops the entries no snapshot needs any more, under K's lock: those
 * before the current snapshot's position, and before the position of a
 * full build running or done. */
void
board_journal_trim (struct board_keeper *k)
{
  uint64_t keep = k->applied;
  if (k->full_running && k->full_from < keep)
    keep = k->full_from;
  if (k->base && k->base_from < keep)
    keep = k->base_from;
  if (keep > k->first)
    board_journal_drop (k, (size_t) (keep - k->first));
}

/* Asks for a full build, under K's lock. */
void
board_want_full (struct board_keeper *k)
{
  k->want_full = 1;
  pthread_cond_signal (&k->full_wake);
}

/* The store's watcher: ID changed (NULL: any result may have).  When the
 * journal cannot keep it, every entry goes and a full build is asked
 * for: the snapshots older than it cannot be brought up to date. */
void
board_journal_add (void *ctx, const char *id)
{
  struct board_keeper *k = ctx;
  pthread_mutex_lock (&k->lock);
  if (!id || k->njournal == JOURNAL_MAX)
    {
      board_journal_drop (k, k->njournal);
      board_want_full (k);
    }
  else
    {
      if (k->njournal == k->cap)
        k->journal = gb_xrealloc (k->journal, (k->cap = k->cap ? 2 * k->cap : 256)
                                  * sizeof *k->journal);
      k->journal[k->njournal++] = gb_xstrdup (id);
    }
  pthread_mutex_unlock (&k->lock);
}

static int
by_string (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Copies of the entries from position FROM on, each id once, into *IDS
 * (malloc'ed, sorted), under K's lock. */
size_t
board_journal_since (const struct board_keeper *k, uint64_t from, char ***ids)
{
  size_t n = (size_t) (k->first + k->njournal - from), unique = 0;
  *ids = gb_xmalloc ((n + 1) * sizeof **ids);
  for (size_t i = 0; i < n; i++)
    (*ids)[i] = gb_xstrdup (k->journal[from - k->first + i]);
  qsort (*ids, n, sizeof **ids, by_string);
  for (size_t i = 0; i < n; i++)
    if (unique > 0 && strcmp ((*ids)[unique - 1], (*ids)[i]) == 0)
      free ((*ids)[i]);
    else
      (*ids)[unique++] = (*ids)[i];
  return unique;
}

void
board_ids_free (char **ids, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (ids[i]);
  free (ids);
}
