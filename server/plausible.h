/* plausible.h: flags for results that are valid but hard to believe.
 *
 * A flag never rejects a result: it is stored with it, shown with it, and
 * keeps it out of aggregates by default.  The checks (docs/protocol.md):
 *   score-outlier      a headline score more than PLAUSIBLE_K scaled MADs
 *                      from the median of the same CPU identity;
 *   brand-mismatch     the brand string does not fit the CPU vendor id;
 *   clock-implausible  the measured clock above what the CPU can run at.
 */
#ifndef GB_SERVER_PLAUSIBLE_H
#define GB_SERVER_PLAUSIBLE_H

#include <stddef.h>
#include "server/store.h"
#include "model/validate.h"

#define PLAUSIBLE_K 5.0
#define PLAUSIBLE_MIN_PEERS 5
/* The newest this many peers make the sample: the median and MAD of a
 * few hundred are as robust as of thousands, and reading them is a part
 * of every upload. */
#define PLAUSIBLE_MAX_PEERS 250

/* Whether X is an outlier among the N values V (V is sorted in place). */
int plausible_outlier (double x, double *v, size_t n);

/* Whether the brand string BRAND fits the CPU identity IDENTITY and the
 * vendor VENDOR (an Intel identity or vendor wants "Intel" in the brand,
 * an AMD one "AMD"); an empty brand fits nothing. */
int plausible_brand_fits (const char *identity, const char *vendor, const char *brand);

/* The document-only checks: appends flag names to OUT (comma-separated). */
void plausible_document (const struct doc_summary *doc, char *out, size_t size);

/* All checks, the outlier test against the stored results of the same CPU
 * identity.  STORE_ERROR when the database fails. */
enum store_status plausible_flags (struct store *st, const struct doc_summary *doc,
                                   char *out, size_t size);

#endif
