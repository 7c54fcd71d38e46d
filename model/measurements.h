/* measurements.h: the fingerprint of a result document's measurements,
 * which the server holds unique across keys (docs/protocol.md,
 * "duplicate-measurements"): the same measurements signed again by
 * another key, or with another submitter.name, are a copy, not a new
 * result.
 *
 * The fingerprint is the SHA-256 of a canonical text of the document's
 * results array, so that what does not change a measurement does not
 * change it: arrays are sets (results[] and each test's flags in any
 * order), an object's members go by name (in any order), numbers are the
 * values they parse to, rounded to MEASUREMENTS_DIGITS significant digits
 * (1, 1.0 and 1e0 alike; a re-printing with fewer digits alike unless it
 * crosses a rounding step of the last digit kept), and strings are their
 * bytes.  Two honest runs never agree to that many digits in every
 * member of every test (wall and CPU times in nanoseconds among them). */
#ifndef GB_MODEL_MEASUREMENTS_H
#define GB_MODEL_MEASUREMENTS_H

#include <cjson/cJSON.h>

#define MEASUREMENTS_DIGITS 9

/* The fingerprint of RESULTS (a document's results array, as parsed) as
 * 64 lower-case hex digits into HEX. */
void measurements_fingerprint (const cJSON *results, char hex[65]);

#endif
