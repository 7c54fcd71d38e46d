/* validate.c: the rules of a genuine result document (see validate.h).
 *
 * The checks run from the cheapest and most basic to the most specific:
 * size, bytes (json_check), structure (cJSON and schema.c), then the
 * meaning: the registry the client used, test names, scores, digests.  The first failure wins, so an
 * error always names the most fundamental problem. */
#include "model/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "build_config.h"
#include "common/util.h"
#include "model/b64.h"
#include "model/json_check.h"
#include "model/machine_kind.h"
#include "model/measurements.h"
#include "model/doc_schema.h"
#include "model/schema.h"
#include "model/reference.h"
#include "model/protocol.h"
#include "model/registry.h"

#define FORMAT_NAME PROTOCOL_FORMAT
void
validate_summary_free (struct doc_summary *doc)
{
  free (doc->arch);
  free (doc->cpu);
  free (doc->cpu_name);
  free (doc->cpu_vendor);
  free (doc->os);
  free (doc->gmp);
  free (doc->compiler);
  free (doc->created);
  free (doc->submitter);
  free (doc->mode);
  free (doc->gmp_build);
  free (doc->hypervisor);
  free (doc->tests);
  if (doc->scores)
    score_free (doc->scores, doc->nscores);
  memset (doc, 0, sizeof *doc);
}

static int
one_of (const char *s, const char *const *set, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (s, set[i]) == 0)
      return 1;
  return 0;
}

/* "YYYY-MM-DDTHH:MM:SSZ" with its fields in range. */
static int
rfc3339_utc (const char *s)
{
  static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
  int year, mon, day, h, m, sec;

  for (size_t i = 0; i < sizeof shape - 1; i++)
    if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
      return 0;
  if (s[sizeof shape - 1] != '\0'
      || sscanf (s, "%4d-%2d-%2dT%2d:%2d:%2d", &year, &mon, &day, &h, &m, &sec) != 6)
    return 0;
  return year >= 2000 && mon >= 1 && mon <= 12 && day >= 1 && day <= 31
    && h <= 23 && m <= 59 && sec <= 60;
}

