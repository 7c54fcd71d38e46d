/* si_format.c: numbers with an SI suffix (see si_format.h). */
#include "model/si_format.h"

#include <math.h>
#include <stdio.h>

void
si_format (double v, char *buf, size_t len)
{
  static const char suffix[] = " kMGT";
  int i = 0;
  if (isnan (v))
    {
      snprintf (buf, len, "-");
      return;
    }
  while (fabs (v) >= 1000 && i < 4)
    {
      v /= 1000;
      i++;
    }
  snprintf (buf, len, "%.4g%s%.*s", v, i ? " " : "", i ? 1 : 0, suffix + i);
}
