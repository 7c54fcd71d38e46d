/* doc_schema.c: every checked object of the result document, member by
 * member (see doc_schema.h and docs/result-format.md). */
#include "model/doc_schema.h"

#include "common/util.h"
#include "model/registry.h"

#define BIG 1e300

/* A member without element schema. */
#define M(name, kind, flags, min, max) { name, kind, flags, min, max, NULL, 0 }

static const struct schema_member top_schema[] = {
  M (DOC_FORMAT, SK_STRING, SCHEMA_REQUIRED, 1, 64),
  M (DOC_CLIENT, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
  M (DOC_REGISTRY, SK_STRING, 0, REGISTRY_ID_LEN, REGISTRY_ID_LEN),
  M (DOC_CREATED, SK_STRING, SCHEMA_REQUIRED, 20, 20),
  M (DOC_RUN, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
  M (DOC_SYSTEM, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
  M (DOC_RESULTS, SK_ARRAY, SCHEMA_REQUIRED, 1, 4096),
  M (DOC_SKIPPED, SK_ARRAY, 0, 0, 4096),
  M (DOC_SCORES, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
  M (DOC_COMPARISONS, SK_ARRAY, 0, 0, 4096),
  M (DOC_THREADS, SK_OBJECT, 0, 0, 0),
  M (DOC_SUBMITTER, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
  M (DOC_REDACTED, SK_ARRAY, 0, 1, 2),
};

static const struct schema_member client_schema[] = {
  M (DOC_CLIENT_NAME, SK_STRING, SCHEMA_REQUIRED, 1, 64),
  M (DOC_CLIENT_VERSION, SK_STRING, SCHEMA_REQUIRED, 1, 64),
};

static const struct schema_member run_schema[] = {
  M (DOC_RUN_MODE, SK_STRING, SCHEMA_REQUIRED, 1, 16),
  M (DOC_RUN_QUICK, SK_BOOL, 0, 0, 0),
  M (DOC_RUN_TIME_PER_TEST, SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_POSITIVE, 0, 86400),
  M (DOC_RUN_ONLY, SK_ARRAY, SCHEMA_REQUIRED, 0, 256),
  M (DOC_RUN_SUITES, SK_ARRAY, 0, 0, 256),
  M (DOC_RUN_THREADS, SK_INTEGER, SCHEMA_REQUIRED, 1, 4096),
  M (DOC_RUN_OPERAND_SEED, SK_STRING, SCHEMA_REQUIRED, 1, 256),
  M (DOC_RUN_CYCLES_GHZ, SK_NUMBER, SCHEMA_POSITIVE, 0, 100),
  M (DOC_RUN_CYCLES_CLOCK, SK_STRING, 0, 5, 8),
  M (DOC_RUN_COUNTER, SK_OBJECT, 0, 0, 0),
  M (DOC_RUN_PINNING, SK_OBJECT, 0, 0, 0),
};

/* run.counter: the source is null, with the reason, where there is no
 * counter; the rates and deviations are there where there is one. */
static const struct schema_member run_counter_schema[] = {
  M (DOC_COUNTER_SOURCE, SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 1, 16),
  M (DOC_COUNTER_SKIPPED, SK_STRING, 0, 1, 256),
  M (DOC_COUNTER_RATE_CLOCK, SK_STRING, 0, 4, 7),
  M (DOC_COUNTER_RATE_MHZ_BEFORE, SK_NUMBER, SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_COUNTER_RATE_MHZ_AFTER, SK_NUMBER, SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_COUNTER_STATED_MHZ, SK_NUMBER, SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_COUNTER_TESTS, SK_INTEGER, 0, 0, 1e6),
  M (DOC_COUNTER_DEVIATION_MIN, SK_NUMBER, 0, -1, 1e6),
  M (DOC_COUNTER_DEVIATION_MAX, SK_NUMBER, 0, -1, 1e6),
};

/* run.pinning: the CPU, or null with the reason. */
static const struct schema_member run_pinning_schema[] = {
  M (DOC_PINNING_CPU, SK_INTEGER, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 65535),
  M (DOC_PINNING_SKIPPED, SK_STRING, 0, 1, 256),
};

/* `system` is open: only the members docs/sysinfo.md marks required are
 * checked ("unknown is null", so most may be null); others are kept. */
static const struct schema_member system_schema[] = {
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_ARCH), SK_STRING, SCHEMA_REQUIRED, 1, 64),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_IDENTITY), SK_STRING, SCHEMA_REQUIRED, 1, 256),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_NAME),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 256),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_VENDOR),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 64),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_MICROARCHITECTURE),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 128),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_HYPERVISOR),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 128),
  M (DOC_PATH (DOC_SYS_CPU, DOC_SYS_CPU_EMULATED), SK_BOOL, SCHEMA_REQUIRED, 0, 0),
  M (DOC_PATH (DOC_SYS_CORES, DOC_SYS_CORES_LOGICAL), SK_INTEGER, SCHEMA_REQUIRED, 1, 1e6),
  M (DOC_PATH (DOC_SYS_CORES, DOC_SYS_CORES_PHYSICAL),
     SK_INTEGER, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 1, 1e6),
  M (DOC_PATH (DOC_SYS_CORES, DOC_SYS_CORES_USABLE),
     SK_INTEGER, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 1, 1e6),
  M (DOC_PATH (DOC_SYS_CLOCK, DOC_SYS_CLOCK_NOMINAL_MHZ),
     SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_NULLABLE | SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_PATH (DOC_SYS_CLOCK, DOC_SYS_CLOCK_MAX_MHZ),
     SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_NULLABLE | SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_PATH (DOC_SYS_CLOCK, DOC_SYS_CLOCK_MEASURED),
     SK_OBJECT, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 0),
  M (DOC_PATH (DOC_SYS_CLOCK, DOC_SYS_CLOCK_MEASURED, DOC_SYS_MEASURED_MHZ),
     SK_NUMBER, SCHEMA_NULLABLE | SCHEMA_POSITIVE, 0, 1e6),
  M (DOC_PATH (DOC_SYS_CLOCK, DOC_SYS_CLOCK_MEASURED, DOC_SYS_MEASURED_VALID),
     SK_BOOL, SCHEMA_NULLABLE, 0, 0),
  M (DOC_PATH (DOC_SYS_OS, DOC_SYS_OS_NAME), SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 128),
  M (DOC_PATH (DOC_SYS_OS, DOC_SYS_OS_VERSION),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 256),
  M (DOC_PATH (DOC_SYS_OS, DOC_SYS_OS_KERNEL),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 256),
  M (DOC_PATH (DOC_SYS_BUILD, DOC_SYS_BUILD_COMPILER, DOC_SYS_COMPILER_NAME),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 64),
  M (DOC_PATH (DOC_SYS_BUILD, DOC_SYS_BUILD_COMPILER, DOC_SYS_COMPILER_VERSION),
     SK_STRING, SCHEMA_NULLABLE, 0, 128),
  M (DOC_PATH (DOC_SYS_BUILD, DOC_SYS_BUILD_GMP, DOC_SYS_GMP_VERSION),
     SK_STRING, SCHEMA_REQUIRED, 1, 64),
  M (DOC_PATH (DOC_SYS_BUILD, DOC_SYS_BUILD_OPENSSL, DOC_SYS_OPENSSL_VERSION),
     SK_STRING, SCHEMA_REQUIRED | SCHEMA_NULLABLE, 0, 128),
  M (DOC_MACHINE_MODEL, SK_STRING, SCHEMA_NULLABLE, 0, 256),
  M (DOC_MACHINE_SOC, SK_STRING, SCHEMA_NULLABLE, 0, 256),
};