/* Whether S is exactly LEN lower-case hex digits. */
static int
lower_hex (const char *s, int len)
{
  for (int i = 0; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return 0;
  return s[len] == '\0';
}

static const char *
text (const cJSON *doc, const char *path)
{
  return schema_get (doc, path)->valuestring;
}

static int
check_score_values (const cJSON *scores, const char *path, struct validate_error *err)
{
  char field[128];
  for (const cJSON *s = scores->child; s; s = s->next)
    {
      schema_path (field, sizeof field, path, s->string);
      if (schema_check_value (s, field, &doc_score_value, err) < 0)
        return -1;
    }
  return 0;
}

/* The closed objects, the open `system`, and the arrays' elements. */
static int
check_structure (const cJSON *doc, struct validate_error *err)
{
  const cJSON *threads, *counter, *pinning;

  if (schema_check_object (doc, "", doc_top.members, doc_top.n, 0, err) < 0
      || schema_check_object (schema_get (doc, DOC_CLIENT), DOC_CLIENT, doc_client.members,
                              doc_client.n, 0, err) < 0
      || schema_check_object (schema_get (doc, DOC_RUN), DOC_RUN, doc_run.members, doc_run.n, 0,
                              err) < 0
      || schema_check_elements (schema_get (doc, DOC_RUN "." DOC_RUN_ONLY),
                                DOC_RUN "." DOC_RUN_ONLY, &doc_only_element, err) < 0
      || schema_check_object (schema_get (doc, DOC_SYSTEM), DOC_SYSTEM, doc_system.members,
                              doc_system.n, 1, err) < 0
      || schema_check_elements (schema_get (doc, DOC_RESULTS), DOC_RESULTS, &doc_result_element,
                                err) < 0
      || (schema_get (doc, DOC_SKIPPED)
          && schema_check_elements (schema_get (doc, DOC_SKIPPED), DOC_SKIPPED,
                                    &doc_skipped_element, err) < 0)
      || schema_check_object (schema_get (doc, DOC_SUBMITTER), DOC_SUBMITTER,
                              doc_submitter.members, doc_submitter.n, 0, err) < 0
      || check_score_values (schema_get (doc, DOC_SCORES), DOC_SCORES, err) < 0)
    return -1;
  counter = schema_get (doc, DOC_RUN "." DOC_RUN_COUNTER);
  if (counter && schema_check_object (counter, DOC_RUN "." DOC_RUN_COUNTER,
                                      doc_run_counter.members, doc_run_counter.n, 0, err) < 0)
    return -1;
  pinning = schema_get (doc, DOC_RUN "." DOC_RUN_PINNING);
  if (pinning && schema_check_object (pinning, DOC_RUN "." DOC_RUN_PINNING,
                                      doc_run_pinning.members, doc_run_pinning.n, 0, err) < 0)
    return -1;
  threads = schema_get (doc, DOC_THREADS);
  if (threads
      && (schema_check_object (threads, DOC_THREADS, doc_threads.members, doc_threads.n, 0,
                               err) < 0
          || schema_check_elements (schema_get (threads, DOC_THREADS_RESULTS),
                                    DOC_THREADS "." DOC_THREADS_RESULTS,
                                    &doc_threaded_result_element, err) < 0
          || check_score_values (schema_get (threads, DOC_THREADS_SCORES),
                                 DOC_THREADS "." DOC_THREADS_SCORES, err) < 0))
    return -1;
  return 0;
}

/* The flags and digests of the result set RESULTS (at PATH). */
static int
check_result_forms (const cJSON *results, const char *path, struct validate_error *err)
{
  char field[160];
  int i = 0;

  for (const cJSON *r = results->child; r; r = r->next, i++)
    {
      int k = 0;
      snprintf (field, sizeof field, "%s[%d].flags", path, i);
      if (schema_check_elements (schema_get (r, DOC_RESULT_FLAGS), field, &doc_flag_element, err)
          < 0)
        return -1;
      for (const cJSON *f = schema_get (r, DOC_RESULT_FLAGS)->child; f; f = f->next, k++)
        if (!one_of (f->valuestring, doc_result_flags, doc_nresult_flags))
          {
            snprintf (field, sizeof field, "%s[%d].flags[%d]", path, i, k);
            validate_fail (err, 422, "format", field, "unknown flag \"%s\"", f->valuestring);
            return -1;
          }
      if (!lower_hex (text (r, DOC_RESULT_DIGEST), 64))
        {
          snprintf (field, sizeof field, "%s[%d].digest", path, i);
          validate_fail (err, 422, "format", field, "%s must be 64 lower-case hex digits", field);
          return -1;
        }
    }
  return 0;
}

/* redacted[]: known names, each once. */
static int
check_redacted (const cJSON *redacted, struct validate_error *err)
{
  char field[64];
  int k = 0;

  if (!redacted)
    return 0;
  if (schema_check_elements (redacted, DOC_REDACTED, &doc_redacted_element, err) < 0)
    return -1;
  for (const cJSON *r = redacted->child; r; r = r->next, k++)
    {
      int again = 0;
      for (const cJSON *e = redacted->child; e != r; e = e->next)
        again |= strcmp (e->valuestring, r->valuestring) == 0;
      if (!one_of (r->valuestring, doc_redactions, doc_nredactions) || again)
        {
          snprintf (field, sizeof field, DOC_REDACTED "[%d]", k);
          validate_fail (err, 422, "format", field, again ? "\"%s\" is redacted twice"
                         : "unknown redaction \"%s\" (machine or kernel)", r->valuestring);
          return -1;
        }
    }
  return 0;
}

/* The members whose values have a fixed form. */
static int
check_forms (const cJSON *doc, struct validate_error *err)
{
  const cJSON *threads = schema_get (doc, DOC_THREADS);

  if (check_redacted (schema_get (doc, DOC_REDACTED), err) < 0)
    return -1;

  if (strcmp (text (doc, DOC_FORMAT), FORMAT_NAME) != 0)
    {
      validate_fail (err, 422, "format", "format", "format must be \"%s\"", FORMAT_NAME);
      return -1;
    }
  if (!rfc3339_utc (text (doc, DOC_CREATED)))
    {
      validate_fail (err, 422, "format", DOC_CREATED,
                     "created must be UTC RFC 3339 with seconds (YYYY-MM-DDTHH:MM:SSZ)");
      return -1;
    }
  if (!one_of (text (doc, DOC_RUN "." DOC_RUN_MODE), doc_run_modes, doc_nrun_modes))
    {
      validate_fail (err, 422, "format", DOC_RUN "." DOC_RUN_MODE,
                     "run.mode must be full, quick or custom");
      return -1;
    }
  return check_result_forms (schema_get (doc, DOC_RESULTS), DOC_RESULTS, err) < 0
    || (threads && check_result_forms (schema_get (threads, DOC_THREADS_RESULTS),
                                       DOC_THREADS "." DOC_THREADS_RESULTS, err) < 0)
    ? -1 : 0;
}

/* Compares dotted versions by their first three numbers: <0, 0 or >0. */
static int
compare_versions (const char *a, const char *b)
{
  unsigned long x[3] = { 0, 0, 0 }, y[3] = { 0, 0, 0 };

  sscanf (a, "%lu.%lu.%lu", &x[0], &x[1], &x[2]);
  sscanf (b, "%lu.%lu.%lu", &y[0], &y[1], &y[2]);
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* The document's registry is this server's, or the previous one
 * (registry.h), whose documents were measured with the previous
 * definitions of some tests: *PREVIOUS says so; or the one with the
 * current definitions and the previous digests.  Documents of those two
 * may carry the digests of before digests generation 2: *OLD_DIGESTS says
 * so.  A document without one comes from a client older than registry ids,
 * so from the previous definitions too, and its tests are checked one by
 * one as before.  When the registries differ otherwise, the client's
 * version against the server's says which side is behind. */
static int
check_registry (const cJSON *doc, int *previous, int *old_digests,
                struct validate_error *err)
{
  const cJSON *item = schema_get (doc, DOC_REGISTRY);
  const char *client = text (doc, DOC_CLIENT "." DOC_CLIENT_VERSION);

  *previous = 1;
  *old_digests = 1;
  if (!item)
    return 0;
  if (!lower_hex (item->valuestring, REGISTRY_ID_LEN))
    {
      validate_fail (err, 422, "format", DOC_REGISTRY, "registry must be %d lower-case hex digits",
                     REGISTRY_ID_LEN);
      return -1;
    }
  if (strcmp (item->valuestring, REGISTRY_PREVIOUS_ID) == 0)
    return 0;
  *previous = 0;
  if (strcmp (item->valuestring, REGISTRY_PREVIOUS_DIGESTS_ID) == 0)
    return 0;
  *old_digests = 0;
  if (strcmp (item->valuestring, registry_id ()) == 0)
    return 0;
  int order = compare_versions (client, GB_VERSION);
  if (order < 0)
    validate_fail (err, 422, "registry-mismatch", DOC_REGISTRY,
                   "client and server have different test registries: upgrade gmpbench "
                   "(this client is %s, the server %s) and run the benchmark again",
                   client, GB_VERSION);
  else if (order > 0)
    validate_fail (err, 422, "registry-mismatch", DOC_REGISTRY,
                   "client and server have different test registries: the server (%s) is "
                   "older than this client (%s) and must be upgraded; tell its operator",
                   GB_VERSION, client);
  else
    validate_fail (err, 422, "registry-mismatch", DOC_REGISTRY,
                   "client and server have different test registries, though both are "
                   "version %s: one was built from modified sources; build both from the "
                   "same release", client);
  return -1;
}

/* A test's name and its index in the results array. */
struct named
{
  const char *name;
  size_t index;
};

/* By name, then by index, so that the second of two equal names is the
 * one reported. */
static int
cmp_named (const void *pa, const void *pb)
{
  const struct named *a = pa, *b = pb;
  int c = strcmp (a->name, b->name);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Every test of RESULTS (at PATH) is in the registry, and only once. */
static int
check_result_tests (const cJSON *results, const char *path, struct validate_error *err)
{
  char field[160];
  size_t n = (size_t) cJSON_GetArraySize (results), i = 0;
  struct named *names = gb_xmalloc ((n ? n : 1) * sizeof *names);
  int rc = 0;

  for (const cJSON *r = results->child; r; r = r->next, i++)
    {
      names[i] = (struct named) { text (r, DOC_RESULT_NAME), i };
      if (!registry_find (names[i].name))
        {
          snprintf (field, sizeof field, "%s[%zu].name", path, i);
          validate_fail (err, 422, "unknown-test", field, "unknown test \"%s\"", names[i].name);
          rc = -1;
          break;
        }
    }
  if (rc == 0)
    {
      qsort (names, n, sizeof *names, cmp_named);
      for (i = 1; i < n; i++)
        if (strcmp (names[i - 1].name, names[i].name) == 0)
          {
            snprintf (field, sizeof field, "%s[%zu].name", path, names[i].index);
            validate_fail (err, 422, "duplicate-test", field, "test \"%s\" appears twice",
                           names[i].name);
            rc = -1;
            break;
          }
    }
  free (names);
  return rc;
}

static int
check_tests (const cJSON *doc, struct validate_error *err)
{
  const cJSON *threads = schema_get (doc, DOC_THREADS);
  return check_result_tests (schema_get (doc, DOC_RESULTS), DOC_RESULTS, err) < 0
    || (threads && check_result_tests (schema_get (threads, DOC_THREADS_RESULTS),
                                       DOC_THREADS "." DOC_THREADS_RESULTS, err) < 0)
    ? -1 : 0;
}

static int
check_public_key (const cJSON *doc, struct doc_summary *out, struct validate_error *err)
{
  const char *key = text (doc, DOC_SUBMITTER "." DOC_SUBMITTER_PUBLIC_KEY);
  if (b64_decode (key, strlen (key), out->public_key, sizeof out->public_key)
      != PROTOCOL_KEY_BYTES)
    {
      validate_fail (err, 422, "public-key", DOC_SUBMITTER "." DOC_SUBMITTER_PUBLIC_KEY,
                     "submitter.public_key must be base64 of a 32-byte Ed25519 key");
      return -1;
    }
  return 0;
}

static const struct score_node *
find_node (const struct score_node *nodes, size_t n, const char *name)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (nodes[i].name, name) == 0)
      return &nodes[i];
  return NULL;
}

/* The scores of RESULTS recomputed with the GMPbench formula, the tests
 * flagged NOT_REQUIRED left out of completeness (score.h): the complete
 * inner nodes (*NINNER of them), then one node per test holding its ops/s.
 * Returns the total count. */
static size_t
recompute (const cJSON *results, unsigned not_required, struct score_node **out,
           size_t *ninner)
{
  size_t n = (size_t) cJSON_GetArraySize (results), i = 0;
  struct score_input *in = gb_xmalloc ((n ? n : 1) * sizeof *in);
  struct score_node *nodes;

  for (const cJSON *r = results->child; r; r = r->next, i++)
    {
      in[i].name = text (r, DOC_RESULT_NAME);
      in[i].ops_per_sec = schema_get (r, DOC_RESULT_OPS_PER_SEC)->valuedouble;
    }
  size_t count = score_compute_run (in, n, not_required, &nodes);
  nodes = gb_xrealloc (nodes, (count + n + 1) * sizeof *nodes);
  for (i = 0; i < n; i++)
    {
      struct score_node *leaf = &nodes[count + i];
      leaf->name = gb_xstrdup (in[i].name);
      leaf->score = in[i].ops_per_sec;
      leaf->depth = 0;
      for (const char *c = in[i].name; *c; c++)
        leaf->depth += *c == '.';
    }
  free (in);
  *ninner = count;
  *out = nodes;
  return count + n;
}

/* SCORES (at PATH) must hold every recomputed inner node, and nothing but
 * recomputed nodes (inner ones, or tests), each equal to rounding. */
static int
compare_scores (const cJSON *scores, const char *path, const struct score_node *nodes,
                size_t ninner, size_t n, struct validate_error *err)
{
  char field[160];

  for (size_t i = 0; i < ninner; i++)
    if (!cJSON_GetObjectItemCaseSensitive (scores, nodes[i].name))
      {
        schema_path (field, sizeof field, path, nodes[i].name);
        validate_fail (err, 422, "score-missing", field,
                       "%s is missing: every complete node must be scored", field);
        return -1;
      }
  for (const cJSON *s = scores->child; s; s = s->next)
    {
      const struct score_node *node = find_node (nodes, n, s->string);
      schema_path (field, sizeof field, path, s->string);
      if (!node)
        {
          validate_fail (err, 422, "score-unexpected", field,
                         "%s is not a complete node of this run", field);
          return -1;
        }
      if (!score_equal (s->valuedouble, node->score))
        {
          validate_fail (err, 422, "score-mismatch", field,
                         "%s is %.9g, recomputed from ops_per_sec it is %.9g",
                         field, s->valuedouble, node->score);
          return -1;
        }
    }
  return 0;
}

/* Whether the multi-threaded run THREADS ran a copy on every CPU the
 * system could use (`--threads all`): its count is system.cores.usable,
 * or the logical count where the document has no usable one. */
static int
ran_on_all_cores (const cJSON *doc, const cJSON *threads)
{
  const cJSON *system = schema_get (doc, DOC_SYSTEM);
  const cJSON *cores = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_CORES);
  const cJSON *usable = cJSON_GetObjectItemCaseSensitive (cores, DOC_SYS_CORES_USABLE);
  const cJSON *all = cJSON_IsNumber (usable) ? usable
    : cJSON_GetObjectItemCaseSensitive (cores, DOC_SYS_CORES_LOGICAL);
  const cJSON *count = schema_get (threads, DOC_THREADS_COUNT);
  return cJSON_IsNumber (all) && cJSON_IsNumber (count) && count->valueint == all->valueint;
}

