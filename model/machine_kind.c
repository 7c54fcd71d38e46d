/* machine_kind.c: bare metal or virtual (machine_kind.h), from the
 * member sysinfo records a hypervisor in (docs/sysinfo.md: null on bare
 * metal). */
#include "model/machine_kind.h"

#include <string.h>
#include "model/doc_schema.h"
#include "model/doc_system.h"
#include "model/schema.h"

int
machine_is_virtual (const cJSON *doc)
{
  const cJSON *hypervisor
    = schema_get (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_CPU, DOC_SYS_CPU_HYPERVISOR));
  return cJSON_IsString (hypervisor) && hypervisor->valuestring[0] != '\0';
}

const char *
machine_kind_name (int is_virtual)
{
  return is_virtual ? "virtual" : "bare-metal";
}

int
machine_kind_parse (const char *arg, enum machine_kind *kind)
{
  if (!arg || !*arg || strcmp (arg, MACHINE_ALL_NAME) == 0)
    *kind = MACHINE_ANY;
  else if (strcmp (arg, machine_kind_name (0)) == 0)
    *kind = MACHINE_BARE_METAL;
  else if (strcmp (arg, machine_kind_name (1)) == 0)
    *kind = MACHINE_VIRTUAL;
  else
    return -1;
  return 0;
}
