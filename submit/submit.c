/* submit.c: uploads, the queue and retractions as the commands see them
 * (see submit.h).  The rule throughout: a document that was not confirmed
 * by the server is kept somewhere, and the message says where. */
#include "submit/submit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "model/doc_schema.h"
#include "model/protocol.h"
#include "submit/config.h"
#include "submit/consent.h"
#include "submit/document.h"
#include "submit/spool.h"
#include "submit/standing.h"
#include "submit/upload.h"

#define LOST_BEGIN "-----BEGIN GMPBENCH RESULT-----"
#define LOST_END "-----END GMPBENCH RESULT-----"

void
submit_options_init (struct submit_options *opt, const char *cmd)
{
  memset (opt, 0, sizeof *opt);
  opt->cmd = cmd;
  opt->retries = UPLOAD_DEFAULT_RETRIES;
  opt->timeout = UPLOAD_DEFAULT_TIMEOUT;
}

static void
say (const struct submit_options *opt, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
say (const struct submit_options *opt, const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "gmpbench %s: ", opt->cmd);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static char *
format (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* A malloc'ed printf. */
static char *
format (const char *fmt, ...)
{
  va_list ap;
  int n;
  char *s;
  va_start (ap, fmt);
  n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  s = gb_xmalloc ((size_t) n + 1);
  va_start (ap, fmt);
  vsnprintf (s, (size_t) n + 1, fmt, ap);
  va_end (ap);
  return s;
}

static void
upload_options_from (const struct submit_options *opt, struct upload_options *u)
{
  u->cmd = opt->cmd;
  u->cacert = opt->cacert;
  u->timeout = opt->timeout;
  u->retries = opt->retries;
  u->quiet = opt->quiet;
}

/* The GMPbench score of the document BYTES (the root node's), or NAN. */
static double
document_score (const char *bytes, size_t len)
{
  cJSON *doc = cJSON_ParseWithLength (bytes, len);
  const cJSON *scores = cJSON_GetObjectItemCaseSensitive (doc, DOC_SCORES);
  const cJSON *root = cJSON_GetObjectItemCaseSensitive (scores, "gmpbench");
  double score = cJSON_IsNumber (root) ? root->valuedouble : NAN;
  cJSON_Delete (doc);
  return score;
}

/* Prints the line of the answer J's `standing` (standing.h) for the
 * uploaded document BYTES, if it has one. */
static void
print_standing (const cJSON *j, const char *bytes, size_t len)
{
  const cJSON *standing = cJSON_GetObjectItemCaseSensitive (j, "standing");
  char line[512];
  if (standing && standing_line (standing, document_score (bytes, len), line, sizeof line))
    printf ("%s\n", line);
}

/* Prints the permalink from the server's answer to an upload of BYTES,
 * and for a new result (201) where it stands, when the answer says. */
static void
print_uploaded (const char *server, const struct upload_reply *r, const char *bytes,
                size_t len)
{
  cJSON *j = r->body ? cJSON_ParseWithLength (r->body, r->len) : NULL;
  const char *url = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "url"));
  const cJSON *flags = cJSON_GetObjectItemCaseSensitive (j, "flags"), *f;
  const char *what = r->status == 201 ? "uploaded" : "already uploaded";

  if (!url)
    printf ("%s (the server's answer names no URL)\n", what);
  else if (strncmp (url, "http://", 7) == 0 || strncmp (url, "https://", 8) == 0)
    printf ("%s: %s", what, url);
  else
    printf ("%s: %s%s", what, server, url);
  if (url && cJSON_GetArraySize (flags) > 0)
    {
      printf (" (flagged:");
      cJSON_ArrayForEach (f, flags)
        if (cJSON_IsString (f))
          printf (" %s", f->valuestring);
      printf (")");
    }
  if (url)
    putchar ('\n');
  if (r->status == 201)
    print_standing (j, bytes, len);
  fflush (stdout);
  cJSON_Delete (j);
}

/* Writes the document and its .sig as DIR/gmpbench-result-ID.json (DIR
 * NULL: the current directory).  0 and the malloc'ed path in *PATH, or -1
 * with a message. */