/* Appends to OUT's inner nodes the all-core GMPbench score, named
 * VALIDATE_ALLCORE_NODE, from the multi-threaded run's nodes (N of them),
 * when they have one. */
static void
add_allcore (struct doc_summary *out, const struct score_node *nodes, size_t n)
{
  const struct score_node *root = find_node (nodes, n, "gmpbench");
  if (!root)
    return;
  out->scores = gb_xrealloc (out->scores, (out->nscores + 1) * sizeof *out->scores);
  memmove (out->scores + out->ninner + 1, out->scores + out->ninner,
           (out->nscores - out->ninner) * sizeof *out->scores);
  out->scores[out->ninner].name = gb_xstrdup (VALIDATE_ALLCORE_NODE);
  out->scores[out->ninner].score = root->score;
  out->scores[out->ninner].depth = 1;
  out->ninner++;
  out->nscores++;
}

/* Recomputes the scores of the run (and of its multi-threaded run) and
 * compares; keeps the run's recomputed nodes in OUT, and the all-core
 * score of a run on every CPU (add_allcore). */
static int
check_scores (const cJSON *doc, struct doc_summary *out, struct validate_error *err)
{
  const cJSON *threads = schema_get (doc, DOC_THREADS);
  unsigned not_required = cJSON_IsTrue (schema_get (doc, DOC_RUN "." DOC_RUN_QUICK))
    ? BENCH_FULL_ONLY : 0;
  struct score_node *nodes;
  size_t n, ninner;

  if (out->previous_definitions)
    not_required |= BENCH_NEW_DEFINITIONS;
  out->nscores = recompute (schema_get (doc, DOC_RESULTS), not_required, &out->scores,
                            &out->ninner);
  if (compare_scores (schema_get (doc, DOC_SCORES), DOC_SCORES, out->scores, out->ninner,
                      out->nscores, err) < 0)
    return -1;
  if (!threads)
    return 0;
  n = recompute (schema_get (threads, DOC_THREADS_RESULTS), not_required, &nodes, &ninner);
  int rc = compare_scores (schema_get (threads, DOC_THREADS_SCORES),
                           DOC_THREADS "." DOC_THREADS_SCORES, nodes, ninner, n, err);
  if (rc == 0 && ran_on_all_cores (doc, threads))
    add_allcore (out, nodes, ninner);
  score_free (nodes, n);
  return rc;
}

