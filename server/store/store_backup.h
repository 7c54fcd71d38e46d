/* store_backup.h: a copy of a live SQLite database (store_backup.c), for
 * `gmpbench-server backup DEST --database DB` (docs/server.md,
 * "Backups").  A PostgreSQL database is backed up with pg_dump instead. */
#ifndef GB_SERVER_STORE_BACKUP_H
#define GB_SERVER_STORE_BACKUP_H

#include <stddef.h>
#include <stdint.h>

/* Whether TARGET names a PostgreSQL database (a postgresql:// or
 * postgres:// URI) rather than a SQLite file. */
int store_is_postgresql (const char *target);

/* What a backup holds. */
struct store_backup_report
{
  int64_t results;              /* rows of the table results */
  int schema;                   /* its schema version */
  int64_t bytes;                /* the copy's size */
  double seconds;               /* how long the copy took */
};

/* Copies the SQLite database DATABASE, while other processes go on
 * writing to it, into the file DEST: a snapshot of one moment (every
 * transaction committed before the copy began, none committed after),
 * checked (PRAGMA quick_check) and put in place by a rename, so that DEST
 * is either a whole, checked copy or left as it was.  The copy is one
 * file (rollback journal, not WAL).  0 with REPORT filled, or -1 with a
 * message in ERR. */
int store_backup (const char *database, const char *dest, struct store_backup_report *report,
                  char *err, size_t errlen);

#endif
