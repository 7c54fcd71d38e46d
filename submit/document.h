/* document.h: the result document of a run (docs/result-format.md), built
 * as cJSON and serialised once; those bytes are what gets signed. */
#ifndef GB_DOCUMENT_H
#define GB_DOCUMENT_H

#include <cjson/cJSON.h>
#include "model/protocol.h"
#include "engine/clock_check.h"
#include "engine/runner.h"
#include "model/score.h"

#define DOCUMENT_FORMAT PROTOCOL_FORMAT

struct run_info
{
  const char *mode;             /* "full", "quick" or "custom" */
  int quick;                    /* full-only tests left out (--quick) */
  double time_per_test;
  char **only;
  size_t nonly;
  int threads;
  char **suites;                /* the --suite names, if any */
  size_t nsuites;
  double cycles_ghz;            /* the clock of the cycles figures; 0: none */
  const char *cycles_clock;     /* "given" (--cpu-ghz) or "measured" */
};

/* Takes ownership of SYSTEM and COMPARISONS (client/compare.h). */
cJSON *document_build (const struct run_info *info, cJSON *system,
                       const struct test_result *results, size_t n,
                       const struct score_node *scores, size_t nscores,
                       cJSON *comparisons);

/* Adds the all-core results of `run --threads N`: the "threads" member
 * with N, each test's aggregate result and scaling efficiency, and the
 * scores of the aggregates. */
void document_add_threads (cJSON *doc, unsigned nthreads,
                           const struct test_result *results, const double *efficiency,
                           size_t n, const struct score_node *scores, size_t nscores);

/* Adds run.counter: the record of the check of the run's clock against
 * the CPU's counter (engine/clock_check.h), passed or skipped. */
void document_add_clock_check (cJSON *doc, const struct clock_check *c);

/* The document's bytes: pretty-printed JSON and a final newline. */
char *document_serialize (const cJSON *doc);

/* Writes DATA to PATH atomically: a temporary file in the same directory,
 * fsync, rename, fsync of the directory; through a symbolic link, the file
 * it names is replaced.  A device or FIFO at PATH (/dev/null, /dev/stdout)
 * is written as it is, never replaced.  On failure returns -1 with errno
 * set and leaves PATH as it was. */
int document_write_atomic (const char *path, const void *data, size_t len);

/* document_write_atomic, its failure said in ERR ("cannot write PATH:
 * the reason"): 0, or -1. */
int document_save (const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Whether PATH exists and is not a regular file (a device, a FIFO):
 * nothing can be written next to such a path. */
int document_special_path (const char *path);

#endif
