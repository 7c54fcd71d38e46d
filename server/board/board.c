/* board.c: the leaderboard snapshot's lifetime, and the keeper that
 * makes the snapshots and ties the parts of server/board/ together (see
 * board.h; board_internal.h lists the files).
 *
 * The keeper holds the current snapshot, the journal (board_journal.c)
 * and the three threads (the updater, the full builder, and the
 * follower, which puts other processes' changes in the journal).  Under
 * its mutex: the pointer to the current snapshot (swapped, never
 * modified) and the journal position it includes, the journal, whether
 * an update or a full build is wanted or under way, a full build done
 * and not yet brought up to date, and how many builds failed.  A reader
 * retains the snapshot under the mutex and releases it when done; the
 * last release frees it.  The threads work without the mutex on
 * snapshots nobody else sees, and the abandon flag is checked in every
 * row callback, so stopping the server does not wait for a whole build.
 * The full builder runs at a lower priority (Linux), so that pages go
 * first on a busy machine.
 */
#include "server/board/board_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "server/log.h"

#define FIRST_WAIT 2            /* seconds a page waits for the first snapshot */
/* Seconds a page waits at most for the update that brings the changes
 * made before it arrived (a fraction of a second at a million results). */
#define FRESH_WAIT 2
/* A full build merges the changes made while it ran itself until this
 * few are left for the updater. */
#define CATCH_UP_LEFT 1000
#define BUILDER_NICE 10         /* pages before snapshots, on a busy machine */
/* Milliseconds the follower waits at most for other processes' changes
 * at a time (store_follow), and after the store failed. */
#define FOLLOW_WAIT_MS 200
#define FOLLOW_RETRY_MS 1000

/* An empty snapshot, held by its maker. */
struct board *
board_new (void)
{
  struct board *b = gb_xcalloc (1, sizeof *b);
  board_ref_init (&b->ref);
  pthread_mutex_init (&b->lock, NULL);
  pthread_cond_init (&b->loaded, NULL);
  return b;
}

/* Frees SNAPSHOT (a struct board), which nobody holds any more. */
void
board_free (void *snapshot)
{
  struct board *b = snapshot;

  for (int f = 0; f < BF_COUNT; f++)
    board_strtab_free (&b->tab[f]);
  board_strtab_free (&b->names);
  for (size_t i = 0; i < b->ncols; i++)
    {
      free (b->cols[i].node);
      board_segments_free (b->cols[i].seg, b->tab[BF_CPU].n);
    }
  for (size_t i = 0; i < b->nviews; i++)
    board_view_free (b->views[i]);
  pthread_mutex_destroy (&b->lock);
  pthread_cond_destroy (&b->loaded);
  for (size_t c = 0; b->blocks && c < b->tab[BF_CPU].n; c++)
    board_ref_release (b->blocks[c], board_block_free);
  free (b->blocks);
  free (b->group);
  free (b->cpu_name);
  free (b->info);
  free (b->pairs);
  free (b);
}

void
board_release (struct board *b)
{
  board_ref_release (b, board_free);
}

/* START brought up to date with the NIDS ids IDS from K's store
 * (board_derive), given START's views (board_carry_views), stamped as
 * begun at BEGUN and as descending from the full build begun at
 * BASE_BUILT; NULL on a database error or when K is stopping. */
static struct board *
update (struct board_keeper *k, struct board *start, char **ids, size_t nids, double begun,
        double base_built)
{
  uint8_t *touched = NULL;
  struct board *next = board_derive (start, k->srv->store, (const char *const *) ids, nids,
                                     &k->abandon, &touched);
  if (next)
    {
      next->built = begun;
      next->base_built = base_built;
      board_carry_views (next, k->srv->store, start, touched, &k->abandon);
    }
  free (touched);
  return next;
}

/* The snapshot the updater brings up to date (retained: a full build
 * just done, else the current one) and, into *FROM, the journal position
 * it includes; NULL when the current one needs no update (END: the
 * journal's end) or cannot have one.  Under K's lock. */
