/* cmd_submit.c: `gmpbench submit FILE...` uploads result files written
 * earlier (perhaps on a machine without network), and `gmpbench submit
 * --pending` uploads the queue of results that could not be uploaded when
 * they were made.
 *
 * Each FILE is checked offline first (its signature against the key it
 * names), so a file edited after signing is caught here with a clear
 * message rather than by the server.  A file whose FILE.sig is missing
 * but that names the user's own key is signed now, as its run would have. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "client/upload_options.h"
#include "submit/config.h"
#include "submit/identity.h"
#include "submit/result_file.h"
#include "submit/submit.h"
#include "submit/upload.h"

static const char submit_usage[] =
  "usage: gmpbench submit [options] FILE...\n"
  "       gmpbench submit [options] --pending\n"
  "\n"
  "Upload signed result files (FILE and its signature FILE.sig, as written by\n"
  "'gmpbench run -o FILE'), or the results queued when an upload failed.\n";

static const char submit_epilogue[] =
  "\n"
  "Proxies are taken from https_proxy, http_proxy and no_proxy.  A result that\n"
  "cannot be uploaded now is queued (see 'gmpbench status').\n"
  "Exit status: 0 all uploaded, 1 a file was rejected or unusable, 2 usage\n"
  "error, no server set, or no consent to the first upload to the server\n"
  "(see --yes), 75 some result is queued for later.\n";

struct submit_cmd
{
  struct submit_options opt;
  const char *key_file;
  int pending;
};

/* OPTIONS_OK with *FILES the index of the first FILE, else the exit:
 * OPTIONS_DONE after --help, OPTIONS_BAD on a usage error. */
static enum option_result
parse_options (int argc, char **argv, struct submit_cmd *c, int *files)
{
  const struct gb_option options[] = {
    OPT_FLAG (0, "pending", &c->pending,
              "upload the queued results, each to the server it\n"
              "was queued for (unless --server is given)"),
    UPLOAD_UNLISTED_OPTION (&c->opt, NULL),
    UPLOAD_OPTIONS (&c->opt, NULL),
    UPLOAD_CONSENT_OPTION (&c->opt, NULL),
    OPT_STRING (0, "key", "FILE", &c->key_file,
                "the signing key for files not signed yet\n"
                "(default: the identity of 'gmpbench key')"),
    OPT_FLAG ('q', "quiet", &c->opt.quiet, "no progress and no retry notices"),
    OPT_END
  };
  const struct option_table table = { "submit", submit_usage, submit_epilogue, options,
                                      OPERANDS_ANY, NULL };
  enum option_result rc = options_parse (&table, argc, argv, files);
  if (rc != OPTIONS_OK)
    return rc;
  if (c->pending == (*files < argc))
    {
      gb_error ("submit", c->pending ? "--pending takes no FILE"
                : "no FILE given (or --pending); see 'gmpbench submit --help'");
      return OPTIONS_BAD;
    }
  return OPTIONS_OK;
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

/* Whether a server is set (and its URL usable), said when not. */
static int
server_set (const struct submit_options *opt)
{
  char err[512];
  const char *origin;
  char *url = config_server (opt->server, &origin, err, sizeof err);
  int set = url != NULL;
  if (!set)
    gb_error (opt->cmd, "%s; nothing was uploaded", err);
  free (url);
  return set;
}

int
cmd_submit (int argc, char **argv)
{
  struct submit_cmd c;
  int status = 0, rc, files;

  memset (&c, 0, sizeof c);
  submit_options_init (&c.opt, "submit");
  rc = parse_options (argc, argv, &c, &files);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  if (c.pending)
    return submit_pending (&c.opt);
  if (!server_set (&c.opt))
    return EXIT_USAGE;
  for (int i = files; i < argc; i++)
    {
      int st = submit_file (argv[i], &c);
      if (st == SUBMIT_NO_CONSENT)
        return st;
      if (st == 1 || (st == SUBMIT_QUEUED && status == 0))
        status = st;
    }
  return status;
}
