/* cpu_clocks.c: the highest clock of each CPU family of the model tables
 * (see cpu_clocks.h).
 *
 * x86 families are the names x86_models.c gives a vendor, family, model
 * and stepping (the product code name, else the core microarchitecture),
 * so a group of models is found as the client names it; Arm families are
 * the cores of arm_midr.c, by implementer and part.  Each clock is the
 * highest maximum (boost, turbo) clock in MHz among the parts its makers
 * published for the group, rounded up; a family whose parts' clocks are
 * not well known is left out (it then has no bound of its own: the judge
 * uses its generous default). */
#include "model/cpu_clocks.h"

#include <stdio.h>
#include <string.h>
#include "common/util.h"
#include "model/cpu_names.h"

struct named_clock
{
  const char *name;
  double mhz;
};

/* Intel, by code name; the part that reaches the clock in the comment. */
static const struct named_clock intel_clocks[] = {
  {"Merom", 3000},              /* Core 2 Extreme QX6850 */
  {"Penryn", 3500},             /* Xeon X5270 */
  {"Dunnington", 2670},         /* Xeon X7460 */
  {"Bloomfield", 3600},         /* Core i7-975, Xeon W5590 */
  {"Lynnfield", 3730},          /* Core i7-880 */
  {"Beckton", 2800},            /* Xeon X7542 */
  {"Arrandale", 3860},          /* Core i5-680 (Clarkdale) */
  {"Gulftown", 4400},           /* Xeon X5698 */
  {"Westmere-EX", 2800},        /* Xeon E7-8870 */
  {"Sandy Bridge", 4000},       /* Xeon E3-1290 */
  {"Sandy Bridge-EP", 4000},    /* Core i7-3970X */
  {"Ivy Bridge", 4100},         /* Xeon E3-1290 v2 */
  {"Ivy Bridge-EP", 4000},      /* Core i7-4960X */
  {"Haswell", 4400},            /* Core i7-4790K */
  {"Haswell-EP", 3800},         /* Xeon E5-1680 v3 */
  {"Broadwell", 3800},          /* Xeon E3-1285 v4 */
  {"Broadwell-EP", 4000},       /* Core i7-6950X, Xeon E5-1680 v4 */
  {"Broadwell-DE", 3200},       /* Xeon D-1602 */
  {"Skylake", 4200},            /* Core i7-6700K */
  {"Skylake-SP", 4500},         /* Core i9-7900X */
  {"Cascade Lake", 4800},       /* Core i9-10980XE, Xeon W-2295 */
  {"Cooper Lake", 4300},        /* Xeon Platinum 8380HL */
  {"Kaby Lake", 4500},          /* Core i7-7700K */
  {"Whiskey Lake", 4900},       /* Core i7-10810U (Comet Lake-U) */
  {"Coffee Lake", 5000},        /* Core i9-9900KS */
  {"Comet Lake", 5300},         /* Core i9-10900K */
  {"Cannon Lake", 3200},        /* Core i3-8121U */
  {"Ice Lake", 4100},           /* Core i7-1068NG7 */
  {"Ice Lake-SP", 4000},        /* Xeon W-3345 */
  {"Ice Lake-D", 3500},         /* Xeon D-1715TER */
  {"Tiger Lake", 5000},         /* Core i9-11980HK, Core i7-1195G7 */
  {"Rocket Lake", 5300},        /* Core i9-11900K */
  {"Alder Lake", 5500},         /* Core i9-12900KS */
  {"Alder Lake-N", 3800},       /* Core i3-N305 */
  {"Raptor Lake", 6200},        /* Core i9-14900KS */
  {"Meteor Lake", 5100},        /* Core Ultra 9 185H */
  {"Lunar Lake", 5100},         /* Core Ultra 9 288V */
  {"Arrow Lake", 5700},         /* Core Ultra 9 285K */
  {"Sapphire Rapids", 4800},    /* Xeon w9-3495X */
  {"Emerald Rapids", 4100},     /* Xeon Gold 6544Y */
  {"Granite Rapids", 4500},     /* Xeon 6 (the fastest part rounded up) */
  {"Sierra Forest", 3200},      /* Xeon 6710E */
  {"Diamondville", 2130},       /* Atom Z560 */
  {"Lincroft", 1500},           /* Atom Z670 */
  {"Bay Trail", 2670},          /* Pentium J2900 */
  {"Avoton", 2600},             /* Atom C2750 */
  {"Cherry Trail", 2560},       /* Atom x7-Z8750, Pentium N3710 */
  {"Apollo Lake", 2600},        /* Pentium J4205 */
  {"Denverton", 3200},          /* Atom C3850 */
  {"Gemini Lake", 3200},        /* Pentium Silver J5040 */
  {"Snow Ridge", 2500},         /* Atom P5900 series, rounded up */
  {"Elkhart Lake", 3000},       /* Pentium J6426 */
  {"Jasper Lake", 3300},        /* Pentium Silver N6005 */
  {"Knights Landing", 1700},    /* Xeon Phi 7290 */
  {"Knights Mill", 1700},       /* Xeon Phi 7295 */
  {"Pentium 4", 3800},          /* Pentium 4 670 */
};

