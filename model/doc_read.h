/* doc_read.h: reading members of a result document (or of any JSON
 * object) that may be absent or of the wrong kind, as the reports and
 * the server's pages do: a document read from disk was not validated,
 * and even a valid one has optional members. */
#ifndef GB_DOC_READ_H
#define GB_DOC_READ_H

#include <cjson/cJSON.h>

/* The string member KEY of O; "" when O is NULL or KEY is absent or not a
 * string. */
const char *doc_string (const cJSON *o, const char *key);

/* The number member KEY of O; ABSENT when O is NULL or KEY is absent or
 * not a number. */
double doc_number (const cJSON *o, const char *key, double absent);

#endif
