/* cmd_retract.c: `gmpbench retract ID...` withdraws uploaded results.  The
 * request is signed with the key that signed the result (the server
 * checks that it is the same key), over "gmpbench-retract:" and the id. */
#include <stdio.h>
#include <string.h>
#include "client/gmpbench.h"
#include "client/upload_options.h"
#include "submit/identity.h"
#include "submit/submit.h"

static const char retract_usage[] =
  "usage: gmpbench retract [options] ID...\n"
  "\n"
  "Withdraw uploaded results: they leave listings and aggregates, and their\n"
  "permalinks answer 410 Gone.  Only the key that signed a result can retract it.\n";

static const char retract_epilogue[] =
  "\n"
  "Exit status: 0 all retracted, 1 some retraction failed, 2 usage error.\n";

/* OPTIONS_OK with *IDS the index of the first ID, else the exit:
 * OPTIONS_DONE after --help, OPTIONS_BAD on a usage error. */
static enum option_result
parse_options (int argc, char **argv, struct submit_options *opt, const char **key_file,
               int *ids)
{
  const struct gb_option options[] = {
    UPLOAD_OPTIONS (opt, NULL),
    OPT_STRING (0, "key", "FILE", key_file,
                "the key that signed the results (default: the\n"
                "identity of 'gmpbench key')"),
    OPT_FLAG ('q', "quiet", &opt->quiet, "no retry notices"),
    OPT_END
  };
  const struct option_table table = { "retract", retract_usage, retract_epilogue, options,
                                      OPERANDS_ANY, "ID" };
  return options_parse (&table, argc, argv, ids);
}

int
cmd_retract (int argc, char **argv)
{
  char err[512];
  struct submit_options opt;
  struct gb_identity id;
  const char *key_file = NULL;
  int rc, status = 0, ids;

  submit_options_init (&opt, "retract");
  rc = parse_options (argc, argv, &opt, &key_file, &ids);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  if (identity_load (key_file, 0, &id, err, sizeof err) != 0)
    {
      gb_error ("retract", "%s", err);
      return 1;
    }
  for (int i = ids; i < argc; i++)
    if (submit_retract (argv[i], &id, &opt) != 0)
      status = 1;
  identity_free (&id);
  return status;
}
