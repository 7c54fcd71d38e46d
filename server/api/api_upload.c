/* api_upload.c: accepting results and withdrawing them.
 *
 * An upload takes one path, validate -> judge -> store.  It passes, in
 * order: the media type, the signature header's form,
 * validate_document() (every rule that needs only the bytes) and
 * plausible_refuse() (clocks beyond the CPU's family or changing during
 * the run, tests at odds with themselves or with physics), the
 * Ed25519 signature against the key inside the document, the key's
 * standing (banned?), and the rate limits per key and per source (its
 * network or verified publisher: api_source.c).  Then the judge gives
 * its verdict (server/judge/plausible.h): the document's own flags
 * (plausible_flags, the best per GHz of other CPUs read here from the
 * store when the judge does not remember it) and, when listed, its
 * judgement alone against its category's kept statistics
 * (plausible_alone) or else the category to be judged whole
 * (plausible_category_new).  Finally the store writes the document, its
 * rows and its flags and, for a whole judgement, the flags its category's
 * judgement changes, in one transaction (store_insert), and decides
 * between new (201) and known (200) bytes atomically, so that concurrent
 * uploads of the same document, even to different server processes,
 * store it once; and new bytes whose measurements another document holds
 * are a copy (409 duplicate-measurements), never stored.  A new result's
 * answer says where it stands in its CPU row and architecture
 * (api_standing.c).  Once committed,
 * the judge's memory learns of it (plausible_category_kept,
 * plausible_stored).  A retraction judges its
 * category through the same plausible_category, in the retraction's
 * transaction (store_retract). */
#include "server/api/api_handlers.h"
#include "server/api/api_json.h"
#include "server/api/api_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "common/util.h"
#include "model/protocol.h"
#include "model/b64.h"
#include "server/board/board.h"
#include "server/judge/plausible.h"
#include "server/metrics.h"
#include "model/sig.h"

/* The Gmpbench-Signature header as 64 bytes, or -1 (already answered
 * through *RC). */
static int
signature_header (struct http_request *r, unsigned char sig[SIG_BYTES], char **b64,
                  enum MHD_Result *rc)
{
  const char *text = http_header (r, PROTOCOL_SIGNATURE_HEADER);
  if (!text || b64_decode (text, strlen (text), sig, SIG_BYTES) != SIG_BYTES)
    {
      *rc = http_error (r, 400, "signature-format", NULL,
                        "the " PROTOCOL_SIGNATURE_HEADER " header must be base64 of a 64-byte "
                        "Ed25519 signature");
      return -1;
    }
  *b64 = gb_xstrdup (text);
  return 0;
}

static int
json_media_type (const char *type)
{
  size_t len = strlen ("application/json");
  return type && strncasecmp (type, "application/json", len) == 0
    && (type[len] == '\0' || type[len] == ';' || type[len] == ' ');
}

static cJSON *
accepted_body (const char *id, const char *flags)
{
  char path[96];
  cJSON *obj = cJSON_CreateObject ();
  cJSON_AddStringToObject (obj, "id", id);
  snprintf (path, sizeof path, "/results/%s", id);
  cJSON_AddStringToObject (obj, "url", path);
  snprintf (path, sizeof path, PROTOCOL_RESULTS_PATH "/%s", id);
  cJSON_AddStringToObject (obj, "api", path);
  cJSON_AddItemToObject (obj, "flags", api_flags_array (flags));
  return obj;
}

static int
copy_flags (void *ctx, const struct store_row *row)
{
  snprintf (ctx, 256, "%s", row->flags ? row->flags : "");
  return 1;
}

/* The answer to an upload stored (201, with STANDING, which it takes)
 * or found stored (200). */
static enum MHD_Result
answer_stored (struct http_request *r, enum store_status st, const char *id, char *flags,
               cJSON *standing)
{
  snprintf (r->id, sizeof r->id, "%s", id);
  if (st == STORE_EXISTS && store_get (r->srv->store, id, copy_flags, flags) != STORE_OK)
    {
      cJSON_Delete (standing);
      return api_unavailable (r);
    }
  cJSON *body = accepted_body (id, flags);
  if (st == STORE_EXISTS)
    {
      cJSON_Delete (standing);
      return http_json (r, 200, body);
    }
  metrics_upload_flags (flags);
  cJSON_AddItemToObject (body, "standing", standing);
  char location[96];
  snprintf (location, sizeof location, "/results/%s", id);
  return http_json_header (r, 201, body, "Location", location);
}

/* The checks that need the key: signature, standing, the rate of the
 * key and of the upload's source, which goes into SOURCE (*VERIFIED set
 * when it is the key's verified publisher). */
