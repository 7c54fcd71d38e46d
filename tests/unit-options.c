/* unit-options.c: the option tables of the client (client/options.h):
 * values stored by kind, operands found after getopt_long's reordering,
 * the messages for an unknown option, a missing value, a bad number, an
 * option given without the one it needs and a wrong number of operands,
 * the --help list; and the
 * upload options that run, submit and retract share, through the
 * commands themselves. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/check.h"
#include "client/gmpbench.h"
#include "client/upload_options.h"

#define CAPTURED 8192

/* Standard output and error of the code between capture_start and
 * capture_end, as strings; the error's last newline taken off, so that it
 * reads as one line in a check's message. */
struct capture
{
  FILE *out, *err;
  int saved_out, saved_err;
  char out_text[CAPTURED], err_text[CAPTURED];
};

static void
capture_start (struct capture *c)
{
  fflush (stdout);
  fflush (stderr);
  c->out = tmpfile ();
  c->err = tmpfile ();
  if (!c->out || !c->err)
    {
      perror ("unit-options: tmpfile");
      exit (1);
    }
  c->saved_out = dup (STDOUT_FILENO);
  c->saved_err = dup (STDERR_FILENO);
  dup2 (fileno (c->out), STDOUT_FILENO);
  dup2 (fileno (c->err), STDERR_FILENO);
}

static void
read_back (FILE *f, char *text)
{
  rewind (f);
  size_t n = fread (text, 1, CAPTURED - 1, f);
  text[n] = '\0';
  fclose (f);
}

static void
capture_end (struct capture *c)
{
  fflush (stdout);
  fflush (stderr);
  dup2 (c->saved_out, STDOUT_FILENO);
  dup2 (c->saved_err, STDERR_FILENO);
  close (c->saved_out);
  close (c->saved_err);
  read_back (c->out, c->out_text);
  read_back (c->err, c->err_text);
  size_t n = strlen (c->err_text);
  if (n && c->err_text[n - 1] == '\n')
    c->err_text[n - 1] = '\0';
}

/* The settings of the demo command, and its table. */
struct demo
{
  int quiet, dry, count;
  const char *output, *name;
  double seconds;
  int upload;
};

static enum option_result
name_option (const struct gb_option *opt, const char *cmd, const char *arg)
{
  if (strchr (arg, ' '))
    {
      gb_error (cmd, "--%s '%s' has a space", opt->name, arg);
      return OPTIONS_BAD;
    }
  *(const char **) opt->value = arg;
  return OPTIONS_OK;
}

static const char demo_usage[] = "usage: gmpbench demo [options] FILE...\n\n";
static const char demo_epilogue[] = "\nthe end\n";

/* Parses the NULL-terminated ARGS ("demo" first) into D, capturing the
 * output in C; the result, and the index of the first operand in
 * *OPERANDS.  ARGV keeps the order getopt_long leaves. */
static enum option_result
parse_demo (struct demo *d, struct capture *c, char **argv, int *operands)
{
  const struct gb_option options[] = {
    OPT_FLAG ('q', "quiet", &d->quiet, "say less"),
    OPT_STRING ('o', "output", "FILE", &d->output, "write to FILE,\nnot to standard output"),
    OPT_SECONDS (0, "wait", &d->seconds, "wait SECS"),
    OPT_COUNT ('n', "count", "N", &d->count, 1, 9, "N times"),
    OPT_CALLBACK (0, "name", "NAME", &d->name, name_option, "a NAME without spaces"),
    OPT_FLAG (0, "upload", &d->upload, "upload"),
    OPT_FLAG (0, "dry", &d->dry, "a dry upload", .needs = "upload"),
    OPT_END
  };
  const struct option_table table = { "demo", demo_usage, demo_epilogue, options,
                                      OPERANDS_ANY, NULL };
  int argc = 0;
  while (argv[argc])
    argc++;
  memset (d, 0, sizeof *d);
  capture_start (c);
  enum option_result rc = options_parse (&table, argc, argv, operands);
  capture_end (c);
  return rc;
}

/* parse_demo of a copy of the NULL-terminated arguments after "demo". */
#define DEMO(d, c, operands, ...) \
  parse_demo (d, c, (char *[]) { "demo", __VA_ARGS__, NULL }, operands)

