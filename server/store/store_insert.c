/* store_insert.c: uploads stored with their verdict (store_insert).
 *
 * The row of a result with the flags and notes it came with, the rows of
 * its tests and score nodes (their names as numbers:
 * server/store/store_names.h) and, when it is listed, its announcement
 * and, when the uploader asked for it, its category judged again with it
 * (store_rejudge_in: the judge decides, the store writes the flags that
 * change, the new result's own included) are written in one transaction.  Its document is
 * stored compressed (server/store/store_body.h) with the newest zstd
 * dictionary (store_dict_keeper.c), compressed by the uploading thread
 * before it queues for the writer.
 *
 * The measurements' fingerprint (model/measurements.h) is taken first,
 * in the same transaction: other bytes holding it make the upload a
 * copy, and nothing of it is written.  Measurements are never given back,
 * not by a retraction either.
 *
 * On an engine with one writer at a time (SQLite), uploads that arrive
 * while a transaction is being written are committed together in the next
 * one (group commit): each caller still returns only after the commit that
 * holds its result, but the cost of a commit (writing the index pages it
 * touched to the log) is shared.  The uploads of a group are written in
 * the order they queued, each judged (when asked) right after its rows,
 * so that its category is read with the uploads before it in the group
 * and without those after, as if each had been committed alone; a
 * failure rolls the whole group back, judgements included.  On an engine
 * with concurrent writers (PostgreSQL), an upload to be judged with its
 * category first takes the category's lock (store_lock_category), so
 * that concurrent uploads to one category are judged one after the
 * other, each with those committed before it.
 */
#include "server/store/store_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "server/log.h"
#include "server/store/store_dict.h"

/* An upload waiting for, or written by, a group commit. */
struct pending
{
  struct packed_upload *up;
  char *id;
  enum store_status rc;
  int done;
  struct pending *next;
};

/* The most uploads one transaction takes. */
#define BATCH_MAX 64

static char *
scores_json (const struct doc_summary *doc)
{
  cJSON *obj = cJSON_CreateObject ();
  for (size_t i = 0; i < doc->ninner; i++)
    cJSON_AddNumberToObject (obj, doc->scores[i].name, doc->scores[i].score);
  char *text = cJSON_PrintUnformatted (obj);
  cJSON_Delete (obj);
  if (!text)
    text = gb_xstrdup ("{}");
  return text;
}

struct text_result
{
  char *text;
  int found;
};

static int
take_text (void *ctx, const struct db_value *cols, int ncols)
{
  struct text_result *t = ctx;
  t->found = 1;
  t->text = ncols > 0 && c_text (&cols[0]) ? gb_xstrdup (c_text (&cols[0])) : NULL;
  return 1;
}

struct seq_result
{
  int64_t seq;
  int found;
};

static int
take_seq (void *ctx, const struct db_value *cols, int ncols)
{
  struct seq_result *s = ctx;
  s->found = ncols > 0;
  s->seq = ncols > 0 ? c_int (&cols[0]) : 0;
  return 1;
}

static const char insert_sql[] =
  "INSERT INTO results (id, sha256, received, fingerprint, public_key, publisher, "
  "submitter, arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, "
  "unlisted, listed, body, signature, vendor, mhz, cores, mode, build, flags_at, flag_notes, "
  "packed, source, virtual_machine) VALUES ($1, $2, $3, $4, $5, (SELECT publisher FROM keys "
  "WHERE fingerprint = $4), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, '', "
  "$19, $20, $21, $22, $23, $24, $3, $25, $26, $27, $28) ON CONFLICT DO NOTHING RETURNING seq";

/* The clock the leaderboard divides by, in MHz: max, else nominal, else
 * a valid measurement; NULL when none is known. */
static struct db_value
p_mhz (const struct doc_summary *d)
{
  double mhz = d->mhz_max > 0 ? d->mhz_max : d->mhz_nominal > 0 ? d->mhz_nominal
    : d->mhz_measured;
  return mhz > 0 ? p_real (mhz) : p_text (NULL);
}

