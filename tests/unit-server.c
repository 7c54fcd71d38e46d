/* unit-server.c: the server's pure parts without a network or database:
 * the strict JSON scan, base64, Ed25519 verification (RFC 8032 test
 * vector), document validation on the fixture a real `gmpbench run`
 * wrote, the rate limiter, the outlier rule, the scores judged without
 * key generation, the brands that may name a CPU (no spam, every real
 * brand string), bare metal and virtual machines, the clocks a document
 * may claim (the families' table, the judge's refusals), the fingerprint
 * of measurements, the statement cache and stored documents (compressed,
 * checked on the way out). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/b64.h"
#include "model/cpu_brand.h"
#include "model/cpu_clocks.h"
#include "model/cpu_names.h"
#include "model/json_check.h"
#include "model/machine_kind.h"
#include "model/measurements.h"
#include "server/judge/plausible.h"
#include "server/judge/plausible_steady.h"
#include "server/api/ratelimit.h"
#include "model/schema.h"
#include "model/sig.h"
#include "server/store/stmt_cache.h"
#include "server/store/store_body.h"
#include "model/validate.h"
#include "model/reference.h"
#include "tests/check.h"

static int
scan_ok (const char *text, int depth)
{
  struct json_check_error err;
  return json_check (text, strlen (text), depth, &err) == 0;
}

static const char *
scan_rule (const char *text, size_t len, int depth)
{
  struct json_check_error err;
  return json_check (text, len, depth, &err) == 0 ? "ok" : err.rule;
}

static void
test_json_check (void)
{
  check (scan_ok ("{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\"]}", 16), "json: a valid document scans");
  check (scan_ok (" [] ", 1), "json: surrounding whitespace is allowed");
  check (!scan_ok ("[01]", 16), "json: leading zeros are rejected");
  check (!scan_ok ("[1,]", 16), "json: a trailing comma is rejected");
  check (!scan_ok ("{\"a\" 1}", 16), "json: a missing colon is rejected");
  check (!scan_ok ("\"a\tb\"", 16), "json: a raw control character in a string is rejected");
  check (!scan_ok ("\"\\x\"", 16), "json: an unknown escape is rejected");
  check (!scan_ok ("\"\\u0000\"", 16), "json: \\u0000 is rejected");
  check (!scan_ok ("[1] [2]", 16), "json: trailing data is rejected");
  check (!scan_ok ("", 16), "json: an empty body is rejected");
  check (!scan_ok ("{\"a\": tru}", 16), "json: a truncated literal is rejected");
  check (strcmp (scan_rule ("\"\xc0\x80\"", 4, 16), "utf8") == 0, "json: overlong UTF-8 is rejected as utf8");
  check (strcmp (scan_rule ("\"\xed\xa0\x80\"", 5, 16), "utf8") == 0, "json: an encoded surrogate is rejected as utf8");
  check (strcmp (scan_rule ("\"\xf4\x90\x80\x80\"", 6, 16), "utf8") == 0, "json: code points above U+10FFFF are rejected");
  check (strcmp (scan_rule ("\"a\0\"", 4, 16), "json-syntax") == 0, "json: a NUL byte is rejected");
  check (scan_ok ("[[[[]]]]", 4), "json: nesting exactly at the limit is accepted");
  check (strcmp (scan_rule ("[[[[[]]]]]", 10, 4), "too-deep") == 0, "json: nesting over the limit is too-deep");
  check (json_utf8_valid ("caf\xc3\xa9", 5) && !json_utf8_valid ("caf\xe9", 4), "json: json_utf8_valid");
}

static void
test_b64 (void)
{
  unsigned char out[8];
  char *enc = b64_encode ((const unsigned char *) "hello", 5);
  check (strcmp (enc, "aGVsbG8=") == 0, "b64: encodes with padding");
  free (enc);
  check (b64_decode ("aGVsbG8=", 8, out, sizeof out) == 5 && memcmp (out, "hello", 5) == 0,
         "b64: decodes what it encodes");
  check (b64_decode ("aGVsbG9=", 8, out, sizeof out) < 0, "b64: non-zero padding bits are rejected");
  check (b64_decode ("aGVsbG8", 7, out, sizeof out) < 0, "b64: missing padding is rejected");
  check (b64_decode ("aGVs\nbG8=", 9, out, sizeof out) < 0, "b64: embedded newlines are rejected");
  check (b64_decode ("aGVsbG8=", 8, out, 4) < 0, "b64: output that does not fit is rejected");
}

static void
hex_to_bytes (const char *hex, unsigned char *out)
{
  for (size_t i = 0; hex[2 * i]; i++)
    {
      unsigned v;
      sscanf (hex + 2 * i, "%2x", &v);
      out[i] = (unsigned char) v;
    }
}

static void
test_sig (void)
{
  /* RFC 8032 section 7.1, test 1 (the empty message). */
  unsigned char key[32], sig[64];
  char fp[65];
  hex_to_bytes ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", key);
  hex_to_bytes ("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b", sig);
  check (sig_verify (key, "", 0, sig), "sig: the RFC 8032 test vector verifies");
  check (!sig_verify (key, "x", 1, sig), "sig: another message does not verify");
  sig[10] ^= 1;
  check (!sig_verify (key, "", 0, sig), "sig: a flipped signature bit does not verify");
  sig_fingerprint (key, fp);
  check (strlen (fp) == 64, "sig: the fingerprint is 64 hex digits");
}

