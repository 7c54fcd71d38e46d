/* arm_midr.c: decoding the Main ID Register of Arm cores.  MIDR_EL1 packs
 * implementer (bits 31-24), variant (23-20), architecture (19-16), part
 * number (15-4) and revision (3-0); Linux prints the fields separately in
 * /proc/cpuinfo.  The identity key keeps the raw numbers
 * ("arm:0x41:0xd0c:r3p1"), the table below only adds names.  For
 * licensees that design their own cores the name is the core's; where a
 * product reuses an Arm design (Ampere Altra, AWS Graviton) the MIDR is
 * Arm's and so is the name.  The identity key itself is sysinfo's
 * (sysinfo/arm.c). */
#include "model/cpu_names.h"
#include "common/util.h"

#include <stdio.h>

static const struct
{
  unsigned id;
  const char *name;
} implementers[] = {
  {0x41, "Arm"}, {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x44, "DEC"},
  {0x46, "Fujitsu"}, {0x48, "HiSilicon"}, {0x49, "Infineon"},
  {0x4d, "Motorola/Freescale"}, {0x4e, "NVIDIA"}, {0x50, "Applied Micro"},
  {0x51, "Qualcomm"}, {0x53, "Samsung"}, {0x56, "Marvell"}, {0x61, "Apple"},
  {0x66, "Faraday"}, {0x69, "Intel"}, {0x6d, "Microsoft"}, {0x70, "Phytium"},
  {0xc0, "Ampere"},
};

struct part
{
  unsigned implementer, part;
  const char *name;
  const char *uarch;            /* NULL: same as name */
};

