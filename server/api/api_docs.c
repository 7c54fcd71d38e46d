/* api_docs.c: the API describing itself: /api/v1/openapi.json (the
 * routes, OpenAPI 3.1), /api/v1/schema/result.json (the result document,
 * JSON Schema 2020-12) and /api/v1/, the list of the API's entry points.
 *
 * The two documents are docs/openapi.json and docs/result.schema.json,
 * compiled in byte for byte (api_docs_data.c, which the build makes from
 * them: api_docs_data.h), so the server serves what the repository
 * documents.  The entry points of /api/v1/ are read from the OpenAPI
 * document once, not kept in a list of their own: a test checks that
 * document against the routing tables (tests/t0391-server-api-docs.sh),
 * so the index names every route of the API and nothing else. */
#include "server/api/api.h"
#include "server/api/api_handlers.h"

#include <pthread.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "build_config.h"
#include "model/registry.h"
#include "server/api/api_docs_data.h"

/* The index's body, made once from the OpenAPI document. */
static char *index_body;
static size_t index_len;
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

/* Appends to LIST an entry point of each operation of the path item ITEM
 * at PATH. */
static void
add_operations (cJSON *list, const char *path, const cJSON *item)
{
  static const char *const methods[][2] = {
    { "get", "GET" }, { "post", "POST" }, { "put", "PUT" }, { "delete", "DELETE" },
  };
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    {
      const cJSON *op = cJSON_GetObjectItemCaseSensitive (item, methods[i][0]);
      const cJSON *summary = cJSON_GetObjectItemCaseSensitive (op, "summary");
      if (!op)
        continue;
      cJSON *entry = cJSON_CreateObject ();
      cJSON_AddStringToObject (entry, "method", methods[i][1]);
      cJSON_AddStringToObject (entry, "path", path);
      cJSON_AddStringToObject (entry, "summary",
                               cJSON_IsString (summary) ? summary->valuestring : "");
      cJSON_AddItemToArray (list, entry);
    }
}

static void
make_index (void)
{
  cJSON *spec = cJSON_ParseWithLength (api_openapi_json, api_openapi_json_len);
  const cJSON *paths = cJSON_GetObjectItemCaseSensitive (spec, "paths");
  cJSON *body = cJSON_CreateObject ();

  cJSON_AddStringToObject (body, "api", "gmpbench results API, version 1");
  cJSON_AddStringToObject (body, "server_version", GB_VERSION);
  cJSON_AddStringToObject (body, "registry", registry_id ());
  cJSON_AddStringToObject (body, "openapi", "/api/v1/openapi.json");
  cJSON_AddStringToObject (body, "result_schema", "/api/v1/schema/result.json");
  cJSON *list = cJSON_AddArrayToObject (body, "endpoints");
  for (const cJSON *item = paths ? paths->child : NULL; item; item = item->next)
    if (api_owns (item->string))
      add_operations (list, item->string, item);
  index_body = cJSON_PrintUnformatted (body);
  index_len = index_body ? strlen (index_body) : 0;
  cJSON_Delete (body);
  cJSON_Delete (spec);
}

enum MHD_Result
api_index (struct http_request *r)
{
  pthread_once (&index_once, make_index);
  if (!index_body)
    return http_error (r, 500, "internal", NULL, "the API's description does not parse");
  return http_bytes (r, 200, "application/json", index_body, index_len);
}

enum MHD_Result
api_openapi (struct http_request *r)
{
  return http_bytes (r, 200, "application/json", api_openapi_json, api_openapi_json_len);
}

enum MHD_Result
api_result_schema (struct http_request *r)
{
  return http_bytes (r, 200, "application/schema+json", api_result_schema_json,
                     api_result_schema_json_len);
}
