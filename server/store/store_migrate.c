/* store_migrate.c: the schema migrations.  Each engine has its own
 * (store_driver.h); the first connection store_open makes applies those
 * the database lacks, each recorded in schema_version, in one
 * transaction that the processes sharing the database take in turn, and
 * refuses a database newer than this server.  A migration that must
 * rewrite every result leaves that to a backfill (store_backfill.c).
 */
#include "server/store/store_internal.h"

#include <stdio.h>
#include "server/log.h"

int
store_migrate (struct store *st, struct db_conn *c, char *err, size_t errlen)
{
  const struct store_driver *d = st->drv;
  int64_t version = 0;

  if (d->begin (c, 1) < 0
      || (d->migration_lock && d->query (c, d->migration_lock, NULL, 0, NULL, NULL) < 0)
      || d->exec (c, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)") < 0
      || d->query (c, "SELECT COALESCE(MAX(version), 0) FROM schema_version", NULL, 0,
                   store_first_int, &version) < 0)
    goto fail;
  if (version > (int64_t) d->nmigrations)
    {
      snprintf (err, errlen, "the database has schema version %lld, newer than this "
                "server's %zu: upgrade the server", (long long) version, d->nmigrations);
      d->rollback (c);
      return -1;
    }
  for (size_t v = (size_t) version; v < d->nmigrations; v++)
    {
      struct db_value p = p_int ((int64_t) v + 1);
      if (d->exec (c, d->migrations[v]) < 0
          || d->query (c, "INSERT INTO schema_version (version) VALUES ($1)", &p, 1,
                       NULL, NULL) < 0)
        goto fail;
      log_info ("database schema migrated to version %zu", v + 1);
    }
  if (d->commit (c) < 0)
    goto fail;
  st->version = (int) d->nmigrations;
  return 0;
fail:
  snprintf (err, errlen, "migration failed: %s", d->error (c));
  d->rollback (c);
  return -1;
}
