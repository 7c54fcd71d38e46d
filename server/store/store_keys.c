/* store_keys.c: the keys the operator marks (store_key_status,
 * store_key_verify and store_key_unverify, store_key_ban and
 * store_key_unban).  A key change reads the key's state, and writes the
 * key's row, its results' (a ban unlists their score rows, an unban lists
 * again those neither unlisted, retracted nor hidden), the sources behind
 * CPU rows and the operator's audit row in one transaction, which
 * announces every result of the key its submitter listed.
 */
#include "server/store/store_internal.h"

#include "common/util.h"

/* A key as read: whether the database knows it (its row, or for a key
 * change a result of it), whether it is banned, its publisher. */
struct key_state
{
  int known, banned;
  char *publisher;
};

static int
take_state (void *ctx, const struct db_value *cols, int ncols)
{
  struct key_state *k = ctx;
  if (ncols >= 2)
    {
      k->known = 1;
      k->publisher = c_text (&cols[0]) ? gb_xstrdup (c_text (&cols[0])) : NULL;
      k->banned = (int) c_int (&cols[1]);
    }
  return 1;
}

enum store_status
store_key_status (struct store *st, const char *fingerprint, int *banned, char **publisher)
{
  struct db_conn *c = store_acquire (st);
  struct key_state k = { 0, 0, NULL };
  struct db_value p = p_text (fingerprint);
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT publisher, banned FROM keys WHERE fingerprint = $1",
                      &p, 1, take_state, &k) < 0)
    rc = store_failed (st, c, "key lookup");
  store_release (st, c);
  *banned = k.banned;
  *publisher = k.publisher;
  return rc;
}

/* The sources behind CPU rows after the key *FINGERPRINT changed, on C
 * in its open transaction: those of its listed results now stand for a
 * verified publisher if it is one (store_sources.c), and those no listed
 * result holds any more (its results, banned) are taken out.  0, or
 * -1.  (An unverify or an unban says the rest: KEY_UNVERIFIED_SOURCES,
 * KEY_LISTED_SOURCES.) */
static int
mark_row_sources (struct store *st, struct db_conn *c, const struct db_value *fingerprint)
{
  if (st->drv->query (c, "UPDATE row_sources SET verified = 1 WHERE EXISTS (SELECT 1 FROM "
                      "results r WHERE r.fingerprint = $1 AND r.listed = 1 AND r.publisher "
                      "IS NOT NULL AND r.cpu = row_sources.cpu AND r.mode = row_sources.mode "
                      "AND r.build = row_sources.build AND r.source = row_sources.source)",
                      fingerprint, 1, NULL, NULL) < 0)
    return -1;
  return store_prune_row_sources (st, c, NULL);
}

/* A key change: its statements (KEY with the first NKEY parameters,
 * RESULTS with the first NRESULTS, the others with the first), and
 * whether it applies to the key as found (STORE_OK, STORE_NOT_FOUND,
 * STORE_UNCHANGED; PUBLISHER the second parameter's text, if any). */
struct key_change
{
  const char *key;
  int nkey;
  const char *results;
  int nresults;
  const char *const *more;      /* NULL-terminated, or NULL */
  enum store_status (*applies) (const struct key_state *k, const char *publisher);
};

/* Reads the key's state on C, in its open transaction, into K: 0, or
 * -1. */
static int
read_state (struct store *st, struct db_conn *c, const struct db_value *fingerprint,
            struct key_state *k)
{
  int64_t results = 0;
  if (st->drv->query (c, "SELECT publisher, banned FROM keys WHERE fingerprint = $1",
                      fingerprint, 1, take_state, k) < 0
      || (!k->known && st->drv->query (c, "SELECT COUNT(*) FROM (SELECT 1 FROM results "
                                       "WHERE fingerprint = $1 LIMIT 1) q", fingerprint, 1,
                                       store_first_int, &results) < 0))
    return -1;
  k->known |= results > 0;
  return 0;
}

/* Runs the statements of CH (once it applies) on C, in its open
 * transaction, with the parameters P, and writes AUDIT: 0, or -1. */
static int
run_change (struct store *st, struct db_conn *c, const struct key_change *ch,
            const struct db_value *p, const struct store_audit *audit)
{
  if (st->drv->query (c, ch->key, p, ch->nkey, NULL, NULL) < 0
      || st->drv->query (c, ch->results, p, ch->nresults, NULL, NULL) < 0)
    return -1;
  for (const char *const *sql = ch->more; sql && *sql; sql++)
    if (st->drv->query (c, *sql, p, 1, NULL, NULL) < 0)
      return -1;
  if (mark_row_sources (st, c, &p[0]) < 0 || store_announce_key (st, c, c_text (&p[0])) < 0
      || store_audit_write (st, c, audit, NULL) < 0)
    return -1;
  return 0;
}

/* Applies CH to the key p[0] (p[1] the publisher for a verify, or the
 * time), in one transaction. */
static enum store_status
key_change (struct store *st, const struct key_change *ch, const struct db_value *p,
            const struct store_audit *audit)
{
  struct db_conn *c = store_acquire_writer (st);
  struct key_state k = { 0, 0, NULL };
  enum store_status rc = STORE_OK, applies = STORE_ERROR;

  if (st->drv->begin (c, 1) < 0 || read_state (st, c, &p[0], &k) < 0)
    rc = store_failed (st, c, "key change");
  else if ((applies = ch->applies (&k, c_text (&p[1]))) != STORE_OK)
    st->drv->rollback (c);
  else if (run_change (st, c, ch, p, audit) < 0 || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "key change");
  store_release_writer (st, c);
  free (k.publisher);
  if (rc == STORE_OK && applies == STORE_OK)
    store_changed (st, NULL);
  return rc == STORE_OK ? applies : rc;
}