#define RESULT_MEMBERS \
  M (DOC_RESULT_NAME, SK_STRING, SCHEMA_REQUIRED, 1, 128), \
  M (DOC_RESULT_OPS_PER_SEC, SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_POSITIVE, 0, BIG), \
  M (DOC_RESULT_SECONDS_PER_OP, SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_POSITIVE, 0, 1e9), \
  M (DOC_RESULT_FAST_OPS_PER_SEC, SK_NUMBER, SCHEMA_POSITIVE, 0, BIG), \
  M (DOC_RESULT_SPREAD, SK_NUMBER, SCHEMA_REQUIRED, 0, 10), \
  M (DOC_RESULT_MEDIAN_OPS_PER_SEC, SK_NUMBER, SCHEMA_REQUIRED, 0, BIG), \
  M (DOC_RESULT_SAMPLES, SK_INTEGER, SCHEMA_REQUIRED, 1, 1e9), \
  M (DOC_RESULT_REPS_PER_SAMPLE, SK_INTEGER, SCHEMA_REQUIRED, 1, 1e15), \
  M (DOC_RESULT_WALL_SECONDS, SK_NUMBER, SCHEMA_REQUIRED, 0, 1e7), \
  M (DOC_RESULT_CPU_SECONDS, SK_NUMBER, SCHEMA_REQUIRED, 0, 1e7), \
  M (DOC_RESULT_KERNEL_SECONDS, SK_NUMBER, 0, 0, 1e7), \
  M (DOC_RESULT_CONVERGED, SK_BOOL, SCHEMA_REQUIRED, 0, 0), \
  M (DOC_RESULT_FLAGS, SK_ARRAY, SCHEMA_REQUIRED, 0, 8), \
  M (DOC_RESULT_DIGEST, SK_STRING, SCHEMA_REQUIRED, 64, 64)

