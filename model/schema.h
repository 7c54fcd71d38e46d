/* schema.h: table-driven type and range checks over a parsed cJSON tree.
 *
 * A schema is an array of members, each with its kind, whether it must be
 * present, whether null is allowed, and a range (the value for numbers,
 * the length for strings, the element count for arrays).  A member name
 * may be a dotted path into nested objects ("cpu.arch"), which is how the
 * open-ended `system` object is described.  Failures are reported as
 * validate_error with the document path of the offending member.
 */
#ifndef GB_SCHEMA_H
#define GB_SCHEMA_H

#include <cjson/cJSON.h>
#include "model/validate_error.h"

enum schema_kind
{
  SK_STRING, SK_NUMBER, SK_INTEGER, SK_BOOL, SK_OBJECT, SK_ARRAY
};

#define SCHEMA_REQUIRED 1u
#define SCHEMA_NULLABLE 2u
#define SCHEMA_POSITIVE 4u      /* numbers: strictly above MIN */

struct schema_member
{
  const char *name;
  enum schema_kind kind;
  unsigned flags;
  double min, max;
  /* For array elements that are objects: their schema. */
  const struct schema_member *members;
  size_t nmembers;
};

/* Checks the members of OBJ (at document path PATH) against the N entries
 * of M.  Unless OPEN, a member not in M is an error.  0 or -1. */
int schema_check_object (const cJSON *obj, const char *path, const struct schema_member *m,
                         size_t n, int open, struct validate_error *err);

/* Checks one value ITEM, known as FIELD, against the kind, nullability and
 * range of M (M's name is not used). */
int schema_check_value (const cJSON *item, const char *field, const struct schema_member *m,
                        struct validate_error *err);

/* Checks every element of ARRAY, as PATH[i]: objects against M's members
 * (closed), other values against M itself. */
int schema_check_elements (const cJSON *array, const char *path, const struct schema_member *m,
                           struct validate_error *err);

/* Rejects any object, at any depth below ITEM, that has two members with
 * the same name or more than SCHEMA_MAX_MEMBERS members (which bounds the
 * quadratic comparison). */
#define SCHEMA_MAX_MEMBERS 256
int schema_check_duplicates (const cJSON *item, const char *path, struct validate_error *err);

/* The member at dotted PATH below OBJ, or NULL. */
const cJSON *schema_get (const cJSON *obj, const char *path);

/* Joins PATH and NAME ("a.b" + "c" -> "a.b.c", "" + "c" -> "c"). */
void schema_path (char *out, size_t size, const char *path, const char *name);
/* PATH and an array index ("results" + 3 -> "results[3]"). */
void schema_index_path (char *out, size_t size, const char *path, int index);

#endif
