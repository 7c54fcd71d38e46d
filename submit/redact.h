/* redact.h: what `gmpbench run --redact` leaves out of a result document
 * before it is signed (docs/result-format.md, "redacted"):
 *   machine  system.machine.model, the board or system model read from
 *            DMI or the device tree, becomes null;
 *   kernel   system.os.kernel keeps its version only: the release up to
 *            the end of its first run of digits and dots ("6.1.0-18-amd64"
 *            becomes "6.1.0"), null when it holds no digit.
 * The document's top-level `redacted` lists what was left out, and each
 * member's source says so, so that nobody reads a null model as a machine
 * without one. */
#ifndef GB_SUBMIT_REDACT_H
#define GB_SUBMIT_REDACT_H

#include <stddef.h>
#include <cjson/cJSON.h>

#define REDACT_MACHINE 1u
#define REDACT_KERNEL 2u

/* Parses LIST ("machine,kernel", either or both) into *WHAT (ORed in).
 * 0, or -1 with a message naming the unknown word in ERR. */
int redact_parse (const char *list, unsigned *what, char *err, size_t errlen);

/* Leaves WHAT out of DOC's system, and records it in DOC. */
void redact_apply (cJSON *doc, unsigned what);

/* The kernel's version of the release string RELEASE into OUT: "" when
 * RELEASE holds no digit. */
void redact_kernel_version (const char *release, char *out, size_t outlen);

#endif