static const struct part parts[] = {
  /* Arm Ltd. */
  {0x41, 0xc05, "Cortex-A5", NULL}, {0x41, 0xc07, "Cortex-A7", NULL},
  {0x41, 0xc08, "Cortex-A8", NULL}, {0x41, 0xc09, "Cortex-A9", NULL},
  {0x41, 0xc0d, "Cortex-A12", NULL}, {0x41, 0xc0e, "Cortex-A17", NULL},
  {0x41, 0xc0f, "Cortex-A15", NULL}, {0x41, 0xd01, "Cortex-A32", NULL},
  {0x41, 0xd02, "Cortex-A34", NULL}, {0x41, 0xd03, "Cortex-A53", NULL},
  {0x41, 0xd04, "Cortex-A35", NULL}, {0x41, 0xd05, "Cortex-A55", NULL},
  {0x41, 0xd06, "Cortex-A65", NULL}, {0x41, 0xd07, "Cortex-A57", NULL},
  {0x41, 0xd08, "Cortex-A72", NULL}, {0x41, 0xd09, "Cortex-A73", NULL},
  {0x41, 0xd0a, "Cortex-A75", NULL}, {0x41, 0xd0b, "Cortex-A76", NULL},
  {0x41, 0xd0c, "Neoverse-N1", NULL}, {0x41, 0xd0d, "Cortex-A77", NULL},
  {0x41, 0xd0e, "Cortex-A76AE", NULL}, {0x41, 0xd40, "Neoverse-V1", NULL},
  {0x41, 0xd41, "Cortex-A78", NULL}, {0x41, 0xd42, "Cortex-A78AE", NULL},
  {0x41, 0xd43, "Cortex-A65AE", NULL}, {0x41, 0xd44, "Cortex-X1", NULL},
  {0x41, 0xd46, "Cortex-A510", NULL}, {0x41, 0xd47, "Cortex-A710", NULL},
  {0x41, 0xd48, "Cortex-X2", NULL}, {0x41, 0xd49, "Neoverse-N2", NULL},
  {0x41, 0xd4a, "Neoverse-E1", NULL}, {0x41, 0xd4b, "Cortex-A78C", NULL},
  {0x41, 0xd4c, "Cortex-X1C", NULL}, {0x41, 0xd4d, "Cortex-A715", NULL},
  {0x41, 0xd4e, "Cortex-X3", NULL}, {0x41, 0xd4f, "Neoverse-V2", NULL},
  {0x41, 0xd80, "Cortex-A520", NULL}, {0x41, 0xd81, "Cortex-A720", NULL},
  {0x41, 0xd82, "Cortex-X4", NULL}, {0x41, 0xd84, "Neoverse-V3", NULL},
  {0x41, 0xd85, "Cortex-X925", NULL}, {0x41, 0xd87, "Cortex-A725", NULL},
  {0x41, 0xd8e, "Neoverse-N3", NULL},
  /* Apple (also seen under Asahi Linux) */
  {0x61, 0x020, "Apple A14 Icestorm", "Icestorm"},
  {0x61, 0x021, "Apple A14 Firestorm", "Firestorm"},
  {0x61, 0x022, "Apple M1 Icestorm", "Icestorm"},
  {0x61, 0x023, "Apple M1 Firestorm", "Firestorm"},
  {0x61, 0x024, "Apple M1 Pro Icestorm", "Icestorm"},
  {0x61, 0x025, "Apple M1 Pro Firestorm", "Firestorm"},
  {0x61, 0x028, "Apple M1 Max Icestorm", "Icestorm"},
  {0x61, 0x029, "Apple M1 Max Firestorm", "Firestorm"},
  {0x61, 0x030, "Apple A15 Blizzard", "Blizzard"},
  {0x61, 0x031, "Apple A15 Avalanche", "Avalanche"},
  {0x61, 0x032, "Apple M2 Blizzard", "Blizzard"},
  {0x61, 0x033, "Apple M2 Avalanche", "Avalanche"},
  {0x61, 0x034, "Apple M2 Pro Blizzard", "Blizzard"},
  {0x61, 0x035, "Apple M2 Pro Avalanche", "Avalanche"},
  {0x61, 0x038, "Apple M2 Max Blizzard", "Blizzard"},
  {0x61, 0x039, "Apple M2 Max Avalanche", "Avalanche"},
  /* Ampere's own cores (Altra and Altra Max are Neoverse-N1) */
  {0xc0, 0xac3, "AmpereOne", NULL}, {0xc0, 0xac4, "AmpereOne A", NULL},
  {0xc0, 0xac5, "AmpereOne B", NULL},
  /* Qualcomm */
  {0x51, 0x001, "Oryon", NULL}, {0x51, 0x800, "Kryo 2xx Gold", "Cortex-A73"},
  {0x51, 0x801, "Kryo 2xx Silver", "Cortex-A53"},
  {0x51, 0x802, "Kryo 3xx Gold", "Cortex-A75"},
  {0x51, 0x803, "Kryo 3xx Silver", "Cortex-A55"},
  {0x51, 0x804, "Kryo 4xx Gold", "Cortex-A76"},
  {0x51, 0x805, "Kryo 4xx Silver", "Cortex-A55"},
  {0x51, 0xc00, "Falkor", NULL}, {0x51, 0xc01, "Saphira", NULL},
  /* Fujitsu, HiSilicon, NVIDIA, Cavium/Marvell, Broadcom, Phytium */
  {0x46, 0x001, "A64FX", NULL},
  {0x48, 0xd01, "TaiShan v110", NULL}, {0x48, 0xd02, "TaiShan v120", NULL},
  {0x4e, 0x000, "Denver", NULL}, {0x4e, 0x003, "Denver 2", NULL},
  {0x4e, 0x004, "Carmel", NULL},
  {0x43, 0x0a1, "ThunderX", NULL}, {0x43, 0x0af, "ThunderX2", NULL},
  {0x43, 0x0b8, "ThunderX3", NULL}, {0x42, 0x516, "Vulcan", NULL},
  {0x70, 0x662, "FTC662", NULL}, {0x70, 0x663, "FTC663", NULL},
};

const char *
si_arm_implementer_name (unsigned implementer)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (implementers); i++)
    if (implementers[i].id == implementer)
      return implementers[i].name;
  return NULL;
}

static const struct part *
find_part (unsigned implementer, unsigned part)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (parts); i++)
    if (parts[i].implementer == implementer && parts[i].part == part)
      return &parts[i];
  return NULL;
}

const char *
si_arm_part_name (unsigned implementer, unsigned part)
{
  const struct part *p = find_part (implementer, part);
  return p ? p->name : NULL;
}

const char *
si_arm_uarch (unsigned implementer, unsigned part)
{
  const struct part *p = find_part (implementer, part);
  return p == NULL ? NULL : p->uarch ? p->uarch : p->name;
}
