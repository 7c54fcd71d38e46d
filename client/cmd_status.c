/* cmd_status.c: `gmpbench status`, what the client would use and what it
 * holds: the signing identity, the config file, the server with where that
 * choice came from (or that none is set) and whether uploads to it are
 * consented to, and the queue of results waiting for upload.  It only looks: it
 * creates no key and contacts no server. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "client/gmpbench.h"
#include "client/options.h"
#include "submit/config.h"
#include "submit/consent.h"
#include "submit/identity.h"
#include "submit/spool.h"

static const char status_usage[] =
  "usage: gmpbench status [options]\n"
  "\n"
  "Show the signing identity, the config file, the results server (and which\n"
  "setting chose it), consent to uploads there, and the queued results.\n";

static const char status_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 something is broken (shown), 2 usage error.\n";

static int
show_identity (const char *key_file)
{
  char err[512];
  struct gb_identity id;
  char *path = key_file ? NULL : identity_default_path (err, sizeof err);

  if (!key_file && path && access (path, F_OK) != 0 && errno == ENOENT)
    {
      printf ("identity     none yet: 'gmpbench key' or the first signed run makes %s\n", path);
      free (path);
      return 0;
    }
  free (path);
  if (identity_load (key_file, 0, &id, err, sizeof err) != 0)
    {
      printf ("identity     unusable\n");
      gb_error ("status", "%s", err);
      return 1;
    }
  printf ("identity     %s%s%s%s\n", id.fingerprint, id.name ? " (" : "",
          id.name ? id.name : "", id.name ? ")" : "");
  printf ("key file     %s\n", id.path);
  identity_free (&id);
  return 0;
}

/* The consent line for uploads to URL (submit/consent.h). */
static int
show_consent (const char *url)
{
  char err[512], when[32];
  enum consent_state state;
  if (consent_check (url, &state, when, sizeof when, err, sizeof err) != 0)
    {
      printf ("consent      unusable\n");
      gb_error ("status", "%s", err);
      return 1;
    }
  if (state == CONSENT_CONFIG)
    printf ("consent      given for every server (the config file's 'consent = yes')\n");
  else if (state == CONSENT_REMEMBERED)
    printf ("consent      given on %s\n", when);
  else
    printf ("consent      not yet: the first upload asks (or give --yes)\n");
  return 0;
}

static int
show_server (const char *cli)
{
  char err[512], path_err[512];
  const char *origin;
  char *url = config_server (cli, &origin, err, sizeof err);
  char *config = config_file_path (path_err, sizeof path_err);
  int rc = 0;
  printf ("config file  %s\n", config ? config : "none (no HOME)");
  free (config);
  if (url)
    {
      printf ("server       %s (from %s)\n", url, origin);
      rc = show_consent (url);
    }
  else if (!origin)
    printf ("server       none set: uploads need --server URL, GMPBENCH_SERVER=URL, or\n"
            "             'server = URL' in the config file\n");
  else
    {
      printf ("server       unusable\n");
      gb_error ("status", "%s", err);
      rc = 1;
    }
  free (url);
  return rc;
}

/* Lists the entries with SUFFIX under the heading WHAT. */
static int
show_entries (const char *suffix, const char *what)
{
  char err[512];
  char **paths;
  size_t n;

  if (spool_list (suffix, &paths, &n, err, sizeof err) != 0)
    {
      gb_error ("status", "%s", err);
      return 1;
    }
  printf ("%-12s %zu result%s\n", what, n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++)
    {
      struct spool_entry e;
      const char *base = strrchr (paths[i], '/') + 1;
      if (spool_read (paths[i], &e, err, sizeof err) != 0)
        printf ("  %s  damaged: %s\n", base, err);
      else
        {
          printf ("  %s  %zu bytes for %s%s\n", base, e.len, e.server,
                  e.unlisted ? " (unlisted)" : "");
          spool_entry_free (&e);
        }
    }
  spool_list_free (paths, n);
  return 0;
}

static int
show_spool (void)
{
  char err[512];
  char *dir = spool_dir (err, sizeof err);
  int rc;
  if (!dir)
    {
      gb_error ("status", "%s", err);
      return 1;
    }
  printf ("spool        %s\n", dir);
  free (dir);
  rc = show_entries (".spool", "queued");
  return show_entries (".rejected", "rejected") | rc;
}

int
cmd_status (int argc, char **argv)
{
  const char *key_file = NULL, *server = NULL;
  const struct gb_option options[] = {
    OPT_STRING (0, "key", "FILE", &key_file,
                "show this key file instead of the default identity"),
    OPT_STRING (0, "server", "URL", &server, "show this server instead of the configured one"),
    OPT_END
  };
  const struct option_table table = { "status", status_usage, status_epilogue, options,
                                      0, NULL };
  enum option_result rc = options_parse (&table, argc, argv, NULL);
  if (rc != OPTIONS_OK)
    return rc == OPTIONS_DONE ? 0 : EXIT_USAGE;
  return show_identity (key_file) | show_server (server) | show_spool ();
}
