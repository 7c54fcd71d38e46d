/* schema.c: the checks of schema.h. */
#include "model/schema.h"

#include <math.h>
#include <string.h>
#include "common/util.h"

/* Appends the LEN bytes at TEXT to OUT (of SIZE bytes, AT used), cut
 * short where it is full; returns the new length.  Paths are made for
 * every element and member checked, so without printf. */
static size_t
append (char *out, size_t size, size_t at, const char *text, size_t len)
{
  if (at + len >= size)
    len = at < size ? size - 1 - at : 0;
  memcpy (out + at, text, len);
  out[at + len] = '\0';
  return at + len;
}

void
schema_path (char *out, size_t size, const char *path, const char *name)
{
  size_t at = append (out, size, 0, path, strlen (path));
  if (*path)
    at = append (out, size, at, ".", 1);
  append (out, size, at, name, strlen (name));
}

void
schema_index_path (char *out, size_t size, const char *path, int index)
{
  char digits[16];
  size_t n = sizeof digits;
  unsigned u = (unsigned) index;

  do
    digits[--n] = (char) ('0' + u % 10);
  while ((u /= 10) && n > 1);
  digits[--n] = '[';
  size_t at = append (out, size, 0, path, strlen (path));
  at = append (out, size, at, digits + n, sizeof digits - n);
  append (out, size, at, "]", 1);
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

/* The quantity of ITEM (of M's kind) that M's range bounds, into *V, and
 * its name, into *WHAT; 0 when the kind has no range. */
static int
ranged (const cJSON *item, const struct schema_member *m, double *v, const char **what)
{
  if (m->kind == SK_NUMBER || m->kind == SK_INTEGER)
    *v = item->valuedouble, *what = "value";
  else if (m->kind == SK_STRING)
    *v = (double) strlen (item->valuestring), *what = "length";
  else if (m->kind == SK_ARRAY)
    *v = (double) cJSON_GetArraySize (item), *what = "element count";
  else
    return 0;
  return 1;
}

static int
in_range (double v, const struct schema_member *m)
{
  return isfinite (v) && v >= m->min && v <= m->max
    && (!(m->flags & SCHEMA_POSITIVE) || v > m->min);
}

static int
check_range (const cJSON *item, const struct schema_member *m, const char *field,
             struct validate_error *err)
{
  double v;
  const char *what;

  if (!ranged (item, m, &v, &what) || in_range (v, m))
    return 0;
  if (!isfinite (v))
    validate_fail (err, 422, "range", field, "%s is not a finite number", field);
  else
    validate_fail (err, 422, "range", field, "%s of %s is out of range [%g, %g]%s",
                   what, field, m->min, m->max,
                   (m->flags & SCHEMA_POSITIVE) ? " (and must exceed the minimum)" : "");
  return -1;
}

/* Whether ITEM passes schema_check_value (which says why when it does
 * not), without making the message. */
static int
value_fits (const cJSON *item, const struct schema_member *m)
{
  double v;
  const char *what;

  if (cJSON_IsNull (item) && (m->flags & SCHEMA_NULLABLE))
    return 1;
  return kind_matches (item, m->kind) && (!ranged (item, m, &v, &what) || in_range (v, m));
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

/* Checks ITEM (NULL when absent), member M of the object at PATH. */
static int
check_member (const cJSON *item, const char *path, const struct schema_member *m,
              struct validate_error *err)
{
  char field[128];

  if (!item && !(m->flags & SCHEMA_REQUIRED))
    return 0;
  if (item && value_fits (item, m))
    return 0;
  schema_path (field, sizeof field, path, m->name);
  if (!item)
    {
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
      schema_index_path (field, sizeof field, path, i);
      if (m->kind == SK_OBJECT ? schema_check_object (e, field, m->members, m->nmembers, 0, err)
          : schema_check_value (e, field, m, err))
        return -1;
    }
  return 0;
}

/* The index in M (N members) of the member named NAME, tried at HINT
 * first (documents list the members in the schema's order); N when none. */
static size_t
member_index (const char *name, const struct schema_member *m, size_t n, size_t hint)
{
  if (hint < n && strcmp (m[hint].name, name) == 0)
    return hint;
  for (size_t i = 0; i < n; i++)
    if (strcmp (m[i].name, name) == 0)
      return i;
  return n;
}

/* Members of a closed schema found in one pass over the object; members
 * past this many are looked up by name. */
#define MAX_SCHEMA 64

int
schema_check_object (const cJSON *obj, const char *path, const struct schema_member *m,
                     size_t n, int open, struct validate_error *err)
{
  char field[128];
  const cJSON *found[MAX_SCHEMA] = { NULL };
  size_t next = 0;

  if (!cJSON_IsObject (obj))
    {
      validate_fail (err, 422, "type", path, "%s must be an object", *path ? path : "the document");
      return -1;
    }
  for (const cJSON *c = obj->child; c && !open; c = c->next)
    {
      size_t i = member_index (c->string, m, n, next);
      if (i == n)
        {
          schema_path (field, sizeof field, path, c->string);
          validate_fail (err, 422, "unknown-member", field, "unknown member %s", field);
          return -1;
        }
      if (i < MAX_SCHEMA)
        found[i] = c;
      next = i + 1;
    }
  /* The members of an open schema may be dotted paths into the object. */
  for (size_t i = 0; i < n; i++)
    if (check_member (open || i >= MAX_SCHEMA ? schema_get (obj, m[i].name) : found[i],
                      path, &m[i], err) < 0)
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
    schema_index_path (field, size, path, index);
}

/* The first member of OBJECT (of at most SCHEMA_MAX_MEMBERS) whose name a
 * later member repeats, with its index in *INDEX; NULL when none does.
 * Two names are compared only when their hashes agree. */
static const cJSON *
repeated_member (const cJSON *object, int *index)
{
  uint64_t hash[SCHEMA_MAX_MEMBERS];
  const cJSON *member[SCHEMA_MAX_MEMBERS];
  int n = 0;

  for (const cJSON *c = object->child; c; c = c->next, n++)
    {
      member[n] = c;
      hash[n] = gb_hash_string (c->string);
    }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (hash[i] == hash[j] && strcmp (member[i]->string, member[j]->string) == 0)
        {
          *index = i;
          return member[i];
        }
  return NULL;
}

int
schema_check_duplicates (const cJSON *item, const char *path, struct validate_error *err)
{
  char field[128];
  int index = 0;

  if (cJSON_IsObject (item))
    {
      const cJSON *c;
      if (cJSON_GetArraySize (item) > SCHEMA_MAX_MEMBERS)
        {
          validate_fail (err, 422, "range", path, "%s has more than %d members",
                         *path ? path : "the document", SCHEMA_MAX_MEMBERS);
          return -1;
        }
      if ((c = repeated_member (item, &index)))
        {
          child_path (field, sizeof field, item, path, c, index);
          validate_fail (err, 422, "duplicate-member", field,
                         "member %s appears more than once", field);
          return -1;
        }
    }
  index = 0;
  for (const cJSON *c = item->child; c; c = c->next, index++)
    {
      if (!c->child)
        continue;
      child_path (field, sizeof field, item, path, c, index);
      if (schema_check_duplicates (c, field, err) < 0)
        return -1;
    }
  return 0;
}
