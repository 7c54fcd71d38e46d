/* spool.h: the offline queue of results waiting for upload.
 *
 * The spool is the directory $XDG_DATA_HOME/gmpbench/spool (config.h).
 * Each entry is one file, ID.spool, where ID is the result id the server
 * will give the document (the first 16 hex digits of the SHA-256 of its
 * bytes), so queueing the same document twice keeps one entry.  The file
 * is a short header and the document's exact bytes:
 *
 *   gmpbench-spool/1
 *   server URL
 *   unlisted 0|1
 *   signature BASE64
 *   <empty line>
 *   DOCUMENT BYTES
 *
 * Entries are written with document_write_atomic (temporary file, fsync,
 * rename, fsync of the directory), so a crash at any point leaves either a
 * whole entry or none; a leftover temporary file (*.tmp.PID) is never
 * taken for an entry.  An entry is removed only after the server confirmed
 * it (201 or 200).  One the server rejected for good (a 4xx other than 408
 * and 429) is renamed ID.rejected: kept, but not sent again. */
#ifndef GB_SUBMIT_SPOOL_H
#define GB_SUBMIT_SPOOL_H

#include <stddef.h>
#include "submit/sign.h"

struct spool_entry
{
  char *path;                   /* the entry's file */
  char *server;
  int unlisted;
  char signature[SIGN_B64_LEN + 1];
  char *bytes;                  /* the document, LEN bytes (NUL after them) */
  size_t len;
};

/* malloc'ed path of the spool directory, or NULL with a message. */
char *spool_dir (char *err, size_t errlen);

/* Queues a document.  On success returns 0 and, if PATH_OUT is not NULL,
 * the entry's malloc'ed path; -1 with a message in ERR otherwise. */
int spool_add (const char *server, int unlisted, const char *sig_b64,
               const char *bytes, size_t len, char **path_out,
               char *err, size_t errlen);

/* The paths of the queued entries (SUFFIX ".spool") or of the rejected
 * ones (".rejected"), sorted, as a malloc'ed array of malloc'ed strings.
 * A missing spool directory is an empty list.  -1 with a message when the
 * directory cannot be read. */
int spool_list (const char *suffix, char ***paths, size_t *n, char *err, size_t errlen);
void spool_list_free (char **paths, size_t n);

/* Reads the entry at PATH.  0, or -1 with a message (a damaged entry). */
int spool_read (const char *path, struct spool_entry *e, char *err, size_t errlen);
void spool_entry_free (struct spool_entry *e);

/* Deletes the temporary files of writers that died (their PID is gone).
 * Returns how many were deleted. */
size_t spool_clean (void);

/* Removes an uploaded entry / sets aside a rejected one.  0 or -1 (errno;
 * ENOENT when a concurrent `submit --pending` got there first). */
int spool_remove (const struct spool_entry *e);
int spool_reject (const struct spool_entry *e);

#endif
