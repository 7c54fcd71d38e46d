/* validate.h: is an uploaded document a genuine result?
 *
 * validate_document() takes the exact bytes of an upload and applies every
 * rule of docs/protocol.md that depends on the document alone: strict JSON
 * and UTF-8, nesting depth, the schema of docs/result-format.md (types,
 * ranges, no unknown members outside `system`), registry test names, the
 * scores recomputed with score_compute(), and the per-test output digests
 * against the reference digests.  It does not look at the signature or at
 * the database; on success it returns what the server stores and queries.
 *
 * It is pure (no I/O, no globals written), which is what the fuzz target
 * tests/fuzz/fuzz-validate.c relies on.
 */
#ifndef GB_VALIDATE_H
#define GB_VALIDATE_H

#include <stddef.h>
#include "model/protocol.h"
#include "model/score.h"
#include "model/validate_error.h"

#define VALIDATE_MAX_BODY (1024 * 1024)
#define VALIDATE_MAX_DEPTH 16

/* The node the all-core GMPbench score is stored and ranked under: the
 * `gmpbench` score of a multi-threaded run with a copy on every CPU. */
#define VALIDATE_ALLCORE_NODE "allcore.gmpbench"

/* One measurement as the document states it (results[] and
 * threads.results[]), for the plausibility checks (plausible.h). */
struct doc_test
{
  char name[129];
  double ops_per_sec, seconds_per_op, median_ops_per_sec, spread;
  double fast_ops_per_sec;      /* 0 when the document has none */
  double samples, reps_per_sample, wall_seconds, cpu_seconds;
  int threads;                  /* 1 in results[], threads.count in threads.results[] */
  int noisy, cpu_diverged;      /* the test's own flags */
};

/* What the server keeps of a valid document besides its bytes. */
struct doc_summary
{
  unsigned char public_key[PROTOCOL_KEY_BYTES];
  char *arch, *cpu, *cpu_name, *cpu_vendor, *os, *gmp, *compiler, *created;
  char *submitter;              /* submitter.name, or NULL */
  /* The strings above are "" for null members.  Clocks are 0 when not
   * reported (the measured ones also when the client marked them
   * invalid): system.clock.measured.mhz, nominal_mhz, max_mhz,
   * measured_after.mhz. */
  double mhz_measured, mhz_nominal, mhz_max, mhz_measured_after;
  /* The spread of the two measurements' trials (0 when not reported),
   * and the timestamp counter's rate over each (tsc_mhz; 0 when not
   * reported, whether the measurement is valid or not). */
  double spread_measured, spread_measured_after;
  double tsc_mhz_measured, tsc_mhz_measured_after;
  char *hypervisor;             /* system.cpu.hypervisor, "" on bare metal */
  int emulated;                 /* system.cpu.emulated */
  /* Every complete inner node (as score_compute gives them; after them
   * VALIDATE_ALLCORE_NODE when the multi-threaded run used every CPU),
   * then one entry per test with its ops/s (depth = dots in the test
   * name). */
  struct score_node *scores;
  size_t nscores, ninner;
  int cores;                    /* physical cores, else logical ones */
  char *mode;                   /* run.mode */
  char *gmp_build;              /* system.build.gmp.build, "" when absent */
  int gmp_interposed;           /* system.build.gmp.entry_points.interposed */
  int virtual_machine;          /* it names a hypervisor (model/machine_kind.h) */
  struct doc_test *tests;       /* results[], then threads.results[] */
  size_t ntests;
  int previous_definitions;     /* measured with the previous registry's
                                 * definitions (model/registry.h) */
  char measurements[65];        /* the fingerprint of results[]
                                 * (model/measurements.h) */
};

/* Whether NODE names a node a document's scores can have: a test or an
 * inner node of the registry, or VALIDATE_ALLCORE_NODE. */
int validate_known_node (const char *node);

/* 0 and *DOC filled when BODY[0..LEN) is valid; -1 and *ERR filled
 * otherwise.  Free *DOC with validate_summary_free, *ERR with
 * validate_error_free. */
int validate_document (const char *body, size_t len, struct doc_summary *doc,
                       struct validate_error *err);
void validate_summary_free (struct doc_summary *doc);

#endif
