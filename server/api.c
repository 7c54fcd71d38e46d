/* api.c: routes requests to the handlers of API v1 (and every other
 * path to the pages, server/web.h) and builds the JSON shapes they share
 * (see api.h). */
#include "server/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server/log.h"
#include "server/web.h"

#define PREFIX "/api/v1/"

cJSON *
api_flags_array (const char *flags)
{
  cJSON *list = cJSON_CreateArray ();
  while (flags && *flags)
    {
      size_t len = strcspn (flags, ",");
      char name[64];
      snprintf (name, sizeof name, "%.*s", (int) (len < sizeof name ? len : sizeof name - 1), flags);
      cJSON_AddItemToArray (list, cJSON_CreateString (name));
      flags += len + (flags[len] == ',');
    }
  return list;
}

static void
add_string (cJSON *obj, const char *name, const char *value)
{
  if (value)
    cJSON_AddStringToObject (obj, name, value);
  else
    cJSON_AddNullToObject (obj, name);
}

cJSON *
api_row_summary (const struct store_row *row)
{
  char when[21], url[96];
  cJSON *obj = cJSON_CreateObject ();
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL;

  cJSON_AddStringToObject (obj, "id", row->id);
  snprintf (url, sizeof url, "/results/%s", row->id);
  cJSON_AddStringToObject (obj, "url", url);
  log_time (row->received, when);
  cJSON_AddStringToObject (obj, "received", when);
  add_string (obj, "created", row->created);
  add_string (obj, "fingerprint", row->fingerprint);
  add_string (obj, "publisher", row->publisher);
  add_string (obj, "submitter", row->submitter);
  cJSON_AddBoolToObject (obj, "unlisted", row->unlisted);
  cJSON_AddItemToObject (obj, "flags", api_flags_array (row->flags));
  cJSON *summary = cJSON_AddObjectToObject (obj, "summary");
  add_string (summary, "arch", row->arch);
  add_string (summary, "cpu", row->cpu);
  add_string (summary, "cpu_name", row->cpu_name);
  add_string (summary, "os", row->os);
  add_string (summary, "gmp", row->gmp);
  add_string (summary, "compiler", row->compiler);
  cJSON_AddItemToObject (summary, "scores", scores ? scores : cJSON_CreateObject ());
  return obj;
}

enum MHD_Result
api_unavailable (struct http_request *r)
{
  return http_error (r, 503, "unavailable", NULL, "the database is unavailable; try again later");
}

static enum MHD_Result
method_not_allowed (struct http_request *r, const char *allow)
{
  r->rule = "method";
  cJSON *body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "error", "method not allowed here");
  cJSON_AddStringToObject (body, "rule", "method");
  char *text = cJSON_PrintUnformatted (body);
  cJSON_Delete (body);
  if (!text)
    return MHD_NO;
  struct MHD_Response *resp =
    MHD_create_response_from_buffer (strlen (text), text, MHD_RESPMEM_MUST_FREE);
  if (!resp)
    {
      free (text);
      return MHD_NO;
    }
  MHD_add_response_header (resp, "Content-Type", "application/json");
  MHD_add_response_header (resp, "Allow", allow);
  return http_queue (r, 405, resp);
}

static int
is_get (struct http_request *r)
{
  return strcmp (r->method, "GET") == 0 || strcmp (r->method, "HEAD") == 0;
}

static int
is_post (struct http_request *r)
{
  return strcmp (r->method, "POST") == 0;
}

/* GET-only endpoints. */
static enum MHD_Result
get_only (struct http_request *r, enum MHD_Result (*handler) (struct http_request *))
{
  return is_get (r) ? handler (r) : method_not_allowed (r, "GET, HEAD");
}

/* results/ID, results/ID/PART */
static enum MHD_Result
route_result (struct http_request *r, const char *rest)
{
  char id[80];
  size_t len = strcspn (rest, "/");
  const char *part = rest[len] ? rest + len + 1 : NULL;

  if (len == 0 || len >= sizeof id)
    return http_error (r, 404, "not-found", NULL, "no such result");
  memcpy (id, rest, len);
  id[len] = '\0';
  if (part && strcmp (part, "retract") == 0)
    return is_post (r) ? api_retract (r, id) : method_not_allowed (r, "POST");
  if (part && strcmp (part, "raw") != 0 && strcmp (part, "signature") != 0)
    return http_error (r, 404, "not-found", NULL, "no such endpoint");
  return is_get (r) ? api_result (r, id, part) : method_not_allowed (r, "GET, HEAD");
}

enum MHD_Result
api_handle (struct http_request *r)
{
  const char *path = r->path;

  if (strcmp (path, "/healthz") == 0)
    return get_only (r, api_health);
  if (strncmp (path, "/api/", 5) != 0)
    return web_handle (r);
  if (strncmp (path, PREFIX, strlen (PREFIX)) != 0)
    return http_error (r, 404, "not-found", NULL, "no such endpoint");
  path += strlen (PREFIX);
  if (strcmp (path, "results") == 0)
    return is_post (r) ? api_upload (r) : is_get (r) ? api_list (r)
      : method_not_allowed (r, "GET, HEAD, POST");
  if (strncmp (path, "results/", 8) == 0)
    return route_result (r, path + 8);
  if (strcmp (path, "cpus") == 0)
    return get_only (r, api_cpus);
  if (strcmp (path, "export.csv") == 0)
    return get_only (r, api_export);
  if (strcmp (path, "dump") == 0)
    return get_only (r, api_dump);
  return http_error (r, 404, "not-found", NULL, "no such endpoint");
}
