/* store_keys.c: the keys the operator marks (store_key_status,
 * store_key_verify, store_key_ban).  A key change writes the key's row
 * and its results' (a ban also unlists their score rows) in one
 * transaction, which announces every listed result of the key.
 */
#include "server/store/store_internal.h"

#include "common/util.h"

struct key_result
{
  int banned;
  char *publisher;
};

static int
take_key (void *ctx, const struct db_value *cols, int ncols)
{
  struct key_result *k = ctx;
  if (ncols >= 2)
    {
      k->publisher = c_text (&cols[0]) ? gb_xstrdup (c_text (&cols[0])) : NULL;
      k->banned = (int) c_int (&cols[1]);
    }
  return 1;
}

enum store_status
store_key_status (struct store *st, const char *fingerprint, int *banned, char **publisher)
{
  struct db_conn *c = store_acquire (st);
  struct key_result k = { 0, NULL };
  struct db_value p = p_text (fingerprint);
  enum store_status rc = STORE_OK;

  if (st->drv->query (c, "SELECT publisher, banned FROM keys WHERE fingerprint = $1",
                      &p, 1, take_key, &k) < 0)
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
 * -1. */
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

/* Runs the statements of a key change in one transaction: KEY_SQL with
 * the NP parameters P, RESULTS_SQL with the first NR of them, and then
 * each of SCORES_SQL (if any) with the first. */
static enum store_status
key_change (struct store *st, const char *key_sql, const struct db_value *p, int np,
            const char *results_sql, int nr, const char *const *scores_sql)
{
  struct db_conn *c = store_acquire_writer (st);
  enum store_status rc = STORE_OK;

  if (st->drv->begin (c, 1) < 0
      || st->drv->query (c, key_sql, p, np, NULL, NULL) < 0
      || st->drv->query (c, results_sql, p, nr, NULL, NULL) < 0
      || (scores_sql && (st->drv->query (c, scores_sql[0], p, 1, NULL, NULL) < 0
                         || st->drv->query (c, scores_sql[1], p, 1, NULL, NULL) < 0))
      || mark_row_sources (st, c, &p[0]) < 0
      || store_announce_key (st, c, c_text (&p[0])) < 0
      || st->drv->commit (c) < 0)
    rc = store_failed (st, c, "key change");
  store_release_writer (st, c);
  if (rc == STORE_OK)
    store_changed (st, NULL);
  return rc;
}

enum store_status
store_key_verify (struct store *st, const char *fingerprint, const char *publisher, int64_t when)
{
  struct db_value p[] = { p_text (fingerprint), p_text (publisher), p_int (when) };
  return key_change (st, "INSERT INTO keys (fingerprint, publisher, banned, updated) "
                     "VALUES ($1, $2, 0, $3) ON CONFLICT (fingerprint) DO UPDATE "
                     "SET publisher = excluded.publisher, updated = excluded.updated", p, 3,
                     "UPDATE results SET publisher = $2 WHERE fingerprint = $1", 2, NULL);
}

enum store_status
store_key_ban (struct store *st, const char *fingerprint, int64_t when)
{
  struct db_value p[] = { p_text (fingerprint), p_int (when) };
  return key_change (st, "INSERT INTO keys (fingerprint, publisher, banned, updated) "
                     "VALUES ($1, NULL, 1, $2) ON CONFLICT (fingerprint) DO UPDATE "
                     "SET banned = 1, updated = excluded.updated", p, 2,
                     "UPDATE results SET banned = 1, listed = 0 WHERE fingerprint = $1", 1,
                     (const char *const[]) {
                       "UPDATE ranks SET listed = 0 "
                       "WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)",
                       "UPDATE scores SET listed = 0 "
                       "WHERE seq IN (SELECT seq FROM results WHERE fingerprint = $1)" });
}
