/* metrics.h: the server's counters, for /metrics in Prometheus's text
 * exposition format (docs/server.md, "Metrics").
 *
 * One set of counters for the process, kept from its start: requests by
 * route and status and their latency, uploads accepted and refused by
 * rule, and the flags accepted uploads carry.  Each labelled series is
 * a slot of a fixed table, found by a hash of its labels and counted
 * with atomic additions, so counting takes no lock; a series seen for the
 * first time takes a lock once, to claim its slot.  Label values come
 * from the server's own tables (route patterns, rule and flag names), so
 * the series are few; past the table's room, new series are dropped and
 * counted as dropped.  The gauges (results stored, database size, the
 * snapshot's age) are read when /metrics is asked for
 * (server/api/api_metrics.c). */
#ifndef GB_SERVER_METRICS_H
#define GB_SERVER_METRICS_H

#include <stdio.h>

/* A request answered STATUS (499: the client went away first) after
 * SECONDS, by the route METHOD PATTERN (route.h), or by no route (NULL:
 * refused before routing, or no route has the path). */
void metrics_request (const char *method, const char *pattern, int status, double seconds);

/* The answer to an upload: STATUS 201 counts as accepted (a new result
 * stored), 200 (stored before) as neither, anything from 400 on as
 * refused by RULE (the error's "rule", NULL: "none"). */
void metrics_upload (int status, const char *rule);

/* The flags of an accepted upload, separated by commas ("" or NULL:
 * none): each counted once by name. */
void metrics_upload_flags (const char *flags);

/* Writes every counter in the text exposition format to OUT, each
 * family with its # HELP and # TYPE lines. */
void metrics_write (FILE *out);

/* Writes one gauge (NAME, HELP, VALUE) in the same format. */
void metrics_write_gauge (FILE *out, const char *name, const char *help, double value);

#endif
