/* schema.c: the checks of schema.h. */
#include "server/schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void
schema_path (char *out, size_t size, const char *path, const char *name)
{
  snprintf (out, size, "%s%s%s", path, *path ? "." : "", name);
}

const cJSON *
schema_get (const cJSON *obj, const char *path)
{
  char part[64];

  while (obj && *path)
    {
      size_t len = strcspn (path, ".");
      if (!cJSON_IsObject (obj) || len >= sizeof part)
        return NULL;
      memcpy (part, path, len);
      part[len] = '\0';
      obj = cJSON_GetObjectItemCaseSensitive (obj, part);
      path += len + (path[len] == '.');
    }
  return obj;
}

static const char *
kind_name (enum schema_kind kind)
{
  static const char *const names[] = {
    "a string", "a number", "an integer", "true or false", "an object", "an array"
  };
  return names[kind];
}

static int
kind_matches (const cJSON *item, enum schema_kind kind)
{
  switch (kind)
    {
    case SK_STRING:
      return cJSON_IsString (item);
    case SK_NUMBER:
      return cJSON_IsNumber (item);
    case SK_INTEGER:
      return cJSON_IsNumber (item) && item->valuedouble == floor (item->valuedouble);
    case SK_BOOL:
      return cJSON_IsBool (item);
    case SK_OBJECT:
      return cJSON_IsObject (item);
    case SK_ARRAY:
      return cJSON_IsArray (item);
    }
  return 0;
}

static int
check_range (const cJSON *item, const struct schema_member *m, const char *field,
             struct validate_error *err)
{
  double v;
  const char *what = "value";

  if (m->kind == SK_NUMBER || m->kind == SK_INTEGER)
    {
      v = item->valuedouble;
      if (!isfinite (v))
        {
          validate_fail (err, 422, "range", field, "%s is not a finite number", field);
          return -1;
        }
    }
  else if (m->kind == SK_STRING)
    v = (double) strlen (item->valuestring), what = "length";
  else if (m->kind == SK_ARRAY)
    v = (double) cJSON_GetArraySize (item), what = "element count";
  else
    return 0;
  if (v < m->min || v > m->max || ((m->flags & SCHEMA_POSITIVE) && v <= m->min))
    {
      validate_fail (err, 422, "range", field, "%s of %s is out of range [%g, %g]%s",
                     what, field, m->min, m->max,
                     (m->flags & SCHEMA_POSITIVE) ? " (and must exceed the minimum)" : "");
      return -1;
    }
  return 0;
}

int
schema_check_value (const cJSON *item, const char *field, const struct schema_member *m,
                    struct validate_error *err)
{
  if (cJSON_IsNull (item) && (m->flags & SCHEMA_NULLABLE))
    return 0;
  if (!kind_matches (item, m->kind))
    {
      validate_fail (err, 422, "type", field, "%s must be %s%s", field, kind_name (m->kind),
                     (m->flags & SCHEMA_NULLABLE) ? " or null" : "");
      return -1;
    }
  return check_range (item, m, field, err);
}

static int
check_member (const cJSON *obj, const char *path, const struct schema_member *m,
              struct validate_error *err)
{
  char field[128];
  const cJSON *item = schema_get (obj, m->name);

  schema_path (field, sizeof field, path, m->name);
  if (!item)
    {
      if (!(m->flags & SCHEMA_REQUIRED))
        return 0;
      validate_fail (err, 422, "missing", field, "%s is missing", field);
      return -1;
    }
  return schema_check_value (item, field, m, err);
}

int
schema_check_elements (const cJSON *array, const char *path, const struct schema_member *m,
                       struct validate_error *err)
{
  char field[128];
  int i = 0;

  for (const cJSON *e = array->child; e; e = e->next, i++)
    {
      snprintf (field, sizeof field, "%s[%d]", path, i);
      if (m->kind == SK_OBJECT ? schema_check_object (e, field, m->members, m->nmembers, 0, err)
          : schema_check_value (e, field, m, err))
        return -1;
    }
  return 0;
}

static int
listed (const char *name, const struct schema_member *m, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (m[i].name, name) == 0)
      return 1;
  return 0;
}

int
schema_check_object (const cJSON *obj, const char *path, const struct schema_member *m,
                     size_t n, int open, struct validate_error *err)
{
  char field[128];

  if (!cJSON_IsObject (obj))
    {
      validate_fail (err, 422, "type", path, "%s must be an object", *path ? path : "the document");
      return -1;
    }
  for (const cJSON *c = obj->child; c && !open; c = c->next)
    if (!listed (c->string, m, n))
      {
        schema_path (field, sizeof field, path, c->string);
        validate_fail (err, 422, "unknown-member", field, "unknown member %s", field);
        return -1;
      }
  for (size_t i = 0; i < n; i++)
    if (check_member (obj, path, &m[i], err) < 0)
      return -1;
  return 0;
}

/* The path of C, the INDEX-th child of PARENT (at PATH). */
static void
child_path (char *field, size_t size, const cJSON *parent, const char *path,
            const cJSON *c, int index)
{
  if (cJSON_IsObject (parent))
    schema_path (field, size, path, c->string);
  else
    snprintf (field, size, "%s[%d]", path, index);
}

int
schema_check_duplicates (const cJSON *item, const char *path, struct validate_error *err)
{
  char field[128];
  int index = 0;

  if (cJSON_IsObject (item) && cJSON_GetArraySize (item) > SCHEMA_MAX_MEMBERS)
    {
      validate_fail (err, 422, "range", path, "%s has more than %d members",
                     *path ? path : "the document", SCHEMA_MAX_MEMBERS);
      return -1;
    }
  for (const cJSON *c = item->child; c; c = c->next, index++)
    {
      for (const cJSON *d = c->next; cJSON_IsObject (item) && d; d = d->next)
        if (strcmp (c->string, d->string) == 0)
          {
            child_path (field, sizeof field, item, path, c, index);
            validate_fail (err, 422, "duplicate-member", field,
                           "member %s appears more than once", field);
            return -1;
          }
      if (!c->child)
        continue;
      child_path (field, sizeof field, item, path, c, index);
      if (schema_check_duplicates (c, field, err) < 0)
        return -1;
    }
  return 0;
}