/* Whether DIGEST is test NAME's reference digest, or NAME has none.  A
 * document of the previous definitions (PREVIOUS) has the previous digests
 * where those differ; one of digests generation 1 (OLD_DIGESTS) those the
 * tests had before their digests covered a witness of the work
 * (reference.h). */
static int
digest_accepted (const char *name, const char *digest, int previous, int old_digests)
{
  const char *ref = previous ? reference_previous_digest (name) : NULL;
  if (!ref && old_digests)
    ref = reference_superseded_digest (name);
  if (!ref)
    ref = reference_digest (name);
  return !ref || strcmp (ref, digest) == 0;
}

/* Only the single-threaded results have reference digests: the threads
 * of a multi-threaded run work on operand streams of their own. */
static int
check_digests (const cJSON *doc, int previous, int old_digests, struct validate_error *err)
{
  const cJSON *results = schema_get (doc, DOC_RESULTS);
  int i = 0, first = -1;

  for (const cJSON *r = results->child; r; r = r->next, i++)
    {
      const char *name = text (r, DOC_RESULT_NAME);
      if (digest_accepted (name, text (r, DOC_RESULT_DIGEST), previous, old_digests))
        continue;
      if (first < 0)
        {
          first = i;
          err->tests = gb_xmalloc ((size_t) cJSON_GetArraySize (results) * sizeof *err->tests);
        }
      err->tests[err->ntests++] = gb_xstrdup (name);
    }
  if (first < 0)
    return 0;
  char field[64];
  snprintf (field, sizeof field, "results[%d].digest", first);
  validate_fail (err, 422, "digest-mismatch", field,
                 "the output digest of %zu test%s differs from the reference: wrong results",
                 err->ntests, err->ntests == 1 ? "" : "s");
  return -1;
}

