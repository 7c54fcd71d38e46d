/* machine_kind.h: whether a result ran on bare metal or in a virtual
 * machine, the one rule the server marks results by (docs/protocol.md):
 * a document whose system.cpu.hypervisor names a hypervisor (any
 * non-empty string, "unknown" included: the CPU's hypervisor bit alone
 * said so) ran in a virtual machine.  Such a result is pooled with its
 * CPU identity like any other, and marked; the leaderboard and the
 * listings filter by the names given here (machine=bare-metal, virtual
 * or all). */
#ifndef GB_MODEL_MACHINE_KIND_H
#define GB_MODEL_MACHINE_KIND_H

#include <cjson/cJSON.h>

enum machine_kind
{
  MACHINE_ANY = 0,              /* a filter's "all": both kinds */
  MACHINE_BARE_METAL,
  MACHINE_VIRTUAL
};

/* The argument of a filter asking for both kinds. */
#define MACHINE_ALL_NAME "all"

/* 1 when the result document DOC names a hypervisor, else 0. */
int machine_is_virtual (const cJSON *doc);

/* The name of a result's kind: "virtual" when IS_VIRTUAL, else
 * "bare-metal". */
const char *machine_kind_name (int is_virtual);

/* The kind a filter argument ARG names into *KIND: "bare-metal",
 * "virtual", or MACHINE_ANY for "all", "" and NULL (a form's "any", an
 * absent argument).  0, or -1 for anything else. */
int machine_kind_parse (const char *arg, enum machine_kind *kind);

#endif
