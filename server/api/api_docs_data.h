/* api_docs_data.h: the documents the API serves as they are in docs/,
 * compiled in by the build (server/sources.mk makes api_docs_data.c from
 * docs/openapi.json and docs/result.schema.json); each is followed by a
 * NUL that its length leaves out. */
#ifndef GB_SERVER_API_DOCS_DATA_H
#define GB_SERVER_API_DOCS_DATA_H

#include <stddef.h>

extern const char api_openapi_json[];
extern const size_t api_openapi_json_len;
extern const char api_result_schema_json[];
extern const size_t api_result_schema_json_len;

#endif