static int
save_copy (const char *dir, const char *bytes, size_t len, const char *sig_b64,
           char **path, char *err, size_t errlen)
{
  char id[65];
  char *name;

  gb_sha256_hex (bytes, len, id);
  id[16] = '\0';
  name = dir ? format ("%s/gmpbench-result-%s.json", dir, id)
    : format ("gmpbench-result-%s.json", id);
  if (document_save (name, bytes, len, err, errlen) == 0
      && sign_write_file (name, sig_b64, err, errlen) == 0)
    {
      *path = name;
      return 0;
    }
  free (name);
  return -1;
}

/* The very last resort, when no file could be written: the document on
 * stderr between two marker lines (its exact bytes, so that it can be cut
 * out and submitted), then its signature. */
static void
print_lost (const struct submit_options *opt, const char *why, const char *bytes,
            size_t len, const char *sig_b64)
{
  say (opt, "%s; the result follows on stderr, %zu bytes between the lines "
       "'" LOST_BEGIN "' and '" LOST_END "', then its signature (the line of its .sig)",
       why, len);
  fputs (LOST_BEGIN "\n", stderr);
  fwrite (bytes, 1, len, stderr);
  if (len == 0 || bytes[len - 1] != '\n')
    fputc ('\n', stderr);
  fprintf (stderr, LOST_END "\n%s\n", sig_b64);
  fflush (stderr);
}

void
submit_rescue (const struct submit_options *opt, const char *why, const char *bytes,
               size_t len, const char *sig_b64)
{
  const char *tmpdir = getenv ("TMPDIR");
  char err[512], err2[512];
  char *path = NULL, *all;

  if (!tmpdir || !*tmpdir)
    tmpdir = "/tmp";
  if (save_copy (NULL, bytes, len, sig_b64, &path, err, sizeof err) == 0
      || save_copy (tmpdir, bytes, len, sig_b64, &path, err2, sizeof err2) == 0)
    {
      say (opt, "%s; the result was saved as %s", why, path);
      free (path);
      return;
    }
  all = format ("%s; %s, and %s", why, err, err2);
  print_lost (opt, all, bytes, len, sig_b64);
  free (all);
}

/* Keeps a document that could not be uploaded (WHY says why): in the
 * spool (LATER says what sends it, NULL for 'submit --pending'), else
 * where it already is, else as submit_rescue() can.  Returns the exit status. */
static int
keep (const char *bytes, size_t len, const char *sig_b64, const char *server,
      const struct submit_options *opt, const char *why, const char *later)
{
  char err[512] = "no server to queue it for";
  char *path = NULL, *not_queued;

  if (server && spool_add (server, opt->unlisted, sig_b64, bytes, len, &path,
                           err, sizeof err) == 0)
    {
      say (opt, "%s; queued as %s: %s", why, path,
           later ? later : "'gmpbench submit --pending' uploads it later");
      free (path);
      return SUBMIT_QUEUED;
    }
  not_queued = format ("%s; not queued (%s)", why, err);
  if (opt->local_copy)
    say (opt, "%s; the result stays in %s", not_queued, opt->local_copy);
  else
    submit_rescue (opt, not_queued, bytes, len, sig_b64);
  free (not_queued);
  return 1;
}

/* For a server that redirects to REDIRECT: the --server to use instead
 * (REDIRECT without the API path and query), malloc'ed, or NULL. */
static char *
redirected_server (const char *redirect)
{
  static const char api[] = PROTOCOL_RESULTS_PATH;
  char *s = redirect ? gb_xstrdup (redirect) : NULL;
  size_t n;

  if (!s)
    return NULL;
  s[strcspn (s, "?#")] = '\0';
  n = strlen (s);
  if (n > sizeof api - 1 && strcmp (s + n - (sizeof api - 1), api) == 0)
    s[n - (sizeof api - 1)] = '\0';
  return s;
}

/* What to do about a server that redirects: one line. */
static char *
redirect_advice (const struct upload_reply *r)
{
  char *to = redirected_server (r->redirect);
  char *advice = to ? format ("if %s is the right server, 'gmpbench submit --pending "
                              "--server %s' sends it there", to, to)
    : gb_xstrdup ("check the server URL, then 'gmpbench submit --pending --server URL' "
                  "sends it");
  free (to);
  return advice;
}