/* The fixture with a submitter, printed; NULL when it cannot be read. */
static char *
fixture (void (*edit) (cJSON *doc))
{
  const char *srcdir = getenv ("SRCDIR");
  char path[4096];
  snprintf (path, sizeof path, "%s/tests/fixtures/server-result.json", srcdir ? srcdir : ".");
  FILE *f = fopen (path, "rb");
  if (!f)
    return NULL;
  char *text = gb_xmalloc (1 << 20);
  size_t n = fread (text, 1, (1 << 20) - 1, f);
  fclose (f);
  text[n] = '\0';
  cJSON *doc = cJSON_Parse (text);
  free (text);
  if (!doc)
    return NULL;
  cJSON *sub = cJSON_AddObjectToObject (doc, "submitter");
  cJSON_AddStringToObject (sub, "public_key", "11qYAYKxCrfVS/7TyWQHOg7hcvPaoyMlrwIaaPcHURo=");
  if (edit)
    edit (doc);
  char *out = cJSON_Print (doc);
  cJSON_Delete (doc);
  return out;
}

static const char *
rule_of (void (*edit) (cJSON *doc), char *field, size_t size)
{
  static char rule[64];
  struct doc_summary sum;
  struct validate_error err;
  char *text = fixture (edit);
  if (!text)
    return "no fixture";
  int rc = validate_document (text, strlen (text), &sum, &err);
  free (text);
  if (rc == 0)
    {
      validate_summary_free (&sum);
      return "ok";
    }
  snprintf (rule, sizeof rule, "%s", err.rule);
  if (field)
    snprintf (field, size, "%s", err.field);
  validate_error_free (&err);
  return rule;
}

static void drop_format (cJSON *d) { cJSON_DeleteItemFromObject (d, "format"); }
static void add_unknown (cJSON *d) { cJSON_AddNumberToObject (cJSON_GetObjectItem (d, "run"), "x", 1); }
static void add_system_extra (cJSON *d) { cJSON_AddNumberToObject (cJSON_GetObjectItem (d, "system"), "x", 1); }
static void add_duplicate (cJSON *d) { cJSON_AddStringToObject (d, "format", "gmpbench-result/1"); }
static void result_duplicate (cJSON *d)
{
  cJSON *r = cJSON_GetArrayItem (cJSON_GetObjectItem (d, "results"), 0);
  cJSON_AddNumberToObject (r, "samples", 3);
}
static void result_unknown (cJSON *d)
{
  cJSON *r = cJSON_GetArrayItem (cJSON_GetObjectItem (d, "results"), 0);
  cJSON_AddNumberToObject (r, "bogus", 3);
}
static void result_missing (cJSON *d)
{
  cJSON_DeleteItemFromObject (cJSON_GetArrayItem (cJSON_GetObjectItem (d, "results"), 0),
                              "digest");
}
static void string_threads (cJSON *d)
{
  cJSON_ReplaceItemInObject (cJSON_GetObjectItem (d, "run"), "threads", cJSON_CreateString ("1"));
}
static void bad_spread (cJSON *d)
{
  cJSON *r = cJSON_GetArrayItem (cJSON_GetObjectItem (d, "results"), 0);
  cJSON_ReplaceItemInObject (r, "spread", cJSON_CreateNumber (11));
}
static void bad_created (cJSON *d)
{
  cJSON_ReplaceItemInObject (d, "created", cJSON_CreateString ("2026-11-30 05:00:00Z"));
}
static void unexpected_score (cJSON *d)
{
  cJSON_AddNumberToObject (cJSON_GetObjectItem (d, "scores"), "gmpbench.base", 5);
}
static void null_name (cJSON *d)
{
  cJSON *cpu = cJSON_GetObjectItem (cJSON_GetObjectItem (d, "system"), "cpu");
  cJSON_ReplaceItemInObject (cpu, "name", cJSON_CreateNull ());
}
static void no_emulated (cJSON *d)
{
  cJSON_DeleteItemFromObject (cJSON_GetObjectItem (cJSON_GetObjectItem (d, "system"), "cpu"),
                              "emulated");
}
static void duplicate_test (cJSON *d)
{
  cJSON *results = cJSON_GetObjectItem (d, "results");
  cJSON_AddItemToArray (results, cJSON_Duplicate (cJSON_GetArrayItem (results, 0), 1));
}
static void wrong_digest (cJSON *d)
{
  cJSON *r = cJSON_GetArrayItem (cJSON_GetObjectItem (d, "results"), 0);
  cJSON_ReplaceItemInObject (r, "digest", cJSON_CreateString
                             ("0000000000000000000000000000000000000000000000000000000000000000"));
}
static void short_key (cJSON *d)
{
  cJSON_ReplaceItemInObject (cJSON_GetObjectItem (d, "submitter"), "public_key",
                             cJSON_CreateString ("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="));
}
/* run.pinning, as a worker of a side-by-side run writes it (pinned, or
 * not with the reason), and wrong. */
static cJSON *
add_pinning (cJSON *d)
{
  return cJSON_AddObjectToObject (cJSON_GetObjectItem (d, "run"), "pinning");
}
static void pinned (cJSON *d) { cJSON_AddNumberToObject (add_pinning (d), "cpu", 1); }
static void not_pinned (cJSON *d)
{
  cJSON *p = add_pinning (d);
  cJSON_AddNullToObject (p, "cpu");
  cJSON_AddStringToObject (p, "skipped", "sched_setaffinity (CPU 1): Invalid argument");
}
static void pinned_string (cJSON *d) { cJSON_AddStringToObject (add_pinning (d), "cpu", "1"); }
static void pinned_extra (cJSON *d)
{
  cJSON *p = add_pinning (d);
  cJSON_AddNumberToObject (p, "cpu", 1);
  cJSON_AddNumberToObject (p, "cpus", 2);
}