static enum store_status
verify_applies (const struct key_state *k, const char *publisher)
{
  return k->publisher && strcmp (k->publisher, publisher) == 0 ? STORE_UNCHANGED : STORE_OK;
}

enum store_status
store_key_verify (struct store *st, const char *fingerprint, const char *publisher,
                  const struct store_audit *audit)
{
  struct db_value p[] = { p_text (fingerprint), p_text (publisher), p_int (audit->at) };
  static const struct key_change ch = {
    "INSERT INTO keys (fingerprint, publisher, banned, updated) VALUES ($1, $2, 0, $3) "
    "ON CONFLICT (fingerprint) DO UPDATE SET publisher = excluded.publisher, "
    "updated = excluded.updated", 3,
    "UPDATE results SET publisher = $2 WHERE fingerprint = $1", 2, NULL, verify_applies
  };
  return key_change (st, &ch, p, audit);
}

static enum store_status
unverify_applies (const struct key_state *k, const char *publisher)
{
  (void) publisher;
  return !k->known ? STORE_NOT_FOUND : !k->publisher ? STORE_UNCHANGED : STORE_OK;
}

/* The sources of the key's CPU rows that no listed result of a
 * publisher holds any more stand for no verified publisher. */
#define KEY_UNVERIFIED_SOURCES \
  "UPDATE row_sources SET verified = 0 WHERE verified = 1 AND EXISTS (SELECT 1 FROM " \
  "results k WHERE k.fingerprint = $1 AND k.cpu = row_sources.cpu AND k.mode = " \
  "row_sources.mode AND k.build = row_sources.build AND k.source = row_sources.source) " \
  "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.listed = 1 AND r.publisher IS NOT NULL " \
  "AND r.cpu = row_sources.cpu AND r.mode = row_sources.mode AND r.build = " \
  "row_sources.build AND r.source = row_sources.source)"

enum store_status
store_key_unverify (struct store *st, const char *fingerprint, const struct store_audit *audit)
{
  struct db_value p[] = { p_text (fingerprint), p_int (audit->at) };
  static const char *const more[] = { KEY_UNVERIFIED_SOURCES, NULL };
  static const struct key_change ch = {
    "UPDATE keys SET publisher = NULL, updated = $2 WHERE fingerprint = $1", 2,
    "UPDATE results SET publisher = NULL WHERE fingerprint = $1", 1, more, unverify_applies
  };
  return key_change (st, &ch, p, audit);
}

static enum store_status
ban_applies (const struct key_state *k, const char *publisher)
{
  (void) publisher;
  return k->banned ? STORE_UNCHANGED : STORE_OK;
}

enum store_status
store_key_ban (struct store *st, const char *fingerprint, const struct store_audit *audit)
{
  struct db_value p[] = { p_text (fingerprint), p_int (audit->at) };
  static const char *const more[] = {
    "UPDATE ranks SET listed = 0 WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)",
    "UPDATE scores SET listed = 0 WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)",
    NULL
  };
  static const struct key_change ch = {
    "INSERT INTO keys (fingerprint, publisher, banned, updated) VALUES ($1, NULL, 1, $2) "
    "ON CONFLICT (fingerprint) DO UPDATE SET banned = 1, updated = excluded.updated", 2,
    "UPDATE results SET banned = 1, listed = 0 WHERE fingerprint = $1", 1, more, ban_applies
  };
  return key_change (st, &ch, p, audit);
}

static enum store_status
unban_applies (const struct key_state *k, const char *publisher)
{
  (void) publisher;
  return !k->known ? STORE_NOT_FOUND : !k->banned ? STORE_UNCHANGED : STORE_OK;
}

/* The sources of the key's results listed again, behind their CPU rows
 * (verified when the result has a publisher, as an upload's). */
#define KEY_LISTED_SOURCES \
  "INSERT INTO row_sources (cpu, mode, build, source, verified) SELECT cpu, mode, build, " \
  "source, MAX(CASE WHEN publisher IS NULL THEN 0 ELSE 1 END) FROM results " \
  "WHERE fingerprint = $1 AND listed = 1 AND source IS NOT NULL " \
  "GROUP BY cpu, mode, build, source ON CONFLICT DO NOTHING"

enum store_status
store_key_unban (struct store *st, const char *fingerprint, const struct store_audit *audit)
{
  struct db_value p[] = { p_text (fingerprint), p_int (audit->at) };
  static const char *const more[] = {
    "UPDATE ranks SET listed = 1 WHERE seq IN "
    "(SELECT seq FROM results WHERE fingerprint = $1 AND listed = 1)",
    "UPDATE scores SET listed = 1 WHERE seq IN "
    "(SELECT seq FROM results WHERE fingerprint = $1 AND listed = 1)",
    KEY_LISTED_SOURCES, NULL
  };
  static const struct key_change ch = {
    "UPDATE keys SET banned = 0, updated = $2 WHERE fingerprint = $1", 2,
    "UPDATE results SET banned = 0, listed = CASE WHEN unlisted = 0 AND retracted = 0 "
    "AND hidden_at IS NULL THEN 1 ELSE 0 END WHERE fingerprint = $1", 1, more, unban_applies
  };
  return key_change (st, &ch, p, audit);
}