static void
test_values (void)
{
  struct demo d;
  struct capture c;
  int operands;
  char *argv[] = { "demo", "a.json", "-qo", "out.txt", "--wait=2.5", "b.json", "--count", "3",
                   "--name", "x", "--upload", "--dry", NULL };
  enum option_result rc = parse_demo (&d, &c, argv, &operands);
  check (rc == OPTIONS_OK && d.quiet && d.output && strcmp (d.output, "out.txt") == 0
         && d.seconds == 2.5 && d.count == 3 && strcmp (d.name, "x") == 0 && d.upload && d.dry,
         "every kind stores its value (flag, string, seconds, count, callback)");
  check (rc == OPTIONS_OK && operands == 10 && strcmp (argv[10], "a.json") == 0
         && strcmp (argv[11], "b.json") == 0 && !c.err_text[0],
         "the operands come after the options, in their order, and nothing is said");
  rc = DEMO (&d, &c, &operands, "--qu", "--", "--dry");
  check (rc == OPTIONS_OK && d.quiet && !d.dry && operands == 3,
         "an unambiguous abbreviation is taken; after -- an option is an operand");
}

static void
test_errors (void)
{
  struct demo d;
  struct capture c;
  int operands;
  enum option_result rc = DEMO (&d, &c, &operands, "--frobnicate");
  check (rc == OPTIONS_BAD && strcmp (c.err_text, "gmpbench demo: unknown option "
                                      "'--frobnicate'; see 'gmpbench demo --help'") == 0,
         "an unknown long option is named, with where to look: %s", c.err_text);
  rc = DEMO (&d, &c, &operands, "-xq");
  check (rc == OPTIONS_BAD && strstr (c.err_text, "unknown option '-x';"),
         "an unknown letter in a bundle is named alone: %s", c.err_text);
  rc = DEMO (&d, &c, &operands, "-q");
  check (rc == OPTIONS_OK && d.quiet, "a parse after one stopped mid-bundle starts afresh");
  rc = DEMO (&d, &c, &operands, "--quiet=yes");
  check (rc == OPTIONS_BAD && strstr (c.err_text, "unknown option '--quiet=yes'"),
         "a value given to a flag is an unknown option: %s", c.err_text);
  rc = DEMO (&d, &c, &operands, "--output");
  check (rc == OPTIONS_BAD
         && strcmp (c.err_text, "gmpbench demo: option '--output' needs a value") == 0,
         "a missing value is named: %s", c.err_text);
  rc = DEMO (&d, &c, &operands, "-qo");
  check (rc == OPTIONS_BAD && strstr (c.err_text, "option '-o' needs a value"),
         "a missing value of a bundled letter is named: %s", c.err_text);
  const char *bad_seconds[] = { "0", "-1", "abc", "3601", "2s", "" };
  for (size_t i = 0; i < sizeof bad_seconds / sizeof *bad_seconds; i++)
    {
      char *arg = (char *) bad_seconds[i];
      rc = DEMO (&d, &c, &operands, "--wait", arg);
      char want[128];
      snprintf (want, sizeof want,
                "gmpbench demo: --wait wants seconds (0 < SECS <= 3600), not '%s'", arg);
      check (rc == OPTIONS_BAD && strcmp (c.err_text, want) == 0,
             "seconds '%s' are refused: %s", arg, c.err_text);
    }
  rc = DEMO (&d, &c, &operands, "--wait", "3600");
  check (rc == OPTIONS_OK && d.seconds == 3600, "3600 seconds are taken");
  const char *bad_counts[] = { "0", "10", "-1", "2x", "x", "" };
  for (size_t i = 0; i < sizeof bad_counts / sizeof *bad_counts; i++)
    {
      char *arg = (char *) bad_counts[i];
      rc = DEMO (&d, &c, &operands, "-n", arg);
      char want[128];
      snprintf (want, sizeof want, "gmpbench demo: --count wants a count from 1 to 9, not '%s'",
                arg);
      check (rc == OPTIONS_BAD && strcmp (c.err_text, want) == 0,
             "count '%s' is refused: %s", arg, c.err_text);
    }
  rc = DEMO (&d, &c, &operands, "--name", "a b");
  check (rc == OPTIONS_BAD && strstr (c.err_text, "--name 'a b' has a space"),
         "a callback's refusal stops the parse with its message");
  rc = DEMO (&d, &c, &operands, "--dry");
  check (rc == OPTIONS_BAD && strcmp (c.err_text, "gmpbench demo: --dry is an option of "
                                      "--upload, which is not given") == 0,
         "an option without the one it needs is refused: %s", c.err_text);
}