/* An upload as the writer stores it: its document compressed, and the
 * numbers of its names known before (0: to be found in the transaction),
 * the filters' first (filters_of), then each score's; and the flags its
 * category's judgement changed (owned by its rejudge's context). */
struct packed_upload
{
  const struct store_upload *up;
  unsigned char *packed;
  size_t packed_len;
  int64_t *numbers;
  const struct store_flags *changes;
  size_t nchanges;
};

enum
{ NFILTERS = 5 };

/* The names of D's filters on its ranked rows, in the order of their
 * numbers in a packed_upload. */
static void
filters_of (const struct doc_summary *d, const char *name[NFILTERS])
{
  name[0] = d->cpu;
  name[1] = d->arch;
  name[2] = d->os;
  name[3] = d->gmp;
  name[4] = d->compiler;
}

/* Whether the document of SHA256 is stored, its id then into *ID: 1, 0,
 * or -1 on an error. */
static int
stored_id (struct store *st, struct db_conn *c, const char *sha256, char id[65])
{
  struct text_result t = { NULL, 0 };
  struct db_value h = p_text (sha256);

  if (st->drv->query (c, "SELECT id FROM results WHERE sha256 = $1", &h, 1, take_text, &t) < 0)
    return -1;
  if (t.found)
    snprintf (id, 65, "%s", t.text ? t.text : "");
  free (t.text);
  return t.found;
}

/* Inserts the row under the shortest free id; *SEQ found=0 and *ID set
 * when the same bytes are stored already. */
static int
insert_row (struct store *st, struct db_conn *c, const struct packed_upload *pu,
            const char *scores, char id[65], struct seq_result *seq)
{
  const struct store_upload *up = pu->up;
  const struct doc_summary *d = up->doc;
  int flagged = up->flags[0] != '\0';

  for (int len = 16; len <= 64; len += 4)
    {
      memcpy (id, up->sha256, (size_t) len);
      id[len] = '\0';
      struct db_value p[] = {
        p_text (id), p_text (up->sha256), p_int (up->received), p_text (up->fingerprint),
        p_text (up->public_key), p_text (d->submitter), p_text (d->arch), p_text (d->cpu),
        p_text (d->cpu_name), p_text (d->os), p_text (d->gmp), p_text (d->compiler),
        p_text (d->created), p_text (scores), p_text (up->flags), p_int (flagged),
        p_int (up->unlisted), p_int (!up->unlisted), p_text (up->signature),
        p_text (d->cpu_vendor), p_mhz (d), d->cores > 0 ? p_int (d->cores) : p_text (NULL),
        p_text (d->mode), p_text (up->build), p_text (up->flag_notes),
        p_blob (pu->packed, pu->packed_len), p_text (up->source), p_int (d->virtual_machine),
      };
      seq->found = 0;
      if (st->drv->query (c, insert_sql, p, (int) GB_ARRAY_SIZE (p), take_seq, seq) < 0)
        return -1;
      if (seq->found)
        return 0;
      int stored = stored_id (st, c, up->sha256, id);
      if (stored != 0)
        return stored < 0 ? -1 : 0;
      /* Another document has this id prefix: lengthen it. */
    }
  return -1;
}

/* The number of NAME in the open transaction of C, giving it one unless
 * it has one, into *ID (0 for NULL).  0, or -1 on an error. */
static int
number_in_transaction (struct store *st, struct db_conn *c, const char *name, int64_t *id)
{
  struct db_value p = p_text (name);
  *id = 0;
  if (!name)
    return 0;
  if (st->drv->query (c, "INSERT INTO names (name) SELECT $1 WHERE NOT EXISTS "
                      "(SELECT 1 FROM names WHERE name = $1) ON CONFLICT (name) DO NOTHING",
                      &p, 1, NULL, NULL) < 0
      || st->drv->query (c, "SELECT id FROM names WHERE name = $1", &p, 1, store_first_int, id) < 0)
    return -1;
  return 0;
}