static void
test_validate (void)
{
  char field[128] = "";
  struct doc_summary sum;
  struct validate_error err;
  char *text = fixture (NULL);

  check (text && validate_document (text, strlen (text), &sum, &err) == 0,
         "validate: the fixture written by gmpbench run is valid");
  if (text && sum.arch)
    {
      check (strcmp (sum.gmp, "6.2.1") == 0 && strcmp (sum.compiler, "gcc") == 0
             && sum.nscores == 1 && sum.ninner == 0, "validate: the summary has the stored fields");
      validate_summary_free (&sum);
    }
  free (text);
  check (strcmp (rule_of (drop_format, field, sizeof field), "missing") == 0
         && strcmp (field, "format") == 0, "validate: a missing member is named");
  check (strcmp (rule_of (add_unknown, field, sizeof field), "unknown-member") == 0
         && strcmp (field, "run.x") == 0, "validate: an unknown member is named");
  check (strcmp (rule_of (add_system_extra, NULL, 0), "ok") == 0,
         "validate: unknown members inside system are tolerated");
  check (strcmp (rule_of (null_name, NULL, 0), "ok") == 0,
         "validate: a required system member may be null (unknown)");
  check (strcmp (rule_of (no_emulated, field, sizeof field), "missing") == 0
         && strcmp (field, "system.cpu.emulated") == 0,
         "validate: a required system member may not be absent");
  check (strcmp (rule_of (add_duplicate, field, sizeof field), "duplicate-member") == 0
         && strcmp (field, "format") == 0, "validate: a duplicate member is rejected and named");
  check (strcmp (rule_of (result_duplicate, field, sizeof field), "duplicate-member") == 0
         && strcmp (field, "results[0].samples") == 0,
         "validate: a duplicate member inside an array element is named with its index");
  check (strcmp (rule_of (result_unknown, field, sizeof field), "unknown-member") == 0
         && strcmp (field, "results[0].bogus") == 0,
         "validate: an unknown member of an array element is named with its index");
  check (strcmp (rule_of (result_missing, field, sizeof field), "missing") == 0
         && strcmp (field, "results[0].digest") == 0,
         "validate: a missing member of an array element is named with its index");
  check (strcmp (rule_of (pinned, NULL, 0), "ok") == 0
         && strcmp (rule_of (not_pinned, NULL, 0), "ok") == 0,
         "validate: run.pinning, a CPU or null with the reason, is accepted");
  check (strcmp (rule_of (pinned_string, field, sizeof field), "ok") != 0
         && strcmp (field, "run.pinning.cpu") == 0, "validate: run.pinning.cpu must be a number");
  check (strcmp (rule_of (pinned_extra, field, sizeof field), "unknown-member") == 0
         && strcmp (field, "run.pinning.cpus") == 0,
         "validate: an unknown member of run.pinning is named");
  check (strcmp (rule_of (string_threads, field, sizeof field), "type") == 0
         && strcmp (field, "run.threads") == 0, "validate: a wrong type is named");
  check (strcmp (rule_of (bad_spread, field, sizeof field), "range") == 0
         && strcmp (field, "results[0].spread") == 0, "validate: an out-of-range value is named");
  check (strcmp (rule_of (bad_created, NULL, 0), "format") == 0, "validate: a malformed created time is rejected");
  check (strcmp (rule_of (unexpected_score, NULL, 0), "score-unexpected") == 0,
         "validate: a score for an incomplete node is rejected");
  check (strcmp (rule_of (duplicate_test, NULL, 0), "duplicate-test") == 0,
         "validate: a test listed twice is rejected");
  check (strcmp (rule_of (short_key, NULL, 0), "public-key") == 0,
         "validate: a public key of the wrong length is rejected");
  if (reference_digest ("gmpbench.base.multiply.128"))
    check (strcmp (rule_of (wrong_digest, NULL, 0), "digest-mismatch") == 0,
           "validate: a wrong digest is rejected");
  else
    printf ("SKIP: validate: a wrong digest is rejected (no reference digests yet)\n");
}

static void
test_ratelimit (void)
{
  struct ratelimit *rl = ratelimit_new (1, 2);
  int a = ratelimit_take (rl, "k", 100), b = ratelimit_take (rl, "k", 100);
  int c = ratelimit_take (rl, "k", 100), other = ratelimit_take (rl, "j", 100);
  int later = ratelimit_take (rl, "k", 101.01);
  check (a == 0 && b == 0 && c == 1 && other == 0 && later == 0,
         "ratelimit: a burst of 2, then a wait of 1 s, per key");
  ratelimit_free (rl);
  rl = ratelimit_new (0, 1);
  check (ratelimit_take (rl, "k", 0) == 0 && ratelimit_take (rl, "k", 0) == 0,
         "ratelimit: rate 0 disables the limit");
  ratelimit_free (rl);
}

/* plausible_outlier on a copy of the N peers P (it overwrites them). */
static int
outlier (double x, const double *p, size_t n, enum plausible_kind kind)
{
  double v[16];
  memcpy (v, p, n * sizeof *p);
  return plausible_outlier (x, v, n, kind);
}

