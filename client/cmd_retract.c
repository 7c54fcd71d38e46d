/* cmd_retract.c: `gmpbench retract ID...` withdraws uploaded results.  The
 * request is signed with the key that signed the result (the server
 * checks that it is the same key), over "gmpbench-retract:" and the id. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "client/gmpbench.h"
#include "submit/identity.h"
#include "submit/submit.h"

static const char retract_usage[] =
  "usage: gmpbench retract [options] ID...\n"
  "\n"
  "Withdraw uploaded results: they leave listings and aggregates, and their\n"
  "permalinks answer 410 Gone.  Only the key that signed a result can retract it.\n"
  "  --server URL            the results server (default: $GMPBENCH_SERVER, the\n"
  "                          config file's 'server', then https://gmpbench.org)\n"
  "  --cacert FILE           trust the certificate authorities in FILE (PEM)\n"
  "  --key FILE              the key that signed the results (default: the\n"
  "                          identity of 'gmpbench key')\n"
  "  --dry-run               print the requests that would be sent; send nothing\n"
  "  --timeout SECS          give up an attempt after SECS (default 60)\n"
  "  --retries N             attempts after the first on network errors, 408,\n"
  "                          429 and 5xx, with growing delays (default 4)\n"
  "  -q, --quiet             no retry notices\n"
  "  -h, --help              this text\n"
  "\n"
  "Exit status: 0 all retracted, 1 some retraction failed, 2 usage error.\n";

enum { OPT_SERVER = 256, OPT_CACERT, OPT_KEY, OPT_DRY_RUN, OPT_TIMEOUT, OPT_RETRIES };

/* 0 to go on, 1 after --help, -1 on a usage error. */
static int
parse_options (int argc, char **argv, struct submit_options *opt, const char **key_file)
{
  static const struct option longopts[] = {
    { "server", required_argument, NULL, OPT_SERVER },
    { "cacert", required_argument, NULL, OPT_CACERT },
    { "key", required_argument, NULL, OPT_KEY },
    { "dry-run", no_argument, NULL, OPT_DRY_RUN },
    { "timeout", required_argument, NULL, OPT_TIMEOUT },
    { "retries", required_argument, NULL, OPT_RETRIES },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long (argc, argv, ":qh", longopts, NULL)) != -1)
    switch (c)
      {
      case OPT_SERVER: opt->server = optarg; break;
      case OPT_CACERT: opt->cacert = optarg; break;
      case OPT_KEY: *key_file = optarg; break;
      case OPT_DRY_RUN: opt->dry_run = 1; break;
      case OPT_TIMEOUT:
        if (gb_parse_seconds (optarg, &opt->timeout) != 0)
          {
            gb_error ("retract", "--timeout wants seconds (0 < SECS <= 3600), not '%s'", optarg);
            return -1;
          }
        break;
      case OPT_RETRIES:
        if (submit_parse_retries (optarg, &opt->retries) != 0)
          {
            gb_error ("retract", "--retries wants a count from 0 to %d, not '%s'",
                      SUBMIT_MAX_RETRIES, optarg);
            return -1;
          }
        break;
      case 'q': opt->quiet = 1; break;
      case 'h': fputs (retract_usage, stdout); return 1;
      case ':':
        gb_error ("retract", "option '%s' needs a value", argv[optind - 1]);
        return -1;
      default:
        gb_error ("retract", "unknown option '%s'; see 'gmpbench retract --help'",
                  argv[optind - 1]);
        return -1;
      }
  if (optind == argc)
    {
      gb_error ("retract", "no ID given; see 'gmpbench retract --help'");
      return -1;
    }
  return 0;
}

int
cmd_retract (int argc, char **argv)
{
  char err[512];
  struct submit_options opt;
  struct gb_identity id;
  const char *key_file = NULL;
  int rc, status = 0;

  submit_options_init (&opt, "retract");
  rc = parse_options (argc, argv, &opt, &key_file);
  if (rc != 0)
    return rc > 0 ? 0 : EXIT_USAGE;
  if (identity_load (key_file, 0, &id, err, sizeof err) != 0)
    {
      gb_error ("retract", "%s", err);
      return 1;
    }
  for (int i = optind; i < argc; i++)
    if (submit_retract (argv[i], &id, &opt) != 0)
      status = 1;
  identity_free (&id);
  return status;
}
