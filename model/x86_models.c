/* x86_models.c: naming x86 processors from the numbers CPUID gives (the
 * vendor string, family, model and stepping, as reported): the vendor's
 * name, and tables mapping a model to its product code name and core
 * microarchitecture; hybrid Intel parts name their efficiency core too.
 * Pure tables, so the server names a CPU identity with them as well
 * (model/cpu_names.h). */
#include "model/cpu_names.h"
#include "common/util.h"

#include <string.h>

struct x86_model
{
  int family, model_lo, model_hi, step_lo, step_hi;
  const char *codename;
  const char *uarch;            /* of the (performance) core */
  const char *uarch_e;          /* of the efficiency core, NULL if none */
};

static const struct x86_model intel_models[] = {
  {6, 0x0f, 0x0f, 0, 15, "Merom", "Core", NULL},
  {6, 0x16, 0x16, 0, 15, "Merom", "Core", NULL},
  {6, 0x17, 0x17, 0, 15, "Penryn", "Penryn", NULL},
  {6, 0x1d, 0x1d, 0, 15, "Dunnington", "Penryn", NULL},
  {6, 0x1a, 0x1a, 0, 15, "Bloomfield", "Nehalem", NULL},
  {6, 0x1e, 0x1f, 0, 15, "Lynnfield", "Nehalem", NULL},
  {6, 0x2e, 0x2e, 0, 15, "Beckton", "Nehalem", NULL},
  {6, 0x25, 0x25, 0, 15, "Arrandale", "Westmere", NULL},
  {6, 0x2c, 0x2c, 0, 15, "Gulftown", "Westmere", NULL},
  {6, 0x2f, 0x2f, 0, 15, "Westmere-EX", "Westmere", NULL},
  {6, 0x2a, 0x2a, 0, 15, "Sandy Bridge", "Sandy Bridge", NULL},
  {6, 0x2d, 0x2d, 0, 15, "Sandy Bridge-EP", "Sandy Bridge", NULL},
  {6, 0x3a, 0x3a, 0, 15, "Ivy Bridge", "Ivy Bridge", NULL},
  {6, 0x3e, 0x3e, 0, 15, "Ivy Bridge-EP", "Ivy Bridge", NULL},
  {6, 0x3c, 0x3c, 0, 15, "Haswell", "Haswell", NULL},
  {6, 0x45, 0x46, 0, 15, "Haswell", "Haswell", NULL},
  {6, 0x3f, 0x3f, 0, 15, "Haswell-EP", "Haswell", NULL},
  {6, 0x3d, 0x3d, 0, 15, "Broadwell", "Broadwell", NULL},
  {6, 0x47, 0x47, 0, 15, "Broadwell", "Broadwell", NULL},
  {6, 0x4f, 0x4f, 0, 15, "Broadwell-EP", "Broadwell", NULL},
  {6, 0x56, 0x56, 0, 15, "Broadwell-DE", "Broadwell", NULL},
  {6, 0x4e, 0x4e, 0, 15, "Skylake", "Skylake", NULL},
  {6, 0x5e, 0x5e, 0, 15, "Skylake", "Skylake", NULL},
  {6, 0x55, 0x55, 0, 4, "Skylake-SP", "Skylake", NULL},
  {6, 0x55, 0x55, 5, 7, "Cascade Lake", "Skylake", NULL},
  {6, 0x55, 0x55, 10, 11, "Cooper Lake", "Skylake", NULL},
  {6, 0x8e, 0x8e, 0, 10, "Kaby Lake", "Skylake", NULL},
  {6, 0x8e, 0x8e, 11, 15, "Whiskey Lake", "Skylake", NULL},
  {6, 0x9e, 0x9e, 0, 9, "Kaby Lake", "Skylake", NULL},
  {6, 0x9e, 0x9e, 10, 15, "Coffee Lake", "Skylake", NULL},
  {6, 0xa5, 0xa6, 0, 15, "Comet Lake", "Skylake", NULL},
  {6, 0x66, 0x66, 0, 15, "Cannon Lake", "Palm Cove", NULL},
  {6, 0x7d, 0x7e, 0, 15, "Ice Lake", "Sunny Cove", NULL},
  {6, 0x6a, 0x6a, 0, 15, "Ice Lake-SP", "Sunny Cove", NULL},
  {6, 0x6c, 0x6c, 0, 15, "Ice Lake-D", "Sunny Cove", NULL},
  {6, 0x8c, 0x8d, 0, 15, "Tiger Lake", "Willow Cove", NULL},
  {6, 0xa7, 0xa7, 0, 15, "Rocket Lake", "Cypress Cove", NULL},
  {6, 0x97, 0x97, 0, 15, "Alder Lake", "Golden Cove", "Gracemont"},
  {6, 0x9a, 0x9a, 0, 15, "Alder Lake", "Golden Cove", "Gracemont"},
  {6, 0xbe, 0xbe, 0, 15, "Alder Lake-N", "Gracemont", NULL},
  {6, 0xb7, 0xb7, 0, 15, "Raptor Lake", "Raptor Cove", "Gracemont"},
  {6, 0xba, 0xba, 0, 15, "Raptor Lake", "Raptor Cove", "Gracemont"},
  {6, 0xbf, 0xbf, 0, 15, "Raptor Lake", "Raptor Cove", "Gracemont"},
  {6, 0xaa, 0xaa, 0, 15, "Meteor Lake", "Redwood Cove", "Crestmont"},
  {6, 0xac, 0xac, 0, 15, "Meteor Lake", "Redwood Cove", "Crestmont"},
  {6, 0xbd, 0xbd, 0, 15, "Lunar Lake", "Lion Cove", "Skymont"},
  {6, 0xc5, 0xc6, 0, 15, "Arrow Lake", "Lion Cove", "Skymont"},
  {6, 0x8f, 0x8f, 0, 15, "Sapphire Rapids", "Golden Cove", NULL},
  {6, 0xcf, 0xcf, 0, 15, "Emerald Rapids", "Raptor Cove", NULL},
  {6, 0xad, 0xae, 0, 15, "Granite Rapids", "Redwood Cove", NULL},
  {6, 0xaf, 0xaf, 0, 15, "Sierra Forest", "Crestmont", NULL},
  {6, 0x1c, 0x1c, 0, 15, "Diamondville", "Bonnell", NULL},
  {6, 0x26, 0x26, 0, 15, "Lincroft", "Bonnell", NULL},
  {6, 0x37, 0x37, 0, 15, "Bay Trail", "Silvermont", NULL},
  {6, 0x4d, 0x4d, 0, 15, "Avoton", "Silvermont", NULL},
  {6, 0x4c, 0x4c, 0, 15, "Cherry Trail", "Airmont", NULL},
  {6, 0x5c, 0x5c, 0, 15, "Apollo Lake", "Goldmont", NULL},
  {6, 0x5f, 0x5f, 0, 15, "Denverton", "Goldmont", NULL},
  {6, 0x7a, 0x7a, 0, 15, "Gemini Lake", "Goldmont Plus", NULL},
  {6, 0x86, 0x86, 0, 15, "Snow Ridge", "Tremont", NULL},
  {6, 0x96, 0x96, 0, 15, "Elkhart Lake", "Tremont", NULL},
  {6, 0x9c, 0x9c, 0, 15, "Jasper Lake", "Tremont", NULL},
  {6, 0x57, 0x57, 0, 15, "Knights Landing", "Knights Landing", NULL},
  {6, 0x85, 0x85, 0, 15, "Knights Mill", "Knights Landing", NULL},
  {15, 0x00, 0xff, 0, 15, "Pentium 4", "NetBurst", NULL},
};