/* AMD, by code name, else microarchitecture (Zen 2 and Zen 5 models the
 * table names no product of). */
static const struct named_clock amd_clocks[] = {
  {"K8", 3200},                 /* Athlon 64 X2 6400+ */
  {"K10", 3700},                /* Phenom II X6 1100T, X4 980 */
  {"Llano", 3000},              /* A8-3870K */
  {"Brazos", 1750},             /* E2-1800 */
  {"Zambezi", 4200},            /* FX-8150 */
  {"Vishera", 5000},            /* FX-9590 */
  {"Kaveri", 4300},             /* A10-7890K */
  {"Carrizo", 4200},            /* A12-9800 (Bristol Ridge) */
  {"Kabini", 2200},             /* Athlon 5370 */
  {"Beema", 2400},              /* A8-6410 */
  {"Pinnacle Ridge", 4400},     /* Ryzen Threadripper 2950X */
  {"Picasso", 4200},            /* Ryzen 5 3400G */
  {"Zen", 4200},                /* Ryzen Threadripper 1950X */
  {"Naples/Summit Ridge", 4200},        /* Ryzen Threadripper 1950X */
  {"Raven Ridge", 3900},        /* Ryzen 5 2400G */
  {"Dali", 3500},               /* Athlon 3000G */
  {"Rome/Castle Peak", 4500},   /* Ryzen Threadripper 3970X */
  {"Xbox Series", 3800},        /* Xbox Series X */
  {"Renoir/Lucienne", 4400},    /* Ryzen 7 PRO 4750G */
  {"Matisse", 4700},            /* Ryzen 9 3950X */
  {"Van Gogh/Mendocino", 4300}, /* Ryzen 5 7520U */
  {"Zen 2", 4700},              /* Ryzen 9 3950X */
  {"Milan", 4500},              /* Ryzen Threadripper PRO 5995WX */
  {"Genoa", 5300},              /* Ryzen Threadripper 7970X */
  {"Vermeer", 4900},            /* Ryzen 9 5950X */
  {"Rembrandt", 5000},          /* Ryzen 9 6980HX */
  {"Cezanne", 4800},            /* Ryzen 9 5980HX */
  {"Raphael", 5700},            /* Ryzen 9 7950X */
  {"Phoenix", 5200},            /* Ryzen 9 7940HS */
  {"Bergamo", 3100},            /* EPYC 9754 */
  {"Zen 5", 5700},              /* Ryzen 9 9950X */
};

