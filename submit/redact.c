/* redact.c: leaving the machine's model and the kernel's build string out
 * of a result document (see redact.h). */
#include "submit/redact.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "model/doc_schema.h"

#define SOURCE_MACHINE "left out (gmpbench run --redact machine)"
#define SOURCE_KERNEL "uname, cut to its version (gmpbench run --redact kernel)"

int
redact_parse (const char *list, unsigned *what, char *err, size_t errlen)
{
  const char *p = list;
  while (*p)
    {
      size_t n = strcspn (p, ",");
      if (n == strlen (DOC_REDACT_MACHINE) && strncmp (p, DOC_REDACT_MACHINE, n) == 0)
        *what |= REDACT_MACHINE;
      else if (n == strlen (DOC_REDACT_KERNEL) && strncmp (p, DOC_REDACT_KERNEL, n) == 0)
        *what |= REDACT_KERNEL;
      else
        {
          snprintf (err, errlen, "--redact '%.*s' is not machine or kernel", (int) n, p);
          return -1;
        }
      p += n + (p[n] == ',');
      if (p[-1] == ',' && !*p)
        {
          snprintf (err, errlen, "--redact '%s' ends with a comma", list);
          return -1;
        }
    }
  if (!*what)
    {
      snprintf (err, errlen, "--redact needs machine, kernel or machine,kernel");
      return -1;
    }
  return 0;
}

void
redact_kernel_version (const char *release, char *out, size_t outlen)
{
  const char *start = release, *end;
  while (*start && !isdigit ((unsigned char) *start))
    start++;
  end = start;
  while (isdigit ((unsigned char) *end) || *end == '.')
    end++;
  while (end > start && end[-1] == '.')
    end--;
  snprintf (out, outlen, "%.*s", *start ? (int) (end - release) : 0, release);
}

/* Sets OBJ's member NAME to VALUE (replacing it), and its source. */
static void
set_member (cJSON *obj, const char *name, cJSON *value, const char *source)
{
  cJSON *sources = cJSON_GetObjectItemCaseSensitive (obj, DOC_SYS_SOURCES);
  if (cJSON_GetObjectItemCaseSensitive (obj, name))
    cJSON_ReplaceItemInObjectCaseSensitive (obj, name, value);
  else
    cJSON_AddItemToObject (obj, name, value);
  if (!cJSON_IsObject (sources))
    return;
  if (cJSON_GetObjectItemCaseSensitive (sources, name))
    cJSON_ReplaceItemInObjectCaseSensitive (sources, name, cJSON_CreateString (source));
  else
    cJSON_AddStringToObject (sources, name, source);
}

void
redact_apply (cJSON *doc, unsigned what)
{
  cJSON *system = cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM);
  cJSON *machine = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_MACHINE);
  cJSON *os = cJSON_GetObjectItemCaseSensitive (system, DOC_SYS_OS);
  const char *kernel = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive
                                             (os, DOC_SYS_OS_KERNEL));
  cJSON *list;
  char version[256];

  if (!what || !cJSON_IsObject (system))
    return;
  list = cJSON_CreateArray ();
  if (what & REDACT_MACHINE)
    {
      if (!cJSON_IsObject (machine))
        cJSON_AddItemToObject (system, DOC_SYS_MACHINE, machine = cJSON_CreateObject ());
      set_member (machine, DOC_SYS_MACHINE_MODEL, cJSON_CreateNull (), SOURCE_MACHINE);
      cJSON_AddItemToArray (list, cJSON_CreateString (DOC_REDACT_MACHINE));
    }
  if ((what & REDACT_KERNEL) && cJSON_IsObject (os))
    {
      redact_kernel_version (kernel ? kernel : "", version, sizeof version);
      set_member (os, DOC_SYS_OS_KERNEL,
                  *version ? cJSON_CreateString (version) : cJSON_CreateNull (), SOURCE_KERNEL);
      cJSON_AddItemToArray (list, cJSON_CreateString (DOC_REDACT_KERNEL));
    }
  cJSON_DeleteItemFromObjectCaseSensitive (doc, DOC_REDACTED);
  if (cJSON_GetArraySize (list) > 0)
    cJSON_AddItemToObject (doc, DOC_REDACTED, list);
  else
    cJSON_Delete (list);
}
