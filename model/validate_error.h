/* validate_error.h: which rule of docs/protocol.md a document breaks,
 * where, and why: what the schema walker (schema.h) and the validator
 * (validate.h) report, and what the server answers and `gmpbench verify`
 * prints. */
#ifndef GB_VALIDATE_ERROR_H
#define GB_VALIDATE_ERROR_H

#include <stddef.h>

struct validate_error
{
  int status;                   /* HTTP status: 400, 413 or 422 */
  const char *rule;             /* stable rule name, docs/protocol.md */
  char field[128];              /* path into the document, or "" */
  char message[256];            /* one human-readable line */
  char **tests;                 /* test names concerned, or NULL */
  size_t ntests;
};

/* Sets ERR to a rule failure (the message is printf-formatted). */
void validate_fail (struct validate_error *err, int status, const char *rule,
                    const char *field, const char *fmt, ...)
  __attribute__ ((format (printf, 5, 6)));

/* Frees the test names ERR holds. */
void validate_error_free (struct validate_error *err);

#endif
