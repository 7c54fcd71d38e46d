/* arm.c: the Arm identity key, built from the fields of the Main ID
 * Register alone ("arm:0x41:0xd0c:r3p1": implementer, part, variant and
 * revision), whichever reader found them: /proc/cpuinfo, MIDR_EL1 read
 * live, or the Windows registry.  model/arm_midr.c names them. */
#include "sysinfo/internal.h"

#include <stdio.h>

void
si_arm_identity (char *buf, size_t n, const struct si_midr *m)
{
  snprintf (buf, n, "arm:0x%02x:0x%03x:r%up%u", m->implementer, m->part,
            m->variant, m->revision);
}
