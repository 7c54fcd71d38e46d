/* plausible_internal.h: what the files of the judge share
 * (server/judge/plausible.c, plausible_peers.c) and the rest of the
 * server need not see.
 */
#ifndef GB_SERVER_PLAUSIBLE_INTERNAL_H
#define GB_SERVER_PLAUSIBLE_INTERNAL_H

#include <stddef.h>
#include "model/validate.h"

/* Appends FLAG to the comma-separated list OUT, unless it is there. */
void plausible_add_flag (char *out, size_t size, const char *flag);

/* Appends a line to the notes OUT. */
void plausible_add_note (char *out, size_t size, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* The slot of KEY in a memo of N slots of the scope SCOPE. */
size_t plausible_slot_of (const void *scope, const char *key, size_t n);

/* Raises the remembered best per GHz of SCOPE by the nodes of DOC, an
 * unflagged result (nothing for a document without a clock). */
void plausible_raise_best (const void *scope, const struct doc_summary *doc);

#endif