static void
test_outlier (void)
{
  double peers[] = { 100, 101, 99, 102, 98, 100.5 };
  double few[] = { 100, 101, 99 };
  double same[] = { 100, 100, 100, 100, 100 };
  check (outlier (200, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_NODE),
         "plausible: a node twice the median is an outlier");
  check (outlier (122, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_NODE),
         "plausible: a node 22%% faster than peers within 2%% is an outlier");
  check (!outlier (112, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_NODE),
         "plausible: a node 12%% faster than peers within 2%% is not");
  check (!outlier (60, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_NODE)
         && outlier (30, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_NODE),
         "plausible: a node may be slower by up to 2.5 times");
  check (!outlier (240, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_TEST)
         && outlier (260, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_TEST),
         "plausible: a test may be faster by up to 2.5 times");
  check (!outlier (1, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_TEST),
         "plausible: a test is never an outlier for being slow");
  check (!outlier (480, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_RANDOM)
         && outlier (520, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_RANDOM)
         && !outlier (1, peers, GB_ARRAY_SIZE (peers), PLAUSIBLE_RANDOM),
         "plausible: key generation may be faster by up to 5 times, and slower by any");
  check (plausible_kind_of ("openssl.rsa.keygen.2048") == PLAUSIBLE_RANDOM
         && plausible_kind_of ("openssl.rsa.keygen") == PLAUSIBLE_RANDOM
         && plausible_kind_of ("ext.prime") == PLAUSIBLE_RANDOM
         && plausible_kind_of ("gmpbench.base.multiply.128") == PLAUSIBLE_TEST
         && plausible_kind_of ("gmpbench.base.multiply") == PLAUSIBLE_NODE,
         "plausible: key generation and prime search are random, tests tests, the rest nodes");
  check (!outlier (200, few, GB_ARRAY_SIZE (few), PLAUSIBLE_NODE), "plausible: fewer than 5 peers flag nothing");
  check (!outlier (110, same, GB_ARRAY_SIZE (same), PLAUSIBLE_NODE)
         && outlier (120, same, GB_ARRAY_SIZE (same), PLAUSIBLE_NODE),
         "plausible: identical peers leave the floor as the cutoff");
  check (plausible_floor_cycles ("gmpbench.base.multiply.2097152,2097152") == 4096
         && plausible_floor_cycles ("gmpbench.base.multiply.128") == 1,
         "plausible: the cycle floor is the operands' bits over 1024, at least 1");
  check (strcmp (plausible_build_kind ("native"), "native") == 0
         && strcmp (plausible_build_kind ("fat"), "fat") == 0
         && strcmp (plausible_build_kind ("distribution"), "distribution") == 0
         && strcmp (plausible_build_kind (""), "unknown") == 0
         && strcmp (plausible_build_kind ("<b>tuned</b>"), "unknown") == 0,
         "plausible: the build kind is system.build.gmp.build's, unknown when absent or odd");
  check (cpu_brand_fits ("x86:AuthenticAMD:family=25", "AMD", "AMD EPYC 7763")
         && !cpu_brand_fits ("x86:AuthenticAMD:family=25", "AMD", "Intel Xeon")
         && !cpu_brand_fits ("x86:GenuineIntel:family=6", "AuthenticAMD", "AMD Ryzen")
         && !cpu_brand_fits ("x86:GenuineIntel:family=6", "GenuineIntel", "")
         && !cpu_brand_fits ("x86:AuthenticAMD:family=26", "AMD",
                             "Oxide Virtual Turin-like Processor")
         && cpu_brand_fits ("arm:0x41:0xd0c", "ARM", "Neoverse-N1"),
         "cpu_brand: a brand names the CPU when it names the maker of the identity and vendor");
  check (cpu_brand_contradicts ("x86:AuthenticAMD:family=25", "AMD", "Intel Xeon")
         && cpu_brand_contradicts ("x86:GenuineIntel:family=6", "AuthenticAMD", "Intel Core")
         && !cpu_brand_contradicts ("x86:AuthenticAMD:family=25", "AMD", "AMD EPYC 7763")
         && !cpu_brand_contradicts ("x86:AuthenticAMD:family=26", "AMD",
                                    "Oxide Virtual Turin-like Processor")
         && !cpu_brand_contradicts ("x86:AuthenticAMD:family=15", "AMD",
                                    "QEMU Virtual CPU version 2.5+")
         && !cpu_brand_contradicts ("x86:GenuineIntel:family=15", "Intel", "Common KVM processor")
         && !cpu_brand_contradicts ("x86:GenuineIntel:family=6", "Intel",
                                    "VirtualApple @ 2.50GHz processor")
         && !cpu_brand_contradicts ("x86:GenuineIntel:family=6", "Intel", "")
         && !cpu_brand_contradicts ("arm:0x41:0xd0c", "ARM", "Intel Xeon"),
         "cpu_brand: only a brand naming another maker contradicts the identity");
}

/* Sets NAME's log score in V (steady_count values) to log (SCORE). */
static void
set_score (double *v, const char *name, double score)
{
  long i = steady_find (name);
  if (i >= 0)
    v[i] = log (score);
}

/* NAME's score in V after steady_apply. */
static double
score_of (const double *v, const char *name)
{
  long i = steady_find (name);
  return i >= 0 ? exp (v[i]) : 0;
}

static void
test_steady (void)
{
  size_t n = steady_count ();
  double *v = malloc ((n + 1) * sizeof *v);
  check (steady_key_generation ("openssl.rsa.keygen") && steady_key_generation ("ext.rsa.keygen.2048")
         && !steady_key_generation ("openssl.rsa.sign.2048") && !steady_key_generation ("x.keygens"),
         "steady: key generation is a node or test with a keygen component");
  check (steady_find ("openssl.rsa") >= 0 && steady_mixed ((size_t) steady_find ("openssl.rsa"))
         && steady_mixed ((size_t) steady_find ("nettle"))
         && steady_mixed ((size_t) steady_find ("ext"))
         && !steady_mixed ((size_t) steady_find ("openssl.rsa.sign"))
         && steady_find ("openssl.rsa.keygen") < 0 && steady_find ("gmpbench") < 0,
         "steady: the nodes above key generation are mixed, their other children not");
  for (size_t i = 0; i < n; i++)
    v[i] = NAN;
  /* openssl.rsa: sign 2, verify 8, keygen 1000; openssl: base 4 and rsa. */
  set_score (v, "openssl.rsa.sign", 2);
  set_score (v, "openssl.rsa.verify", 8);
  set_score (v, "openssl.rsa", cbrt (2 * 8 * 1000));
  set_score (v, "openssl.base", 4);
  set_score (v, "openssl", sqrt (4 * cbrt (2 * 8 * 1000)));
  steady_apply (v);
  check (fabs (score_of (v, "openssl.rsa") - 4) < 1e-9 && fabs (score_of (v, "openssl") - 4) < 1e-9,
         "steady: a mixed node's score leaves its key generation out, at every level (%g, %g)",
         score_of (v, "openssl.rsa"), score_of (v, "openssl"));
  check (isnan (v[steady_find ("gcrypt.rsa")]), "steady: a node the result lacks stays absent");
  free (v);
}