static struct board *
update_start (struct board_keeper *k, uint64_t end, uint64_t *from)
{
  struct board *start;
  if (k->base)
    {
      start = k->base;
      *from = k->base_from;
      k->base = NULL;
    }
  else if (k->current && k->applied >= k->first && k->applied < end)
    {
      start = board_ref_retain (k->current);
      *from = k->applied;
    }
  else
    return NULL;
  return start;
}

/* The updater: brings the newest snapshot (a full build just done, else
 * the current one) up to date with the journal whenever asked, and makes
 * the result current.  Pages wait for it, so it runs at their priority. */
static void *
updater (void *arg)
{
  struct board_keeper *k = arg;

  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      while (!k->want_update && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->wake, &k->lock);
      if (atomic_load (&k->abandon))
        break;
      k->want_update = 0;
      uint64_t end = k->first + k->njournal, from;
      struct board *start = update_start (k, end, &from);
      if (!start)
        continue;
      char **ids = NULL;
      size_t nids = from >= k->first ? board_journal_since (k, from, &ids) : 0;
      k->updating = 1;
      double begun = gb_wall_seconds ();
      pthread_mutex_unlock (&k->lock);

      struct board *next = nids ? update (k, start, ids, nids, begun, start->base_built)
        : board_ref_retain (start);
      board_ids_free (ids, nids);

      pthread_mutex_lock (&k->lock);
      struct board *old = NULL;
      k->updating = 0;
      if (next)
        {
          old = k->current;
          k->current = next;
          k->applied = from >= k->first ? end : from;
        }
      else
        k->failures++;
      board_journal_trim (k);
      pthread_cond_broadcast (&k->done);
      pthread_mutex_unlock (&k->lock);
      board_release (old);
      board_release (start);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

/* Brings the full build FRESH (begun at BEGUN) up to date with the
 * journal while more than CATCH_UP_LEFT changes came since it began, so
 * that the updater, which pages wait for, merges only the last ones;
 * returns it (NULL when an update failed). */
static struct board *
catch_up (struct board_keeper *k, struct board *fresh, double begun)
{
  for (;;)
    {
      pthread_mutex_lock (&k->lock);
      uint64_t end = k->first + k->njournal;
      if (!fresh || k->full_from < k->first || end - k->full_from <= CATCH_UP_LEFT)
        {
          pthread_mutex_unlock (&k->lock);
          return fresh;
        }
      char **ids;
      size_t nids = board_journal_since (k, k->full_from, &ids);
      pthread_mutex_unlock (&k->lock);
      struct board *next = update (k, fresh, ids, nids, begun, begun);
      board_ids_free (ids, nids);
      board_release (fresh);
      fresh = next;
      pthread_mutex_lock (&k->lock);
      k->full_from = end;
      pthread_mutex_unlock (&k->lock);
    }
}

/* The full builder: reads every listed result from the store whenever a
 * full build is wanted (the first snapshot, --aggregate-ttl, a journal
 * that dropped entries) and hands the snapshot to the updater, which
 * brings it up to date with the changes made while it was built. */
static void *
full_builder (void *arg)
{
  struct board_keeper *k = arg;

  gb_thread_lower_priority (BUILDER_NICE);
  pthread_mutex_lock (&k->lock);
  for (;;)
    {
      while (!k->want_full && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->full_wake, &k->lock);
      if (atomic_load (&k->abandon))
        break;
      k->want_full = 0;
      k->full_running = 1;
      k->full_from = k->first + k->njournal;
      double begun = k->full_begun = gb_wall_seconds ();
      struct board *old = board_ref_retain (k->current);
      int old_current = old && k->applied == k->full_from;
      pthread_mutex_unlock (&k->lock);

      struct board *fresh = board_build (k->srv->store, &k->abandon);
      if (fresh)
        {
          board_carry_views (fresh, k->srv->store, old, NULL, &k->abandon);
          if (old_current)
            board_carry_memos (fresh, old);
          fresh->built = fresh->base_built = begun;
          if (gb_wall_seconds () - begun >= 1)
            log_info ("leaderboard snapshot of %zu results built in %.1f s", fresh->n,
                      gb_wall_seconds () - begun);
        }
      board_release (old);
      fresh = catch_up (k, fresh, begun);

      pthread_mutex_lock (&k->lock);
      struct board *dropped = NULL;
      k->full_running = 0;
      if (fresh)
        {
          dropped = k->base;
          k->base = fresh;
          k->base_from = k->full_from;
          k->want_update = 1;
          pthread_cond_signal (&k->wake);
        }
      else
        {
          k->failures++;
          pthread_cond_broadcast (&k->done);
        }
      board_journal_trim (k);
      pthread_mutex_unlock (&k->lock);
      board_release (dropped);
      pthread_mutex_lock (&k->lock);
    }
  pthread_mutex_unlock (&k->lock);
  return NULL;
}

/* The follower: puts the changes other processes make (key commands,
 * other servers on the database) in the journal as the store learns of
 * them; when some may have been missed, asks for a full build. */
static void *
follower (void *arg)
{
  struct board_keeper *k = arg;
  while (!atomic_load (&k->abandon))
    if (store_follow (k->srv->store, FOLLOW_WAIT_MS, board_journal_add, k) != STORE_OK)
      {
        pthread_mutex_lock (&k->lock);
        board_want_full (k);
        pthread_mutex_unlock (&k->lock);
        for (int waited = 0; waited < FOLLOW_RETRY_MS && !atomic_load (&k->abandon);
             waited += FOLLOW_WAIT_MS)
          nanosleep (&(struct timespec) { 0, FOLLOW_WAIT_MS * 1000000L }, NULL);
      }
  return NULL;
}

static void
keeper_free (struct board_keeper *k)
{
  board_journal_drop (k, k->njournal);
  free (k->journal);
  board_release (k->current);
  board_release (k->base);
  pthread_cond_destroy (&k->done);
  pthread_cond_destroy (&k->full_wake);
  pthread_cond_destroy (&k->wake);
  pthread_mutex_destroy (&k->lock);
  free (k);
}

/* Stops K's threads (those started: UPDATER, FULL, FOLLOWER). */
static void
stop_threads (struct board_keeper *k, int updater_started, int full_started,
              int follower_started)
{
  pthread_mutex_lock (&k->lock);
  atomic_store (&k->abandon, 1);
  pthread_cond_broadcast (&k->wake);
  pthread_cond_broadcast (&k->full_wake);
  pthread_cond_broadcast (&k->done);
  pthread_mutex_unlock (&k->lock);
  if (updater_started)
    pthread_join (k->updater, NULL);
  if (full_started)
    pthread_join (k->full, NULL);
  if (follower_started)
    pthread_join (k->follower, NULL);
}

int
board_start (struct server *srv)
{
  struct board_keeper *k = gb_xcalloc (1, sizeof *k);
  pthread_condattr_t attr;

  k->srv = srv;
  k->want_full = 1;
  atomic_init (&k->abandon, 0);
  pthread_mutex_init (&k->lock, NULL);
  pthread_cond_init (&k->wake, NULL);
  pthread_cond_init (&k->full_wake, NULL);
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&k->done, &attr);
  pthread_condattr_destroy (&attr);
  store_watch (srv->store, board_journal_add, k);
  store_follow_start (srv->store);      /* else the follower tries again */
  int updater_started = pthread_create (&k->updater, NULL, updater, k) == 0;
  int full_started = updater_started && pthread_create (&k->full, NULL, full_builder, k) == 0;
  int follower_started = full_started
    && pthread_create (&k->follower, NULL, follower, k) == 0;
  if (!follower_started)
    {
      store_watch (srv->store, NULL, NULL);
      stop_threads (k, updater_started, full_started, 0);
      keeper_free (k);
      return -1;
    }
  srv->boards = k;
  return 0;
}

