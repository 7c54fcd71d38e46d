/* cmd_verify.c: `gmpbench verify FILE...`, the offline check of result
 * files: each FILE.sig must be a valid Ed25519 signature of FILE's exact
 * bytes by the key the document itself names (submitter.public_key), and
 * FILE must pass the rules the server applies before it accepts a result
 * (model/validate.h: schema, test names, scores recomputed, digests
 * against the reference), from the same code.  It needs no identity of
 * its own and no network; docs/signing.md shows the signature check done
 * with the openssl command-line tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "client/options.h"
#include "common/util.h"
#include "model/sig.h"
#include "model/validate.h"
#include "submit/result_file.h"

static const char verify_usage[] =
  "usage: gmpbench verify [options] FILE...\n"
  "\n"
  "Check result files and their signatures (FILE.sig) offline: the signature,\n"
  "then the rules the server applies before it accepts a result (the schema,\n"
  "the test names, the scores recomputed, the digests against the reference).\n";

static const char verify_epilogue[] =
  "\n"
  "For a good file prints its name and the signer's key fingerprint; for a\n"
  "bad one, which check or rule it fails.\n"
  "Exit status: 0 every file verifies, 1 some file does not, 2 usage error.\n";

/* Applies the server's rules to RF; 0 when it passes them, else 1 with
 * the rule broken, where, and the tests concerned on stderr. */
static int
check_rules (const struct result_file *rf)
{
  struct doc_summary doc;
  struct validate_error err;
  if (validate_document (rf->bytes, rf->len, &doc, &err) == 0)
    {
      validate_summary_free (&doc);
      return 0;
    }
  size_t len = 1;
  for (size_t i = 0; i < err.ntests; i++)
    len += strlen (err.tests[i]) + 3;
  char *tests = gb_xmalloc (len);
  tests[0] = '\0';
  for (size_t i = 0; i < err.ntests; i++)
    {
      strcat (tests, i ? ", " : " (");
      strcat (tests, err.tests[i]);
    }
  if (err.ntests)
    strcat (tests, ")");
  gb_error ("verify", "%s: breaks the rule %s%s%s: %s%s", rf->path, err.rule,
            err.field[0] ? " at " : "", err.field, err.message, tests);
  free (tests);
  validate_error_free (&err);
  return 1;
}

/* Checks one file, the signature alone with SIGNATURE_ONLY; 0 when it
 * verifies. */
static int
verify_one (const char *path, int quiet, int signature_only)
{
  char err[512], fp[65];
  unsigned char key[SIGN_KEY_BYTES];
  struct result_file rf;

  if (result_file_load (path, &rf, err, sizeof err) != 0
      || result_file_verify (&rf, err, sizeof err) != 0)
    {
      result_file_free (&rf);
      gb_error ("verify", "%s", err);
      return 1;
    }
  if (!signature_only && check_rules (&rf) != 0)
    {
      result_file_free (&rf);
      return 1;
    }
  sign_b64_decode (rf.public_key, key, sizeof key);
  sig_fingerprint (key, fp);
  if (!quiet)
    printf ("%s: good signature by %s%s%s%s\n", path, fp,
            rf.name ? " (" : "", rf.name ? rf.name : "", rf.name ? ")" : "");
  result_file_free (&rf);
  return 0;
}

int
cmd_verify (int argc, char **argv)
{
  int quiet = 0, signature_only = 0, status = 0, files;
  const struct gb_option options[] = {
    OPT_FLAG (0, "signature-only", &signature_only, "check the signature alone"),
    OPT_FLAG ('q', "quiet", &quiet, "print nothing for files that verify"),
    OPT_END
  };
  const struct option_table table = { "verify", verify_usage, verify_epilogue, options,
                                      OPERANDS_ANY, "FILE" };
  enum option_result rc = options_parse (&table, argc, argv, &files);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  for (int i = files; i < argc; i++)
    status |= verify_one (argv[i], quiet, signature_only);
  return status;
}
