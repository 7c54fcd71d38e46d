/* unit-submit.c: unit tests of the submit modules that need no network:
 * base64 strictness, signing and verification, the identity's refusals
 * (permissions, corrupt keys, missing directories), the config file and
 * the server precedence (and no server when none is set), XDG directories
 * created when missing, consent and its memory, the standing line after
 * an upload, --redact's words and the kernel's version, spool entries,
 * damaged ones included, and the retry delays (their bounds and cap).
 * Works in $TEST_TMP, with HOME and the XDG directories pointed there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "build_config.h"
#include "common/util.h"
#include "submit/config.h"
#include "submit/consent.h"
#include "submit/identity.h"
#include "submit/redact.h"
#include "submit/sign.h"
#include "submit/spool.h"
#include "submit/standing.h"
#include "submit/upload.h"
#include "tests/check.h"

static char tmp[4096];

static char *
path (const char *rel)
{
  static char buf[8][4200];
  static int i;
  i = (i + 1) % 8;
  snprintf (buf[i], sizeof buf[i], "%s/%s", tmp, rel);
  return buf[i];
}

/* The permission bits of P, or -1. */
static int
mode_of (const char *p)
{
  struct stat st;
  return stat (p, &st) == 0 ? (int) (st.st_mode & 07777) : -1;
}

static void
write_file (const char *p, const char *text, mode_t mode)
{
  FILE *f = fopen (p, "w");
  if (f)
    {
      fputs (text, f);
      fclose (f);
    }
  chmod (p, mode);
}

static void
test_base64 (void)
{
  unsigned char out[4], in[2] = { 0xfb, 0xff };
  char enc[8];
  sign_b64_encode (in, 2, enc);
  check (strcmp (enc, "+/8=") == 0, "base64 encodes with the standard alphabet and padding");
  check (sign_b64_decode ("+/8=", out, 2) == 0 && out[0] == 0xfb && out[1] == 0xff,
         "base64 decodes what it encodes");
  check (sign_b64_decode ("+/9=", out, 2) != 0, "base64 with non-zero unused bits is refused");
  check (sign_b64_decode ("+/8", out, 2) != 0, "base64 without padding is refused");
  check (sign_b64_decode ("+/8=", out, 3) != 0, "base64 of the wrong length is refused");
  check (sign_b64_decode ("+/=8", out, 2) != 0, "misplaced padding is refused");
  check (sign_b64_decode ("+/8\n", out, 2) != 0, "whitespace inside base64 is refused");
}