static const struct x86_model amd_models[] = {
  {0x0f, 0x00, 0xff, 0, 15, "K8", "K8", NULL},
  {0x10, 0x00, 0xff, 0, 15, "K10", "K10", NULL},
  {0x12, 0x00, 0xff, 0, 15, "Llano", "K10", NULL},
  {0x14, 0x00, 0xff, 0, 15, "Brazos", "Bobcat", NULL},
  {0x15, 0x00, 0x01, 0, 15, "Zambezi", "Bulldozer", NULL},
  {0x15, 0x02, 0x1f, 0, 15, "Vishera", "Piledriver", NULL},
  {0x15, 0x30, 0x3f, 0, 15, "Kaveri", "Steamroller", NULL},
  {0x15, 0x60, 0x7f, 0, 15, "Carrizo", "Excavator", NULL},
  {0x16, 0x00, 0x2f, 0, 15, "Kabini", "Jaguar", NULL},
  {0x16, 0x30, 0x3f, 0, 15, "Beema", "Puma", NULL},
  {0x17, 0x08, 0x08, 0, 15, "Pinnacle Ridge", "Zen+", NULL},
  {0x17, 0x18, 0x18, 0, 15, "Picasso", "Zen+", NULL},
  {0x17, 0x00, 0x00, 0, 15, "Zen", "Zen", NULL},
  {0x17, 0x01, 0x01, 0, 15, "Naples/Summit Ridge", "Zen", NULL},
  {0x17, 0x11, 0x11, 0, 15, "Raven Ridge", "Zen", NULL},
  {0x17, 0x20, 0x2f, 0, 15, "Dali", "Zen", NULL},
  {0x17, 0x31, 0x31, 0, 15, "Rome/Castle Peak", "Zen 2", NULL},
  {0x17, 0x47, 0x47, 0, 15, "Xbox Series", "Zen 2", NULL},
  {0x17, 0x60, 0x6f, 0, 15, "Renoir/Lucienne", "Zen 2", NULL},
  {0x17, 0x71, 0x71, 0, 15, "Matisse", "Zen 2", NULL},
  {0x17, 0x90, 0xaf, 0, 15, "Van Gogh/Mendocino", "Zen 2", NULL},
  {0x17, 0x30, 0xff, 0, 15, NULL, "Zen 2", NULL},
  {0x18, 0x00, 0xff, 0, 15, "Dhyana", "Zen", NULL},
  {0x19, 0x00, 0x0f, 0, 15, "Milan", "Zen 3", NULL},
  {0x19, 0x10, 0x1f, 0, 15, "Genoa", "Zen 4", NULL},
  {0x19, 0x20, 0x2f, 0, 15, "Vermeer", "Zen 3", NULL},
  {0x19, 0x40, 0x4f, 0, 15, "Rembrandt", "Zen 3+", NULL},
  {0x19, 0x50, 0x5f, 0, 15, "Cezanne", "Zen 3", NULL},
  {0x19, 0x60, 0x6f, 0, 15, "Raphael", "Zen 4", NULL},
  {0x19, 0x70, 0x7f, 0, 15, "Phoenix", "Zen 4", NULL},
  {0x19, 0xa0, 0xaf, 0, 15, "Bergamo", "Zen 4c", NULL},
  {0x1a, 0x00, 0xff, 0, 15, NULL, "Zen 5", NULL},
};

