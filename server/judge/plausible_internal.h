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

/* plausible_clock.c.  The highest clock DOC's CPU reaches, in MHz
 * (model/cpu_clocks.h): its family's; a virtual CPU's (one with a
 * hypervisor) its maker's fastest family's; PLAUSIBLE_MAX_MHZ for an
 * emulated CPU and an identity the table does not know.  *KNOWN: whether
 * the table gave it. */
double plausible_family_mhz (const struct doc_summary *doc, int *known);
/* The highest clock DOC may claim, in MHz: plausible_family_mhz with
 * PLAUSIBLE_CLOCK_MARGIN when the table gave it, else PLAUSIBLE_MAX_MHZ. */
double plausible_clock_bound (const struct doc_summary *doc);
/* 0, or -1 with ERR set (422 clock-beyond-family or clock-drift). */
int plausible_clock_refuse (const struct doc_summary *doc, struct validate_error *err);

/* Raises the remembered best per GHz of SCOPE by the nodes of DOC, an
 * unflagged result (nothing for a document without a clock). */
void plausible_raise_best (const void *scope, const struct doc_summary *doc);

#endif