static const struct schema_member result_schema[] = { RESULT_MEMBERS };

/* threads.results[]: a result of the multi-threaded run, with the
 * parallel efficiency against the single-threaded one. */
static const struct schema_member threaded_result_schema[] = {
  RESULT_MEMBERS,
  M (DOC_RESULT_EFFICIENCY, SK_NUMBER, SCHEMA_REQUIRED, 0, 1e6),
};

static const struct schema_member threads_schema[] = {
  M (DOC_THREADS_COUNT, SK_INTEGER, SCHEMA_REQUIRED, 1, 4096),
  M (DOC_THREADS_RESULTS, SK_ARRAY, SCHEMA_REQUIRED, 0, 4096),
  M (DOC_THREADS_PINNED, SK_BOOL, 0, 0, 0),
  M (DOC_THREADS_SCORES, SK_OBJECT, SCHEMA_REQUIRED, 0, 0),
};

static const struct schema_member skipped_schema[] = {
  M (DOC_SKIPPED_NAME, SK_STRING, SCHEMA_REQUIRED, 1, 128),
  M (DOC_SKIPPED_REASON, SK_STRING, SCHEMA_REQUIRED, 0, 512),
};

static const struct schema_member submitter_schema[] = {
  M (DOC_SUBMITTER_PUBLIC_KEY, SK_STRING, SCHEMA_REQUIRED, 44, 44),
  M (DOC_SUBMITTER_NAME, SK_STRING, SCHEMA_NULLABLE, 0, 100),
};

#define ELEMENTS(schema) SK_OBJECT, SCHEMA_REQUIRED, 0, 0, schema, GB_ARRAY_SIZE (schema)
const struct schema_member doc_result_element = { "", ELEMENTS (result_schema) };
const struct schema_member doc_threaded_result_element = {
  "", ELEMENTS (threaded_result_schema)
};
const struct schema_member doc_skipped_element = { "", ELEMENTS (skipped_schema) };
const struct schema_member doc_flag_element = M ("", SK_STRING, SCHEMA_REQUIRED, 1, 32);
const struct schema_member doc_only_element = M ("", SK_STRING, SCHEMA_REQUIRED, 1, 256);
const struct schema_member doc_redacted_element = M ("", SK_STRING, SCHEMA_REQUIRED, 1, 16);
const struct schema_member doc_score_value =
  M ("", SK_NUMBER, SCHEMA_REQUIRED | SCHEMA_POSITIVE, 0, BIG);

#define OBJECT(schema) { schema, GB_ARRAY_SIZE (schema) }
const struct doc_object doc_top = OBJECT (top_schema);
const struct doc_object doc_client = OBJECT (client_schema);
const struct doc_object doc_run = OBJECT (run_schema);
const struct doc_object doc_system = OBJECT (system_schema);
const struct doc_object doc_threads = OBJECT (threads_schema);
const struct doc_object doc_submitter = OBJECT (submitter_schema);
const struct doc_object doc_run_counter = OBJECT (run_counter_schema);
const struct doc_object doc_run_pinning = OBJECT (run_pinning_schema);

const char *const doc_run_modes[] = { DOC_MODE_FULL, DOC_MODE_QUICK, DOC_MODE_CUSTOM };
const size_t doc_nrun_modes = GB_ARRAY_SIZE (doc_run_modes);
const char *const doc_result_flags[] = { DOC_FLAG_NOISY, DOC_FLAG_CPU_DIVERGED };
const size_t doc_nresult_flags = GB_ARRAY_SIZE (doc_result_flags);
const char *const doc_redactions[] = { DOC_REDACT_MACHINE, DOC_REDACT_KERNEL };
const size_t doc_nredactions = GB_ARRAY_SIZE (doc_redactions);
