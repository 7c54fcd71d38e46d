/* power.c: naming PowerPC and POWER processors from the version half of
 * the Processor Version Register (PVR >> 16).  The full PVR, revision
 * included, is the identity key; this only adds a name. */
#include "sysinfo/internal.h"
#include "common/util.h"

static const struct
{
  unsigned version;
  const char *name;
} pvrs[] = {
  {0x0008, "PowerPC 750"}, {0x000c, "PowerPC 7400"},
  {0x800c, "PowerPC 7410"}, {0x8000, "PowerPC 7450"},
  {0x8001, "PowerPC 7455"}, {0x8002, "PowerPC 7457"},
  {0x8003, "PowerPC 7447A"}, {0x0039, "PowerPC 970"},
  {0x003c, "PowerPC 970FX"}, {0x0044, "PowerPC 970MP"},
  {0x0070, "Cell Broadband Engine"}, {0x003a, "POWER5"},
  {0x003b, "POWER5+"}, {0x003e, "POWER6"}, {0x003f, "POWER7"},
  {0x004a, "POWER7+"}, {0x004b, "POWER8E"}, {0x004c, "POWER8NVL"},
  {0x004d, "POWER8"}, {0x004e, "POWER9"}, {0x0080, "POWER10"},
  {0x0082, "POWER11"},
};

const char *
si_power_pvr_name (unsigned pvr)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (pvrs); i++)
    if (pvrs[i].version == pvr >> 16)
      return pvrs[i].name;
  return NULL;
}
