/* doc_read.c: members that may be missing (see doc_read.h). */
#include "model/doc_read.h"

const char *
doc_string (const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (o, key);
  return cJSON_IsString (v) ? v->valuestring : "";
}

double
doc_number (const cJSON *o, const char *key, double absent)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (o, key);
  return cJSON_IsNumber (v) ? v->valuedouble : absent;
}