/* Arm cores, by implementer and part (arm_midr.c). */
static const struct
{
  unsigned implementer, part;
  double mhz;
} arm_clocks[] = {
  {0x41, 0xc05, 1500},          /* Cortex-A5: Snapdragon 200 */
  {0x41, 0xc07, 2000},          /* Cortex-A7: MT6592 */
  {0x41, 0xc08, 1500},          /* Cortex-A8 */
  {0x41, 0xc09, 2000},          /* Cortex-A9: Amlogic S812 */
  {0x41, 0xc0d, 2000},          /* Cortex-A12 */
  {0x41, 0xc0e, 2000},          /* Cortex-A17: RK3288 */
  {0x41, 0xc0f, 2500},          /* Cortex-A15: Tegra K1 */
  {0x41, 0xd03, 2600},          /* Cortex-A53: Helio P25 */
  {0x41, 0xd04, 2000},          /* Cortex-A35 */
  {0x41, 0xd05, 2200},          /* Cortex-A55 */
  {0x41, 0xd07, 2100},          /* Cortex-A57: Exynos 7420 */
  {0x41, 0xd08, 2600},          /* Cortex-A72: Helio X27 */
  {0x41, 0xd09, 2400},          /* Cortex-A73: Kirin 960 */
  {0x41, 0xd0a, 2800},          /* Cortex-A75 */
  {0x41, 0xd0b, 3000},          /* Cortex-A76: Kirin 990 */
  {0x41, 0xd0c, 3300},          /* Neoverse-N1: Ampere Altra Q80-33 */
  {0x41, 0xd0d, 3200},          /* Cortex-A77: Snapdragon 870 */
  {0x41, 0xd0e, 3000},          /* Cortex-A76AE */
  {0x41, 0xd40, 2600},          /* Neoverse-V1: Graviton3 */
  {0x41, 0xd41, 3000},          /* Cortex-A78: Dimensity 1200 */
  {0x41, 0xd42, 2200},          /* Cortex-A78AE: Jetson AGX Orin */
  {0x41, 0xd44, 3000},          /* Cortex-X1: Snapdragon 888+ */
  {0x41, 0xd46, 2200},          /* Cortex-A510 */
  {0x41, 0xd47, 2850},          /* Cortex-A710: Dimensity 9000 */
  {0x41, 0xd48, 3350},          /* Cortex-X2: Dimensity 9000+ */
  {0x41, 0xd49, 3400},          /* Neoverse-N2: Azure Cobalt 100 */
  {0x41, 0xd4b, 3000},          /* Cortex-A78C */
  {0x41, 0xd4c, 3000},          /* Cortex-X1C: Snapdragon 8cx Gen 3 */
  {0x41, 0xd4d, 2850},          /* Cortex-A715: Dimensity 9200 */
  {0x41, 0xd4e, 3360},          /* Cortex-X3: Snapdragon 8 Gen 2 for Galaxy */
  {0x41, 0xd4f, 3400},          /* Neoverse-V2: NVIDIA Grace */
  {0x41, 0xd80, 2200},          /* Cortex-A520 */
  {0x41, 0xd81, 3200},          /* Cortex-A720: Snapdragon 8 Gen 3 */
  {0x41, 0xd82, 3400},          /* Cortex-X4: Dimensity 9300+ */
  {0x41, 0xd85, 3630},          /* Cortex-X925: Dimensity 9400 */
  {0x41, 0xd87, 3300},          /* Cortex-A725 */
  {0x61, 0x021, 3000},          /* Apple A14 Firestorm */
  {0x61, 0x023, 3200},          /* Apple M1 Firestorm */
  {0x61, 0x025, 3230},          /* Apple M1 Pro Firestorm */
  {0x61, 0x029, 3230},          /* Apple M1 Max Firestorm */
  {0x61, 0x031, 3230},          /* Apple A15 Avalanche */
  {0x61, 0x033, 3500},          /* Apple M2 Avalanche */
  {0x61, 0x035, 3700},          /* Apple M2 Pro Avalanche */
  {0x61, 0x039, 3700},          /* Apple M2 Max Avalanche */
  {0xc0, 0xac3, 3600},          /* AmpereOne */
  {0xc0, 0xac4, 3600},          /* AmpereOne A */
  {0xc0, 0xac5, 3600},          /* AmpereOne B */
  {0x51, 0x001, 4470},          /* Oryon: Snapdragon 8 Elite for Galaxy */
  {0x51, 0x800, 2450},          /* Kryo 2xx Gold: Snapdragon 835 */
  {0x51, 0x801, 1900},          /* Kryo 2xx Silver */
  {0x51, 0x802, 2960},          /* Kryo 3xx Gold: Snapdragon 850 */
  {0x51, 0x803, 1800},          /* Kryo 3xx Silver */
  {0x51, 0x804, 3150},          /* Kryo 4xx Gold: Snapdragon 8cx Gen 2 */
  {0x51, 0x805, 1800},          /* Kryo 4xx Silver */
  {0x51, 0xc00, 2600},          /* Falkor: Centriq 2460 */
  {0x46, 0x001, 2200},          /* A64FX */
  {0x48, 0xd01, 3000},          /* TaiShan v110: Kunpeng 920 */
  {0x4e, 0x000, 2500},          /* Denver: Tegra K1 */
  {0x4e, 0x003, 2100},          /* Denver 2: Tegra X2 */
  {0x4e, 0x004, 2270},          /* Carmel: Jetson AGX Xavier */
  {0x43, 0x0a1, 2500},          /* ThunderX */
  {0x43, 0x0af, 3000},          /* ThunderX2 */
  {0x43, 0x0b8, 3100},          /* ThunderX3 */
  {0x42, 0x516, 3000},          /* Vulcan */
  {0x70, 0x662, 2300},          /* FTC662: FT-2000+ */
  {0x70, 0x663, 3000},          /* FTC663: FT-2000/4 */
};