static enum MHD_Result
check_key (struct http_request *r, const struct doc_summary *doc,
           const unsigned char sig[SIG_BYTES], const char *fingerprint,
           char source[STORE_SOURCE_HEX], int *verified, int *ok)
{
  int banned = 0;
  char *publisher = NULL;

  *ok = 0;
  if (!sig_verify (doc->public_key, r->body, r->len, sig))
    return http_error (r, 403, "signature-invalid", "submitter.public_key",
                       "the signature does not verify against submitter.public_key");
  if (store_key_status (r->srv->store, fingerprint, &banned, &publisher) != STORE_OK)
    return api_unavailable (r);
  *verified = publisher != NULL;
  free (publisher);
  if (banned)
    return http_error (r, 403, "key-banned", "submitter.public_key",
                       "this key is banned from this server");
  api_source_of (r, *verified ? fingerprint : NULL, source);
  double now = gb_wall_seconds ();
  int wait = ratelimit_take (r->srv->by_key, fingerprint, now);
  if (wait)
    return http_too_many (r, wait, "with this key");
  wait = ratelimit_take (r->srv->by_source, source, now);
  if (wait)
    return http_too_many (r, wait, "from this network");
  *ok = 1;
  return MHD_YES;
}

/* The best per GHz of NODE from the store CTX, for the judge. */
static int
read_best (void *ctx, const char *node, struct store_best *best)
{
  return store_best_per_ghz (ctx, node, best) == STORE_OK ? 0 : -1;
}

/* Stores UP (with its category judged again in the same transaction
 * when UP->rejudge is CAT's); once a new listed result is committed,
 * tells the judge's memory (judged ALONE or not) and puts its final
 * flags into FLAGS. */
static enum store_status
store_judged (struct store *store, const struct store_upload *up,
              struct plausible_category *cat, int alone, char id[65], char *flags,
              size_t fsize)
{
  enum store_status st = store_insert (store, up, id);
  int sources = 0, verified = 0;
  if (st == STORE_OK && !up->unlisted)
    {
      const char *final = cat ? plausible_category_kept (cat) : NULL;
      if (final)
        snprintf (flags, fsize, "%s", final);
      if (!flags[0] && store_row_sources (store, up->doc->cpu, up->doc->mode, up->build,
                                          &sources, &verified) != STORE_OK)
        sources = verified = 0;
      plausible_stored (store, up->doc, up->build, alone, flags,
                        verified || sources >= STORE_CONFIRMING_SOURCES);
    }
  return st;
}

/* Judges DOC (plausible.h) and stores it with its verdict: a listed
 * upload is judged alone against its category's kept statistics, or else
 * its whole category again inside the insert's transaction. */
static enum MHD_Result
store_upload (struct http_request *r, const struct doc_summary *doc, const char *signature,
              const char *fingerprint, const char *source, int verified, int unlisted)
{
  char sha[65], id[65], flags[PLAUSIBLE_FLAGS], notes[PLAUSIBLE_NOTES];
  struct store *store = r->srv->store;
  struct plausible_best_reader best = { read_best, store };
  const char *build = plausible_build_kind (doc->gmp_build);
  struct plausible_category *cat = NULL;
  struct store_rejudge rj;
  int alone = 0;

  gb_sha256_hex (r->body, r->len, sha);
  if (plausible_flags (store, doc, &best, flags, sizeof flags, notes, sizeof notes) < 0)
    return api_unavailable (r);
  if (!unlisted)
    alone = plausible_alone (store, doc, build, flags, sizeof flags, notes, sizeof notes);
  if (!unlisted && !alone)
    cat = plausible_category_new (store, &rj);
  char *public_key = b64_encode (doc->public_key, SIG_KEY_BYTES);
  struct store_upload up = {
    r->body, r->len, sha, signature, public_key, fingerprint, doc, flags, notes, build,
    unlisted, source, verified, (int64_t) time (NULL), cat ? &rj : NULL
  };
  enum store_status st = store_judged (store, &up, cat, alone, id, flags, sizeof flags);
  plausible_category_free (cat);
  free (public_key);
  if (st == STORE_DUPLICATE)
    return http_error (r, 409, "duplicate-measurements", "results",
                       "these measurements (results) were uploaded before in another "
                       "document: a copy, signed by any key or under any name, is not a new "
                       "result");
  if (st != STORE_OK && st != STORE_EXISTS)
    return api_unavailable (r);
  cJSON *standing = st == STORE_OK ? api_standing (r->srv, doc, build, !unlisted && !flags[0])
    : NULL;
  return answer_stored (r, st, id, flags, standing);
}