/* The fixture with system.build.gmp.entry_points.interposed true. */
static void
interposed_gmp (cJSON *doc)
{
  cJSON *gmp = cJSON_GetObjectItem (cJSON_GetObjectItem (cJSON_GetObjectItem (doc, "system"),
                                                         "build"), "gmp");
  cJSON *e = cJSON_AddObjectToObject (gmp, "entry_points");
  cJSON_AddTrueToObject (e, "interposed");
}

static void
test_interposed (void)
{
  struct doc_summary sum;
  struct validate_error err;
  char flags[256] = "", notes[512] = "";
  char *text = fixture (interposed_gmp);
  int rc = text ? validate_document (text, strlen (text), &sum, &err) : -1;
  check (rc == 0 && sum.gmp_interposed, "validate: entry_points.interposed is read");
  if (rc == 0)
    validate_summary_free (&sum);
  else if (text)
    validate_error_free (&err);
  free (text);
  /* No clock: plausible_flags reads no best per GHz. */
  memset (&sum, 0, sizeof sum);
  sum.gmp_interposed = 1;
  plausible_flags (NULL, &sum, NULL, flags, sizeof flags, notes, sizeof notes);
  check (strstr (flags, "interposed") != NULL && strstr (notes, "interposed: ") != NULL,
         "plausible: an interposed GMP is flagged, with a note (%s)", flags);
  sum.gmp_interposed = 0;
  plausible_flags (NULL, &sum, NULL, flags, sizeof flags, notes, sizeof notes);
  check (strstr (flags, "interposed") == NULL, "plausible: a plain document is not (%s)", flags);
}

/* Whether NAME is what x86_models.c calls some family, model and
 * stepping of VENDOR_ID (its code name, else its microarchitecture). */
static int
x86_names (const char *vendor_id, const char *name)
{
  for (int family = 0; family < 0x20; family++)
    for (int model = 0; model < 0x100; model++)
      for (int stepping = 0; stepping < 16; stepping++)
        {
          const char *c = si_x86_codename (vendor_id, family, model, stepping);
          if (!c)
            c = si_x86_uarch (vendor_id, family, model, stepping);
          if (c && strcmp (c, name) == 0)
            return 1;
        }
  return 0;
}

/* The rule plausible_refuse gives D ("ok" when none), its field into
 * FIELD. */
static const char *
refusal (const struct doc_summary *d, char field[128])
{
  static char rule[64];
  struct validate_error err;
  memset (&err, 0, sizeof err);
  if (plausible_refuse (d, &err) == 0)
    return "ok";
  snprintf (rule, sizeof rule, "%s", err.rule);
  snprintf (field, 128, "%s", err.field);
  validate_error_free (&err);
  return rule;
}

static void
test_clock_table (void)
{
  static const char *const vendors[] = { "GenuineIntel", "AuthenticAMD" };
  const char *name;
  unsigned implementer, part, missing = 0;

  check (cpu_clock_family_mhz ("x86:GenuineIntel:family=6:model=183:stepping=1") == 6200
         && cpu_clock_family_mhz ("x86:AuthenticAMD:family=26:model=2:stepping=1") == 5700
         && cpu_clock_family_mhz ("x86:AuthenticAMD:family=23:model=49:stepping=0") == 4500
         && cpu_clock_family_mhz ("arm:0x41:0xd0c:r3p1") == 3300,
         "cpu_clocks: a family's clock (Raptor Lake, Zen 5, Rome, Neoverse-N1)");
  check (cpu_clock_family_mhz ("x86:GenuineIntel:family=6:model=6:stepping=3") == 0
         && cpu_clock_family_mhz ("riscv:0x489:0x8000000000000007:0x4210427") == 0
         && cpu_clock_family_mhz ("arm:0x41:0xd8e:r0p0") == 0 && cpu_clock_family_mhz ("") == 0,
         "cpu_clocks: no clock for identities the table does not know");
  check (cpu_clock_maker_mhz ("x86:GenuineIntel:family=6:model=6:stepping=3") == 6200
         && cpu_clock_maker_mhz ("x86:AuthenticAMD:family=15:model=107:stepping=1") == 5700
         && cpu_clock_maker_mhz ("arm:0x41:0xd40:r1p1") == 3630
         && cpu_clock_maker_mhz ("x86:HygonGenuine:family=24:model=0:stepping=1") == 0,
         "cpu_clocks: a maker's fastest family (Intel, AMD, Arm), none for others");
  for (size_t v = 0; v < GB_ARRAY_SIZE (vendors); v++)
    for (unsigned i = 0; cpu_clock_x86_family (vendors[v], i, &name) > 0; i++)
      if (!x86_names (vendors[v], name))
        {
          printf ("# %s %s is no family of x86_models.c\n", vendors[v], name);
          missing++;
        }
  for (unsigned i = 0; cpu_clock_arm_core (i, &implementer, &part) > 0; i++)
    if (!si_arm_part_name (implementer, part))
      {
        printf ("# arm 0x%x 0x%x is no core of arm_midr.c\n", implementer, part);
        missing++;
      }
  check (missing == 0, "cpu_clocks: every family of the table is one the model tables name");
}

