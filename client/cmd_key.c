/* cmd_key.c: `gmpbench key`, the signing identity.
 *
 *   gmpbench key [show]          the public key and its fingerprint
 *   gmpbench key export [FILE]   the private key as PEM, to move it
 *   gmpbench key import FILE     take a PEM Ed25519 key as the identity
 *
 * `show` creates the default key on first use, like `gmpbench run`.  The
 * private key is only ever written to a file of mode 0600 or to a
 * redirected standard output; it is never shown on a terminal. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "client/gmpbench.h"
#include "client/options.h"
#include "common/util.h"
#include "submit/config.h"
#include "submit/identity.h"

#define NAME_MAX_BYTES 100      /* submitter.name, docs/result-format.md */

static const char key_usage[] =
  "usage: gmpbench key [options] [show]\n"
  "       gmpbench key [options] export [FILE]\n"
  "       gmpbench key [options] import FILE\n"
  "\n"
  "Show, export or import the Ed25519 key that signs your results.  The default\n"
  "key is $XDG_CONFIG_HOME/gmpbench/key.pem (~/.config/gmpbench/key.pem), made\n"
  "on first use.\n"
  "  show                    print the public key, its fingerprint and the name\n"
  "  export [FILE]           write the private key (PEM) to FILE, created with\n"
  "                          mode 0600, or to standard output if it is not a\n"
  "                          terminal; keep it secret\n"
  "  import FILE             make the PEM Ed25519 key in FILE the identity\n";

static const char key_epilogue[] =
  "\n"
  "Exit status: 0 success, 1 failure, 2 usage error.\n";

struct key_cmd
{
  const char *key_file, *name, *action, *file;
  int force;
};

static int
valid_name (const char *name)
{
  if (strlen (name) > NAME_MAX_BYTES)
    return 0;
  for (; *name; name++)
    if ((unsigned char) *name < 32 || *name == 127)
      return 0;
  return 1;
}

/* OPTIONS_OK with K filled, else the exit: OPTIONS_DONE after --help,
 * OPTIONS_BAD on a usage error. */
static enum option_result
parse_options (int argc, char **argv, struct key_cmd *k)
{
  const struct gb_option options[] = {
    OPT_STRING (0, "key", "FILE", &k->key_file,
                "the key file to use instead of the default (import:\n"
                "the file to write)"),
    OPT_STRING (0, "name", "NAME", &k->name,
                "set the display name sent with your results (at\n"
                "most 100 bytes; \"\" removes it)"),
    OPT_FLAG (0, "force", &k->force, "import: replace an existing, different key"),
    OPT_END
  };
  const struct option_table table = { "key", key_usage, key_epilogue, options,
                                      OPERANDS_ANY, NULL };
  int next;
  enum option_result rc = options_parse (&table, argc, argv, &next);
  if (rc != OPTIONS_OK)
    return rc;
  k->action = next < argc ? argv[next++] : "show";
  k->file = next < argc ? argv[next++] : NULL;
  if (strcmp (k->action, "show") && strcmp (k->action, "export") && strcmp (k->action, "import"))
    gb_error ("key", "'%s' is not show, export or import", k->action);
  else if (next < argc || (k->file && !strcmp (k->action, "show")))
    gb_error ("key", "unexpected argument '%s'", argv[argc - 1]);
  else if (!k->file && !strcmp (k->action, "import"))
    gb_error ("key", "import needs the FILE holding the key");
  else if (k->name && !valid_name (k->name))
    gb_error ("key", "--name must be at most %d bytes without control characters",
              NAME_MAX_BYTES);
  else
    return OPTIONS_OK;
  return OPTIONS_BAD;
}

static int
show (const struct gb_identity *id)
{
  printf ("fingerprint  %s\n", id->fingerprint);
  printf ("public key   %s\n", id->public_b64);
  printf ("name         %s\n", id->name ? id->name : "(none; set one with --name)");
  printf ("key file     %s%s\n", id->path, id->created ? " (created now)" : "");
  return 0;
}

/* Writes the private key to FILE (NULL or "-": standard output). */
static int
export (const struct gb_identity *id, const char *file)
{
  int to_stdout = !file || !strcmp (file, "-");
  int fd = to_stdout ? dup (STDOUT_FILENO)
    : open (file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  FILE *f;
  int rc;

  if (to_stdout && isatty (STDOUT_FILENO))
    {
      gb_error ("key", "not printing the private key on a terminal; give a FILE "
                "or redirect the output");
      if (fd >= 0)
        close (fd);
      return 1;
    }
  if (fd < 0 || !(f = fdopen (fd, "w")))
    {
      gb_error ("key", "cannot create %s: %s", to_stdout ? "the output" : file,
                strerror (errno));
      if (fd >= 0)
        close (fd);
      return 1;
    }
  rc = identity_export (id, f);
  if (fclose (f) != 0)
    rc = -1;
  if (rc != 0)
    {
      gb_error ("key", "cannot write the key to %s", to_stdout ? "the output" : file);
      if (!to_stdout)
        unlink (file);
      return 1;
    }
  if (!to_stdout)
    fprintf (stderr, "gmpbench key: private key written to %s; keep it secret\n", file);
  return 0;
}

/* Imports K->file into the --key file or the default location. */
static int
import (const struct key_cmd *k)
{
  char err[512];
  char *dest = k->key_file ? gb_xstrdup (k->key_file) : identity_default_path (err, sizeof err);
  char *dir = NULL;
  int rc = -1;

  if (dest && (k->key_file || (dir = config_make_dir ('c', err, sizeof err))))
    rc = identity_import (k->file, dest, k->force, err, sizeof err);
  if (rc != 0)
    gb_error ("key", "%s", err);
  free (dir);
  free (dest);
  return rc;
}

int
cmd_key (int argc, char **argv)
{
  char err[512];
  struct key_cmd k;
  struct gb_identity id;
  int rc;

  memset (&k, 0, sizeof k);
  rc = parse_options (argc, argv, &k);
  if (rc != 0)
    return rc > 0 ? 0 : EXIT_USAGE;
  if (!strcmp (k.action, "import") && import (&k) != 0)
    return 1;
  if (k.name && config_set ("name", k.name, err, sizeof err) != 0)
    {
      gb_error ("key", "%s", err);
      return 1;
    }
  if (identity_load (k.key_file, 1, &id, err, sizeof err) != 0)
    {
      gb_error ("key", "%s", err);
      return 1;
    }
  rc = !strcmp (k.action, "export") ? export (&id, k.file) : show (&id);
  identity_free (&id);
  return rc;
}
