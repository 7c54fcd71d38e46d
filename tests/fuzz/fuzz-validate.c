/* fuzz-validate.c: a libFuzzer target for validate_document(), the parser
 * and validator every upload goes through before anything else looks at
 * it.  Not part of any program; docs/server.md shows how to build and run
 * it, with the seed corpus in tests/fuzz/corpus/.  Any crash, leak or
 * sanitizer report is a bug; so is accepting a document that the strict
 * scan should have refused, which the target checks by rescanning. */
#include <stdint.h>
#include <stdlib.h>
#include "model/json_check.h"
#include "model/validate.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct doc_summary doc;
  struct validate_error err;
  struct json_check_error scan;

  if (validate_document ((const char *) data, size, &doc, &err) == 0)
    {
      if (json_check ((const char *) data, size, VALIDATE_MAX_DEPTH, &scan) != 0
          || !doc.arch || !doc.cpu || doc.nscores < doc.ninner)
        abort ();
      validate_summary_free (&doc);
    }
  else
    validate_error_free (&err);
  return 0;
}