/* A copy of the string at PATH; null or absent gives "" (a stored column)
 * or NULL (OPTIONAL). */
static char *
dup_member (const cJSON *doc, const char *path, int optional)
{
  const cJSON *item = schema_get (doc, path);
  if (cJSON_IsString (item))
    return gb_xstrdup (item->valuestring);
  return optional ? NULL : gb_xstrdup ("");
}

static double
number_member (const cJSON *doc, const char *path)
{
  const cJSON *item = schema_get (doc, path);
  return cJSON_IsNumber (item) ? item->valuedouble : 0;
}

static int
has_flag (const cJSON *r, const char *flag)
{
  for (const cJSON *f = schema_get (r, DOC_RESULT_FLAGS)->child; f; f = f->next)
    if (strcmp (f->valuestring, flag) == 0)
      return 1;
  return 0;
}

/* The measurements of RESULTS, run by THREADS threads, appended to
 * OUT->tests. */
static void
summarise_tests (const cJSON *results, int threads, struct doc_summary *out)
{
  for (const cJSON *r = results->child; r; r = r->next)
    {
      struct doc_test *t = &out->tests[out->ntests++];
      *t = (struct doc_test) {
        "",
        number_member (r, DOC_RESULT_OPS_PER_SEC), number_member (r, DOC_RESULT_SECONDS_PER_OP),
        number_member (r, DOC_RESULT_MEDIAN_OPS_PER_SEC), number_member (r, DOC_RESULT_SPREAD),
        number_member (r, DOC_RESULT_FAST_OPS_PER_SEC),
        number_member (r, DOC_RESULT_SAMPLES), number_member (r, DOC_RESULT_REPS_PER_SAMPLE),
        number_member (r, DOC_RESULT_WALL_SECONDS), number_member (r, DOC_RESULT_CPU_SECONDS),
        threads, has_flag (r, DOC_FLAG_NOISY), has_flag (r, DOC_FLAG_CPU_DIVERGED),
      };
      snprintf (t->name, sizeof t->name, "%s", text (r, DOC_RESULT_NAME));
    }
}