static const struct
{
  const char *id, *name;
} vendors[] = {
  {"GenuineIntel", "Intel"},
  {"AuthenticAMD", "AMD"},
  {"HygonGenuine", "Hygon"},
  {"CentaurHauls", "Centaur"},
  {"  Shanghai  ", "Zhaoxin"},
  {"VIA VIA VIA ", "VIA"},
  {"GenuineTMx86", "Transmeta"},
};

const char *
si_x86_vendor_name (const char *vendor_id)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (vendors); i++)
    if (strcmp (vendors[i].id, vendor_id) == 0)
      return vendors[i].name;
  return NULL;
}

static const struct x86_model *
find_model (const char *vendor_id, int family, int model, int stepping)
{
  const struct x86_model *t;
  size_t n, i;

  if (strcmp (vendor_id, "GenuineIntel") == 0)
    t = intel_models, n = GB_ARRAY_SIZE (intel_models);
  else if (strcmp (vendor_id, "AuthenticAMD") == 0
           || strcmp (vendor_id, "HygonGenuine") == 0)
    t = amd_models, n = GB_ARRAY_SIZE (amd_models);
  else
    return NULL;
  for (i = 0; i < n; i++)
    if (t[i].family == family && model >= t[i].model_lo
        && model <= t[i].model_hi && stepping >= t[i].step_lo
        && stepping <= t[i].step_hi)
      return &t[i];
  return NULL;
}

const char *
si_x86_uarch (const char *vendor_id, int family, int model, int stepping)
{
  const struct x86_model *m = find_model (vendor_id, family, model, stepping);
  return m ? m->uarch : NULL;
}

const char *
si_x86_uarch_e (const char *vendor_id, int family, int model, int stepping)
{
  const struct x86_model *m = find_model (vendor_id, family, model, stepping);
  return m ? m->uarch_e : NULL;
}

const char *
si_x86_codename (const char *vendor_id, int family, int model, int stepping)
{
  const struct x86_model *m = find_model (vendor_id, family, model, stepping);
  return m ? m->codename : NULL;
}

