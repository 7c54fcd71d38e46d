/* store_dict_keeper.c: the dictionaries of documents in the database.
 *
 * Documents are compressed with the newest zstd dictionary
 * (server/store/store_dict.h), which a thread of the store trains from
 * the stored documents and keeps in the table dicts, and onto which a
 * repack rewrites the older frames.  The store reads the dictionaries
 * when it opens, and again when a document names one not known here
 * (another process stored it).
 *
 * The dictionary keeper (store_dict_keeper) looks every DICT_PERIOD seconds
 * for a dictionary another process stored, and trains one from the last
 * DICT_SAMPLES documents (at most DICT_SAMPLE_BYTES of them) once the
 * results number DICT_FIRST, and again each time they have grown
 * DICT_GROWTH times since the newest was trained.  A repack batch
 * rewrites the frames of at most REPACK_ROWS results; batches run only
 * when this process has stored no upload for REPACK_IDLE seconds (the
 * repack's level costs about 50 times an upload's), and the keeper runs
 * at REPACK_NICE, so that requests go first on a busy machine: it takes
 * the write lock only to write a batch compressed beforehand. */
#include "server/store/store_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>
#include "common/util.h"
#include "server/log.h"
#include "server/store/store_body.h"
#include "server/store/store_dict.h"

#define DICT_PERIOD 1
#define DICT_FIRST 64
#define DICT_GROWTH 16
#define DICT_SAMPLES 64
#define DICT_SAMPLE_BYTES (16u << 20)
#define REPACK_ROWS 20
#define REPACK_IDLE 2
#define REPACK_NICE 10
/* The dictionaries in the order they were made: the last is the newest. */
#define DICTS_SQL "SELECT id, content FROM dicts ORDER BY seq, created, id"

static int
take_dict (void *ctx, const struct db_value *cols, int ncols)
{
  struct store *st = ctx;
  char err[160];
  uint32_t id = ncols >= 2 ? (uint32_t) c_int (&cols[0]) : 0;

  if (ncols >= 2 && store_dicts_add (st->dicts, id, cols[1].s, cols[1].len, 1, err, sizeof err) < 0
      && atomic_exchange (&st->dict_unreadable, id) != id)
    log_error ("database: documents compressed with dictionary %lu cannot be read: %s",
               (unsigned long) id, err);
  return 0;
}

/* Reads the dictionaries on C: 0, or -1 (logged). */
int
store_read_dicts (struct store *st, struct db_conn *c)
{
  if (st->drv->query (c, DICTS_SQL, NULL, 0, take_dict, st) == 0)
    return 0;
  store_failed (st, c, "reading the dictionaries");
  return -1;
}

/* Reads the dictionaries again, for a document that names one not known
 * here (another process may have stored it), on a connection of their
 * own: the caller may hold one in the middle of a query.  0, or -1. */
int
store_reread_dicts (struct store *st)
{
  char err[256];
  int rc = -1;

  pthread_mutex_lock (&st->dict_lock);
  if (!st->dict_conn)
    {
      st->dict_conn = st->drv->connect (st->target, err, sizeof err);
      if (!st->dict_conn)
        log_error ("database (%s) dictionaries: %s", st->drv->name, err);
    }
  if (st->dict_conn)
    rc = store_read_dicts (st, st->dict_conn);
  pthread_mutex_unlock (&st->dict_lock);
  return rc;
}

/* Documents read back, for training or repacking. */
struct doc_batch
{
  struct store *st;
  size_t n, bytes, max;
  int64_t last;                 /* the last seq read */
  int64_t *seq;
  char *text;                   /* the documents, one after the other */
  size_t *len;
  unsigned char **old;          /* their frames as read (repacks) */
  size_t *old_len;
};

/* Reads a row (seq, packed, sha256) of a document into B. */
static int
take_doc (void *ctx, const struct db_value *cols, int ncols)
{
  struct doc_batch *b = ctx;
  struct store_body body;
  char err[256];
  int rc;

  if (ncols < 3 || b->n == b->max || b->bytes >= DICT_SAMPLE_BYTES)
    return 1;
  b->last = c_int (&cols[0]);
  if (cols[1].type != DB_BLOB && cols[1].type != DB_TEXT)
    return 0;
  rc = store_body_open (b->st->dicts, cols[1].s, cols[1].len, NULL, 0, c_text (&cols[2]), &body,
                        err, sizeof err);
  if (rc == -2 && store_reread_dicts (b->st) == 0)
    rc = store_body_open (b->st->dicts, cols[1].s, cols[1].len, NULL, 0, c_text (&cols[2]),
                          &body, err, sizeof err);
  if (rc < 0)
    return 0;                   /* not served either: it says why there */
  b->text = gb_xrealloc (b->text, b->bytes + body.len);
  memcpy (b->text + b->bytes, body.text, body.len);
  b->seq[b->n] = b->last;
  b->len[b->n] = body.len;
  if (b->old)
    {
      b->old[b->n] = gb_xmalloc (cols[1].len);
      memcpy (b->old[b->n], cols[1].s, cols[1].len);
      b->old_len[b->n] = cols[1].len;
    }
  b->bytes += body.len;
  b->n++;
  store_body_close (&body);
  return 0;
}

