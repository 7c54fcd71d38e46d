/* main.c: the gmpbench command line: global options and the dispatch to
 * one subcommand per file (cmd_*.c), as git does with its builtins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "build_config.h"
#include "client/gmpbench.h"

static const struct
{
  const char *name;
  int (*fn) (int, char **);
  const char *summary;
} commands[] = {
  { "run", cmd_run, "run the benchmark and report the GMPbench score" },
  { "show", cmd_show, "print a saved result as text, HTML, CSV or Markdown" },
  { "compare", cmd_compare, "compare saved results with a baseline, test by test" },
  { "list", cmd_list, "list the tests of the hierarchy" },
  { "sysinfo", cmd_sysinfo, "show what is known about this machine" },
  { "verify", cmd_verify, "check a result file and its signature offline" },
  { "submit", cmd_submit, "upload result files, or the queued ones" },
  { "retract", cmd_retract, "withdraw an uploaded result" },
  { "key", cmd_key, "show, export or import the signing identity" },
  { "status", cmd_status, "show the identity, the server and the queue" },
};

static void
usage (FILE *f)
{
  fprintf (f, "usage: gmpbench [--version] [--help] COMMAND [ARGS]\n\n"
           "GMPbench-compatible benchmark of big-number arithmetic.\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf (f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (f, "\n'gmpbench COMMAND --help' describes each command.\n");
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage (stderr);
      return EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0 || strcmp (argv[1], "version") == 0)
    {
      printf ("gmpbench %s\n", GB_VERSION);
      return 0;
    }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].fn (argc - 1, argv + 1);
  gb_error (NULL, "'%s' is not a command; see 'gmpbench --help'", argv[1]);
  return EXIT_USAGE;
}
