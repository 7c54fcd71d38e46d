/* result_file.h: a signed result file as the commands read it: the exact
 * bytes of FILE, the submitter named inside it, and FILE.sig (sign.h).
 * Nothing here rewrites a document; it is only ever read and checked. */
#ifndef GB_SUBMIT_RESULT_FILE_H
#define GB_SUBMIT_RESULT_FILE_H

#include <stddef.h>
#include "submit/sign.h"

#define RESULT_FILE_MAX_BYTES (1L << 20)      /* the server's limit */

struct result_file
{
  char *path;
  char *bytes;                  /* LEN bytes and a NUL */
  size_t len;
  char public_key[SIGN_KEY_B64_LEN + 1];      /* submitter.public_key */
  char *name;                   /* submitter.name or NULL */
  int signed_;                  /* 1 when PATH.sig exists */
  char signature[SIGN_B64_LEN + 1];
};

/* Reads PATH and PATH.sig and checks that PATH is a result document
 * naming its submitter's key.  A missing PATH.sig is not an error here
 * (SIGNED_ is 0).  0, or -1 with a one-line message in ERR. */
int result_file_load (const char *path, struct result_file *rf, char *err, size_t errlen);

/* Checks the signature against the key inside the document.  0, or -1
 * with a message in ERR (also when the file is unsigned). */
int result_file_verify (const struct result_file *rf, char *err, size_t errlen);

void result_file_free (struct result_file *rf);

#endif