/* A number as a parameter: NULL for 0 (no name). */
static struct db_value
p_number (int64_t id)
{
  return id ? p_int (id) : p_text (NULL);
}

/* The inner nodes' scores go to the ranked rows of ranks, the tests'
 * ops/s (after them in the summary) to tests, names as their numbers:
 * those PU knows, the others found (or given) in this transaction, and
 * kept for it alone, since it may fail. */
static int
insert_scores (struct store *st, struct db_conn *c, int64_t seq, const struct packed_upload *pu)
{
  const struct store_upload *up = pu->up;
  const struct doc_summary *d = up->doc;
  const char *filter[NFILTERS];
  size_t n = NFILTERS + d->nscores;
  int64_t *id = gb_xmalloc (n * sizeof *id);
  int rc = 0;

  filters_of (d, filter);
  memcpy (id, pu->numbers, n * sizeof *id);
  for (size_t i = 0; i < n && rc == 0; i++)
    if (!id[i])
      rc = number_in_transaction (st, c, i < NFILTERS ? filter[i] : d->scores[i - NFILTERS].name,
                                  &id[i]);
  const int64_t *score_id = id + NFILTERS;
  for (size_t i = d->ninner; i < d->nscores && rc == 0; i++)
    {
      struct db_value p[] = { p_int (score_id[i]), p_int (seq), p_real (d->scores[i].score) };
      rc = st->drv->query (c, "INSERT INTO tests (node, seq, score) VALUES ($1, $2, $3)", p, 3,
                           NULL, NULL);
    }
  for (size_t i = 0; i < d->ninner && rc == 0; i++)
    {
      struct db_value p[] = {
        p_int (seq), p_int (score_id[i]), p_int (d->scores[i].depth),
        p_real (d->scores[i].score), p_number (id[0]), p_int (!up->unlisted),
        p_int (up->flags[0] != '\0'), p_number (id[1]), p_number (id[2]), p_number (id[3]),
        p_number (id[4]),
      };
      rc = st->drv->query (c, "INSERT INTO ranks (seq, node, depth, score, cpu, listed, flagged, "
                           "arch, os, gmp, compiler) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                           "$10, $11)", p, 11, NULL, NULL);
    }
  free (id);
  return rc;
}

/* Takes UP's measurements for its bytes in the open transaction of C: 0
 * when they are its bytes' (taken now, or before by the same bytes), 1
 * when other bytes took them (a copy), -1 on an error.  The key of
 * measurements settles concurrent uploads: on an engine with concurrent
 * writers, the later insert waits for the earlier transaction, then finds
 * its row. */
static int
take_measurements (struct store *st, struct db_conn *c, const struct store_upload *up)
{
  struct db_value p[] = { p_text (up->doc->measurements), p_text (up->sha256) };
  struct text_result owner = { NULL, 0 };

  if (st->drv->query (c, "INSERT INTO measurements (fingerprint, sha256) VALUES ($1, $2) "
                      "ON CONFLICT DO NOTHING", p, 2, NULL, NULL) < 0
      || st->drv->query (c, "SELECT sha256 FROM measurements WHERE fingerprint = $1", p, 1,
                         take_text, &owner) < 0 || !owner.found || !owner.text)
    {
      free (owner.text);
      return -1;
    }
  int copy = strcmp (owner.text, up->sha256) != 0;
  free (owner.text);
  return copy;
}

/* Inserts PU's row in the open transaction of C, unless its bytes are
 * stored (STORE_EXISTS, *ID theirs: they are no copy of themselves,
 * whatever took their measurements since) or other bytes took its
 * measurements (STORE_DUPLICATE); STORE_OK, *SEQ and *ID set; or
 * STORE_ERROR. */