/* The clock measured before the run and after it (system.clock.measured
 * and measured_after): a measurement the client itself calls invalid
 * gives no clock, but its trials' spread and counter rate. */
static void
summarise_clock (const cJSON *doc, struct doc_summary *out)
{
#define MEASURED(m) DOC_PATH (DOC_SYSTEM, DOC_SYS_CLOCK, DOC_SYS_CLOCK_MEASURED, m)
#define AFTER(m) DOC_PATH (DOC_SYSTEM, DOC_SYS_CLOCK, DOC_SYS_CLOCK_MEASURED_AFTER, m)
  if (!cJSON_IsFalse (schema_get (doc, MEASURED (DOC_SYS_MEASURED_VALID))))
    out->mhz_measured = number_member (doc, MEASURED (DOC_SYS_MEASURED_MHZ));
  if (!cJSON_IsFalse (schema_get (doc, AFTER (DOC_SYS_MEASURED_VALID))))
    out->mhz_measured_after = number_member (doc, AFTER (DOC_SYS_MEASURED_MHZ));
  out->spread_measured = number_member (doc, MEASURED (DOC_SYS_MEASURED_SPREAD));
  out->spread_measured_after = number_member (doc, AFTER (DOC_SYS_MEASURED_SPREAD));
  out->tsc_mhz_measured = number_member (doc, MEASURED (DOC_SYS_MEASURED_TSC_MHZ));
  out->tsc_mhz_measured_after = number_member (doc, AFTER (DOC_SYS_MEASURED_TSC_MHZ));
#undef MEASURED
#undef AFTER
}

