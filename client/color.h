/* color.h: when the text output may use colour, and the escape sequences
 * for it.
 *
 * Colour is for terminals only: never when the stream is not a terminal,
 * never when NO_COLOR is set to anything non-empty (https://no-color.org),
 * and never with TERM=dumb.  Renderers take a palette whose sequences are
 * empty strings when colour is off, so they print the same way in both
 * cases. */
#ifndef GB_COLOR_H
#define GB_COLOR_H

#include <stdio.h>

struct palette
{
  const char *bold, *dim, *good, *bad, *warn, *reset;
};

/* Whether F may be coloured. */
int color_wanted (FILE *f);

/* The palette for colour on (ENABLED) or off. */
const struct palette *color_palette (int enabled);

#endif
