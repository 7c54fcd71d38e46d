/* si_format.h: numbers for people, with an SI suffix, as the reports and
 * the server's pages print ops/s. */
#ifndef GB_SI_FORMAT_H
#define GB_SI_FORMAT_H

#include <stddef.h>

/* V with 4 significant digits and an SI suffix (k, M, G, T): "64.24 M";
 * "-" for NaN. */
void si_format (double v, char *buf, size_t len);

#endif