/* Whether uploads to SERVER are consented to (consent.h), asking first if
 * need be about the key that signed the document BYTES.  0, or -1 with the
 * message printed. */
static int
consented (const struct submit_options *opt, const char *server, const char *bytes, size_t len)
{
  cJSON *doc = cJSON_ParseWithLength (bytes, len);
  const cJSON *submitter = cJSON_GetObjectItemCaseSensitive (doc, DOC_SUBMITTER);
  const char *key = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive
                                          (submitter, DOC_SUBMITTER_PUBLIC_KEY));
  int rc = consent_obtain (opt->cmd, server, key, opt->yes);
  cJSON_Delete (doc);
  return rc;
}

int
submit_document (const char *bytes, size_t len, const char *sig_b64,
                 const struct submit_options *opt)
{
  char err[512];
  const char *origin;
  char *server = config_server (opt->server, &origin, err, sizeof err);
  char *url, *why, *later;
  struct upload_options uo;
  struct upload_reply reply;
  int status;

  if (!server)
    return keep (bytes, len, sig_b64, NULL, opt, err, NULL);
  url = format ("%s" PROTOCOL_RESULTS_PATH "%s", server, opt->unlisted ? "?unlisted=1" : "");
  if (opt->dry_run)
    {
      upload_print_request (stdout, url, bytes, len, sig_b64);
      free (url);
      free (server);
      return 0;
    }
  if (consented (opt, server, bytes, len) != 0)
    {
      if (opt->local_copy)
        say (opt, "the result stays in %s", opt->local_copy);
      else
        submit_rescue (opt, "not uploaded", bytes, len, sig_b64);
      free (url);
      free (server);
      return SUBMIT_NO_CONSENT;
    }
  upload_options_from (opt, &uo);
  switch (upload_post (url, bytes, len, sig_b64, &uo, &reply))
    {
    case UPLOAD_OK:
      print_uploaded (server, &reply, bytes, len);
      status = 0;
      break;
    case UPLOAD_REJECTED:
      why = format ("%s rejected the result: %s", server, reply.problem);
      if (opt->local_copy)
        say (opt, "%s", why);
      else
        submit_rescue (opt, why, bytes, len, sig_b64);
      free (why);
      status = 1;
      break;
    case UPLOAD_REDIRECTED:
      why = format ("not uploaded: %s", reply.problem);
      later = redirect_advice (&reply);
      status = keep (bytes, len, sig_b64, server, opt, why, later);
      free (later);
      free (why);
      break;
    default:
      why = format ("cannot upload to %s: %s", server, reply.problem);
      status = keep (bytes, len, sig_b64, server, opt, why, NULL);
      free (why);
      break;
    }
  upload_reply_free (&reply);
  free (url);
  free (server);
  return status;
}

/* Uploads one queued entry.  0 uploaded (or dry run), 1 rejected or
 * unusable, SUBMIT_QUEUED still there; *GO_ON is cleared when the next
 * entries had better wait too (the server cannot be reached). */
static int
pending_one (const char *path, const char *server_override, const struct submit_options *opt,
             int *go_on)
{
  char err[512];
  struct spool_entry e;
  struct upload_options uo;
  struct upload_reply reply;
  const char *server;
  char *url, *advice;
  int status = 0;

  *go_on = 1;
  if (spool_read (path, &e, err, sizeof err) != 0)
    {
      say (opt, "%s", err);
      return 1;
    }
  server = server_override ? server_override : e.server;
  url = format ("%s" PROTOCOL_RESULTS_PATH "%s", server, e.unlisted ? "?unlisted=1" : "");
  upload_options_from (opt, &uo);
  if (opt->dry_run)
    upload_print_request (stdout, url, e.bytes, e.len, e.signature);
  else if (consented (opt, server, e.bytes, e.len) != 0)
    {
      status = SUBMIT_NO_CONSENT;
      *go_on = 0;
      memset (&reply, 0, sizeof reply);
    }
  else
    switch (upload_post (url, e.bytes, e.len, e.signature, &uo, &reply))
      {
      case UPLOAD_OK:
        print_uploaded (server, &reply, e.bytes, e.len);
        if (spool_remove (&e) != 0 && errno != ENOENT)
          say (opt, "uploaded, but cannot remove %s: %s", path, strerror (errno));
        break;
      case UPLOAD_REJECTED:
        status = 1;
        if (spool_reject (&e) != 0)
          say (opt, "%s rejected %s: %s; it stays queued (cannot set it aside: %s)",
               server, path, reply.problem, strerror (errno));
        else
          say (opt, "%s rejected %s: %s; set aside as .rejected", server, path, reply.problem);
        break;
      case UPLOAD_REDIRECTED:
        status = SUBMIT_QUEUED;
        advice = redirect_advice (&reply);
        say (opt, "%s not uploaded: %s; it stays queued: %s", path, reply.problem, advice);
        free (advice);
        break;
      default:
        status = SUBMIT_QUEUED;
        *go_on = 0;
        say (opt, "cannot upload to %s: %s", server, reply.problem);
        break;
      }
  if (!opt->dry_run)
    upload_reply_free (&reply);
  free (url);
  spool_entry_free (&e);
  return status;
}

