/* cpu_names.h: names for the numbers a CPU identity holds (x86 vendor
 * string, family, model, stepping; Arm MIDR implementer and part), from
 * the tables of x86_models.c and arm_midr.c.  Pure functions: the client
 * puts the names into system.cpu (sysinfo/), the server names a CPU
 * identity with them (server/web/web_names.c), so both name it alike. */
#ifndef GB_MODEL_CPU_NAMES_H
#define GB_MODEL_CPU_NAMES_H

/* x86_models.c */
const char *si_x86_vendor_name (const char *vendor_id);
/* Core microarchitecture ("Zen 3", "Golden Cove"), that of the efficiency
 * cores of a hybrid part, and the product code name; NULL when unknown. */
const char *si_x86_uarch (const char *vendor_id, int family, int model, int stepping);
const char *si_x86_uarch_e (const char *vendor_id, int family, int model, int stepping);
const char *si_x86_codename (const char *vendor_id, int family, int model, int stepping);

/* arm_midr.c */
const char *si_arm_implementer_name (unsigned implementer);
/* Core name ("Cortex-A76", "Apple M1 Firestorm") and microarchitecture;
 * NULL when the part is not in the table. */
const char *si_arm_part_name (unsigned implementer, unsigned part);
const char *si_arm_uarch (unsigned implementer, unsigned part);

#endif
