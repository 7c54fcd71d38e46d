/* result_file.c: reading and checking signed result files (see
 * result_file.h).  The document is parsed only to find the submitter; the
 * bytes that are verified and uploaded are the ones read from disk. */
#include "submit/result_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "submit/document.h"

static char *
read_all (const char *path, size_t *len, char *err, size_t errlen)
{
  FILE *f = fopen (path, "rb");
  char *buf;
  size_t n;
  int bad;

  if (!f)
    {
      snprintf (err, errlen, "cannot open %s: %s", path, strerror (errno));
      return NULL;
    }
  buf = gb_xmalloc (RESULT_FILE_MAX_BYTES + 2);
  n = fread (buf, 1, RESULT_FILE_MAX_BYTES + 1, f);
  bad = ferror (f) || n > RESULT_FILE_MAX_BYTES;
  if (ferror (f))
    snprintf (err, errlen, "cannot read %s: %s", path, strerror (errno));
  else if (bad)
    snprintf (err, errlen, "%s is larger than %ld bytes: not a result document",
              path, RESULT_FILE_MAX_BYTES);
  fclose (f);
  if (bad)
    {
      free (buf);
      return NULL;
    }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Finds the submitter in the document. */
static int
parse_submitter (struct result_file *rf, char *err, size_t errlen)
{
  cJSON *doc = cJSON_ParseWithLength (rf->bytes, rf->len);
  const cJSON *format = cJSON_GetObjectItemCaseSensitive (doc, "format");
  const cJSON *sub = cJSON_GetObjectItemCaseSensitive (doc, "submitter");
  const char *key = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (sub, "public_key"));
  const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (sub, "name"));
  int rc = -1;

  if (!doc)
    snprintf (err, errlen, "%s is not JSON", rf->path);
  else if (!cJSON_IsString (format) || strcmp (format->valuestring, DOCUMENT_FORMAT) != 0)
    snprintf (err, errlen, "%s is not a gmpbench result (no \"format\": \"%s\")",
              rf->path, DOCUMENT_FORMAT);
  else if (!key)
    snprintf (err, errlen, "%s names no submitter key (submitter.public_key): "
              "it was written by a run that did not sign", rf->path);
  else if (strlen (key) != SIGN_KEY_B64_LEN)
    snprintf (err, errlen, "%s: submitter.public_key is not base64 of a 32-byte key", rf->path);
  else
    {
      memcpy (rf->public_key, key, SIGN_KEY_B64_LEN + 1);
      rf->name = name ? gb_xstrdup (name) : NULL;
      rc = 0;
    }
  cJSON_Delete (doc);
  return rc;
}

int
result_file_load (const char *path, struct result_file *rf, char *err, size_t errlen)
{
  int s;
  memset (rf, 0, sizeof *rf);
  rf->path = gb_xstrdup (path);
  rf->bytes = read_all (path, &rf->len, err, errlen);
  if (!rf->bytes || parse_submitter (rf, err, errlen) != 0
      || (s = sign_read_file (path, rf->signature, err, errlen)) < 0)
    {
      result_file_free (rf);
      return -1;
    }
  rf->signed_ = s == 0;
  return 0;
}

int
result_file_verify (const struct result_file *rf, char *err, size_t errlen)
{
  char why[256];
  if (!rf->signed_)
    {
      snprintf (err, errlen, "%s has no signature (%s.sig is missing)", rf->path, rf->path);
      return -1;
    }
  if (sign_verify (rf->public_key, rf->bytes, rf->len, rf->signature, why, sizeof why) != 0)
    {
      snprintf (err, errlen, "%s: BAD signature: %s", rf->path, why);
      return -1;
    }
  return 0;
}

void
result_file_free (struct result_file *rf)
{
  free (rf->path);
  free (rf->bytes);
  free (rf->name);
  memset (rf, 0, sizeof *rf);
}
