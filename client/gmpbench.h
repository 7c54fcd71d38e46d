/* gmpbench.h: the subcommands of the gmpbench client (one file each, git
 * builtin style) and the form of their error messages; options.h has the
 * option tables they parse their command lines with. */
#ifndef GB_GMPBENCH_H
#define GB_GMPBENCH_H

#include <stdio.h>

/* Exit codes. */
#define EXIT_USAGE 2            /* bad option, pattern matching nothing... */
#define EXIT_WRONG 3            /* a benchmark computed a wrong result */
#define EXIT_CLOCK 4            /* the system clock disagrees with the CPU's
                                   counter (engine/clock_check.h) */
#define EXIT_INTERRUPTED 130

int cmd_run (int argc, char **argv);
int cmd_list (int argc, char **argv);
int cmd_show (int argc, char **argv);
int cmd_compare (int argc, char **argv);
int cmd_sysinfo (int argc, char **argv);
int cmd_verify (int argc, char **argv);
int cmd_submit (int argc, char **argv);
int cmd_retract (int argc, char **argv);
int cmd_key (int argc, char **argv);
int cmd_status (int argc, char **argv);

/* Print "gmpbench CMD: MESSAGE" on stderr. */
void gb_error (const char *cmd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

#endif