void
board_stop (struct server *srv)
{
  struct board_keeper *k = srv->boards;

  if (!k)
    return;
  stop_threads (k, 1, 1, 1);
  store_watch (srv->store, NULL, NULL);
  keeper_free (k);
  srv->boards = NULL;
}

/* Waits on K's DONE until UNTIL (monotonic), under K's lock: 0 at the
 * deadline. */
static int
wait_until (struct board_keeper *k, const struct timespec *until)
{
  return pthread_cond_timedwait (&k->done, &k->lock, until) != ETIMEDOUT;
}

static struct timespec
deadline (int seconds)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  t.tv_sec += seconds;
  return t;
}

/* Waits, under K's lock, until the current snapshot has the changes
 * made before the call, when the journal has them all since it (else a
 * full build is on its way: board_journal_add), at most FRESH_WAIT
 * seconds. */
static void
wait_for_changes (struct board_keeper *k)
{
  unsigned long failures = k->failures;
  uint64_t need = k->first + k->njournal;
  struct timespec until = deadline (FRESH_WAIT);
  while (k->applied < need && k->applied >= k->first && k->failures == failures
         && !atomic_load (&k->abandon))
    {
      if (!k->updating && !k->want_update)
        {
          k->want_update = 1;
          pthread_cond_signal (&k->wake);
        }
      if (!wait_until (k, &until))
        break;
    }
}

