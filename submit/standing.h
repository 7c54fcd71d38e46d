/* standing.h: where an uploaded result stands, in one line, from the
 * `standing` member of the server's 201 answer (docs/protocol.md):
 *
 *   "standing": {"cpu": {"sources": N, "results": N, "median": X,
 *                        "percentile": P},
 *                "arch": {"name": "x86_64", "mode": "quick", "results": N,
 *                         "percentile": P}}
 *
 * `cpu` is the result's CPU row (its identity, run mode and GMP build
 * kind): how many sources and unflagged results stand behind it and their
 * median GMPbench score; `arch` the unflagged results of its architecture
 * and run mode; a percentile is the share (0-100) of those results this
 * one is faster than.  Either may be absent (nothing to compare with), as
 * may `standing` itself (older servers): the line then says only what is
 * there, or nothing.  For example
 *
 *   5879: 2% above the median of 14 results of this CPU; faster than 63%
 *   of 120 x86_64 quick runs */
#ifndef GB_SUBMIT_STANDING_H
#define GB_SUBMIT_STANDING_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Writes the line for STANDING (the answer's member, or NULL) of a result
 * whose GMPbench score is SCORE (0 or NaN when it has none) into OUT,
 * without a newline.  1 when there is something to say, else 0 (OUT
 * empty). */
int standing_line (const cJSON *standing, double score, char *out, size_t outlen);

#endif
