/* cpu_brand.c: the brand rule of cpu_brand.h.  The makers are the x86
 * vendors whose brand strings say their name (Intel and AMD); a maker is
 * named by an identity holding its CPUID vendor string, a vendor member
 * equal to its name, or a brand string holding its name anywhere.
 *
 * A brand that advertises never names a CPU: one holding a control
 * character (C0, DEL, C1, or a Unicode bidirectional control, which
 * reorders what a page shows), a URL ("://"), or a domain name, which
 * every e-mail address and most URLs hold.  A domain name is two labels
 * or more (ASCII letters, digits, hyphens, or any non-ASCII character)
 * joined by dots (".", or the ideographic and full-width dots a browser
 * reads as one), the last a top-level domain: two characters or more,
 * none an ASCII digit or hyphen, or an IDN's "xn--" form.  So "2.5+",
 * "3.20GHz" and "KX-U6780A@2.7GHz" (a Zhaoxin brand) name no domain,
 * while "spam.example" and "me@spam.example" do. */
#include "model/cpu_brand.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

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

/* Whether the character at S is a control character (see the top). */
static int
control_at (const unsigned char *s)
{
  return s[0] < 0x20 || s[0] == 0x7f
    || (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)   /* C1 */
    || (s[0] == 0xd8 && s[1] == 0x9c)                    /* U+061C */
    || (s[0] == 0xe2 && s[1] == 0x80                     /* U+200E, U+200F, U+202A-E */
        && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae)))
    || (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9);  /* U+2066-9 */
}

/* The length of the dot at S: ".", U+3002, U+FF0E, U+FF61; 0 for none. */
static size_t
dot_at (const unsigned char *s)
{
  if (s[0] == '.')
    return 1;
  if ((s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x82)
      || (s[0] == 0xef && s[1] == 0xbc && s[2] == 0x8e)
      || (s[0] == 0xef && s[1] == 0xbd && s[2] == 0xa1))
    return 3;
  return 0;
}

static int
label_char (unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
    || c >= 0x80;
}

/* Whether the label S[0..LEN) may be a top-level domain. */
static int
top_level (const unsigned char *s, size_t len)
{
  if (len >= 5 && strncasecmp ((const char *) s, "xn--", 4) == 0)
    return 1;
  for (size_t i = 0; i < len; i++)
    if ((s[i] >= '0' && s[i] <= '9') || s[i] == '-')
      return 0;
  return len >= 2;
}

/* Whether the run of labels and dots at S (a label character) is a
 * domain name; *END is set past the run. */
static int
domain_at (const unsigned char *s, const unsigned char **end)
{
  const unsigned char *label = s;
  size_t labels = 0, dot;

  for (;;)
    {
      label = s;
      while (*s && !dot_at (s) && label_char (*s))
        s++;
      labels++;
      if (!(dot = dot_at (s)) || !label_char (s[dot]) || dot_at (s + dot))
        break;                  /* the run ends, maybe with a dot: "spam.example." */
      s += dot;
    }
  *end = s + dot;
  return labels >= 2 && top_level (label, (size_t) (s - label));
}

/* Whether BRAND advertises (see the top). */
static int
advertises (const char *brand)
{
  const unsigned char *s = (const unsigned char *) brand, *end;
  if (strstr (brand, "://"))
    return 1;
  for (const unsigned char *c = s; *c; c++)
    if (control_at (c))
      return 1;
  while (*s)
    if (label_char (*s) && !dot_at (s))
      {
        if (domain_at (s, &end))
          return 1;
        s = end;
      }
    else
      s++;
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
    && (!by_vendor || names (brand, by_vendor)) && !advertises (brand);
}
