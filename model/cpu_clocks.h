/* cpu_clocks.h: the highest clock a CPU identity's family reaches, by
 * its makers' published figures, for the server's judge
 * (server/judge/plausible.c) to bound the clocks a document claims.
 *
 * A family is a group of the model tables of cpu_names.h: an x86
 * identity's product code name (else its core microarchitecture) as
 * x86_models.c gives it for its vendor, family, model and stepping; an
 * Arm identity's core (implementer and part, arm_midr.c).  Its clock is
 * the highest maximum (boost, turbo) clock any part of the group is sold
 * with, rounded up: the fastest factory clock, not an overclock.  Pure
 * functions over a constant table, so the judge stays pure. */
#ifndef GB_MODEL_CPU_CLOCKS_H
#define GB_MODEL_CPU_CLOCKS_H

/* The highest clock of IDENTITY's family in MHz (the
 * system.cpu.identity key of docs/sysinfo.md); 0 when the identity names
 * no family of the table. */
double cpu_clock_family_mhz (const char *identity);

/* The highest clock of any family of IDENTITY's maker (x86 vendor, Arm
 * implementer) in MHz: what a virtual CPU of that maker may run at,
 * whatever family its hypervisor presents; 0 when the table has none of
 * that maker. */
double cpu_clock_maker_mhz (const char *identity);

/* The table's families of an x86 VENDOR_ID ("GenuineIntel",
 * "AuthenticAMD") one at a time, I from 0: the name (a codename or
 * microarchitecture of x86_models.c) into *NAME and its clock; 0 past the
 * last (for tests that check every name is one the model tables give). */
double cpu_clock_x86_family (const char *vendor_id, unsigned i, const char **name);

/* Likewise the Arm cores of the table: implementer and part. */
double cpu_clock_arm_core (unsigned i, unsigned *implementer, unsigned *part);

#endif
