/* document.h: the result document of a run (docs/result-format.md), built
 * as cJSON and serialised once; those bytes are what gets signed. */
#ifndef GB_DOCUMENT_H
#define GB_DOCUMENT_H

#include <cjson/cJSON.h>
#include "suites/runner.h"
#include "suites/score.h"

#define DOCUMENT_FORMAT "gmpbench-result/1"

struct run_info
{
  const char *mode;             /* "full", "quick" or "custom" */
  double time_per_test;
  char **only;
  size_t nonly;
  int threads;
};

/* Takes ownership of SYSTEM. */
cJSON *document_build (const struct run_info *info, cJSON *system,
                       const struct test_result *results, size_t n,
                       const struct score_node *scores, size_t nscores);

/* The document's bytes: pretty-printed JSON and a final newline. */
char *document_serialize (const cJSON *doc);

/* Writes DATA to PATH atomically: a temporary file in the same directory,
 * fsync, rename, fsync of the directory.  On failure returns -1 with errno
 * set and leaves PATH as it was. */
int document_write_atomic (const char *path, const void *data, size_t len);

#endif
