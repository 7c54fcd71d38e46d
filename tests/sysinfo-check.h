/* sysinfo-check.h: helpers the sysinfo unit tests share: reaching a
 * member of the "system" object by a dotted path and checking it against
 * an expected string or number, one PASS/FAIL line each (check.h). */
#ifndef GB_TESTS_SYSINFO_CHECK_H
#define GB_TESTS_SYSINFO_CHECK_H

#include "tests/check.h"
#include "sysinfo/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The member at PATH ("cpu.kinds.0.name"; numbers index arrays). */
static const cJSON *
at (const cJSON *node, const char *path)
{
  char key[128];

  while (node != NULL && *path != '\0')
    {
      size_t n = strcspn (path, ".");
      if (n >= sizeof key)
        return NULL;
      memcpy (key, path, n);
      key[n] = '\0';
      if (cJSON_IsArray (node))
        node = cJSON_GetArrayItem (node, atoi (key));
      else
        node = cJSON_GetObjectItemCaseSensitive (node, key);
      path += n + (path[n] == '.');
    }
  return node;
}

/* EXPECT NULL means the member must be null or absent. */
static void
expect_str (const char *what, const cJSON *sys, const char *path, const char *expect)
{
  const cJSON *v = at (sys, path);

  if (expect == NULL)
    check (v == NULL || cJSON_IsNull (v), "%s: %s is null", what, path);
  else
    check (cJSON_IsString (v) && strcmp (v->valuestring, expect) == 0,
           "%s: %s = \"%s\" (got %s)", what, path, expect,
           cJSON_IsString (v) ? v->valuestring : "non-string");
}

/* EXPECT < 0 means the member must be null or absent. */
static void
expect_num (const char *what, const cJSON *sys, const char *path, double expect)
{
  const cJSON *v = at (sys, path);

  if (expect < 0)
    check (v == NULL || cJSON_IsNull (v), "%s: %s is null", what, path);
  else
    check (cJSON_IsNumber (v) && fabs (v->valuedouble - expect) < 1e-6 * (1 + expect),
           "%s: %s = %g (got %g)", what, path, expect,
           cJSON_IsNumber (v) ? v->valuedouble : -1.0);
}

static void
expect_bool (const char *what, const cJSON *sys, const char *path, int expect)
{
  const cJSON *v = at (sys, path);

  check (cJSON_IsBool (v) && !!cJSON_IsTrue (v) == !!expect, "%s: %s is %s",
         what, path, expect ? "true" : "false");
}

#endif
