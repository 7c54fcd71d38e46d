/* cmd_verify.c: `gmpbench verify FILE...`, the offline check of result
 * files: each FILE.sig must be a valid Ed25519 signature of FILE's exact
 * bytes by the key the document itself names (submitter.public_key).  It
 * needs no identity of its own and no network; docs/signing.md shows the
 * same check done with the openssl command-line tool. */
#include <stdio.h>
#include "client/gmpbench.h"
#include "client/options.h"
#include "model/sig.h"
#include "submit/result_file.h"

static const char verify_usage[] =
  "usage: gmpbench verify [options] FILE...\n"
  "\n"
  "Check result files and their signatures (FILE.sig) offline.\n";

static const char verify_epilogue[] =
  "\n"
  "For a good file prints its name and the signer's key fingerprint.\n"
  "Exit status: 0 every file verifies, 1 some file does not, 2 usage error.\n";

/* Checks one file; 0 when it verifies. */
static int
verify_one (const char *path, int quiet)
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
  int quiet = 0, status = 0, files;
  const struct gb_option options[] = {
    OPT_FLAG ('q', "quiet", &quiet, "print nothing for files that verify"),
    OPT_END
  };
  const struct option_table table = { "verify", verify_usage, verify_epilogue, options,
                                      OPERANDS_ANY, "FILE" };
  enum option_result rc = options_parse (&table, argc, argv, &files);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  for (int i = files; i < argc; i++)
    status |= verify_one (argv[i], quiet);
  return status;
}
