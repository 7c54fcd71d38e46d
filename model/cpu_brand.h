/* cpu_brand.h: whether a CPU's brand string agrees with its identity, the
 * rule the server flags results by (brand-mismatch) and names CPUs by
 * (docs/leaderboard.md).  An x86 identity or vendor names its maker
 * (GenuineIntel: Intel, AuthenticAMD: AMD); a brand string may name one
 * too.  Hypervisors hand their guests brand strings that name no maker
 * ("QEMU Virtual CPU version 2.5+", "Common KVM processor", "Oxide Virtual
 * Turin-like Processor"): such a brand contradicts nothing, but it does
 * not name the CPU either; nor does one that advertises. */
#ifndef GB_MODEL_CPU_BRAND_H
#define GB_MODEL_CPU_BRAND_H

/* Whether BRAND names another maker than the one the identity IDENTITY
 * or the vendor VENDOR names ("Intel Core i7" for an AuthenticAMD
 * identity): a brand naming no maker, or an identity and vendor naming
 * none, contradict nothing. */
int cpu_brand_contradicts (const char *identity, const char *vendor, const char *brand);

/* Whether BRAND may name the CPU: it is not empty, names the maker
 * IDENTITY and VENDOR name, where they name one ("AMD EPYC 7451" for an
 * AuthenticAMD identity; any brand for an Arm one), and does not
 * advertise: no domain name (hence no e-mail address), no URL, no
 * control character ("AMD EPYC 9999 - visit spam.example" names no CPU;
 * the rule is at the top of cpu_brand.c). */
int cpu_brand_fits (const char *identity, const char *vendor, const char *brand);

#endif
