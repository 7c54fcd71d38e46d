/* store_sources.c: where uploads come from, kept so that nobody can read
 * it back (see store.h, "Sources").
 *
 * An upload's source is what makes two results independent: the network
 * it came from, or the verified publisher that signed it.  The network
 * text the caller gives (server/api/api_source.c) is never stored: only
 * its HMAC-SHA256 under a secret of this database, made at its first
 * open (32 random bytes as hex text, the key, in the secrets table, shared by every server
 * process on the database, never served or dumped), cut to 128 bits.
 * Without the secret a hash cannot be tested against guessed networks.
 *
 * row_sources lists the sources behind each CPU row (identity, run mode,
 * GMP build kind) among its listed results, and whether each is a
 * verified publisher: the insert adds a listed result's source, and a
 * retraction or a ban takes out those no listed result holds any more, in
 * their transactions.  A row is confirmed when three sources, or one
 * verified publisher, stand behind it. */
#include "server/store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include "common/util.h"

#define SECRET_NAME "source"

static int
take_secret (void *ctx, const struct db_value *cols, int ncols)
{
  struct store *st = ctx;
  const char *hex = ncols > 0 ? c_text (&cols[0]) : NULL;
  if (hex && strlen (hex) == 2 * STORE_SECRET_BYTES)
    memcpy (st->secret, hex, sizeof st->secret);
  return 1;
}

int
store_read_secret (struct store *st, struct db_conn *c)
{
  unsigned char fresh[STORE_SECRET_BYTES];
  char hex[2 * STORE_SECRET_BYTES + 1];
  if (RAND_bytes (fresh, sizeof fresh) != 1)
    return -1;
  gb_hex (fresh, sizeof fresh, hex);
  struct db_value p[2] = { p_text (SECRET_NAME), p_text (hex) };
  if (st->drv->query (c, "INSERT INTO secrets (name, value) VALUES ($1, $2) "
                      "ON CONFLICT DO NOTHING", p, 2, NULL, NULL) < 0
      || st->drv->query (c, "SELECT value FROM secrets WHERE name = $1", p, 1, take_secret,
                         st) < 0)
    return -1;
  return st->secret[0] ? 0 : -1;
}

void
store_source_hash (const struct store *st, const char *what, char out[STORE_SOURCE_HEX])
{
  unsigned char mac[EVP_MAX_MD_SIZE];
  size_t len = 0;
  if (!EVP_Q_mac (NULL, "HMAC", NULL, "SHA256", NULL, st->secret, sizeof st->secret,
                  (const unsigned char *) what, strlen (what), mac, sizeof mac, &len)
      || len < (STORE_SOURCE_HEX - 1) / 2)
    {
      fprintf (stderr, "gmpbench-server: HMAC-SHA256 is not available\n");
      abort ();
    }
  gb_hex (mac, (STORE_SOURCE_HEX - 1) / 2, out);
}

int
store_add_row_source (struct store *st, struct db_conn *c, const struct store_upload *up)
{
  if (up->unlisted || !up->source)
    return 0;
  struct db_value p[5] = {
    p_text (up->doc->cpu ? up->doc->cpu : ""), p_text (up->doc->mode ? up->doc->mode : ""),
    p_text (up->build), p_text (up->source), p_int (up->verified_source)
  };
  return st->drv->query (c, "INSERT INTO row_sources (cpu, mode, build, source, verified) "
                         "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING", p, 5, NULL,
                         NULL);
}

int
store_prune_row_sources (struct store *st, struct db_conn *c, const char *cpu)
{
  static const char prune[] =
    "DELETE FROM row_sources WHERE %s NOT EXISTS (SELECT 1 FROM results r "
    "WHERE r.cpu = row_sources.cpu AND r.mode = row_sources.mode "
    "AND r.build = row_sources.build AND r.source = row_sources.source AND r.listed = 1)";
  char sql[sizeof prune + 32];
  struct db_value p = p_text (cpu);
  snprintf (sql, sizeof sql, prune, cpu ? "cpu = $1 AND" : "");
  return st->drv->query (c, sql, &p, cpu ? 1 : 0, NULL, NULL);
}
