/* admin.c: the command line of `gmpbench-server admin` (admin.h).
 *
 * A table says, for each verb, what its one argument is and which
 * options it takes and needs; the command line is checked against it
 * whole (the argument's form, each text's length and bytes, the options
 * the verb has no use for) before the database is opened, so that a
 * mistyped command changes nothing.  The actor is --actor, else the
 * login name, else the name of the user the process runs as.  What is
 * checked is carried out by admin_verbs.c.
 */
#include "server/admin/admin_internal.h"

#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The options, as bits of a verb's row. */
#define TAKES_NAME 1u
#define TAKES_REASON 2u
#define TAKES_MODE 4u
#define TAKES_BUILD 8u
#define TAKES_LIMIT 16u
#define TAKES_ACTOR 32u
#define ACTS (TAKES_REASON | TAKES_ACTOR)

/* The kinds of a verb's argument. */
enum argument { NO_ARGUMENT, FINGERPRINT, RESULT_ID, CPU };

struct verb
{
  const char *name;
  enum argument argument;
  unsigned takes, needs;
};

static const struct verb verbs[] = {
  { "ban", FINGERPRINT, ACTS, 0 },
  { "unban", FINGERPRINT, ACTS, 0 },
  { "verify", FINGERPRINT, ACTS | TAKES_NAME, TAKES_NAME },
  { "unverify", FINGERPRINT, ACTS, 0 },
  { "hide", RESULT_ID, ACTS, TAKES_REASON },
  { "unhide", RESULT_ID, ACTS, 0 },
  { "rejudge", CPU, ACTS | TAKES_MODE | TAKES_BUILD, 0 },
  { "log", NO_ARGUMENT, TAKES_LIMIT, 0 },
};

static const char *const argument_names[] = { "", "FINGERPRINT", "ID", "CPU" };

/* The longest texts taken, in bytes. */
#define MAX_NAME 100
#define MAX_REASON 500
#define MAX_CPU 255
#define MAX_LIMIT 10000

void
admin_usage_forms (FILE *out)
{
  fputs ("       gmpbench-server admin ban|unban|unverify FINGERPRINT [--database DB]\n"
         "       gmpbench-server admin verify FINGERPRINT --name NAME [--database DB]\n"
         "       gmpbench-server admin hide ID --reason TEXT [--database DB]\n"
         "       gmpbench-server admin unhide ID [--database DB]\n"
         "       gmpbench-server admin rejudge CPU [--mode MODE] [--build BUILD] [--database DB]\n"
         "       gmpbench-server admin log [-n N] [--database DB]\n", out);
}

void
admin_usage_options (FILE *out)
{
  fputs ("Administration (docs/server.md), each action recorded in the audit table:\n"
         "  --actor NAME              who acts (the login name)\n"
         "  --reason TEXT             why (required by hide; recorded for any verb)\n"
         "  --mode MODE               rejudge: only the CPU's rows of this run mode\n"
         "  --build BUILD             rejudge: only the CPU's rows of this GMP build kind\n"
         "  --limit N, -n N           log: the newest N actions (20)\n", out);
}

static int
usage_error (const char *fmt, const char *what)
{
  fputs ("gmpbench-server admin: ", stderr);
  fprintf (stderr, fmt, what);
  fputs ("\nTry 'gmpbench-server --help'.\n", stderr);
  return ADMIN_USAGE;
}

/* Whether TEXT is 1 to MAX bytes without control characters; says why
 * not, naming it WHAT. */
