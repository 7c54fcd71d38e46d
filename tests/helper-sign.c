/* helper-sign.c: a test tool that signs a result document the way a
 * signed `gmpbench run` does (identity_sign_document): it reads IN, puts
 * the submitter of the key in, serialises, and writes OUT and OUT.sig.
 * The tests use it to make signed results from `gmpbench run` output and
 * to make deliberately broken documents that still carry good signatures.
 *
 *   helper-sign [--key KEYFILE] IN OUT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "submit/document.h"
#include "submit/identity.h"
#include "submit/result_file.h"

int
main (int argc, char **argv)
{
  char err[512], sig[SIGN_B64_LEN + 1];
  const char *key = NULL;
  struct gb_identity id;
  cJSON *doc;
  char *in = calloc (RESULT_FILE_MAX_BYTES + 1, 1), *bytes;
  size_t inlen = 0, len;
  FILE *f;
  int rc = 1;

  if (argc == 5 && strcmp (argv[1], "--key") == 0)
    key = argv[2], argv += 2, argc -= 2;
  if (argc != 3)
    {
      fprintf (stderr, "usage: helper-sign [--key KEYFILE] IN OUT\n");
      return 2;
    }
  if (identity_load (key, 1, &id, err, sizeof err) != 0)
    {
      fprintf (stderr, "helper-sign: %s\n", err);
      return 1;
    }
  f = fopen (argv[1], "rb");
  if (f && in)
    inlen = fread (in, 1, RESULT_FILE_MAX_BYTES, f);
  doc = inlen ? cJSON_ParseWithLength (in, inlen) : NULL;
  if (!doc)
    fprintf (stderr, "helper-sign: cannot read JSON from %s\n", argv[1]);
  else if (!(bytes = identity_sign_document (&id, doc, &len, sig)))
    fprintf (stderr, "helper-sign: signing failed\n");
  else
    {
      if (document_write_atomic (argv[2], bytes, len) != 0
          || sign_write_file (argv[2], sig, err, sizeof err) != 0)
        fprintf (stderr, "helper-sign: cannot write %s\n", argv[2]);
      else
        rc = 0;
      free (bytes);
    }
  if (f)
    fclose (f);
  cJSON_Delete (doc);
  free (in);
  identity_free (&id);
  return rc;
}
