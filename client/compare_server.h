/* compare_server.h: `gmpbench compare --server URL RESULT.json`, a local
 * result against its CPU row on a results server.
 *
 * The row is the one /api/v1/cpus gives for the result's CPU identity,
 * run mode and GMP build kind (docs/protocol.md): per headline node (the
 * registry's nodes of depth 0 and 1) the median and quartiles of the
 * row's unflagged results.  Each node of the result gets the ratio of its
 * score to the row's median (above 1: faster), marked ~ when the score
 * lies within the row's quartiles (the middle half of its results), as
 * `gmpbench compare` marks a ratio within the spreads. */
#ifndef GB_CLIENT_COMPARE_SERVER_H
#define GB_CLIENT_COMPARE_SERVER_H

#include <stdio.h>
#include "client/report.h"
#include "submit/upload.h"

/* Compares the result document DOC (read from FILE) with its row on the
 * server URL (no trailing slash), reached with UO's TLS, timeout and
 * retries, printing on F in FORMAT (text or json).  0; 1 after a message
 * when the server cannot be read or has no such row; 2 after a message
 * for a format it does not print. */
int compare_server (FILE *f, const char *url, const char *file, const cJSON *doc,
                    enum report_format format, const struct upload_options *uo);

#endif
