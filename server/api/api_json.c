/* api_json.c: the JSON shapes the API's handlers share: a stored
 * result's summary as listings and GET show it, its flags, and the error
 * answers of a failed validation and of a failed database. */
#include "server/api/api_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "server/log.h"

/* The parts of S between SEP characters, as an array of strings. */
static cJSON *
split_list (const char *s, char sep)
{
  cJSON *list = cJSON_CreateArray ();
  while (s && *s)
    {
      const char *end = strchr (s, sep);
      size_t len = end ? (size_t) (end - s) : strlen (s);
      char *part = gb_xmalloc (len + 1);
      memcpy (part, s, len);
      part[len] = '\0';
      cJSON_AddItemToArray (list, cJSON_CreateString (part));
      free (part);
      s += len + (end != NULL);
    }
  return list;
}

cJSON *
api_flags_array (const char *flags)
{
  return split_list (flags, ',');
}

static void
add_string (cJSON *obj, const char *name, const char *value)
{
  if (value)
    cJSON_AddStringToObject (obj, name, value);
  else
    cJSON_AddNullToObject (obj, name);
}

/* The stored scores of a result as they go out: the text itself, which
 * the store wrote as cJSON prints the object (parsed and printed again it
 * is the same bytes), so a listing does not parse and print some 70
 * numbers a result; {} when there is none. */
static cJSON *
scores_object (const char *scores)
{
  size_t len = scores ? strlen (scores) : 0;
  if (len >= 2 && scores[0] == '{' && scores[len - 1] == '}')
    return cJSON_CreateRaw (scores);
  return cJSON_CreateObject ();
}

cJSON *
api_row_summary (const struct store_row *row)
{
  char when[21], url[96];
  cJSON *obj = cJSON_CreateObject ();

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
  cJSON_AddBoolToObject (obj, "virtual", row->virtual_machine);
  cJSON_AddItemToObject (obj, "flags", api_flags_array (row->flags));
  cJSON_AddItemToObject (obj, "flag_notes", split_list (row->flag_notes, '\n'));
  if (row->flags_at > 0)
    {
      log_time (row->flags_at, when);
      cJSON_AddStringToObject (obj, "flags_decided", when);
    }
  else
    cJSON_AddNullToObject (obj, "flags_decided");
  cJSON *summary = cJSON_AddObjectToObject (obj, "summary");
  add_string (summary, "arch", row->arch);
  add_string (summary, "cpu", row->cpu);
  add_string (summary, "cpu_name", row->cpu_name);
  add_string (summary, "os", row->os);
  add_string (summary, "gmp", row->gmp);
  add_string (summary, "compiler", row->compiler);
  add_string (summary, "mode", row->mode);
  add_string (summary, "build", row->build);
  cJSON_AddItemToObject (summary, "scores", scores_object (row->scores));
  return obj;
}

enum MHD_Result
api_unavailable (struct http_request *r)
{
  return http_error (r, 503, "unavailable", NULL, "the database is unavailable; try again later");
}

enum MHD_Result
api_validation_error (struct http_request *r, const struct validate_error *e)
{
  cJSON *body = http_error_body (e->rule, e->field, e->message);
  if (e->ntests)
    {
      cJSON *list = cJSON_AddArrayToObject (body, "tests");
      for (size_t i = 0; i < e->ntests; i++)
        cJSON_AddItemToArray (list, cJSON_CreateString (e->tests[i]));
    }
  r->rule = e->rule;
  return http_json (r, e->status, body);
}
