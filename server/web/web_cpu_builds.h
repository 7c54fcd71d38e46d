/* web_cpu_builds.h: a CPU's results under each GMP build kind side by
 * side, a section of the CPU page (web_cpu.c; see web_cpu_builds.c). */
#ifndef GB_SERVER_WEB_CPU_BUILDS_H
#define GB_SERVER_WEB_CPU_BUILDS_H

#include <stdio.h>
#include "server/board/board.h"
#include "server/store/store.h"

/* The section on F for the CPU of BF (its other filters kept, its build
 * kind set in turn to each that has results there); nothing when fewer
 * than two kinds do.  0, or -1 when the store fails. */
int web_cpu_builds (FILE *f, struct store *st, struct board *b,
                    const struct board_filter *bf);

#endif