static void
summarise (const cJSON *doc, struct doc_summary *out)
{
  const cJSON *results = schema_get (doc, DOC_RESULTS), *threads = schema_get (doc, DOC_THREADS);
  size_t n = (size_t) cJSON_GetArraySize (results);

  if (threads)
    n += (size_t) cJSON_GetArraySize (schema_get (threads, DOC_THREADS_RESULTS));
  out->tests = gb_xmalloc ((n ? n : 1) * sizeof *out->tests);
  summarise_tests (results, 1, out);
  if (threads)
    summarise_tests (schema_get (threads, DOC_THREADS_RESULTS),
                     (int) number_member (threads, DOC_THREADS_COUNT), out);
  out->mode = dup_member (doc, DOC_RUN "." DOC_RUN_MODE, 0);
  out->gmp_build = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_GMP,
                                              DOC_SYS_GMP_BUILD), 0);

  out->arch = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_ARCH), 0);
  out->cpu = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_IDENTITY), 0);
  out->cpu_name = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_NAME), 0);
  out->cpu_vendor = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_VENDOR), 0);
  out->os = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_OS, DOC_SYS_OS_NAME), 0);
  out->gmp = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_GMP,
                                        DOC_SYS_GMP_VERSION), 0);
  out->compiler = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_COMPILER,
                                             DOC_SYS_COMPILER_NAME), 0);
  out->created = dup_member (doc, DOC_CREATED, 0);
  out->submitter = dup_member (doc, DOC_SUBMITTER "." DOC_SUBMITTER_NAME, 1);
  summarise_clock (doc, out);
  out->mhz_nominal = number_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CLOCK,
                                                   DOC_SYS_CLOCK_NOMINAL_MHZ));
  out->mhz_max = number_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CLOCK, DOC_SYS_CLOCK_MAX_MHZ));
  out->gmp_interposed
    = cJSON_IsTrue (schema_get (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_GMP,
                                               DOC_SYS_GMP_ENTRY_POINTS,
                                               DOC_SYS_ENTRY_POINTS_INTERPOSED)));
  out->virtual_machine = machine_is_virtual (doc);
  out->cores = (int) number_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CORES,
                                                   DOC_SYS_CORES_PHYSICAL));
  if (out->cores == 0)
    out->cores = (int) number_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CORES,
                                                     DOC_SYS_CORES_LOGICAL));
  out->hypervisor = dup_member (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_HYPERVISOR), 0);
  out->emulated = cJSON_IsTrue (schema_get (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU,
                                                          DOC_SYS_CPU_EMULATED)));
  measurements_fingerprint (results, out->measurements);
}

static cJSON *
parse (const char *body, size_t len, struct validate_error *err)
{
  struct json_check_error jerr;
  cJSON *doc;

  if (len > VALIDATE_MAX_BODY)
    {
      validate_fail (err, 413, "too-large", NULL, "the document is larger than %d bytes",
                     VALIDATE_MAX_BODY);
      return NULL;
    }
  if (json_check (body, len, VALIDATE_MAX_DEPTH, &jerr) < 0)
    {
      validate_fail (err, 400, jerr.rule, NULL, "%s at byte %zu", jerr.what, jerr.offset);
      return NULL;
    }
  doc = cJSON_ParseWithLength (body, len);
  if (!doc)
    validate_fail (err, 400, "json-syntax", NULL, "the JSON parser rejected the document");
  return doc;
}

int
validate_known_node (const char *node)
{
  size_t len = strlen (node), n = registry_count ();
  if (strcmp (node, VALIDATE_ALLCORE_NODE) == 0)
    return 1;
  for (size_t i = 0; i < n; i++)
    {
      const char *name = registry_test (i)->name;
      if (strncmp (name, node, len) == 0 && (name[len] == '\0' || name[len] == '.'))
        return 1;
    }
  return 0;
}

int
validate_document (const char *body, size_t len, struct doc_summary *out,
                   struct validate_error *err)
{
  cJSON *doc;
  int rc = -1, old_digests;

  memset (out, 0, sizeof *out);
  memset (err, 0, sizeof *err);
  doc = parse (body, len, err);
  if (!doc)
    return -1;
  if (schema_check_duplicates (doc, "", err) == 0
      && check_structure (doc, err) == 0
      && check_forms (doc, err) == 0
      && check_registry (doc, &out->previous_definitions, &old_digests, err) == 0
      && check_tests (doc, err) == 0
      && check_public_key (doc, out, err) == 0
      && check_scores (doc, out, err) == 0
      && check_digests (doc, out->previous_definitions, old_digests, err) == 0)
    {
      summarise (doc, out);
      rc = 0;
    }
  cJSON_Delete (doc);
  if (rc < 0)
    validate_summary_free (out);
  return rc;
}