int
submit_pending (const struct submit_options *opt)
{
  char err[512];
  const char *origin;
  char *override = NULL, **paths;
  size_t n, done = 0;
  int status = 0;

  if (opt->server && !(override = config_server (opt->server, &origin, err, sizeof err)))
    {
      say (opt, "%s", err);
      return 1;
    }
  spool_clean ();
  if (spool_list (".spool", &paths, &n, err, sizeof err) != 0)
    {
      say (opt, "%s", err);
      free (override);
      return 1;
    }
  for (; done < n; done++)
    {
      int go_on, st = pending_one (paths[done], override, opt, &go_on);
      if (st == SUBMIT_NO_CONSENT || (st == 1 && status != SUBMIT_NO_CONSENT)
          || (st == SUBMIT_QUEUED && status == 0))
        status = st;
      if (!go_on)
        {
          say (opt, "%zu result%s stay%s queued", n - done, n - done == 1 ? "" : "s",
               n - done == 1 ? "s" : "");
          break;
        }
    }
  if (n == 0 && !opt->quiet)
    say (opt, "nothing is queued");
  spool_list_free (paths, n);
  free (override);
  return status;
}

static int
valid_id (const char *id)
{
  size_t n = strlen (id);
  if (n < 16 || n > 64)
    return 0;
  for (; *id; id++)
    if (!isdigit ((unsigned char) *id) && !(*id >= 'a' && *id <= 'f'))
      return 0;
  return 1;
}

int
submit_retract (const char *id, const struct gb_identity *key,
                const struct submit_options *opt)
{
  char err[512], sig[SIGN_B64_LEN + 1];
  const char *origin;
  char *server, *url, *msg;
  struct upload_options uo;
  struct upload_reply reply;
  int status = 1;

  if (!valid_id (id))
    {
      say (opt, "'%s' is not a result id (16 to 64 lower-case hex digits)", id);
      return 1;
    }
  if (!(server = config_server (opt->server, &origin, err, sizeof err)))
    {
      say (opt, "%s", err);
      return 1;
    }
  url = format ("%s" PROTOCOL_RESULTS_PATH "/%s/retract", server, id);
  msg = sign_retract_message (id);
  upload_options_from (opt, &uo);
  if (identity_sign (key, msg, strlen (msg), sig) != 0)
    say (opt, "cannot sign the retraction (OpenSSL error)");
  else if (opt->dry_run)
    {
      upload_print_request (stdout, url, "", 0, sig);
      status = 0;
    }
  else
    {
      enum upload_outcome out = upload_post (url, NULL, 0, sig, &uo, &reply);
      if (out == UPLOAD_OK)
        {
          printf ("retracted %s\n", id);
          status = 0;
        }
      else
        say (opt, "%s %s: %s; nothing was retracted", server,
             out == UPLOAD_REJECTED ? "refused the retraction"
             : out == UPLOAD_REDIRECTED ? "did not retract it" : "cannot be reached",
             reply.problem);
      upload_reply_free (&reply);
    }
  free (msg);
  free (url);
  free (server);
  return status;
}
