/* consent.c: asking before the first upload to a server, and remembering
 * the answer (see consent.h).  The state file is small and rewritten
 * whole, atomically, when a server is added. */
#include "submit/consent.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "common/util.h"
#include "model/sig.h"
#include "submit/config.h"
#include "submit/document.h"
#include "submit/sign.h"

/* The servers consented to in this process, so that one is asked about
 * once even when its answer could not be remembered. */
static char **granted;
static size_t ngranted;

static int
granted_here (const char *server)
{
  for (size_t i = 0; i < ngranted; i++)
    if (strcmp (granted[i], server) == 0)
      return 1;
  return 0;
}

static void
grant_here (const char *server)
{
  granted = gb_xrealloc (granted, (ngranted + 1) * sizeof *granted);
  granted[ngranted++] = gb_xstrdup (server);
}

/* malloc'ed path of the state file, or NULL with a message; MAKE creates
 * its directory. */
static char *
consent_path (int make, char *err, size_t errlen)
{
  return config_path_in ('s', make, CONSENT_FILE_NAME, err, errlen);
}

/* The line of SERVER in TEXT (the state file): 1 with its time in WHEN,
 * or 0. */
static int
find_line (const char *text, const char *server, char *when, size_t whenlen)
{
  size_t n = strlen (server);
  for (const char *line = text; *line;)
    {
      const char *eol = strchr (line, '\n');
      if (!eol)
        eol = line + strlen (line);
      if ((size_t) (eol - line) > n && strncmp (line, server, n) == 0 && line[n] == '\t')
        {
          snprintf (when, whenlen, "%.*s", (int) (eol - line - (long) n - 1), line + n + 1);
          return 1;
        }
      line = *eol ? eol + 1 : eol;
    }
  return 0;
}

int
consent_check (const char *server, enum consent_state *state, char *when, size_t whenlen,
               char *err, size_t errlen)
{
  char *value = NULL, *path, *text;
  int rc = 0;

  *state = CONSENT_NONE;
  when[0] = '\0';
  if (config_get ("consent", &value, err, errlen) != 0)
    return -1;
  if (value && strcmp (value, "yes") != 0 && strcmp (value, "no") != 0)
    {
      snprintf (err, errlen, "the config file's 'consent = %s' is neither yes nor no", value);
      free (value);
      return -1;
    }
  if (value && strcmp (value, "yes") == 0)
    *state = CONSENT_CONFIG;
  free (value);
  if (*state != CONSENT_NONE)
    return 0;
  if (!(path = consent_path (0, err, errlen)))
    return -1;
  if (!(text = config_read_text (path, err, errlen)))
    rc = -1;
  else if (find_line (text, server, when, whenlen))
    *state = CONSENT_REMEMBERED;
  free (text);
  free (path);
  return rc;
}

/* Adds SERVER to the state file.  0, or -1 with a message. */
static int
remember (const char *server, char *err, size_t errlen)
{
  char *path = consent_path (1, err, errlen);
  char *text = path ? config_read_text (path, err, errlen) : NULL;
  char when[32], *out;
  time_t now = time (NULL);
  struct tm tm;
  size_t len;
  int rc = -1;

  if (text)
    {
      gmtime_r (&now, &tm);
      strftime (when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
      len = strlen (text);
      out = gb_xmalloc (len + strlen (server) + sizeof when + 4);
      len = (size_t) sprintf (out, "%s%s%s\t%s\n", text,
                              len && text[len - 1] != '\n' ? "\n" : "", server, when);
      rc = document_save (path, out, len, err, errlen);
      free (out);
    }
  free (text);
  free (path);
  return rc;
}

/* Writes the explanation shown before the question to F: what an upload
 * to SERVER makes public, the key's FINGERPRINT and what it links, and
 * what retraction does. */
static void
consent_explain (FILE *f, const char *server, const char *fingerprint)
{
  fprintf (f,
           "Uploading to %s makes the result public: anyone can read\n"
           "it there and download it whole.  It holds:\n"
           "  - the scores, and every test's measurements and timings;\n"
           "  - the machine: the CPU (name, identity, features, cores, caches, clocks),\n"
           "    the hypervisor if any, the board or system model (DMI vendor and\n"
           "    product, or the device tree), the operating system and the kernel's\n"
           "    release string (uname -r);\n"
           "  - the build: compiler and flags, each library measured with its version,\n"
           "    file path and SHA-256;\n"
           "  - your key, whose fingerprint is\n"
           "      %s,\n"
           "    and your display name if you set one ('gmpbench key --name'): the key\n"
           "    links all your results, which the server lists together on its page\n"
           "    /submitters/FINGERPRINT.\n"
           "'gmpbench retract ID' hides a result from the pages, the listings and the\n"
           "aggregates, but the server keeps its bytes, and copies taken before (the\n"
           "public dump) stay where they are.  'gmpbench run --redact machine,kernel'\n"
           "leaves out the board or system model and the kernel's build string.\n",
           server, fingerprint);
}

/* The fingerprint of the base64 public key KEY_B64 into OUT, or "unknown". */
static void
fingerprint_of (const char *key_b64, char out[65])
{
  unsigned char raw[SIGN_KEY_BYTES];
  if (key_b64 && sign_b64_decode (key_b64, raw, sizeof raw) == 0)
    sig_fingerprint (raw, out);
  else
    snprintf (out, 65, "unknown");
}

/* Explains and asks on the terminal: 1 for yes, 0 for anything else. */
static int
ask (const char *cmd, const char *server, const char *public_key_b64)
{
  char fp[65], answer[64];
  fingerprint_of (public_key_b64, fp);
  fputc ('\n', stderr);
  consent_explain (stderr, server, fp);
  fprintf (stderr, "gmpbench %s: upload results to %s? [y/N] ", cmd, server);
  fflush (stderr);
  if (!fgets (answer, sizeof answer, stdin))
    {
      fputc ('\n', stderr);
      return 0;
    }
  char *a = answer, *end = answer + strlen (answer);
  while (isspace ((unsigned char) *a))
    a++;
  while (end > a && isspace ((unsigned char) end[-1]))
    *--end = '\0';
  return strcasecmp (a, "y") == 0 || strcasecmp (a, "yes") == 0;
}

int
consent_obtain (const char *cmd, const char *server, const char *public_key_b64, int yes)
{
  char err[512], when[32];
  enum consent_state state;

  if (granted_here (server))
    return 0;
  if (consent_check (server, &state, when, sizeof when, err, sizeof err) != 0)
    {
      fprintf (stderr, "gmpbench %s: %s\n", cmd, err);
      return -1;
    }
  if (state == CONSENT_NONE && !yes)
    {
      if (!isatty (STDIN_FILENO) || !isatty (STDERR_FILENO))
        {
          fprintf (stderr, "gmpbench %s: the first upload to %s needs your consent, and there "
                   "is no terminal to ask on: give --yes, or write 'consent = yes' in the "
                   "config file ('gmpbench status' shows where), after reading what becomes "
                   "public (docs/signing.md, \"Consent\")\n", cmd, server);
          return -1;
        }
      if (!ask (cmd, server, public_key_b64))
        {
          fprintf (stderr, "gmpbench %s: not uploaded to %s: no consent\n", cmd, server);
          return -1;
        }
    }
  if (state == CONSENT_NONE && remember (server, err, sizeof err) != 0)
    fprintf (stderr, "gmpbench %s: warning: your consent to %s is not remembered (%s); "
             "the next upload asks again\n", cmd, server, err);
  grant_here (server);
  return 0;
}