static void
doc_batch_init (struct doc_batch *b, struct store *st, size_t max, int frames)
{
  memset (b, 0, sizeof *b);
  b->st = st;
  b->max = max;
  b->last = -1;
  b->seq = gb_xcalloc (max, sizeof *b->seq);
  b->len = gb_xcalloc (max, sizeof *b->len);
  if (frames)
    {
      b->old = gb_xcalloc (max, sizeof *b->old);
      b->old_len = gb_xcalloc (max, sizeof *b->old_len);
    }
}

static void
doc_batch_free (struct doc_batch *b)
{
  for (size_t i = 0; b->old && i < b->n; i++)
    free (b->old[i]);
  free (b->old);
  free (b->old_len);
  free (b->seq);
  free (b->len);
  free (b->text);
}

/* Trains a dictionary on the last DICT_SAMPLES documents stored, into
 * *DICT, the documents it was trained on into *SAMPLES: its length, or 0
 * (logged). */
static size_t
train_on_samples (struct store *st, unsigned char **dict, size_t *samples)
{
  struct doc_batch b;
  struct db_conn *c = store_acquire (st);
  struct db_value p = p_int (DICT_SAMPLES);
  size_t len = 0;
  char err[256];
  int rc = -1;

  doc_batch_init (&b, st, DICT_SAMPLES, 0);
  if (st->drv->query (c, "SELECT seq, packed, sha256 FROM results WHERE packed IS NOT NULL "
                      "ORDER BY seq DESC LIMIT $1", &p, 1, take_doc, &b) < 0)
    store_failed (st, c, "dictionary samples");
  else
    rc = 0;
  store_release (st, c);
  if (rc == 0 && b.n < DICT_SAMPLES / 2)
    rc = -1;                    /* too many could not be read: they are logged */
  if (rc == 0 && !(len = store_dict_train (b.text, b.len, (unsigned) b.n, dict, err,
                                           sizeof err)))
    log_error ("database: %s", err);
  *samples = b.n;
  doc_batch_free (&b);
  return len;
}

/* Trains a dictionary on the last documents stored (up to seq LAST) and
 * stores it, unless another process stored one trained on as many
 * results meanwhile; the repack then starts over.  0, or -1 (logged). */
static int
train_dict (struct store *st, int64_t last)
{
  unsigned char *dict = NULL;
  size_t samples, len = train_on_samples (st, &dict, &samples);
  struct db_conn *c;
  char err[256];
  int rc = 0;

  if (!len)
    return -1;

  struct db_value q[] = { p_int (ZSTD_getDictID_fromDict (dict, len)),
    p_int ((int64_t) time (NULL)), p_int (last), p_blob (dict, len), p_int (DICT_GROWTH) };
  struct db_value check[] = { q[4], q[2], q[0] };
  int64_t covered = 0;
  c = store_acquire_writer (st);
  if (st->drv->begin (c, 1) < 0
      || st->drv->query (c, "SELECT COUNT(*) FROM dicts WHERE seq * $1 > $2 OR id = $3", check,
                         3, store_first_int, &covered) < 0
      || (!covered && st->drv->query (c, "INSERT INTO dicts (id, created, seq, content) "
                                      "VALUES ($1, $2, $3, $4)", q, 4, NULL, NULL) < 0)
      || (!covered && st->drv->query (c, "UPDATE backfill SET next = 0 WHERE name = 'repack'",
                                    NULL, 0, NULL, NULL) < 0)
      || st->drv->commit (c) < 0)
    {
      store_failed (st, c, "storing a dictionary");
      rc = -1;
    }
  store_release_writer (st, c);
  if (rc == 0 && covered)
    {
      c = store_acquire (st);
      rc = store_read_dicts (st, c);  /* the one another process stored */
      store_release (st, c);
    }
  if (rc == 0 && !covered
      && store_dicts_add (st->dicts, (uint32_t) q[0].i, dict, len, 1, err, sizeof err) == 0)
    log_info ("database: dictionary %lld (%zu bytes) trained on %zu documents; documents "
              "stored before are compressed with it in the background", (long long) q[0].i,
              len, samples);
  free (dict);
  return rc;
}

/* One batch of the repack: the frames after its position compressed
 * again with the newest dictionary at the repack's level (uploads use
 * the fast one), outside the write lock, then each written only if
 * unchanged (another process may repack the same batch).  The position
 * follows the last result; a new dictionary sets it back to the start.
 * 1 when more are left, 0 when it is done, -1 on an error. */