static enum MHD_Result
upload (struct http_request *r)
{
  unsigned char sig[SIG_BYTES];
  char *signature = NULL, fingerprint[65], source[STORE_SOURCE_HEX];
  struct doc_summary doc;
  struct validate_error err;
  enum MHD_Result rc;
  int ok, verified = 0;
  const char *unlisted = http_arg (r, "unlisted");

  if (unlisted && strcmp (unlisted, "0") != 0 && strcmp (unlisted, "1") != 0)
    return http_error (r, 400, "query", "unlisted", "unlisted must be 0 or 1");
  if (!json_media_type (http_header (r, "Content-Type")))
    return http_error (r, 415, "media-type", NULL, "Content-Type must be application/json");
  if (signature_header (r, sig, &signature, &rc) < 0)
    return rc;
  if (validate_document (r->body, r->len, &doc, &err) < 0 || plausible_refuse (&doc, &err) < 0)
    {
      rc = api_validation_error (r, &err);
      validate_error_free (&err);
      validate_summary_free (&doc);
      free (signature);
      return rc;
    }
  sig_fingerprint (doc.public_key, fingerprint);
  rc = check_key (r, &doc, sig, fingerprint, source, &verified, &ok);
  if (ok)
    rc = store_upload (r, &doc, signature, fingerprint, source, verified,
                       unlisted && strcmp (unlisted, "1") == 0);
  validate_summary_free (&doc);
  free (signature);
  return rc;
}

/* An upload, counted in the metrics by its answer. */
enum MHD_Result
api_upload (struct http_request *r)
{
  enum MHD_Result rc = upload (r);
  metrics_upload (r->status, r->rule);
  return rc;
}

/* ------------------------------------------------------------ retraction */

struct retract_target
{
  unsigned char key[SIG_KEY_BYTES];
  int key_ok, retracted;
};

static int
take_target (void *ctx, const struct store_row *row)
{
  struct retract_target *t = ctx;
  t->key_ok = row->public_key
    && b64_decode (row->public_key, strlen (row->public_key), t->key, SIG_KEY_BYTES)
    == SIG_KEY_BYTES;
  t->retracted = row->retracted;
  return 1;
}

/* Retracts the result T names (its signature checked) and judges its
 * category again without it, both or neither, in one transaction
 * (store_retract, through the judge's plausible_category, as an upload's
 * category is judged): 0, or -1 on a database error, when nothing
 * changed. */
static int
retract (struct server *srv, const char *id, const struct retract_target *t)
{
  struct store_rejudge rj;
  if (t->retracted)
    return 0;
  struct plausible_category *cat = plausible_category_new (srv->store, &rj);
  enum store_status st = store_retract (srv->store, id, (int64_t) time (NULL), &rj);
  if (st == STORE_OK)
    plausible_category_kept (cat);
  plausible_category_free (cat);
  return st == STORE_ERROR ? -1 : 0;
}

enum MHD_Result
api_retract (struct http_request *r, const char *id)
{
  unsigned char sig[SIG_BYTES];
  char *signature = NULL, message[128], fingerprint[65];
  struct retract_target t = { { 0 }, 0, 0 };
  enum MHD_Result rc;

  if (signature_header (r, sig, &signature, &rc) < 0)
    return rc;
  free (signature);
  snprintf (r->id, sizeof r->id, "%.64s", id);
  enum store_status st = store_get (r->srv->store, id, take_target, &t);
  snprintf (message, sizeof message, PROTOCOL_RETRACT_PREFIX "%s", id);
  if (st == STORE_NOT_FOUND)
    rc = http_error (r, 404, "not-found", NULL, "no such result");
  else if (st != STORE_OK || !t.key_ok)
    rc = api_unavailable (r);
  else if (!sig_verify (t.key, message, strlen (message), sig))
    rc = http_error (r, 403, "signature-invalid", NULL,
                     "the signature over \"" PROTOCOL_RETRACT_PREFIX "%s\" does not verify "
                     "against the result's key", id);
  else
    {
      sig_fingerprint (t.key, fingerprint);
      int wait = ratelimit_take (r->srv->by_key, fingerprint, gb_wall_seconds ());
      if (wait)
        rc = http_too_many (r, wait, "with this key");
      else if (retract (r->srv, id, &t) < 0)
        rc = api_unavailable (r);
      else
        {
          cJSON *body = cJSON_CreateObject ();
          cJSON_AddStringToObject (body, "id", id);
          cJSON_AddBoolToObject (body, "retracted", 1);
          rc = http_json (r, 200, body);
        }
    }
  return rc;
}
