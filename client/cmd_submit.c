/* cmd_submit.c: `gmpbench submit FILE...` uploads result files written
 * earlier (perhaps on a machine without network), and `gmpbench submit
 * --pending` uploads the queue of results that could not be uploaded when
 * they were made.
 *
 * Each FILE is checked offline first (its signature against the key it
 * names), so a file edited after signing is caught here with a clear
 * message rather than by the server.  A file whose FILE.sig is missing
 * but that names the user's own key is signed now, as its run would have. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "submit/identity.h"
#include "submit/result_file.h"
#include "submit/submit.h"
#include "submit/upload.h"

static const char submit_usage[] =
  "usage: gmpbench submit [options] FILE...\n"
  "       gmpbench submit [options] --pending\n"
  "\n"
  "Upload signed result files (FILE and its signature FILE.sig, as written by\n"
  "'gmpbench run -o FILE'), or the results queued when an upload failed.\n"
  "  --pending               upload the queued results, each to the server it\n"
  "                          was queued for (unless --server is given)\n"
  "  --server URL            the results server (default: $GMPBENCH_SERVER, the\n"
  "                          config file's 'server', then https://gmpbench.org)\n"
  "  --cacert FILE           trust the certificate authorities in FILE (PEM)\n"
  "                          instead of the system's, for a private server\n"
  "  --unlisted              reachable by its link only, never in listings\n"
  "  --dry-run               print the requests that would be sent; send nothing\n"
  "  --key FILE              the signing key for files not signed yet\n"
  "                          (default: the identity of 'gmpbench key')\n"
  "  --timeout SECS          give up an attempt after SECS (default 60)\n"
  "  --retries N             attempts after the first on network errors, 408,\n"
  "                          429 and 5xx, with growing delays (default 4)\n"
  "  -q, --quiet             no progress and no retry notices\n"
  "  -h, --help              this text\n"
  "\n"
  "Proxies are taken from https_proxy, http_proxy and no_proxy.  A result that\n"
  "cannot be uploaded now is queued (see 'gmpbench status').\n"
  "Exit status: 0 all uploaded, 1 a file was rejected or unusable, 2 usage\n"
  "error, 75 some result is queued for later.\n";

enum { OPT_PENDING = 256, OPT_SERVER, OPT_CACERT, OPT_UNLISTED, OPT_DRY_RUN,
       OPT_KEY, OPT_TIMEOUT, OPT_RETRIES };

struct submit_cmd
{
  struct submit_options opt;
  const char *key_file;
  int pending;
};

/* 0 to go on, 1 after --help, -1 on a usage error. */
static int
parse_options (int argc, char **argv, struct submit_cmd *c)
{
  static const struct option longopts[] = {
    { "pending", no_argument, NULL, OPT_PENDING },
    { "server", required_argument, NULL, OPT_SERVER },
    { "cacert", required_argument, NULL, OPT_CACERT },
    { "unlisted", no_argument, NULL, OPT_UNLISTED },
    { "dry-run", no_argument, NULL, OPT_DRY_RUN },
    { "key", required_argument, NULL, OPT_KEY },
    { "timeout", required_argument, NULL, OPT_TIMEOUT },
    { "retries", required_argument, NULL, OPT_RETRIES },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int ch;
  opterr = 0;
  optind = 1;
  while ((ch = getopt_long (argc, argv, ":qh", longopts, NULL)) != -1)
    switch (ch)
      {
      case OPT_PENDING: c->pending = 1; break;
      case OPT_SERVER: c->opt.server = optarg; break;
      case OPT_CACERT: c->opt.cacert = optarg; break;
      case OPT_UNLISTED: c->opt.unlisted = 1; break;
      case OPT_DRY_RUN: c->opt.dry_run = 1; break;
      case OPT_KEY: c->key_file = optarg; break;
      case OPT_TIMEOUT:
        if (gb_parse_seconds (optarg, &c->opt.timeout) != 0)
          {
            gb_error ("submit", "--timeout wants seconds (0 < SECS <= 3600), not '%s'", optarg);
            return -1;
          }
        break;
      case OPT_RETRIES:
        if (submit_parse_retries (optarg, &c->opt.retries) != 0)
          {
            gb_error ("submit", "--retries wants a count from 0 to %d, not '%s'",
                      SUBMIT_MAX_RETRIES, optarg);
            return -1;
          }
        break;
      case 'q': c->opt.quiet = 1; break;
      case 'h': fputs (submit_usage, stdout); return 1;
      case ':':
        gb_error ("submit", "option '%s' needs a value", argv[optind - 1]);
        return -1;
      default:
        gb_error ("submit", "unknown option '%s'; see 'gmpbench submit --help'",
                  argv[optind - 1]);
        return -1;
      }
  if (c->pending == (optind < argc))
    {
      gb_error ("submit", c->pending ? "--pending takes no FILE"
                : "no FILE given (or --pending); see 'gmpbench submit --help'");
      return -1;
    }
  return 0;
}

/* Signs an unsigned file that names the user's own key, writing FILE.sig. */
static int
sign_now (struct result_file *rf, const char *key_file)
{
  char err[512];
  struct gb_identity id;
  int rc = -1;

  if (identity_load (key_file, 0, &id, err, sizeof err) != 0)
    {
      gb_error ("submit", "%s has no signature (%s.sig), and %s", rf->path, rf->path, err);
      return -1;
    }
  if (strcmp (id.public_b64, rf->public_key) != 0)
    gb_error ("submit", "%s has no signature (%s.sig) and names another key than %s",
              rf->path, rf->path, id.path);
  else if (identity_sign (&id, rf->bytes, rf->len, rf->signature) != 0)
    gb_error ("submit", "cannot sign %s (OpenSSL error)", rf->path);
  else if (sign_write_file (rf->path, rf->signature, err, sizeof err) != 0)
    gb_error ("submit", "%s", err);
  else
    {
      rf->signed_ = 1;
      rc = 0;
    }
  identity_free (&id);
  return rc;
}

static int
submit_file (const char *path, struct submit_cmd *c)
{
  char err[512];
  struct result_file rf;
  int status;

  if (result_file_load (path, &rf, err, sizeof err) != 0)
    {
      gb_error ("submit", "%s; not uploaded", err);
      return 1;
    }
  if (!rf.signed_ && sign_now (&rf, c->key_file) != 0)
    status = 1;
  else if (result_file_verify (&rf, err, sizeof err) != 0)
    {
      gb_error ("submit", "%s (edited after signing?); not uploaded", err);
      status = 1;
    }
  else
    {
      c->opt.local_copy = path;
      status = submit_document (rf.bytes, rf.len, rf.signature, &c->opt);
    }
  result_file_free (&rf);
  return status;
}

int
cmd_submit (int argc, char **argv)
{
  struct submit_cmd c;
  int status = 0, rc;

  memset (&c, 0, sizeof c);
  submit_options_init (&c.opt, "submit");
  rc = parse_options (argc, argv, &c);
  if (rc != 0)
    return rc > 0 ? 0 : EXIT_USAGE;
  if (c.pending)
    return submit_pending (&c.opt);
  for (int i = optind; i < argc; i++)
    {
      int st = submit_file (argv[i], &c);
      if (st == 1 || (st == SUBMIT_QUEUED && status == 0))
        status = st;
    }
  return status;
}