static int
repack_step (struct store *st)
{
  struct doc_batch b;
  struct db_conn *c = store_acquire (st);
  struct db_value p[] = { p_int (-1), p_int (REPACK_ROWS) };
  unsigned char *packed[REPACK_ROWS];
  size_t packed_len[REPACK_ROWS];
  int more = -1;

  doc_batch_init (&b, st, REPACK_ROWS, 1);
  if (st->drv->query (c, "SELECT next FROM backfill WHERE name = 'repack'", NULL, 0,
                      store_first_int, &p[0].i) == 0)
    more = store_dicts_newest (st->dicts) && p[0].i >= 0;
  if (more > 0 && st->drv->query (c, "SELECT seq, packed, sha256 FROM results WHERE seq > $1 "
                                  "AND packed IS NOT NULL ORDER BY seq LIMIT $2", p, 2, take_doc,
                                  &b) < 0)
    more = -1;
  if (more < 0)
    store_failed (st, c, "repacking");
  store_release (st, c);
  if (more <= 0 || b.last < 0)
    {
      doc_batch_free (&b);
      return more < 0 ? -1 : 0;
    }

  for (size_t i = 0, at = 0; i < b.n; at += b.len[i++])
    packed_len[i] = store_dicts_pack (st->dicts, b.text + at, b.len[i], 1, &packed[i]);
  c = store_acquire_writer (st);
  more = st->drv->begin (c, 1) == 0 ? 1 : -1;
  for (size_t i = 0; more > 0 && i < b.n; i++)
    {
      struct db_value u[] = { p_int (b.seq[i]), p_blob (packed[i], packed_len[i]),
        p_blob (b.old[i], b.old_len[i]) };
      if (packed_len[i] && st->drv->query (c, "UPDATE results SET packed = $2 WHERE seq = $1 "
                                           "AND packed = $3", u, 3, NULL, NULL) < 0)
        more = -1;
    }
  struct db_value q[] = { p_int (b.last), p[0] };
  if (more < 0
      || st->drv->query (c, "UPDATE backfill SET next = $1 WHERE name = 'repack' AND next = $2",
                         q, 2, NULL, NULL) < 0
      || st->drv->commit (c) < 0)
    {
      store_failed (st, c, "repacking");
      more = -1;
    }
  store_release_writer (st, c);
  for (size_t i = 0; i < b.n; i++)
    free (packed[i]);
  doc_batch_free (&b);
  return more;
}

/* The newest dictionary stored (its id and the results it was trained
 * at) and the last result: 0, or -1. */
struct dict_state
{
  int64_t id, seq, last;
};

static int
take_newest (void *ctx, const struct db_value *cols, int ncols)
{
  struct dict_state *s = ctx;
  if (ncols >= 2)
    {
      s->id = c_int (&cols[0]);
      s->seq = c_int (&cols[1]);
    }
  return 1;
}

static int
dict_state (struct store *st, struct dict_state *s)
{
  struct db_conn *c = store_acquire (st);
  int rc = 0;

  memset (s, 0, sizeof *s);
  if (st->drv->query (c, "SELECT id, seq FROM dicts ORDER BY seq DESC, created DESC, id DESC "
                      "LIMIT 1", NULL, 0, take_newest, s) < 0
      || st->drv->query (c, "SELECT COALESCE(MAX(seq), 0) FROM results", NULL, 0, store_first_int,
                         &s->last) < 0)
    {
      store_failed (st, c, "dictionaries");
      rc = -1;
    }
  else if (s->id && (uint32_t) s->id != store_dicts_newest (st->dicts))
    rc = store_read_dicts (st, c);
  store_release (st, c);
  return rc;
}

/* One round of the keeper: 0, or -1 on an error. */
static int
keep_dicts (struct store *st)
{
  struct dict_state s;
  int more = 1;

  if (dict_state (st, &s) < 0)
    return -1;
  if (s.last >= DICT_FIRST && (!s.id || s.last >= s.seq * DICT_GROWTH)
      && train_dict (st, s.last) < 0)
    return -1;
  while (more > 0 && !st->dict_stop
         && time (NULL) - atomic_load (&st->last_insert) >= REPACK_IDLE)
    more = repack_step (st);
  return more;
}

void *
store_dict_keeper (void *arg)
{
  struct store *st = arg;

  gb_thread_lower_priority (REPACK_NICE);
  pthread_mutex_lock (&st->dict_lock);
  while (!st->dict_stop)
    {
      struct timespec until;
      pthread_mutex_unlock (&st->dict_lock);
      keep_dicts (st);
      pthread_mutex_lock (&st->dict_lock);
      clock_gettime (CLOCK_REALTIME, &until);
      until.tv_sec += DICT_PERIOD;
      if (!st->dict_stop)
        pthread_cond_timedwait (&st->dict_wake, &st->dict_lock, &until);
    }
  pthread_mutex_unlock (&st->dict_lock);
  return NULL;
}