static void
test_clock_refusals (void)
{
  char field[128] = "";
  struct doc_summary d;

  memset (&d, 0, sizeof d);
  d.cpu = "x86:AuthenticAMD:family=26:model=2:stepping=1";
  d.hypervisor = "";
  d.mhz_measured = d.mhz_measured_after = 3500;
  d.tsc_mhz_measured = d.tsc_mhz_measured_after = 2096;
  d.spread_measured = d.spread_measured_after = 0.02;
  check (strcmp (refusal (&d, field), "ok") == 0, "plausible: honest clocks are accepted");
  d.mhz_max = 1e6;
  check (strcmp (refusal (&d, field), "clock-beyond-family") == 0
         && strcmp (field, "system.clock.max_mhz") == 0,
         "plausible: max_mhz 1e6 is refused, naming the member");
  d.mhz_max = 5700 * 1.15 + 1;
  check (strcmp (refusal (&d, field), "clock-beyond-family") == 0,
         "plausible: just above the family's fastest part + 15%% is refused");
  d.mhz_max = 5700 * 1.15;
  check (strcmp (refusal (&d, field), "ok") == 0, "plausible: and at it is accepted");
  d.mhz_max = 0;
  d.hypervisor = "KVM";
  d.cpu = "x86:AuthenticAMD:family=15:model=107:stepping=1";
  d.mhz_measured = d.mhz_measured_after = 5000;
  check (strcmp (refusal (&d, field), "ok") == 0,
         "plausible: a virtual CPU (qemu64, a K8) may run at its maker's fastest clock");
  d.emulated = 1;
  d.mhz_nominal = 8900;
  check (strcmp (refusal (&d, field), "ok") == 0,
         "plausible: an emulated CPU is held to PLAUSIBLE_MAX_MHZ alone");
  d.mhz_nominal = 9001;
  check (strcmp (refusal (&d, field), "clock-beyond-family") == 0
         && strcmp (field, "system.clock.nominal_mhz") == 0, "plausible: ... which it may not pass");
  memset (&d, 0, sizeof d);
  d.cpu = "x86:AuthenticAMD:family=26:model=2:stepping=1";
  d.hypervisor = "bhyve";
  d.mhz_measured = 3000;
  d.mhz_measured_after = 6000;
  d.spread_measured = d.spread_measured_after = 0.02;
  check (strcmp (refusal (&d, field), "clock-drift") == 0
         && strcmp (field, "system.clock.measured_after.mhz") == 0,
         "plausible: a clock twice as fast after the run is refused as clock-drift");
  d.spread_measured = 0.43;
  check (strcmp (refusal (&d, field), "ok") == 0,
         "plausible: ... not when a measurement's trials spread too much to say");
  d.mhz_measured_after = 2000;
  d.spread_measured = 0.02;
  check (strcmp (refusal (&d, field), "ok") == 0,
         "plausible: a clock slower after the run (a hot CPU) is accepted");
  d.tsc_mhz_measured = 2096;
  d.tsc_mhz_measured_after = 4192;
  check (strcmp (refusal (&d, field), "clock-drift") == 0
         && strcmp (field, "system.clock.measured_after.tsc_mhz") == 0,
         "plausible: a counter twice as fast after the run is refused as clock-drift");
  d.tsc_mhz_measured_after = 2097;
  check (strcmp (refusal (&d, field), "ok") == 0, "plausible: one a MHz apart is not");
}

/* The fingerprint of the results array TEXT ("?" when it does not
 * parse). */
static const char *
fingerprint_of (const char *text, char hex[65])
{
  cJSON *v = cJSON_Parse (text);
  if (!v)
    return "?";
  measurements_fingerprint (v, hex);
  cJSON_Delete (v);
  return hex;
}

static void
test_measurements (void)
{
  char a[65], b[65];
  const char *one = "[{\"name\": \"t.a\", \"ops\": 1234.5678, \"flags\": [\"noisy\", \"x\"]},"
    " {\"name\": \"t.b\", \"ops\": 1, \"ok\": true}]";

  fingerprint_of (one, a);
  check (strcmp (a, fingerprint_of ("[{\"ok\": true, \"name\": \"t.b\", \"ops\": 1.0e0},"
                                    " {\"flags\": [\"x\", \"noisy\"], \"ops\": 1234.567800000001,"
                                    " \"name\": \"t.a\"}]", b)) == 0,
         "measurements: reordered tests, members and flags, numbers printed otherwise: the same");
  check (strcmp (a, fingerprint_of ("[{\"name\": \"t.a\", \"ops\": 1234.5679, \"flags\": "
                                    "[\"noisy\", \"x\"]}, {\"name\": \"t.b\", \"ops\": 1, "
                                    "\"ok\": true}]", b)) != 0,
         "measurements: a number changed in its 8th digit: another");
  check (strcmp (a, fingerprint_of ("[{\"name\": \"t.a\", \"ops\": 1234.5678, \"flags\": "
                                    "[\"noisy\"]}, {\"name\": \"t.b\", \"ops\": 1, "
                                    "\"ok\": true}]", b)) != 0
         && strcmp (a, fingerprint_of ("[{\"name\": \"t.a\", \"ops\": 1234.5678, \"flags\": "
                                       "[\"noisy\", \"x\"]}, {\"name\": \"t.b\", \"ops\": 1, "
                                       "\"ok\": false}]", b)) != 0
         && strcmp (a, fingerprint_of ("[{\"name\": \"t.a\", \"ops\": 1234.5678, \"flags\": "
                                       "[\"noisy\", \"x\"]}]", b)) != 0,
         "measurements: a flag, a boolean or a test less: another");
}

/* Whether store_body_open gives TEXT back from PACKED (or PLAIN) under
 * SHA256; ERR gets its message otherwise. */
