/* cpu_brand.c: the brand rule of cpu_brand.h.  The makers are the x86
 * vendors whose brand strings say their name (Intel and AMD); a maker is
 * named by an identity holding its CPUID vendor string, a vendor member
 * equal to its name, or a brand string holding its name anywhere. */
#include "model/cpu_brand.h"

#include <stddef.h>
#include <string.h>

static const struct
{
  const char *name, *vendor_id;
} makers[] = {
  { "Intel", "GenuineIntel" },
  { "AMD", "AuthenticAMD" },
};

#define NMAKERS (sizeof makers / sizeof *makers)

/* The maker an identity or vendor string S names, or NULL. */
static const char *
maker_of (const char *s)
{
  for (size_t i = 0; s && i < NMAKERS; i++)
    if (strstr (s, makers[i].vendor_id) || strcmp (s, makers[i].name) == 0)
      return makers[i].name;
  return NULL;
}

static int
names (const char *brand, const char *maker)
{
  return brand && strstr (brand, maker) != NULL;
}

static int
names_any_maker (const char *brand)
{
  for (size_t i = 0; i < NMAKERS; i++)
    if (names (brand, makers[i].name))
      return 1;
  return 0;
}

int
cpu_brand_contradicts (const char *identity, const char *vendor, const char *brand)
{
  const char *by_identity = maker_of (identity), *by_vendor = maker_of (vendor);
  return names_any_maker (brand)
    && ((by_identity && !names (brand, by_identity)) || (by_vendor && !names (brand, by_vendor)));
}

int
cpu_brand_fits (const char *identity, const char *vendor, const char *brand)
{
  const char *by_identity = maker_of (identity), *by_vendor = maker_of (vendor);
  return brand && *brand && (!by_identity || names (brand, by_identity))
    && (!by_vendor || names (brand, by_vendor));
}