/* options_parse of the NULL-terminated ARGV by a table without options
 * that takes 1 to MAX operands named FILE (MAX OPERANDS_ANY: any number),
 * its message in C. */
static enum option_result
parse_operands (int max, char **argv, struct capture *c)
{
  const struct gb_option none[] = { OPT_END };
  const struct option_table table = { "demo", "", "", none, max, "FILE" };
  int argc = 0;
  while (argv[argc])
    argc++;
  capture_start (c);
  enum option_result rc = options_parse (&table, argc, argv, NULL);
  capture_end (c);
  return rc;
}

static void
test_operands (void)
{
  struct capture c;
  enum option_result rc = parse_operands (1, (char *[]) { "demo", NULL }, &c);
  check (rc == OPTIONS_BAD
         && strcmp (c.err_text, "gmpbench demo: no FILE given; see 'gmpbench demo --help'") == 0,
         "a missing operand is named: %s", c.err_text);
  rc = parse_operands (1, (char *[]) { "demo", "a", "b", NULL }, &c);
  check (rc == OPTIONS_BAD && strcmp (c.err_text, "gmpbench demo: unexpected argument 'b'; "
                                      "see 'gmpbench demo --help'") == 0,
         "the first operand too many is named: %s", c.err_text);
  rc = parse_operands (OPERANDS_ANY, (char *[]) { "demo", "a", "b", "c", NULL }, &c);
  check (rc == OPTIONS_OK && !c.err_text[0], "OPERANDS_ANY takes any number");
}

static void
test_help (void)
{
  struct demo d;
  struct capture c;
  int operands;
  enum option_result rc = DEMO (&d, &c, &operands, "--dry", "-h", "--frobnicate");
  check (rc == OPTIONS_DONE && !c.err_text[0], "-h ends the parse, before later errors");
  check (strncmp (c.out_text, demo_usage, strlen (demo_usage)) == 0
         && strstr (c.out_text, "\n  -q, --quiet             say less\n")
         && strstr (c.out_text, "\n  -o, --output FILE       write to FILE,\n"
                    "                          not to standard output\n")
         && strstr (c.out_text, "\n  --wait SECS             wait SECS\n")
         && strstr (c.out_text, "\n  -n, --count N           N times\n"),
         "--help lists each option with its value's name, lines indented alike");
  const char *end = "  -h, --help              this text\n\nthe end\n";
  size_t len = strlen (c.out_text);
  check (len > strlen (end) && strcmp (c.out_text + len - strlen (end), end) == 0,
         "--help ends with -h, --help and the epilogue");
}

static void
test_upload_rows (void)
{
  struct submit_options so;
  int submit = 0, operands;
  struct capture c;
  const struct gb_option options[] = {
    OPT_FLAG (0, "submit", &submit, "upload"),
    UPLOAD_UNLISTED_OPTION (&so, "submit"),
    UPLOAD_OPTIONS (&so, "submit"),
    OPT_END
  };
  const struct option_table table = { "demo", "", "", options, 0, NULL };
  char *argv[] = { "demo", "--server", "http://127.0.0.1:1", "--cacert", "ca.pem", "--dry-run",
                   "--unlisted", "--timeout", "2.5", "--retries", "0", "--submit", NULL };
  submit_options_init (&so, "demo");
  capture_start (&c);
  enum option_result rc = options_parse (&table, 12, argv, &operands);
  capture_end (&c);
  check (rc == OPTIONS_OK && submit && strcmp (so.server, "http://127.0.0.1:1") == 0
         && strcmp (so.cacert, "ca.pem") == 0 && so.dry_run && so.unlisted && so.timeout == 2.5
         && so.retries == 0, "the upload options fill a struct submit_options");
  char *lone[] = { "demo", "--timeout", "5", "--cacert", "ca.pem", NULL };
  capture_start (&c);
  rc = options_parse (&table, 5, lone, &operands);
  capture_end (&c);
  check (rc == OPTIONS_BAD && strstr (c.err_text, "--cacert is an option of --submit"),
         "without the option they need, the last one given is named: %s", c.err_text);
}