static int
body_opens (struct store_dicts *dicts, const unsigned char *packed, size_t packed_len,
            const char *plain, const char *sha256, const char *text, char *err, size_t errlen)
{
  struct store_body b;
  if (store_body_open (dicts, packed, packed_len, plain, plain ? strlen (plain) : 0, sha256, &b, err,
                       errlen) < 0)
    return 0;
  int same = b.len == strlen (text) && memcmp (b.text, text, b.len) == 0 && b.text[b.len] == 0;
  store_body_close (&b);
  return same;
}

static void
test_store_body (void)
{
  char *text = fixture (NULL), sha[65], other[65], err[256];
  unsigned char *packed;

  if (!text)
    {
      check (0, "store body: the fixture reads");
      return;
    }
  struct store_dicts *dicts = store_dicts_new ();
  size_t len = strlen (text), n = store_dicts_pack (dicts, text, len, 0, &packed);
  gb_sha256_hex (text, len, sha);
  gb_sha256_hex ("x", 1, other);
  check (n > 0 && n < len / 2, "store body: a document compresses to less than half (%zu bytes "
         "to %zu)", len, n);
  check (body_opens (dicts, packed, n, NULL, sha, text, err, sizeof err),
         "store body: the compressed document opens as the exact bytes");
  check (body_opens (dicts, NULL, 0, text, sha, text, err, sizeof err),
         "store body: a document stored as plain text opens too");
  check (!body_opens (dicts, packed, n, NULL, other, text, err, sizeof err) && strstr (err, "SHA-256"),
         "store body: under another SHA-256 it is refused (%s)", err);
  check (!body_opens (dicts, packed, n / 2, NULL, sha, text, err, sizeof err)
         && strstr (err, "does not decompress"), "store body: a truncated frame is refused (%s)",
         err);
  packed[0] ^= 0xff;
  check (!body_opens (dicts, packed, n, NULL, sha, text, err, sizeof err)
         && strstr (err, "frame header"), "store body: a frame with a damaged header is "
         "refused (%s)", err);
  check (!body_opens (dicts, NULL, 0, "", sha, text, err, sizeof err),
         "store body: an empty plain body is refused (%s)", err);
  free (packed);
  size_t dense = store_dicts_pack (dicts, text, len, 1, &packed);
  check (dense > 0 && dense < n && body_opens (dicts, packed, dense, NULL, sha, text, err,
                                               sizeof err),
         "store body: the repack's level packs it denser (%zu bytes, not %zu) and it opens",
         dense, n);
  free (packed);
  free (text);
  store_dicts_free (dicts);
}

static void
test_stmt_cache (void)
{
  struct stmt_cache c = { 0 };
  char sql[32];
  int ok = 1;
  for (int i = 0; i < 200; i++)
    {
      snprintf (sql, sizeof sql, "SELECT %d", i);
      struct stmt_entry *e = stmt_cache_get (&c, sql);
      ok &= e->stmt == NULL;
      e->stmt = gb_xstrdup (sql);
    }
  struct stmt_entry *e = stmt_cache_get (&c, "SELECT 7");
  ok &= e->stmt && strcmp (e->stmt, "SELECT 7") == 0;
  free (e->stmt);
  stmt_cache_drop (&c, e);
  e = stmt_cache_get (&c, "SELECT 7");
  ok &= e->stmt == NULL && e->index == 200;
  e->stmt = gb_xstrdup ("again");
  e = stmt_cache_get (&c, "SELECT 150");
  ok &= e->stmt && strcmp (e->stmt, "SELECT 150") == 0;
  stmt_cache_clear (&c, free);
  check (ok, "stmt_cache: finds, grows, drops and renumbers");
}

static void
test_paths (void)
{
  char out[16];
  schema_path (out, sizeof out, "", "format");
  check (strcmp (out, "format") == 0, "schema_path: a top-level member has no dot");
  schema_path (out, sizeof out, "run", "threads");
  check (strcmp (out, "run.threads") == 0, "schema_path: joins with a dot");
  schema_index_path (out, sizeof out, "results", 0);
  check (strcmp (out, "results[0]") == 0, "schema_index_path: index 0");
  schema_index_path (out, sizeof out, "x", 4095);
  check (strcmp (out, "x[4095]") == 0, "schema_index_path: four digits");
  schema_path (out, sizeof out, "system.cpu", "microarchitecture");
  check (strcmp (out, "system.cpu.micr") == 0, "schema_path: cut short at the buffer's end");
}

/* Brands that must still name a CPU: every brand string of the CPU
 * dumps of ../shared/data/cpu-dumps (their /proc/cpuinfo's "model name",
 * "Model Name" and "cpu" lines, and the names sysinfo gives those
 * machines: tests/unit-sysinfo-dumps.c), the hypervisors' brands
 * t0370-server-plausible.sh uploads, and others real CPUs report. */
static const char *const honest_brands[] = {
  "AMD EPYC 7451 24-Core Processor", "Intel(R) Xeon(R) CPU           X7550  @ 2.00GHz",
  "Loongson-3A5000", "Loongson-3A5000-HV", "AMD Opteron(tm) Processor 6328",
  "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz",
  "Intel(R) Core(TM) i5 CPU       M 560  @ 2.67GHz", "Intel(R) Core(TM) i5-3317U CPU @ 1.70GHz",
  "AMD EPYC", "POWER7 (architected), altivec supported", "TI UltraSparc II  (BlackBird)",
  "740/750", "sifive,u74-mc", "Cortex-X3", "Cortex-A15", "PowerPC 750", "POWER7", "SiFive U74",
  "T-Head C9xx", "z196", "z13",
  "Oxide Virtual Turin-like Processor", "QEMU Virtual CPU version 2.5+",
  "QEMU TCG CPU version 2.5+", "Common KVM processor", "Common 32-bit KVM processor",
  "Intel Xeon Processor (Icelake)", "AMD EPYC-Rome Processor",
  "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "AMD Ryzen 9 7950X 16-Core Processor", "Apple M2",
  "Neoverse-N1", "VirtualApple @ 2.50GHz processor", "ZHAOXIN KaiXian KX-U6780A@2.7GHz",
  "Genuine Intel(R) CPU 0000%@", "Intel(R) Core(TM)2 Duo CPU     T7700  @ 2.40GHz",
};