static int
plain_text (const char *what, const char *text, size_t max)
{
  size_t len = strlen (text);
  for (const char *p = text; *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      {
        fprintf (stderr, "gmpbench-server admin: %s holds a control character\n", what);
        return 0;
      }
  if (len == 0 || len > max)
    {
      fprintf (stderr, "gmpbench-server admin: %s must be 1 to %zu bytes (it is %zu)\n", what,
               max, len);
      return 0;
    }
  return 1;
}

/* Whether TEXT is MIN to MAX lower-case hex digits. */
static int
hex_digits (const char *text, size_t min, size_t max)
{
  size_t len = strspn (text, "0123456789abcdef");
  return !text[len] && len >= min && len <= max;
}

static int
valid_argument (enum argument kind, const char *text)
{
  if (kind == FINGERPRINT && !hex_digits (text, 64, 64))
    fprintf (stderr, "gmpbench-server admin: %s: a fingerprint is 64 lower-case hex digits "
             "(SHA-256 of the raw public key)\n", text);
  else if (kind == RESULT_ID && !hex_digits (text, 16, 64))
    fprintf (stderr, "gmpbench-server admin: %s: a result id is 16 to 64 lower-case hex "
             "digits\n", text);
  else
    return kind != CPU || plain_text ("the CPU identity", text, MAX_CPU);
  return 0;
}

/* The login name, else the user's name, else "uid N" (in BUF). */
static const char *
login_name (char *buf, size_t size)
{
  const char *name = getlogin ();
  struct passwd *pw;
  if (name && *name)
    return name;
  if ((pw = getpwuid (geteuid ())) && pw->pw_name && *pw->pw_name)
    return pw->pw_name;
  snprintf (buf, size, "uid %lu", (unsigned long) geteuid ());
  return buf;
}

/* -n's TEXT into RQ: 0, or -1 (said). */
static int
parse_limit (const char *text, struct admin_request *rq)
{
  char *end;
  long n = strtol (text, &end, 10);
  if (end == text || *end || n < 1 || n > MAX_LIMIT)
    {
      usage_error ("-n %s: expected a whole number from 1 to 10000", text);
      return -1;
    }
  rq->limit = (int) n;
  return 0;
}

/* Options into RQ, the bits of those given into *GIVEN: the index of
 * the first other argument (options and arguments may come in any
 * order), or -1 (said). */
static int
parse_options (int argc, char **argv, struct admin_request *rq, unsigned *given)
{
  static const struct option longopts[] = {
    { "database", required_argument, NULL, 'd' },
    { "actor", required_argument, NULL, 'a' },
    { "reason", required_argument, NULL, 'r' },
    { "name", required_argument, NULL, 'N' },
    { "mode", required_argument, NULL, 'm' },
    { "build", required_argument, NULL, 'b' },
    { "limit", required_argument, NULL, 'n' },
    { NULL, 0, NULL, 0 },
  };
  int c, rc = 0;

  optind = 0;                   /* a fresh scan, whatever scanned before */
  opterr = 0;                   /* said below, naming the command */
  while (rc == 0 && (c = getopt_long (argc, argv, "n:", longopts, NULL)) != -1)
    switch (c)
      {
      case 'd': rq->database = optarg; break;
      case 'a': rq->actor = optarg; *given |= TAKES_ACTOR; break;
      case 'r': rq->reason = optarg; *given |= TAKES_REASON; break;
      case 'N': rq->name = optarg; *given |= TAKES_NAME; break;
      case 'm': rq->mode = optarg; *given |= TAKES_MODE; break;
      case 'b': rq->build = optarg; *given |= TAKES_BUILD; break;
      case 'n': rc = parse_limit (optarg, rq); *given |= TAKES_LIMIT; break;
      default:
        rc = -1;
        usage_error ("%s: an unknown option, or one without its value", argv[optind - 1]);
        break;
      }
  return rc < 0 ? -1 : optind;
}

/* The option of the bit BIT, as the command line spells it. */
static const char *
option_name (unsigned bit)
{
  switch (bit)
    {
    case TAKES_NAME: return "--name";
    case TAKES_REASON: return "--reason";
    case TAKES_MODE: return "--mode";
    case TAKES_BUILD: return "--build";
    case TAKES_LIMIT: return "-n";
    default: return "--actor";
    }
}

/* Whether the options GIVEN suit the verb V, and their texts are
 * plain; says why not. */
static int
options_fit (const struct verb *v, unsigned given, const struct admin_request *rq)
{
  for (unsigned bit = 1; bit <= TAKES_ACTOR; bit <<= 1)
    if ((given & bit) && !(v->takes & bit))
      {
        fprintf (stderr, "gmpbench-server admin: %s has no use for %s\n", v->name,
                 option_name (bit));
        return 0;
      }
    else if ((v->needs & bit) && !(given & bit))
      {
        fprintf (stderr, "gmpbench-server admin: %s needs %s\n", v->name, option_name (bit));
        return 0;
      }
  return (!rq->name || plain_text ("--name", rq->name, MAX_NAME))
    && (!rq->reason || plain_text ("--reason", rq->reason, MAX_REASON))
    && (!rq->actor || plain_text ("--actor", rq->actor, MAX_NAME))
    && (!rq->mode || plain_text ("--mode", rq->mode, MAX_NAME))
    && (!rq->build || plain_text ("--build", rq->build, MAX_NAME));
}

static const struct verb *
find_verb (const char *name)
{
  for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
    if (strcmp (verbs[i].name, name) == 0)
      return &verbs[i];
  return NULL;
}

/* Whether DATABASE can be opened without making a new one: a SQLite
 * file that does not exist would be created empty. */
static int
database_exists (const char *database)
{
  struct stat sb;
  if (strncmp (database, "postgresql://", 13) == 0 || strncmp (database, "postgres://", 11) == 0
      || stat (database, &sb) == 0)
    return 1;
  fprintf (stderr, "gmpbench-server admin: database %s: no such file\n", database);
  return 0;
}

int
admin_main (int argc, char **argv)
{
  struct admin_request rq = { "results.db", NULL, NULL, NULL, NULL, NULL, NULL, NULL, 20 };
  unsigned given = 0;
  char login[32];
  int first = parse_options (argc, argv, &rq, &given);

  if (first < 0)
    return ADMIN_USAGE;
  if (first >= argc)
    return usage_error ("%s", "which verb? ban, unban, verify, unverify, hide, unhide, "
                        "rejudge or log");
  const struct verb *v = find_verb (argv[first]);
  if (!v)
    return usage_error ("unknown verb '%s' (ban, unban, verify, unverify, hide, unhide, "
                        "rejudge, log)", argv[first]);
  int wanted = v->argument != NO_ARGUMENT;
  if (argc - first - 1 != wanted)
    {
      fprintf (stderr, "gmpbench-server admin: %s takes %s%s\n", v->name,
               wanted ? "one argument, " : "no argument", argument_names[v->argument]);
      return ADMIN_USAGE;
    }
  rq.verb = v->name;
  rq.target = wanted ? argv[first + 1] : NULL;
  if ((wanted && !valid_argument (v->argument, rq.target)) || !options_fit (v, given, &rq))
    return ADMIN_USAGE;
  if (!rq.actor)
    rq.actor = login_name (login, sizeof login);
  if (!database_exists (rq.database))
    return ADMIN_FAILED;
  return admin_run (&rq);
}
