/* color.c: the colour decision and the two palettes (see color.h). */
#include "client/color.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
color_wanted (FILE *f)
{
  const char *no_color = getenv ("NO_COLOR");
  const char *term = getenv ("TERM");
  if (no_color && *no_color)
    return 0;
  if (term && strcmp (term, "dumb") == 0)
    return 0;
  return isatty (fileno (f));
}

const struct palette *
color_palette (int enabled)
{
  static const struct palette plain = { "", "", "", "", "", "" };
  static const struct palette ansi = {
    "\033[1m", "\033[2m", "\033[32m", "\033[31m", "\033[33m", "\033[0m"
  };
  return enabled ? &ansi : &plain;
}
