/* consent.h: the volunteer's consent before the first upload to a server.
 *
 * An upload makes a result public: its measurements, the description of
 * the machine and of the build, and the key that signed it, whose
 * fingerprint links every result of that key.  Before the first upload
 * to a server the client says so (consent_explain) and asks y/N, on a
 * terminal only: standard input and standard error must both be one.
 *
 * Consent to a server is given by any of:
 *   - `--yes` on the command line (CONSENT_YES), remembered like an answer;
 *   - `consent = yes` in the config file (config.h), for every server;
 *   - an earlier "y", remembered in the state directory's file `consent`
 *     (config.h: $XDG_STATE_HOME/gmpbench/consent), one line per server:
 *     its URL, a tab and the time of the answer (UTC, RFC 3339).
 * Without any of these and without a terminal to ask on, nothing is
 * uploaded and the command exits 2 with a message saying how to consent.
 * `consent = no` in the config file is the same as not having it. */
#ifndef GB_SUBMIT_CONSENT_H
#define GB_SUBMIT_CONSENT_H

#include <stddef.h>

#define CONSENT_FILE_NAME "consent"

/* How consent to a server stands. */
enum consent_state
{
  CONSENT_NONE,                 /* never given: an upload asks first */
  CONSENT_CONFIG,               /* the config file's consent = yes */
  CONSENT_REMEMBERED            /* an answer (or --yes) remembered */
};

/* Where consent to SERVER stands, with the time it was given in WHEN
 * (for CONSENT_REMEMBERED; "" otherwise).  0, or -1 with a message in ERR
 * (an unreadable config or state file, a config value other than yes or
 * no). */
int consent_check (const char *server, enum consent_state *state, char *when,
                   size_t whenlen, char *err, size_t errlen);

/* Makes sure uploads to SERVER are consented to, for the command CMD:
 * with YES (--yes) it remembers that; else, without consent, it prints
 * what becomes public (naming the fingerprint of PUBLIC_KEY_B64, the
 * key the results are signed with) on stderr and asks, and remembers a
 * "y".  A server consented to once in this process is not asked about
 * again.  0 when uploads may go on; -1 when they may not (refused, no
 * terminal to ask on, a broken config file), the message printed: the
 * command then exits 2.  A remembered answer that cannot be written is
 * a warning, not a refusal. */
int consent_obtain (const char *cmd, const char *server, const char *public_key_b64, int yes);

#endif