static void
test_identity (void)
{
  char err[512], sig[SIGN_B64_LEN + 1], sig2[SIGN_B64_LEN + 1];
  struct gb_identity id, again;
  const char msg[] = "{\"a\": 1}\n";
  char *msg_retract = sign_retract_message ("0123456789abcdef");

  check (identity_load (NULL, 0, &id, err, sizeof err) != 0 && strstr (err, "key.pem"),
         "no default identity and no CREATE: an error naming the key file (%s)", err);
  check (identity_load (NULL, 1, &id, err, sizeof err) == 0 && id.created,
         "the default identity is created on first use");
  struct stat st;
  check (stat (id.path, &st) == 0 && (st.st_mode & 0777) == 0600, "the key file has mode 0600");
  check (identity_load (NULL, 1, &again, err, sizeof err) == 0 && !again.created
         && strcmp (again.fingerprint, id.fingerprint) == 0,
         "loading again gives the same identity and creates nothing");
  identity_free (&again);
  check (strlen (id.public_b64) == 44 && strlen (id.fingerprint) == 64,
         "public key is 44 base64 chars, fingerprint 64 hex digits");

  check (identity_sign (&id, msg, strlen (msg), sig) == 0
         && sign_verify (id.public_b64, msg, strlen (msg), sig, err, sizeof err) == 0,
         "a signature verifies against the public key");
  check (sign_verify (id.public_b64, "{\"a\": 2}\n", strlen (msg), sig, err, sizeof err) != 0,
         "a changed byte fails verification (%s)", err);
  check (identity_sign (&id, msg_retract, strlen (msg_retract), sig2) == 0
         && strcmp (msg_retract, "gmpbench-retract:0123456789abcdef") == 0
         && sign_verify (id.public_b64, msg_retract, strlen (msg_retract), sig2, err, sizeof err) == 0,
         "the retraction message is gmpbench-retract:ID and signs");
  sig[0] = sig[0] == 'A' ? 'B' : 'A';
  check (sign_verify (id.public_b64, msg, strlen (msg), sig, err, sizeof err) != 0,
         "a changed signature fails verification");

  chmod (id.path, 0644);
  check (identity_load (NULL, 1, &again, err, sizeof err) != 0 && strstr (err, "0644"),
         "a key file readable by others is refused, not replaced (%s)", err);
  chmod (id.path, 0600);
  write_file (path ("corrupt.pem"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", 0600);
  check (identity_load (path ("corrupt.pem"), 1, &again, err, sizeof err) != 0
         && strstr (err, "corrupt.pem") && access (path ("corrupt.pem"), F_OK) == 0,
         "a corrupt key file is an error naming it (%s)", err);
  check (identity_load (path ("no/such/dir/key.pem"), 1, &again, err, sizeof err) != 0
         && access (path ("no"), F_OK) != 0,
         "a --key file in a missing directory is an error, nothing is created (%s)", err);
  symlink (id.path, path ("link.pem"));
  check (identity_load (path ("link.pem"), 0, &again, err, sizeof err) != 0,
         "a key file that is a symbolic link is refused (%s)", err);

  check (identity_import (id.path, path ("copy.pem"), 0, err, sizeof err) == 0
         && identity_load (path ("copy.pem"), 0, &again, err, sizeof err) == 0
         && strcmp (again.fingerprint, id.fingerprint) == 0,
         "import writes a usable copy of the key");
  identity_free (&again);
  check (identity_import (path ("corrupt.pem"), path ("copy.pem"), 1, err, sizeof err) != 0,
         "import refuses a corrupt key");
  free (msg_retract);
  identity_free (&id);
}

static void
test_config (void)
{
  char err[512], *v = NULL, *url;
  const char *origin;

  unsetenv ("GMPBENCH_SERVER");
  url = config_server (NULL, &origin, err, sizeof err);
  if (*GB_DEFAULT_SERVER)
    check (url && strcmp (url, GB_DEFAULT_SERVER) == 0 && strcmp (origin, CONFIG_ORIGIN_BUILD) == 0,
           "with nothing configured the server is the build's default");
  else
    check (!url && !origin && strstr (err, "no results server is set")
           && strstr (err, "--server") && strstr (err, "GMPBENCH_SERVER")
           && strstr (err, "config/gmpbench/config"),
           "with nothing configured there is no server, and the message says how to set "
           "one (%s)", err);
  free (url);
  mkdir (path ("config/gmpbench"), 0700);
  write_file (path ("config/gmpbench/config"), "# comment\nother = kept\nserver = http://conf.example/ \n", 0644);
  url = config_server (NULL, &origin, err, sizeof err);
  check (url && strcmp (url, "http://conf.example") == 0 && strcmp (origin, CONFIG_ORIGIN_FILE) == 0,
         "the config file's server is used, trailing slash dropped");
  free (url);
  setenv ("GMPBENCH_SERVER", "https://env.example", 1);
  url = config_server (NULL, &origin, err, sizeof err);
  check (url && strcmp (url, "https://env.example") == 0, "GMPBENCH_SERVER beats the config file");
  free (url);
  url = config_server ("http://cli.example", &origin, err, sizeof err);
  check (url && strcmp (url, "http://cli.example") == 0, "--server beats GMPBENCH_SERVER");
  free (url);
  url = config_server ("ftp://x", &origin, err, sizeof err);
  check (!url && strstr (err, "ftp://x"), "a non-HTTP URL is refused (%s)", err);
  url = config_server ("http://x/\nunlisted 1", &origin, err, sizeof err);
  check (!url, "a URL with a line break is refused");
  unsetenv ("GMPBENCH_SERVER");

  check (config_set ("name", "Ada", err, sizeof err) == 0
         && config_get ("name", &v, err, sizeof err) == 0 && v && strcmp (v, "Ada") == 0,
         "config_set then config_get gives the value back");
  free (v);
  check (config_get ("other", &v, err, sizeof err) == 0 && v && strcmp (v, "kept") == 0,
         "rewriting the config file keeps other settings");
  free (v);
  check (config_set ("name", "", err, sizeof err) == 0
         && config_get ("name", &v, err, sizeof err) == 0 && !v,
         "an empty value removes the setting");
}

static void
test_spool (void)
{
  char err[512], **paths, *entry = NULL;
  size_t n;
  struct spool_entry e;
  const char doc[] = "{\"format\": \"x\"}\n";
  const char *sig = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

  check (spool_list (".spool", &paths, &n, err, sizeof err) == 0 && n == 0,
         "a spool that does not exist yet is empty");
  spool_list_free (paths, n);
  check (spool_add ("http://127.0.0.1:1", 1, sig, doc, strlen (doc), &entry, err, sizeof err) == 0,
         "a document is queued");
  check (spool_read (entry, &e, err, sizeof err) == 0 && e.len == strlen (doc)
         && memcmp (e.bytes, doc, e.len) == 0 && e.unlisted
         && strcmp (e.server, "http://127.0.0.1:1") == 0 && strcmp (e.signature, sig) == 0,
         "the entry gives back the exact bytes, signature, server and unlisted flag");
  check (spool_list (".spool", &paths, &n, err, sizeof err) == 0 && n == 1,
         "the spool lists one entry");
  spool_list_free (paths, n);
  check (spool_reject (&e) == 0 && spool_list (".rejected", &paths, &n, err, sizeof err) == 0 && n == 1,
         "a rejected entry is set aside, not deleted");
  spool_list_free (paths, n);
  spool_entry_free (&e);

  write_file (entry, "gmpbench-spool/1\nserver http://x\nunlisted 0\n", 0600);
  check (spool_read (entry, &e, err, sizeof err) != 0 && strstr (err, "damaged"),
         "a truncated entry is reported as damaged (%s)", err);
  write_file (path ("data/gmpbench/spool/x.spool.tmp.999999999"), "partial", 0600);
  check (spool_clean () == 1 && access (path ("data/gmpbench/spool/x.spool.tmp.999999999"), F_OK) != 0,
         "a dead writer's temporary file is cleaned up");
  free (entry);

  setenv ("XDG_DATA_HOME", path ("missing/data"), 1);
  check (spool_add ("http://x", 0, sig, doc, strlen (doc), NULL, err, sizeof err) == 0
         && mode_of (path ("missing")) == 0700 && mode_of (path ("missing/data")) == 0700,
         "a missing XDG_DATA_HOME is created with its parents, mode 0700 (%s)", err);
  setenv ("XDG_DATA_HOME", path ("data"), 1);
}

/* Consent: none at first, the config file's yes or no, a remembered
 * answer in a state directory made when missing, and no question without
 * a terminal (standard error is the test's log here). */
static void
test_consent (void)
{
  char err[512], when[32], line[256];
  enum consent_state state;
  FILE *f;

  setenv ("XDG_STATE_HOME", path ("state/deep"), 1);
  check (consent_check ("http://a.example", &state, when, sizeof when, err, sizeof err) == 0
         && state == CONSENT_NONE, "no consent is given at first");
  check (consent_obtain ("test", "http://a.example", NULL, 0) != 0,
         "without consent and without a terminal the upload may not go on");
  check (consent_obtain ("test", "http://a.example", NULL, 1) == 0
         && consent_check ("http://a.example", &state, when, sizeof when, err, sizeof err) == 0
         && state == CONSENT_REMEMBERED && strlen (when) == 20,
         "--yes is remembered per server, with its time (%s)", when);
  check (mode_of (path ("state")) == 0700 && mode_of (path ("state/deep/gmpbench")) == 0700,
         "the missing XDG_STATE_HOME is created with its parents, mode 0700");
  f = fopen (path ("state/deep/gmpbench/consent"), "r");
  check (f && fgets (line, sizeof line, f) && strncmp (line, "http://a.example\t", 17) == 0,
         "the state file holds the server and a tab (%s)", f ? line : "missing");
  if (f)
    fclose (f);
  check (consent_check ("http://a.example:8080", &state, when, sizeof when, err, sizeof err) == 0
         && state == CONSENT_NONE, "consent to one server is not consent to another");
  check (config_set ("consent", "yes", err, sizeof err) == 0
         && consent_check ("http://b.example", &state, when, sizeof when, err, sizeof err) == 0
         && state == CONSENT_CONFIG, "the config file's consent = yes covers every server");
  check (config_set ("consent", "perhaps", err, sizeof err) == 0
         && consent_check ("http://b.example", &state, when, sizeof when, err, sizeof err) != 0
         && strstr (err, "perhaps"), "another consent value is an error naming it (%s)", err);
  config_set ("consent", "", err, sizeof err);
}

/* The standing line from a 201's member, whole, in parts, and broken. */
static void
test_standing (void)
{
  char line[512];
  cJSON *j = cJSON_Parse ("{\"cpu\": {\"sources\": 9, \"results\": 14, \"median\": 5764, "
                          "\"percentile\": 60}, \"arch\": {\"name\": \"x86_64\", \"mode\": "
                          "\"quick\", \"results\": 120, \"percentile\": 63}}");
  check (standing_line (j, 5879, line, sizeof line)
         && strcmp (line, "5879: 2% above the median of 14 results (9 sources) of this CPU; "
                    "faster than 63% of 120 x86_64 quick runs") == 0,
         "the whole standing in one line (%s)", line);
  cJSON_DeleteItemFromObject (j, "arch");
  check (standing_line (j, 5000, line, sizeof line)
         && strcmp (line, "5000: 13% below the median of 14 results (9 sources) of this CPU") == 0,
         "without arch, the CPU's part alone (%s)", line);
  cJSON_Delete (j);
  j = cJSON_Parse ("{\"arch\": {\"name\": \"aarch64\", \"mode\": \"full\", \"results\": 1, "
                   "\"percentile\": 100}, \"cpu\": {\"results\": 1, \"median\": 700}}");
  check (standing_line (j, 700, line, sizeof line)
         && strcmp (line, "700: at the median of 1 result of this CPU; faster than 100% of 1 "
                    "aarch64 full run") == 0, "one result: singular words (%s)", line);
  cJSON_Delete (j);
  j = cJSON_Parse ("{\"cpu\": {\"results\": -1, \"median\": \"x\"}, \"arch\": "
                   "{\"name\": \"x\\u001b[31m\", \"percentile\": 500}}");
  check (!standing_line (j, 700, line, sizeof line) && line[0] == '\0',
         "malformed members say nothing");
  cJSON_Delete (j);
  check (!standing_line (NULL, 700, line, sizeof line), "no standing (an older server): nothing");
}

/* --redact's words and the kernel's version. */
static void
test_redact (void)
{
  char err[256], v[64];
  unsigned what = 0;
  check (redact_parse ("machine,kernel", &what, err, sizeof err) == 0
         && what == (REDACT_MACHINE | REDACT_KERNEL), "--redact machine,kernel");
  what = 0;
  check (redact_parse ("kernel,dmi", &what, err, sizeof err) != 0 && strstr (err, "'dmi'"),
         "an unknown word is named (%s)", err);
  redact_kernel_version ("6.1.0-18-amd64", v, sizeof v);
  check (strcmp (v, "6.1.0") == 0, "6.1.0-18-amd64 keeps 6.1.0 (%s)", v);
  redact_kernel_version ("14.0-RELEASE-p3", v, sizeof v);
  check (strcmp (v, "14.0") == 0, "FreeBSD's 14.0-RELEASE-p3 keeps 14.0 (%s)", v);
  redact_kernel_version ("Windows NT 10.0 build 22631", v, sizeof v);
  check (strcmp (v, "Windows NT 10.0") == 0, "Windows keeps its NT version (%s)", v);
  redact_kernel_version ("custom", v, sizeof v);
  check (v[0] == '\0', "a release without a digit keeps nothing");
}

/* Every retry's delay lies in [D/2, D], D doubling from the base up to
 * the cap, whatever the random draw. */
static void
test_backoff (void)
{
  const unsigned int draws[] = { 0, 1, 0x80000000u, 0xffffffffu };
  double d = UPLOAD_BACKOFF_BASE;
  int bounded = 1, doubles = 1;

  for (int n = 1; n <= 40; n++)
    {
      for (size_t i = 0; i < GB_ARRAY_SIZE (draws); i++)
        {
          double w = upload_backoff (n, draws[i]);
          if (!(w >= d / 2 && w <= d))
            bounded = 0;
        }
      if (upload_backoff (n, 0) != d / 2 || !(upload_backoff (n, 0xffffffffu) > d * 0.999))
        doubles = 0;
      d = d * 2 < UPLOAD_BACKOFF_MAX ? d * 2 : UPLOAD_BACKOFF_MAX;
    }
  check (bounded, "every retry delay lies between half and all of its step");
  check (doubles, "the step doubles from %.1f s, and a draw spans [d/2, d)", UPLOAD_BACKOFF_BASE);
  check (upload_backoff (1, 0) == UPLOAD_BACKOFF_BASE / 2
         && upload_backoff (1, 0xffffffffu) < UPLOAD_BACKOFF_BASE,
         "the first retry waits between %.2f and %.1f s", UPLOAD_BACKOFF_BASE / 2,
         UPLOAD_BACKOFF_BASE);
  check (upload_backoff (1000, 0xffffffffu) <= UPLOAD_BACKOFF_MAX
         && upload_backoff (1000, 0) == UPLOAD_BACKOFF_MAX / 2,
         "delays are capped at %.0f s, and even then randomised from half of it",
         UPLOAD_BACKOFF_MAX);
}

int
main (void)
{
  const char *t = getenv ("TEST_TMP");
  snprintf (tmp, sizeof tmp, "%s/unit-submit", t ? t : "/tmp");
  mkdir (tmp, 0700);
  mkdir (path ("home"), 0700);
  mkdir (path ("config"), 0700);
  mkdir (path ("data"), 0700);
  setenv ("HOME", path ("home"), 1);
  setenv ("XDG_CONFIG_HOME", path ("config"), 1);
  setenv ("XDG_DATA_HOME", path ("data"), 1);
  test_base64 ();
  test_identity ();
  test_config ();
  test_spool ();
  test_consent ();
  test_standing ();
  test_redact ();
  test_backoff ();
  return check_exit_status ();
}