/* The exit status of CMD with the NULL-terminated ARGV, its output in C.
 * (Not inlined: GCC 12 then warns, wrongly, that the names printed
 * after the calls may be null.) */
static int __attribute__ ((noinline))
command (int (*cmd) (int, char **), struct capture *c, char **argv)
{
  int argc = 0;
  while (argv[argc])
    argc++;
  capture_start (c);
  int status = cmd (argc, argv);
  capture_end (c);
  return status;
}

/* The lines of TEXT from the one starting with FIRST to the last line of
 * the option starting with LAST, in OUT (empty when either is missing). */
static void
option_lines (const char *text, const char *first, const char *last, char *out, size_t size)
{
  const char *from = strstr (text, first), *lastopt = from ? strstr (from, last) : NULL;
  const char *to = lastopt ? strstr (lastopt, "\n  -") : NULL;
  snprintf (out, size, "%.*s", to ? (int) (to + 1 - from) : 0, to ? from : "");
}

static void
test_shared_in_commands (void)
{
  static const struct
  {
    const char *name;
    int (*fn) (int, char **);
    char *extra;                /* what the command needs besides the option */
  } cmds[] = {
    { "run", cmd_run, "--submit" },
    { "submit", cmd_submit, "file.json" },
    { "retract", cmd_retract, "0123456789abcdef" },
  };
  char first_help[CAPTURED] = "";
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
    {
      const char *name = cmds[i].name;
      char *cmd = (char *) name, want[256], help[CAPTURED];
      struct capture c;
      int status = command (cmds[i].fn, &c, (char *[]) { cmd, "--timeout", "0", cmds[i].extra,
                                                          NULL });
      snprintf (want, sizeof want,
                "gmpbench %s: --timeout wants seconds (0 < SECS <= 3600), not '0'", name);
      check (status == EXIT_USAGE && strcmp (c.err_text, want) == 0,
             "%s --timeout 0 exits 2 with the shared message: %s", name, c.err_text);
      status = command (cmds[i].fn, &c, (char *[]) { cmd, cmds[i].extra, "--retries", "21",
                                                      NULL });
      snprintf (want, sizeof want, "gmpbench %s: --retries wants a count from 0 to %d, not '21'",
                name, SUBMIT_MAX_RETRIES);
      check (status == EXIT_USAGE && strcmp (c.err_text, want) == 0,
             "%s --retries 21 exits 2 with the shared message: %s", name, c.err_text);
      status = command (cmds[i].fn, &c, (char *[]) { cmd, cmds[i].extra, "--server", NULL });
      snprintf (want, sizeof want, "gmpbench %s: option '--server' needs a value", name);
      check (status == EXIT_USAGE && strcmp (c.err_text, want) == 0,
             "%s --server without a URL exits 2: %s", name, c.err_text);
      status = command (cmds[i].fn, &c, (char *[]) { cmd, "--cacert", "ca.pem", "--nosuch",
                                                      NULL });
      snprintf (want, sizeof want, "gmpbench %s: unknown option '--nosuch'; see 'gmpbench %s "
                "--help'", name, name);
      check (status == EXIT_USAGE && strcmp (c.err_text, want) == 0,
             "%s names an unknown option: %s", name, c.err_text);
      status = command (cmds[i].fn, &c, (char *[]) { cmd, "--help", NULL });
      option_lines (c.out_text, "  --server URL ", "  --retries N ", help, sizeof help);
      check (status == 0 && strstr (help, "\n  --cacert FILE ") && strstr (help, "\n  --dry-run ")
             && strstr (help, "\n  --timeout SECS ") && strstr (help, "\n  --retries N "),
             "%s --help lists --server, --cacert, --dry-run, --timeout and --retries", name);
      if (i == 0)
        memcpy (first_help, help, sizeof help);
      else
        check (strcmp (help, first_help) == 0, "%s --help describes them as run --help does",
               name);
    }
  struct capture c;
  int status = command (cmd_run, &c, (char *[]) { "run", "--retries", "1", NULL });
  check (status == EXIT_USAGE
         && strcmp (c.err_text, "gmpbench run: --retries is an option of --submit, which is "
                    "not given") == 0,
         "run --retries without --submit exits 2: %s", c.err_text);
}

int
main (void)
{
  test_values ();
  test_errors ();
  test_operands ();
  test_help ();
  test_upload_rows ();
  test_shared_in_commands ();
  return check_exit_status ();
}
