/* riscv.c: naming RISC-V harts from the machine vendor, architecture and
 * implementation IDs (mvendorid is a JEDEC code) and reading the feature
 * letters and Z-extensions that matter to bignum code out of an ISA
 * string such as "rv64imafdcv_zba_zbb_zicsr". */
#include "sysinfo/internal.h"
#include "common/util.h"

#include <ctype.h>
#include <strings.h>
#include <string.h>

static const struct
{
  unsigned long long id;
  const char *name;
} vendors[] = {
  {0x489, "SiFive"}, {0x5b7, "T-Head"}, {0x31e, "Andes"},
  {0x710, "SpacemiT"}, {0x602, "Ventana"},
};

const char *
si_riscv_vendor_name (unsigned long long mvendorid)
{
  size_t i;

  for (i = 0; i < GB_ARRAY_SIZE (vendors); i++)
    if (vendors[i].id == mvendorid)
      return vendors[i].name;
  return NULL;
}

const char *
si_riscv_uarch (unsigned long long mvendorid, unsigned long long marchid,
                const char *uarch)
{
  if (uarch != NULL && strcmp (uarch, "sifive,u74-mc") == 0)
    return "SiFive U74";
  if (uarch != NULL && strncmp (uarch, "sifive,u54", 10) == 0)
    return "SiFive U54";
  if (mvendorid == 0x489 && marchid == 0x8000000000000007ULL)
    return "SiFive U7-series";
  if (mvendorid == 0x5b7 && marchid == 0)
    return "T-Head C9xx";
  return NULL;
}

/* Whether the ISA string carries the multi-letter extension EXT. */
static int
has_ext (const char *isa, const char *ext)
{
  size_t n = strlen (ext);
  const char *p = strchr (isa, '_');

  while (p != NULL)
    {
      p++;
      if (strncasecmp (p, ext, n) == 0 && (p[n] == '_' || p[n] == '\0'))
        return 1;
      p = strchr (p, '_');
    }
  return 0;
}

/* Whether the single-letter part (after "rv64", before the first '_')
 * holds LETTER. */
static int
has_letter (const char *isa, char letter)
{
  const char *p = isa;

  if (strncasecmp (p, "rv", 2) != 0)
    return 0;
  p += 2;
  while (isdigit ((unsigned char) *p))
    p++;
  for (; *p != '\0' && *p != '_'; p++)
    {
      if (*p == 'z' || *p == 'Z' || *p == 's' || *p == 'S' || *p == 'x'
          || *p == 'X')
        break;                  /* a multi-letter name without underscore */
      if (tolower ((unsigned char) *p) == letter)
        return 1;
    }
  return 0;
}

void
si_riscv_isa_features (const char *isa, cJSON *features, const char *source)
{
  /* Each feature is named as its extension. */
  static const char *exts[] = { DOC_SYS_FEATURES_ZBA, DOC_SYS_FEATURES_ZBB,
    DOC_SYS_FEATURES_ZBC, DOC_SYS_FEATURES_ZBS, DOC_SYS_FEATURES_ZBKB, DOC_SYS_FEATURES_ZVBB,
    DOC_SYS_FEATURES_ZICOND };
  size_t i;

  si_put_bool (features, DOC_SYS_FEATURES_M, has_letter (isa, 'm'), source);
  si_put_bool (features, DOC_SYS_FEATURES_V, has_letter (isa, 'v') || has_ext (isa, "v"), source);
  for (i = 0; i < GB_ARRAY_SIZE (exts); i++)
    si_put_bool (features, exts[i], has_ext (isa, exts[i]), source);
}
