/* submit.h: uploading signed results, queueing them when that fails, and
 * retracting them: what `gmpbench run --submit`, `gmpbench submit` and
 * `gmpbench retract` have in common.
 *
 * Every function prints its own one-line messages (on stderr, prefixed
 * "gmpbench CMD:"), prints the permalink of an uploaded result on stdout,
 * and returns the exit status for the command:
 *   0             uploaded (201), or already there (200), or a dry run;
 *   1             rejected by the server, or not saved anywhere;
 *   SUBMIT_NO_CONSENT  not uploaded: the first upload to the server was not
 *                 consented to (consent.h), or no server is set;
 *   SUBMIT_QUEUED not uploaded now but kept in the spool for
 *                 `gmpbench submit --pending`. */
#ifndef GB_SUBMIT_SUBMIT_H
#define GB_SUBMIT_SUBMIT_H

#include <stddef.h>
#include "submit/identity.h"

#define SUBMIT_QUEUED 75        /* EX_TEMPFAIL of sysexits.h */
#define SUBMIT_NO_CONSENT 2     /* the usage error's status */

struct submit_options
{
  const char *cmd;              /* "run", "submit"...: for messages */
  const char *server;           /* --server, or NULL for config_server's choice */
  const char *cacert;           /* --cacert or NULL */
  int unlisted;                 /* --unlisted */
  int yes;                      /* --yes: consent to the server (consent.h) */
  int dry_run;                  /* print the request instead of sending it */
  int quiet;                    /* no progress, no retry notices */
  int retries;                  /* attempts after the first */
  double timeout;               /* seconds per attempt */
  const char *local_copy;       /* a file already holding the bytes, or NULL */
};

/* Defaults: no server override, UPLOAD_DEFAULT_RETRIES, ..._TIMEOUT. */
void submit_options_init (struct submit_options *opt, const char *cmd);

/* The most --retries takes. */
#define SUBMIT_MAX_RETRIES 20

/* Uploads one document (its exact bytes and their signature); on a network
 * failure, a server still failing after the retries or one that redirects
 * elsewhere, queues it.  A document that was neither uploaded nor queued
 * and has no OPT->local_copy (a rejected one included) is saved as
 * gmpbench-result-ID.json (and .sig) in the current directory, else in
 * $TMPDIR or /tmp, else written to stderr: it is never silently lost. */
int submit_document (const char *bytes, size_t len, const char *sig_b64,
                     const struct submit_options *opt);

/* Keeps a document that exists nowhere else, after the message WHY (on
 * stderr, as OPT->cmd): as gmpbench-result-ID.json (and .sig) in the
 * current directory, else in $TMPDIR (or /tmp), else on stderr between
 * marker lines. */
void submit_rescue (const struct submit_options *opt, const char *why, const char *bytes,
                    size_t len, const char *sig_b64);

/* Uploads the queued documents, each to the server it was queued for
 * (OPT->server, when set, overrides that).  Stops at the first one whose
 * server cannot be reached or still fails; the others stay queued.  One
 * whose server redirects stays queued with a message, and the next ones
 * are tried. */
int submit_pending (const struct submit_options *opt);

/* Retracts the result ID, signing the request with ID_KEY. */
int submit_retract (const char *id, const struct gb_identity *key,
                    const struct submit_options *opt);

#endif