static enum store_status
insert_measured (struct store *st, struct db_conn *c, const struct packed_upload *pu,
                 const char *scores, char id[65], struct seq_result *seq)
{
  int stored = stored_id (st, c, pu->up->sha256, id), copy = 0;

  if (stored < 0 || (!stored && (copy = take_measurements (st, c, pu->up)) < 0)
      || (!stored && !copy && insert_row (st, c, pu, scores, id, seq) < 0))
    return STORE_ERROR;
  return stored ? STORE_EXISTS : copy ? STORE_DUPLICATE : seq->found ? STORE_OK : STORE_EXISTS;
}

/* Stores PU in the open transaction of C, and judges its category again
 * when it is new and listed and asks for it: STORE_OK (ID set),
 * STORE_EXISTS (ID is the stored one's, nothing written), STORE_DUPLICATE
 * (nothing written) or STORE_ERROR. */
static enum store_status
insert_one (struct store *st, struct db_conn *c, struct packed_upload *pu, char id[65])
{
  const struct store_upload *up = pu->up;
  char *scores = scores_json (up->doc);
  struct seq_result seq = { 0, 0 };
  enum store_status rc;

  if (!up->unlisted && up->rejudge
      && store_lock_category (st, c, up->doc->cpu, up->doc->mode, up->build) < 0)
    rc = STORE_ERROR;
  else
    rc = insert_measured (st, c, pu, scores, id, &seq);
  if (rc == STORE_OK
      && (insert_scores (st, c, seq.seq, pu) < 0
          || store_add_row_source (st, c, up) < 0
          || (!up->unlisted && store_announce (st, c, id) < 0)
          || (!up->unlisted && up->rejudge
              && store_rejudge_in (st, c, id, up->doc->cpu, up->doc->mode, up->build,
                                   up->received, up->rejudge, &pu->changes,
                                   &pu->nchanges) < 0)))
    rc = STORE_ERROR;
  free (scores);
  return rc;
}

/* One transaction per upload (engines with concurrent writers). */
static enum store_status
insert_alone (struct store *st, struct packed_upload *pu, char id[65])
{
  struct db_conn *c = store_acquire_writer (st);
  enum store_status rc;

  if (st->drv->begin (c, 1) < 0)
    rc = store_failed (st, c, "insert");
  else
    {
      rc = insert_one (st, c, pu, id);
      if (rc == STORE_ERROR)
        store_failed (st, c, "insert");
      else if (rc == STORE_EXISTS || rc == STORE_DUPLICATE)
        st->drv->rollback (c);
      else if (st->drv->commit (c) < 0)
        rc = store_failed (st, c, "insert");
    }
  store_release_writer (st, c);
  return rc;
}

/* Writes the N uploads of BATCH in one transaction.  A database error
 * fails them all: the transaction is rolled back, so none is stored and
 * none is answered as stored. */
static void
write_batch (struct store *st, struct pending *batch, size_t n)
{
  struct db_conn *c = store_acquire_writer (st);
  struct pending *p = batch;
  size_t i = 0;
  int ok = st->drv->begin (c, 1) == 0;

  for (; ok && i < n; i++, p = p->next)
    {
      p->rc = insert_one (st, c, p->up, p->id);
      ok = p->rc != STORE_ERROR;
    }
  if (ok && st->drv->commit (c) < 0)
    ok = 0;
  if (!ok)
    {
      store_failed (st, c, "insert");
      for (p = batch, i = 0; i < n; i++, p = p->next)
        p->rc = STORE_ERROR;
    }
  store_release_writer (st, c);
}

/* Group commit: the caller queues its upload; the first caller to find no
 * transaction in progress leads, writing everything queued so far in one
 * transaction, and wakes the others when it has committed. */