/* The x86 table of VENDOR_ID into *N, or NULL. */
static const struct named_clock *
x86_table (const char *vendor_id, size_t *n)
{
  if (strcmp (vendor_id, "GenuineIntel") == 0)
    {
      *n = GB_ARRAY_SIZE (intel_clocks);
      return intel_clocks;
    }
  if (strcmp (vendor_id, "AuthenticAMD") == 0)
    {
      *n = GB_ARRAY_SIZE (amd_clocks);
      return amd_clocks;
    }
  *n = 0;
  return NULL;
}

static double
x86_family_mhz (const char *vendor_id, int family, int model, int stepping)
{
  size_t n;
  const struct named_clock *t = x86_table (vendor_id, &n);
  const char *name = si_x86_codename (vendor_id, family, model, stepping);

  if (!name)
    name = si_x86_uarch (vendor_id, family, model, stepping);
  for (size_t i = 0; name && i < n; i++)
    if (strcmp (t[i].name, name) == 0)
      return t[i].mhz;
  return 0;
}

static double
arm_core_mhz (unsigned implementer, unsigned part)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (arm_clocks); i++)
    if (arm_clocks[i].implementer == implementer && arm_clocks[i].part == part)
      return arm_clocks[i].mhz;
  return 0;
}

/* An identity's numbers: x86 (1) or Arm (2), 0 for any other. */
struct identity
{
  char vendor[13];
  int family, model, stepping;
  unsigned implementer, part;
};

static int
parse_identity (const char *identity, struct identity *id)
{
  if (sscanf (identity, "x86:%12[^:]:family=%d:model=%d:stepping=%d", id->vendor, &id->family,
              &id->model, &id->stepping) == 4)
    return 1;
  if (sscanf (identity, "arm:%x:%x:", &id->implementer, &id->part) == 2)
    return 2;
  return 0;
}

double
cpu_clock_family_mhz (const char *identity)
{
  struct identity id;
  switch (identity ? parse_identity (identity, &id) : 0)
    {
    case 1:
      return x86_family_mhz (id.vendor, id.family, id.model, id.stepping);
    case 2:
      return arm_core_mhz (id.implementer, id.part);
    default:
      return 0;
    }
}

double
cpu_clock_maker_mhz (const char *identity)
{
  struct identity id;
  double most = 0;
  size_t n;
  int kind = identity ? parse_identity (identity, &id) : 0;

  if (kind == 1)
    {
      const struct named_clock *t = x86_table (id.vendor, &n);
      for (size_t i = 0; i < n; i++)
        if (t[i].mhz > most)
          most = t[i].mhz;
    }
  else if (kind == 2)
    for (size_t i = 0; i < GB_ARRAY_SIZE (arm_clocks); i++)
      if (arm_clocks[i].implementer == id.implementer && arm_clocks[i].mhz > most)
        most = arm_clocks[i].mhz;
  return most;
}

double
cpu_clock_x86_family (const char *vendor_id, unsigned i, const char **name)
{
  size_t n;
  const struct named_clock *t = x86_table (vendor_id, &n);
  if (i >= n)
    return 0;
  *name = t[i].name;
  return t[i].mhz;
}

double
cpu_clock_arm_core (unsigned i, unsigned *implementer, unsigned *part)
{
  if (i >= GB_ARRAY_SIZE (arm_clocks))
    return 0;
  *implementer = arm_clocks[i].implementer;
  *part = arm_clocks[i].part;
  return arm_clocks[i].mhz;
}
