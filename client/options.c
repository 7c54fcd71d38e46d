/* options.c: a command's option table (options.h) turned into the
 * arrays getopt_long wants, the values checked and stored by kind, and
 * the option list of --help; and gb_error (gmpbench.h), the one form of
 * every command's error messages, these included. */
#include "client/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "client/gmpbench.h"
#include "common/util.h"

#define HELP_COLUMN 26          /* where the help texts start in --help */
#define LONG_CODE 256           /* getopt_long's code of row i: LONG_CODE + i */
#define MAX_SECONDS 3600

void
gb_error (const char *cmd, const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "gmpbench%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static const struct gb_option help_row =
  OPT_FLAG ('h', "help", NULL, "this text");

static size_t
count_rows (const struct gb_option *options)
{
  size_t n = 0;
  while (options[n].kind != OPTION_END)
    n++;
  return n;
}

/* Seconds in (0, MAX_SECONDS]; 0 or -1. */
static int
parse_seconds (const char *s, double *out)
{
  char *end;
  double v = strtod (s, &end);
  if (end == s || *end != '\0' || !(v > 0) || v > MAX_SECONDS)
    return -1;
  *out = v;
  return 0;
}

/* A whole number in [MIN, MAX]; 0 or -1. */
static int
parse_count (const char *s, int min, int max, int *out)
{
  char *end;
  long v = strtol (s, &end, 10);
  if (end == s || *end != '\0' || v < min || v > max)
    return -1;
  *out = (int) v;
  return 0;
}

/* Stores ARG (NULL for a flag) as OPT's kind says. */
static enum option_result
take_value (const struct gb_option *opt, const char *cmd, const char *arg)
{
  switch (opt->kind)
    {
    case OPTION_FLAG:
      *(int *) opt->value = 1;
      return OPTIONS_OK;
    case OPTION_STRING:
      *(const char **) opt->value = arg;
      return OPTIONS_OK;
    case OPTION_SECONDS:
      if (parse_seconds (arg, opt->value) == 0)
        return OPTIONS_OK;
      gb_error (cmd, "--%s wants seconds (0 < SECS <= %d), not '%s'", opt->name,
                MAX_SECONDS, arg);
      return OPTIONS_BAD;
    case OPTION_COUNT:
      if (parse_count (arg, opt->min, opt->max, opt->value) == 0)
        return OPTIONS_OK;
      gb_error (cmd, "--%s wants a count from %d to %d, not '%s'", opt->name, opt->min,
                opt->max, arg);
      return OPTIONS_BAD;
    case OPTION_CALLBACK:
      return opt->parse (opt, cmd, arg);
    case OPTION_END:
      break;
    }
  return OPTIONS_BAD;
}

/* The row of getopt_long's code C (one it was given, not --help's). */
static const struct gb_option *
row_of (const struct gb_option *options, int c)
{
  if (c >= LONG_CODE)
    return &options[c - LONG_CODE];
  while (options->letter != c)
    options++;
  return options;
}

/* The option that getopt_long found wrong: the letter of a short option
 * (which may be one of several in an argument), else the argument. */
static const char *
wrong_option (char **argv, char *letter)
{
  if (optopt > 0 && optopt < LONG_CODE)
    {
      letter[0] = '-';
      letter[1] = (char) optopt;
      letter[2] = '\0';
      return letter;
    }
  return argv[optind - 1];
}

/* The row given last among those whose needed option is missing. */
static const struct gb_option *
missing_need (const struct gb_option *options, size_t n, const int *given)
{
  const struct gb_option *worst = NULL;
  int worst_at = 0;
  for (size_t i = 0; i < n; i++)
    if (given[i] > worst_at && options[i].needs)
      {
        int needed = 0;
        for (size_t j = 0; j < n; j++)
          if (strcmp (options[j].name, options[i].needs) == 0)
            needed = given[j];
        if (!needed)
          {
            worst = &options[i];
            worst_at = given[i];
          }
      }
  return worst;
}

/* After the options of ARGV, up to optind: LONE (a row given without the
 * one it needs) and the operands checked. */
static enum option_result
check_counts (const struct option_table *table, int argc, char **argv,
              const struct gb_option *lone)
{
  int count = argc - optind;
  if (lone)
    gb_error (table->cmd, "--%s is an option of --%s, which is not given", lone->name,
              lone->needs);
  else if (table->operand && count == 0)
    gb_error (table->cmd, "no %s given; see 'gmpbench %s --help'", table->operand, table->cmd);
  else if (table->max_operands != OPERANDS_ANY && count > table->max_operands)
    gb_error (table->cmd, "unexpected argument '%s'; see 'gmpbench %s --help'",
              argv[optind + table->max_operands], table->cmd);
  else
    return OPTIONS_OK;
  return OPTIONS_BAD;
}

/* getopt_long's view of OPTIONS (N rows), then --help: its short options
 * in SHORTS (room for 2 N + 3) and its long ones in the result. */
static struct option *
getopt_arrays (const struct gb_option *options, size_t n, char *shorts)
{
  struct option *longs = gb_xcalloc (n + 2, sizeof *longs);
  char *s = shorts;
  *s++ = ':';                   /* ':' for a missing value, not '?' */
  for (size_t i = 0; i < n; i++)
    {
      longs[i].name = options[i].name;
      longs[i].has_arg = options[i].metavar ? required_argument : no_argument;
      longs[i].val = LONG_CODE + (int) i;
      if (options[i].letter)
        {
          *s++ = (char) options[i].letter;
          if (options[i].metavar)
            *s++ = ':';
        }
    }
  longs[n].name = help_row.name;
  longs[n].val = help_row.letter;
  *s++ = (char) help_row.letter;
  *s = '\0';
  return longs;
}

enum option_result
options_parse (const struct option_table *table, int argc, char **argv, int *operands)
{
  const struct gb_option *options = table->options;
  size_t n = count_rows (options);
  char *shorts = gb_xmalloc (2 * n + 3);
  struct option *longs = getopt_arrays (options, n, shorts);
  int *given = gb_xcalloc (n + 1, sizeof *given);     /* order of each row's last use */
  enum option_result rc = OPTIONS_OK;
  char letter[3];
  int c, uses = 0;

  opterr = 0;
  optind = 0;                   /* a full restart, even after an earlier parse */
  while (rc == OPTIONS_OK && (c = getopt_long (argc, argv, shorts, longs, NULL)) != -1)
    {
      if (c == ':')
        {
          gb_error (table->cmd, "option '%s' needs a value", wrong_option (argv, letter));
          rc = OPTIONS_BAD;
        }
      else if (c == '?')
        {
          gb_error (table->cmd, "unknown option '%s'; see 'gmpbench %s --help'",
                    wrong_option (argv, letter), table->cmd);
          rc = OPTIONS_BAD;
        }
      else if (c == help_row.letter)
        {
          options_usage (table, stdout);
          rc = OPTIONS_DONE;
        }
      else
        {
          const struct gb_option *opt = row_of (options, c);
          given[opt - options] = ++uses;
          rc = take_value (opt, table->cmd, optarg);
        }
    }
  if (operands)
    *operands = optind;
  if (rc == OPTIONS_OK)
    rc = check_counts (table, argc, argv, missing_need (options, n, given));
  free (given);
  free (longs);
  free (shorts);
  return rc;
}

/* One line of the option list: "  -o, --output FILE" and the help text,
 * its further lines indented to the same column. */
static void
print_row (FILE *out, const struct gb_option *opt)
{
  char letter[8] = "", spec[128];
  if (opt->letter)
    snprintf (letter, sizeof letter, "-%c, ", opt->letter);
  snprintf (spec, sizeof spec, "  %s--%s%s%s", letter, opt->name, opt->metavar ? " " : "",
            opt->metavar ? opt->metavar : "");
  fputs (spec, out);
  int width = (int) strlen (spec);
  if (width >= HELP_COLUMN)
    {
      fputc ('\n', out);
      width = 0;
    }
  fprintf (out, "%*s", HELP_COLUMN - width, "");
  for (const char *h = opt->help; *h; h++)
    {
      fputc (*h, out);
      if (*h == '\n')
        fprintf (out, "%*s", HELP_COLUMN, "");
    }
  fputc ('\n', out);
}

void
options_usage (const struct option_table *table, FILE *out)
{
  fputs (table->usage, out);
  for (const struct gb_option *opt = table->options; opt->kind != OPTION_END; opt++)
    print_row (out, opt);
  print_row (out, &help_row);
  fputs (table->epilogue, out);
}