static enum store_status
insert_grouped (struct store *st, struct packed_upload *up, char id[65])
{
  struct pending self = { up, id, STORE_ERROR, 0, NULL };

  pthread_mutex_lock (&st->batch_lock);
  *st->queue_end = &self;
  st->queue_end = &self.next;
  while (!self.done)
    {
      if (st->leading)
        {
          pthread_cond_wait (&st->batch_done, &st->batch_lock);
          continue;
        }
      /* Lead: take the oldest BATCH_MAX uploads off the queue (when this
       * one is not among them, it leads again afterwards). */
      struct pending *batch = st->queue, *last = batch;
      size_t n = 1;
      while (n < BATCH_MAX && last->next)
        last = last->next, n++;
      st->queue = last->next;
      if (!st->queue)
        st->queue_end = &st->queue;
      last->next = NULL;
      st->leading = 1;
      pthread_mutex_unlock (&st->batch_lock);
      write_batch (st, batch, n);
      pthread_mutex_lock (&st->batch_lock);
      for (struct pending *p = batch; p; p = p->next)
        p->done = 1;
      st->leading = 0;
      pthread_cond_broadcast (&st->batch_done);
    }
  pthread_mutex_unlock (&st->batch_lock);
  return self.rc;
}

/* Names and their numbers as read. */
struct number_list
{
  struct name_number *v;
  size_t n, cap;
};

static int
take_number (void *ctx, const struct db_value *cols, int ncols)
{
  struct number_list *l = ctx;
  if (ncols < 2 || !cols[0].s)
    return 0;
  if (l->n == l->cap)
    {
      l->cap = l->cap ? 2 * l->cap : 256;
      l->v = gb_xrealloc (l->v, l->cap * sizeof *l->v);
    }
  l->v[l->n].name = gb_xstrdup (cols[0].s);
  l->v[l->n++].id = c_int (&cols[1]);
  return 0;
}

/* Reads every name's number, as committed, into what the store knows. */
static void
read_numbers (struct store *st)
{
  struct number_list l = { NULL, 0, 0 };
  struct db_conn *c = store_acquire (st);

  if (st->drv->query (c, "SELECT name, id FROM names", NULL, 0, take_number, &l) < 0)
    {
      store_failed (st, c, "names");
      for (size_t i = 0; i < l.n; i++)
        free (l.v[i].name);
      free (l.v);
    }
  else
    store_names_replace (&st->names, l.v, l.n);
  store_release (st, c);
}

/* PU's numbers as the store knows them; 1 when one is not known. */
static int
known_numbers (struct store *st, struct packed_upload *pu)
{
  const struct doc_summary *d = pu->up->doc;
  const char *filter[NFILTERS];
  int unknown = 0;

  filters_of (d, filter);
  for (size_t i = 0; i < NFILTERS + d->nscores; i++)
    {
      const char *name = i < NFILTERS ? filter[i] : d->scores[i - NFILTERS].name;
      pu->numbers[i] = store_names_find (&st->names, name);
      unknown |= name && !pu->numbers[i];
    }
  return unknown;
}

enum store_status
store_insert (struct store *st, const struct store_upload *up, char id[65])
{
  struct packed_upload pu = { up, NULL, 0, NULL, NULL, 0 };
  enum store_status rc;

  /* Compressed here, in the uploader's thread, before it waits for the
   * writer. */
  pu.packed_len = store_dicts_pack (st->dicts, up->body, up->len, 0, &pu.packed);
  atomic_store (&st->last_insert, (long long) time (NULL));
  if (!pu.packed_len)
    {
      log_error ("database (%s) insert: zstd cannot compress the document", st->drv->name);
      return STORE_ERROR;
    }
  /* The names' numbers from memory, read again once when one is new to
   * it (the writer gives the still unknown ones theirs). */
  pu.numbers = gb_xmalloc ((NFILTERS + up->doc->nscores) * sizeof *pu.numbers);
  if (known_numbers (st, &pu))
    {
      read_numbers (st);
      known_numbers (st, &pu);
    }
  rc = st->drv->single_writer ? insert_grouped (st, &pu, id) : insert_alone (st, &pu, id);
  free (pu.packed);
  free (pu.numbers);
  if (rc == STORE_OK && !up->unlisted)
    store_changed (st, id);
  for (size_t i = 0; rc == STORE_OK && i < pu.nchanges; i++)
    if (strcmp (pu.changes[i].id, id) != 0)
      store_changed (st, pu.changes[i].id);
  return rc;
}
