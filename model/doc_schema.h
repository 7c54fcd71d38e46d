/* doc_schema.h: the result document (docs/result-format.md) as one table.
 *
 * The member names are declared here once (those of the `system` object
 * in doc_system.h), and the writers (submit/document.c, client/compare.c,
 * sysinfo/), the validator (validate.c: the server's uploads and `gmpbench
 * verify`) and the readers (the reports of client/, the server's pages)
 * all spell them through these names.
 * doc_schema.c describes every checked object member by member (kind,
 * required or optional, nullable, range; schema.h); the validator checks a
 * document against those tables and nothing else.
 */
#ifndef GB_DOC_SCHEMA_H
#define GB_DOC_SCHEMA_H

#include <stddef.h>
#include "model/doc_system.h"
#include "model/schema.h"

/* The top level. */
#define DOC_FORMAT "format"
#define DOC_CLIENT "client"
#define DOC_REGISTRY "registry"
#define DOC_CREATED "created"
#define DOC_RUN "run"
#define DOC_SYSTEM "system"
#define DOC_RESULTS "results"
#define DOC_SKIPPED "skipped"
#define DOC_SCORES "scores"
#define DOC_COMPARISONS "comparisons"
#define DOC_THREADS "threads"
#define DOC_SUBMITTER "submitter"
/* What `gmpbench run --redact` left out of system (optional: absent when
 * nothing was): an array of the names below, each at most once. */
#define DOC_REDACTED "redacted"

/* client */
#define DOC_CLIENT_NAME "name"
#define DOC_CLIENT_VERSION "version"

/* run */
#define DOC_RUN_MODE "mode"
#define DOC_RUN_QUICK "quick"
#define DOC_RUN_TIME_PER_TEST "time_per_test"
#define DOC_RUN_ONLY "only"
#define DOC_RUN_SUITES "suites"
#define DOC_RUN_THREADS "threads"
#define DOC_RUN_OPERAND_SEED "operand_seed"
#define DOC_RUN_CYCLES_GHZ "cycles_ghz"
#define DOC_RUN_CYCLES_CLOCK "cycles_clock"
/* run.counter: the clock checked against the CPU's counter
 * (engine/clock_check.h); optional, documents of older clients lack it. */
#define DOC_RUN_COUNTER "counter"
#define DOC_COUNTER_SOURCE "source"
#define DOC_COUNTER_SKIPPED "skipped"
#define DOC_COUNTER_RATE_CLOCK "rate_clock"
#define DOC_COUNTER_RATE_MHZ_BEFORE "rate_mhz_before"
#define DOC_COUNTER_RATE_MHZ_AFTER "rate_mhz_after"
#define DOC_COUNTER_STATED_MHZ "stated_mhz"
#define DOC_COUNTER_TESTS "tests"
#define DOC_COUNTER_DEVIATION_MIN "deviation_min"
#define DOC_COUNTER_DEVIATION_MAX "deviation_max"
/* run.pinning: the CPU a worker of a side-by-side run (`run --gmp A --gmp
 * B`) ran on, pinned, with the run and the other workers
 * (client/gmp_pin.h); the CPU null, and why, where it was not pinned.
 * Optional: only those workers' documents have it. */
#define DOC_RUN_PINNING "pinning"
#define DOC_PINNING_CPU "cpu"
#define DOC_PINNING_SKIPPED "skipped"
/* run.counter.rate_clock */
#define DOC_RATE_CLOCK_SYSCALL "syscall"
#define DOC_RATE_CLOCK_LIBC "libc"

/* run.mode */
#define DOC_MODE_FULL "full"
#define DOC_MODE_QUICK "quick"
#define DOC_MODE_CUSTOM "custom"

/* results[] and threads.results[] (and the entries of comparisons[],
 * which repeat a result's ops_per_sec, seconds_per_op and spread). */
#define DOC_RESULT_NAME "name"
#define DOC_RESULT_OPS_PER_SEC "ops_per_sec"
#define DOC_RESULT_SECONDS_PER_OP "seconds_per_op"
#define DOC_RESULT_FAST_OPS_PER_SEC "fast_ops_per_sec"
#define DOC_RESULT_SPREAD "spread"
#define DOC_RESULT_MEDIAN_OPS_PER_SEC "median_ops_per_sec"
#define DOC_RESULT_SAMPLES "samples"
#define DOC_RESULT_REPS_PER_SAMPLE "reps_per_sample"
#define DOC_RESULT_WALL_SECONDS "wall_seconds"
#define DOC_RESULT_CPU_SECONDS "cpu_seconds"
#define DOC_RESULT_KERNEL_SECONDS "kernel_seconds"
#define DOC_RESULT_CONVERGED "converged"
#define DOC_RESULT_FLAGS "flags"
#define DOC_RESULT_DIGEST "digest"
#define DOC_RESULT_EFFICIENCY "efficiency"      /* threads.results[] only */
/* results[].flags[] */
#define DOC_FLAG_NOISY "noisy"
#define DOC_FLAG_CPU_DIVERGED "cpu-diverged"

/* threads */
#define DOC_THREADS_COUNT "count"
#define DOC_THREADS_RESULTS "results"
#define DOC_THREADS_PINNED "pinned"
#define DOC_THREADS_SCORES "scores"

/* system: its member names are doc_system.h's.  The paths below system
 * of the board or system model and of the SoC of a device tree board
 * (optional: documents of older clients lack them). */
#define DOC_MACHINE_MODEL DOC_PATH (DOC_SYS_MACHINE, DOC_SYS_MACHINE_MODEL)
#define DOC_MACHINE_SOC DOC_PATH (DOC_SYS_MACHINE, DOC_SYS_MACHINE_SOC)

/* skipped[] */
#define DOC_SKIPPED_NAME "name"
#define DOC_SKIPPED_REASON "reason"

/* redacted[]: machine.model set to null; os.kernel cut to its version */
#define DOC_REDACT_MACHINE "machine"
#define DOC_REDACT_KERNEL "kernel"

/* submitter */
#define DOC_SUBMITTER_PUBLIC_KEY "public_key"
#define DOC_SUBMITTER_NAME "name"

/* The members of an object, for schema_check_object. */
struct doc_object
{
  const struct schema_member *members;
  size_t n;
};

extern const struct doc_object doc_top, doc_client, doc_run, doc_system, doc_threads,
  doc_submitter, doc_run_counter, doc_run_pinning;
/* Elements of arrays and values of the scores objects. */
extern const struct schema_member doc_result_element, doc_threaded_result_element,
  doc_skipped_element, doc_flag_element, doc_only_element, doc_score_value,
  doc_redacted_element;

/* The values run.mode and results[].flags[] may take. */
extern const char *const doc_run_modes[];
extern const size_t doc_nrun_modes;
extern const char *const doc_result_flags[];
extern const size_t doc_nresult_flags;
/* The values redacted[] may hold. */
extern const char *const doc_redactions[];
extern const size_t doc_nredactions;

#endif
