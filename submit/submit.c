/* submit.c: uploads, the queue and retractions as the commands see them
 * (see submit.h).  The rule throughout: a document that was not confirmed
 * by the server is kept somewhere, and the message says where. */
#include "submit/submit.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "common/util.h"
#include "submit/config.h"
#include "submit/document.h"
#include "submit/spool.h"
#include "submit/upload.h"

void
submit_options_init (struct submit_options *opt, const char *cmd)
{
  memset (opt, 0, sizeof *opt);
  opt->cmd = cmd;
  opt->retries = UPLOAD_DEFAULT_RETRIES;
  opt->timeout = UPLOAD_DEFAULT_TIMEOUT;
}

int
submit_parse_retries (const char *s, int *out)
{
  char *end;
  long v = strtol (s, &end, 10);
  if (end == s || *end || v < 0 || v > SUBMIT_MAX_RETRIES)
    return -1;
  *out = (int) v;
  return 0;
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

static void
print_request (const char *url, const char *bytes, size_t len, const char *sig_b64)
{
  printf ("POST %s\n", url);
  if (len)
    printf ("Content-Type: application/json\n");
  printf ("Gmpbench-Signature: %s\nContent-Length: %zu\n\n", sig_b64, len);
  fwrite (bytes, 1, len, stdout);
  fflush (stdout);
}

/* Prints the permalink from the server's answer to an upload. */
static void
print_uploaded (const char *server, const struct upload_reply *r)
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
  fflush (stdout);
  cJSON_Delete (j);
}

/* Last resort when the spool cannot take a document that exists nowhere
 * else: ./gmpbench-result-ID.json and its .sig in the current directory. */
static int
save_here (const char *bytes, size_t len, const char *sig_b64, char **path,
           char *err, size_t errlen)
{
  char id[65], name[96];
  gb_sha256_hex (bytes, len, id);
  id[16] = '\0';
  snprintf (name, sizeof name, "gmpbench-result-%s.json", id);
  if (document_write_atomic (name, bytes, len) != 0)
    {
      snprintf (err, errlen, "cannot write %s either: %s", name, strerror (errno));
      return -1;
    }
  if (sign_write_file (name, sig_b64, err, errlen) != 0)
    return -1;
  *path = gb_xstrdup (name);
  return 0;
}

/* Keeps a document that could not be uploaded (WHY says why): in the
 * spool, else where it already is, else in the current directory. */
static int
keep (const char *bytes, size_t len, const char *sig_b64, const char *server,
      const struct submit_options *opt, const char *why)
{
  char err[512] = "no server to queue it for", err2[512];
  char *path = NULL;
  int status = 1;

  if (server && spool_add (server, opt->unlisted, sig_b64, bytes, len, &path,
                           err, sizeof err) == 0)
    {
      say (opt, "%s; queued as %s: 'gmpbench submit --pending' uploads it later", why, path);
      status = SUBMIT_QUEUED;
    }
  else if (opt->local_copy)
    say (opt, "%s; not queued (%s); the result stays in %s", why, err, opt->local_copy);
  else if (save_here (bytes, len, sig_b64, &path, err2, sizeof err2) == 0)
    say (opt, "%s; not queued (%s); the result was saved as %s", why, err, path);
  else
    say (opt, "%s; not queued (%s), and %s: the result is lost", why, err, err2);
  free (path);
  return status;
}

int
submit_document (const char *bytes, size_t len, const char *sig_b64,
                 const struct submit_options *opt)
{
  char err[512];
  const char *origin;
  char *server = config_server (opt->server, &origin, err, sizeof err);
  char *url, *why;
  struct upload_options uo;
  struct upload_reply reply;
  int status;

  if (!server)
    return keep (bytes, len, sig_b64, NULL, opt, err);
  url = format ("%s/api/v1/results%s", server, opt->unlisted ? "?unlisted=1" : "");
  if (opt->dry_run)
    {
      print_request (url, bytes, len, sig_b64);
      free (url);
      free (server);
      return 0;
    }
  upload_options_from (opt, &uo);
  switch (upload_post (url, bytes, len, sig_b64, &uo, &reply))
    {
    case UPLOAD_OK:
      print_uploaded (server, &reply);
      status = 0;
      break;
    case UPLOAD_REJECTED:
      say (opt, "%s rejected the result: %s", server, reply.problem);
      status = 1;
      break;
    default:
      why = format ("cannot upload to %s: %s", server, reply.problem);
      status = keep (bytes, len, sig_b64, server, opt, why);
      free (why);
      break;
    }
  upload_reply_free (&reply);
  free (url);
  free (server);
  return status;
}

/* Uploads one queued entry.  0 uploaded (or dry run), 1 rejected or
 * unusable, SUBMIT_QUEUED still there. */
static int
pending_one (const char *path, const char *server_override, const struct submit_options *opt)
{
  char err[512];
  struct spool_entry e;
  struct upload_options uo;
  struct upload_reply reply;
  const char *server;
  char *url;
  int status = 0;

  if (spool_read (path, &e, err, sizeof err) != 0)
    {
      say (opt, "%s", err);
      return 1;
    }
  server = server_override ? server_override : e.server;
  url = format ("%s/api/v1/results%s", server, e.unlisted ? "?unlisted=1" : "");
  upload_options_from (opt, &uo);
  if (opt->dry_run)
    print_request (url, e.bytes, e.len, e.signature);
  else
    switch (upload_post (url, e.bytes, e.len, e.signature, &uo, &reply))
      {
      case UPLOAD_OK:
        print_uploaded (server, &reply);
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
      default:
        status = SUBMIT_QUEUED;
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
      int st = pending_one (paths[done], override, opt);
      if (st == SUBMIT_QUEUED)
        {
          say (opt, "%zu result%s stay%s queued", n - done, n - done == 1 ? "" : "s",
               n - done == 1 ? "s" : "");
          status = SUBMIT_QUEUED;
          break;
        }
      if (st != 0)
        status = 1;
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
  url = format ("%s/api/v1/results/%s/retract", server, id);
  msg = sign_retract_message (id);
  upload_options_from (opt, &uo);
  if (identity_sign (key, msg, strlen (msg), sig) != 0)
    say (opt, "cannot sign the retraction (OpenSSL error)");
  else if (opt->dry_run)
    {
      print_request (url, "", 0, sig);
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
             out == UPLOAD_REJECTED ? "refused the retraction" : "cannot be reached",
             reply.problem);
      upload_reply_free (&reply);
    }
  free (msg);
  free (url);
  free (server);
  return status;
}