struct board *
board_acquire_recent (struct server *srv)
{
  struct board_keeper *k = srv->boards;

  pthread_mutex_lock (&k->lock);
  if (k->current)
    wait_for_changes (k);
  struct board *b = board_ref_retain (k->current);
  pthread_mutex_unlock (&k->lock);
  return b;
}

struct board *
board_acquire (struct server *srv, int *preparing)
{
  struct board_keeper *k = srv->boards;
  double now = gb_wall_seconds ();

  *preparing = 0;
  pthread_mutex_lock (&k->lock);
  unsigned long failures = k->failures;
  if (srv->aggregate_ttl <= 0)
    {
      /* Every page a snapshot of its own, read after it arrived. */
      if (!(k->full_running && k->full_begun >= now))
        board_want_full (k);
      while (!(k->current && k->current->base_built >= now) && k->failures == failures
             && !atomic_load (&k->abandon))
        pthread_cond_wait (&k->done, &k->lock);
    }
  else if (!k->current && failures && !k->full_running && !k->want_full && !k->base)
    board_want_full (k);        /* the first build failed: the next page may have it */
  else if (!k->current)
    {
      struct timespec until = deadline (FIRST_WAIT);
      while (!k->current && k->failures == failures && !atomic_load (&k->abandon)
             && wait_until (k, &until))
        ;
      *preparing = !k->current && k->failures == failures;
    }
  else
    {
      wait_for_changes (k);
      if (now - k->current->base_built >= srv->aggregate_ttl && !k->full_running
          && !k->want_full && !k->base)
        board_want_full (k);
    }
  struct board *b = board_ref_retain (k->current);
  pthread_mutex_unlock (&k->lock);
  return b;
}

void
board_status (struct server *srv, struct board_status *out)
{
  struct board_keeper *k = srv->boards;
  double now = gb_wall_seconds ();

  memset (out, 0, sizeof *out);
  pthread_mutex_lock (&k->lock);
  if (k->current)
    {
      out->ready = 1;
      out->results = k->current->n;
      out->age = now - k->current->built;
      out->full_age = now - k->current->base_built;
      uint64_t journaled = k->first + k->njournal;
      out->pending = journaled > k->applied ? journaled - k->applied : 0;
    }
  pthread_mutex_unlock (&k->lock);
}
