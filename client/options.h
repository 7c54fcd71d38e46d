/* options.h: the options of a gmpbench command, declared once as a table
 * that drives both their parsing (getopt_long underneath) and the option
 * list of the command's --help.
 *
 * Each row names the option, says what its value is and where it goes:
 *
 *   struct gb_option options[] = {
 *     OPT_FLAG ('q', "quiet", &o.quiet, "no progress bar"),
 *     OPT_SECONDS (0, "timeout", &o.timeout, "give up after SECS"),
 *     OPT_END
 *   };
 *
 * The rows hold pointers into the command's settings, so a table is built
 * where those settings live.  A help text may span lines ('\n'); the list
 * indents them.  -h/--help is added to every table.  Value errors are
 * reported here, one wording per kind, as "gmpbench CMD: ..." (gb_error). */
#ifndef GB_CLIENT_OPTIONS_H
#define GB_CLIENT_OPTIONS_H

#include <stdio.h>

enum option_kind
{
  OPTION_END,
  OPTION_FLAG,                  /* no value; sets an int to 1 */
  OPTION_STRING,                /* the value as given, in a const char * */
  OPTION_SECONDS,               /* seconds in (0, 3600], in a double */
  OPTION_COUNT,                 /* a whole number in [min, max], in an int */
  OPTION_CALLBACK               /* the row's parse function takes the value */
};

/* What parsing an option, or a whole command line, comes to. */
enum option_result
{
  OPTIONS_BAD = -1,             /* a usage error, already reported */
  OPTIONS_OK = 0,               /* go on */
  OPTIONS_DONE = 1              /* answered (--help): the command ends, status 0 */
};

struct gb_option;

/* Parses ARG, the value of OPT given to the command CMD, into OPT->value. */
typedef enum option_result option_parse_fn (const struct gb_option *opt, const char *cmd,
                                            const char *arg);

struct gb_option
{
  enum option_kind kind;
  const char *name;             /* the long name, without "--" */
  int letter;                   /* the short name, or 0 */
  const char *metavar;          /* the value's name in --help; NULL: takes no value */
  const char *help;
  void *value;                  /* where the value goes, typed by the kind */
  option_parse_fn *parse;       /* OPTION_CALLBACK */
  int min, max;                 /* OPTION_COUNT */
  const char *needs;            /* another option's name without which this one is
                                   an error, or NULL */
};

#define OPERANDS_ANY -1

/* A command's options, the --help text around their list, and how many
 * operands (arguments that are not options) it takes. */
struct option_table
{
  const char *cmd;              /* "run": messages say "gmpbench run: " */
  const char *usage;            /* --help before the option list */
  const char *epilogue;         /* --help after it */
  const struct gb_option *options;      /* ending with OPT_END */
  int max_operands;             /* at most, or OPERANDS_ANY */
  const char *operand;          /* the operand's name, when one at least is
                                   needed ("no FILE given"), or NULL */
};

/* The rows.  PTR's type is checked against the kind's (a pointer type
 * mismatch warning otherwise).  More members may follow the help text, as
 * designated initializers: OPT_FLAG (0, "unlisted", &u, "...", .needs =
 * "submit"). */
#define OPT_TYPED(type, ptr) ((void *) (1 ? (ptr) : (type *) 0))
#define OPT_FLAG(l, n, ptr, h, ...) \
  { .kind = OPTION_FLAG, .name = n, .letter = l, .help = h, \
    .value = OPT_TYPED (int, ptr), __VA_ARGS__ }
#define OPT_STRING(l, n, meta, ptr, h, ...) \
  { .kind = OPTION_STRING, .name = n, .letter = l, .metavar = meta, .help = h, \
    .value = OPT_TYPED (const char *, ptr), __VA_ARGS__ }
#define OPT_SECONDS(l, n, ptr, h, ...) \
  { .kind = OPTION_SECONDS, .name = n, .letter = l, .metavar = "SECS", .help = h, \
    .value = OPT_TYPED (double, ptr), __VA_ARGS__ }
#define OPT_COUNT(l, n, meta, ptr, lo, hi, h, ...) \
  { .kind = OPTION_COUNT, .name = n, .letter = l, .metavar = meta, .help = h, \
    .value = OPT_TYPED (int, ptr), .min = lo, .max = hi, __VA_ARGS__ }
#define OPT_CALLBACK(l, n, meta, ptr, fn, h, ...) \
  { .kind = OPTION_CALLBACK, .name = n, .letter = l, .metavar = meta, .help = h, \
    .value = ptr, .parse = fn, __VA_ARGS__ }
#define OPT_END { .kind = OPTION_END }

/* Parses the options of ARGV (ARGV[0] is the command's name) as TABLE
 * says, in any order among the operands (which getopt_long moves to the
 * end), and sets *OPERANDS (unless NULL) to the index of the first
 * operand.  Prints the --help text on stdout for -h/--help (OPTIONS_DONE);
 * reports an unknown option, a missing or bad value, an option given
 * without the one it needs, and too many or too few operands
 * (OPTIONS_BAD). */
enum option_result options_parse (const struct option_table *table, int argc, char **argv,
                                  int *operands);

/* The --help text of TABLE: its usage, the option list, its epilogue. */
void options_usage (const struct option_table *table, FILE *out);

#endif