/* Brands that advertise: a domain (alone, in an e-mail address, in a
 * URL, in any case, after a sentence's dot or with an ideographic dot,
 * an IDN), a URL without one, control characters. */
static const char *const spam_brands[] = {
  "AMD EPYC 9999 - visit spam.example", "AMD EPYC 7763 by me@spam.example",
  "AMD EPYC https://192.0.2.1/", "AMD EPYC www.spam.example.", "AMD EPYC SPAM.EXAMPLE",
  "AMD EPYC (buy.cheap-cpus.example)", "AMD EPYC spam\xe3\x80\x82" "example",
  "AMD EPYC spam.xn--p1ai", "AMD EPYC\nline two", "AMD EPYC \x1b[31mred",
  "AMD EPYC \xc2\x85", "AMD EPYC \xe2\x80\xae" "reversed", "AMD EPYC \x7f",
};

static void
test_cpu_brand (void)
{
  /* An identity and vendor naming no maker: a brand fits unless it
   * advertises (or is empty). */
  int honest = 0, spam = 0;
  for (size_t i = 0; i < GB_ARRAY_SIZE (honest_brands); i++)
    if (cpu_brand_fits ("", "", honest_brands[i]))
      honest++;
    else
      printf ("# refused: %s\n", honest_brands[i]);
  for (size_t i = 0; i < GB_ARRAY_SIZE (spam_brands); i++)
    if (!cpu_brand_fits ("", "", spam_brands[i]))
      spam++;
    else
      printf ("# accepted: %s\n", spam_brands[i]);
  check (honest == (int) GB_ARRAY_SIZE (honest_brands),
         "cpu_brand: every real brand string of the dumps and hypervisors may name a CPU");
  check (spam == (int) GB_ARRAY_SIZE (spam_brands),
         "cpu_brand: no brand with a domain, e-mail address, URL or control character does");
  check (cpu_brand_fits ("x86:AuthenticAMD:family=25:model=33:stepping=0", "AMD",
                         "AMD Ryzen 9 5950X 16-Core Processor")
         && !cpu_brand_fits ("x86:AuthenticAMD:family=25:model=33:stepping=0", "AMD",
                             "AMD EPYC 9999 - visit spam.example")
         && cpu_brand_fits ("x86:GenuineIntel:family=6:model=158:stepping=10", "Intel",
                            "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz")
         && !cpu_brand_fits ("x86:GenuineIntel:family=6:model=158:stepping=10", "Intel",
                             "Intel Core i7 @ intel.example"),
         "cpu_brand: naming the maker does not make an advertising brand fit");
  check (!cpu_brand_contradicts ("x86:AuthenticAMD:family=25", "AMD",
                                 "AMD EPYC 9999 - visit spam.example"),
         "cpu_brand: an advertising brand naming the right maker is not a mismatch (its result "
         "is kept, it names no CPU)");
}

/* The document {"system": {"cpu": {"hypervisor": HYPERVISOR}}} (JSON text,
 * or NULL for none), bare metal or virtual. */
static int
virtual_of (const char *hypervisor)
{
  char text[160];
  snprintf (text, sizeof text, "{\"system\": {\"cpu\": {%s%s}}}",
            hypervisor ? "\"hypervisor\": " : "", hypervisor ? hypervisor : "");
  cJSON *doc = cJSON_Parse (text);
  int v = machine_is_virtual (doc);
  cJSON_Delete (doc);
  return v;
}

static void
test_machine_kind (void)
{
  enum machine_kind k[6];
  check (virtual_of ("\"KVM\"") && virtual_of ("\"unknown\"") && virtual_of ("\"PR/SM (LPAR)\"")
         && !virtual_of ("null") && !virtual_of ("\"\"") && !virtual_of (NULL)
         && !machine_is_virtual (NULL),
         "machine_kind: a document naming a hypervisor ran in a virtual machine, one with "
         "null, \"\" or none on bare metal");
  check (machine_kind_parse ("bare-metal", &k[0]) == 0 && k[0] == MACHINE_BARE_METAL
         && machine_kind_parse ("virtual", &k[1]) == 0 && k[1] == MACHINE_VIRTUAL
         && machine_kind_parse ("all", &k[2]) == 0 && k[2] == MACHINE_ANY
         && machine_kind_parse ("", &k[3]) == 0 && k[3] == MACHINE_ANY
         && machine_kind_parse (NULL, &k[4]) == 0 && k[4] == MACHINE_ANY
         && machine_kind_parse ("Virtual", &k[5]) < 0 && machine_kind_parse ("vm", &k[5]) < 0
         && strcmp (machine_kind_name (1), "virtual") == 0
         && strcmp (machine_kind_name (0), "bare-metal") == 0,
         "machine_kind: filters name bare-metal, virtual or all (or nothing), exactly");
}

int
main (void)
{
  test_paths ();
  test_json_check ();
  test_b64 ();
  test_sig ();
  test_validate ();
  test_ratelimit ();
  test_outlier ();
  test_steady ();
  test_interposed ();
  test_cpu_brand ();
  test_machine_kind ();
  test_clock_table ();
  test_clock_refusals ();
  test_measurements ();
  test_stmt_cache ();
  test_store_body ();
  return check_exit_status ();
}
