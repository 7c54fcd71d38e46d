/* web_names.c: a name a person recognises for a CPU identity, from the
 * identity's numbers alone (so no upload can change it): the core
 * microarchitecture and product code name of an x86 family/model/stepping,
 * the core of an Arm MIDR implementer/part (model/cpu_names.h, the
 * tables the client names its own CPU with). */
#include "server/web/web_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cpu_names.h"

const char *
web_cpu_kind (const char *identity, const char *name, char *buf, size_t size)
{
  char vendor[13];
  int family, model, stepping;
  unsigned implementer, part;
  const char *uarch = NULL, *codename = NULL;

  buf[0] = '\0';
  if (sscanf (identity, "x86:%12[^:]:family=%d:model=%d:stepping=%d", vendor, &family, &model,
              &stepping) == 4)
    {
      uarch = si_x86_uarch (vendor, family, model, stepping);
      codename = si_x86_codename (vendor, family, model, stepping);
    }
  else if (sscanf (identity, "arm:%x:%x:", &implementer, &part) == 2)
    uarch = si_arm_uarch (implementer, part);
  if (uarch && name && web_contains (name, uarch))
    uarch = NULL;
  if (codename && (!*codename || (name && web_contains (name, codename))
                   || (uarch && strcmp (uarch, codename) == 0)))
    codename = NULL;
  if (uarch && codename)
    snprintf (buf, size, "%s, %s", uarch, codename);
  else if (uarch || codename)
    snprintf (buf, size, "%s", uarch ? uarch : codename);
  return buf;
}
