/* store_backup.c: a live SQLite database copied with SQLite's online
 * backup API (see store_backup.h).
 *
 * The source is opened read-only and copied by one sqlite3_backup_step
 * over every page: one read transaction, so the copy is the database as
 * of its start.  In WAL mode a reader never blocks the writers, so the
 * servers' uploads go on meanwhile (a copy made in several steps would
 * start again after each commit of another connection, and under steady
 * uploads might never end).  The copy is written to DEST.partial beside
 * DEST, switched from WAL to a rollback journal (one self-contained
 * file), checked with PRAGMA quick_check, synced, and renamed onto DEST;
 * on any failure the partial file is removed and DEST is untouched. */
#include "server/store/store_backup.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/util.h"

/* How long to wait for a lock on the source (a writer's checkpoint, a
 * migration) before giving up. */
#define BUSY_TIMEOUT_MS 30000

int
store_is_postgresql (const char *target)
{
  return strncmp (target, "postgresql://", 13) == 0 || strncmp (target, "postgres://", 11) == 0;
}

static int
first_int (void *ctx, int ncols, char **values, char **names)
{
  (void) names;
  if (ncols > 0 && values[0])
    *(int64_t *) ctx = strtoll (values[0], NULL, 10);
  return 0;
}

static int
first_text (void *ctx, int ncols, char **values, char **names)
{
  (void) names;
  if (ncols > 0 && values[0])
    snprintf (ctx, 256, "%s", values[0]);
  return 1;
}

/* SQL on DB whose first column of its first row goes to CTX through FN;
 * 0, or -1 with WHAT and SQLite's message in ERR. */
static int
ask (sqlite3 *db, const char *sql, sqlite3_callback fn, void *ctx, const char *what, char *err,
     size_t errlen)
{
  int rc = sqlite3_exec (db, sql, fn, ctx, NULL);
  if (rc == SQLITE_OK || rc == SQLITE_ABORT)
    return 0;
  snprintf (err, errlen, "%s: %s", what, sqlite3_errmsg (db));
  return -1;
}

/* Copies every page of SRC into DST in one step. */
static int
copy_pages (sqlite3 *src, sqlite3 *dst, char *err, size_t errlen)
{
  sqlite3_backup *b = sqlite3_backup_init (dst, "main", src, "main");
  if (!b)
    {
      snprintf (err, errlen, "cannot begin the copy: %s", sqlite3_errmsg (dst));
      return -1;
    }
  int rc = sqlite3_backup_step (b, -1);
  sqlite3_backup_finish (b);
  if (rc != SQLITE_DONE)
    {
      snprintf (err, errlen, "copying: %s", sqlite3_errstr (rc));
      return -1;
    }
  return 0;
}

/* The copy DST made one file, checked, and what it holds. */
static int
seal (sqlite3 *dst, struct store_backup_report *report, char *err, size_t errlen)
{
  char mode[256] = "", check[256] = "";
  if (ask (dst, "PRAGMA journal_mode=DELETE", first_text, mode, "the copy's journal", err,
           errlen) < 0
      || ask (dst, "PRAGMA quick_check", first_text, check, "checking the copy", err, errlen) < 0)
    return -1;
  if (strcmp (check, "ok") != 0)
    {
      snprintf (err, errlen, "the copy fails PRAGMA quick_check: %s", check);
      return -1;
    }
  int64_t schema = 0;
  if (ask (dst, "SELECT COALESCE(MAX(version), 0) FROM schema_version", first_int, &schema,
           "not a gmpbench database (no schema_version)", err, errlen) < 0
      || ask (dst, "SELECT count(*) FROM results", first_int, &report->results,
              "not a gmpbench database (no results)", err, errlen) < 0)
    return -1;
  report->schema = (int) schema;
  return 0;
}

/* Syncs the directory of PATH, so that a rename into it lasts. */
static void
sync_directory (const char *path)
{
  char *copy = gb_xstrdup (path);
  int fd = open (dirname (copy), O_RDONLY | O_DIRECTORY);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  free (copy);
}

static int
open_source (const char *database, sqlite3 **src, char *err, size_t errlen)
{
  if (sqlite3_open_v2 (database, src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
      || sqlite3_busy_timeout (*src, BUSY_TIMEOUT_MS) != SQLITE_OK)
    {
      snprintf (err, errlen, "%s: %s", database, *src ? sqlite3_errmsg (*src) : "out of memory");
      return -1;
    }
  return 0;
}

int
store_backup (const char *database, const char *dest, struct store_backup_report *report,
              char *err, size_t errlen)
{
  sqlite3 *src = NULL, *dst = NULL;
  char *partial = gb_xmalloc (strlen (dest) + sizeof ".partial");
  double start = gb_wall_seconds ();
  struct stat st;
  int ok = 0;

  memset (report, 0, sizeof *report);
  sprintf (partial, "%s.partial", dest);
  unlink (partial);
  if (open_source (database, &src, err, errlen) == 0)
    {
      if (sqlite3_open_v2 (partial, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
          != SQLITE_OK)
        snprintf (err, errlen, "%s: %s", partial, dst ? sqlite3_errmsg (dst) : "out of memory");
      else
        ok = copy_pages (src, dst, err, errlen) == 0 && seal (dst, report, err, errlen) == 0;
    }
  sqlite3_close (src);
  if (dst && sqlite3_close (dst) != SQLITE_OK && ok)
    {
      snprintf (err, errlen, "%s: cannot close the copy", partial);
      ok = 0;
    }
  if (ok && rename (partial, dest) != 0)
    {
      snprintf (err, errlen, "cannot rename %s to %s: %s", partial, dest, strerror (errno));
      ok = 0;
    }
  if (!ok)
    unlink (partial);
  else
    {
      sync_directory (dest);
      report->bytes = stat (dest, &st) == 0 ? (int64_t) st.st_size : 0;
      report->seconds = gb_wall_seconds () - start;
    }
  free (partial);
  return ok ? 0 : -1;
}
