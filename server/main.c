/* main.c: the gmpbench-server command line.
 *
 *   gmpbench-server [OPTIONS]                      serve the API
 *   gmpbench-server key verify FINGERPRINT --name NAME [--database DB]
 *   gmpbench-server key ban FINGERPRINT [--database DB]
 *   gmpbench-server admin VERB ...                 administration (admin.h)
 *
 * The key commands are admin's verify and ban under their older names.
 *
 * Serving: open the store (migrating it), start the leaderboard's
 * builder thread and the HTTP daemon, then wait for SIGTERM or SIGINT
 * with every signal blocked in the worker threads, drain, and stop the
 * builder before exit.  docs/server.md describes operation.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "build_config.h"
#include "server/admin/admin.h"
#include "server/api/api.h"
#include "server/board/board.h"
#include "server/http/http.h"
#include "server/log.h"
#include "server/api/ratelimit.h"
#include "server/server.h"
#include "server/store/store.h"
#include "server/web/web.h"

/* Exit statuses besides 0 (served, then drained on SIGTERM) and 2 (bad
 * usage). */
#define EXIT_START_FAILED 1
#define EXIT_DRAIN_INCOMPLETE 3

struct options
{
  const char *listen, *database, *name;
  unsigned threads, max_connections, per_ip_connections, timeout;
  double address_rate, address_burst, key_rate, key_burst, source_rate, source_burst;
  double drain, aggregate_ttl;
  int trust_proxy;
};

static void
usage (FILE *out)
{
  fputs ("Usage: gmpbench-server [OPTION]...\n"
         "       gmpbench-server key verify FINGERPRINT --name NAME [--database DB]\n"
         "       gmpbench-server key ban FINGERPRINT [--database DB]\n", out);
  admin_usage_forms (out);
  fputs ("\n"
         "Serve the gmpbench results API (docs/protocol.md), mark a submitter key,\n"
         "or administer the site's keys and results.\n"
         "\n"
         "  --listen HOST:PORT        address to listen on (127.0.0.1:8080)\n"
         "  --database DB             SQLite file, or a postgresql:// URI (results.db)\n"
         "  --threads N               worker threads and database connections (8)\n"
         "  --max-connections N       open connections at most (1024)\n"
         "  --per-ip-connections N    open connections per client address (64, 0: no limit)\n"
         "  --timeout SECONDS         idle/slow connection timeout (30)\n"
         "  --address-rate R          requests per second per client address (100, 0: off)\n"
         "  --address-burst N         burst of requests per address (200)\n"
         "  --key-rate R              uploads and retractions per second per key (1, 0: off)\n"
         "  --key-burst N             burst of uploads per key (60)\n"
         "  --source-rate R           uploads per second per source: network (IPv4 /24,\n"
         "                            IPv6 /48) or verified publisher (1, 0: off)\n"
         "  --source-burst N          burst of uploads per source (60)\n"
         "  --trust-proxy             take the client address from X-Forwarded-For\n"
         "  --drain SECONDS           on SIGTERM, wait this long for open connections (30)\n"
         "  --aggregate-ttl SECONDS   recompute /api/v1/cpus and the leaderboard at most\n"
         "                            this often (60)\n"
         "  --name NAME               the publisher name, for `key verify`\n"
         "  --help                    show this help and exit\n"
         "  --version                 show the version and exit\n"
         "\n", out);
  admin_usage_options (out);
  fputs ("\n"
         "Logs are JSON lines on standard error, one per request.  On SIGTERM the\n"
         "server drains and exits 0, or 3 when connections were still open at the\n"
         "end of --drain; 1 when it could not start.\n", out);
}

static int
number (const char *opt, const char *text, double min, double max, double *out)
{
  char *end;
  double v = strtod (text, &end);
  if (end == text || *end || !(v >= min && v <= max))
    {
      fprintf (stderr, "gmpbench-server: %s %s: expected a number in [%g, %g]\n",
               opt, text, min, max);
      return -1;
    }
  *out = v;
  return 0;
}

static int
whole (const char *opt, const char *text, double min, double max, unsigned *out)
{
  double v;
  if (number (opt, text, min, max, &v) < 0)
    return -1;
  if (v != (unsigned) v)
    {
      fprintf (stderr, "gmpbench-server: %s %s: expected a whole number\n", opt, text);
      return -1;
    }
  *out = (unsigned) v;
  return 0;
}

/* Returns optind, or -1 on a bad option, or 0 after --help/--version. */
static int
parse_options (int argc, char **argv, struct options *o)
{
  static const struct option longopts[] = {
    { "listen", required_argument, NULL, 'l' },
    { "database", required_argument, NULL, 'd' },
    { "threads", required_argument, NULL, 't' },
    { "max-connections", required_argument, NULL, 'm' },
    { "per-ip-connections", required_argument, NULL, 'p' },
    { "timeout", required_argument, NULL, 'T' },
    { "address-rate", required_argument, NULL, 'a' },
    { "address-burst", required_argument, NULL, 'A' },
    { "key-rate", required_argument, NULL, 'k' },
    { "key-burst", required_argument, NULL, 'K' },
    { "source-rate", required_argument, NULL, 's' },
    { "source-burst", required_argument, NULL, 'S' },
    { "trust-proxy", no_argument, NULL, 'x' },
    { "drain", required_argument, NULL, 'D' },
    { "aggregate-ttl", required_argument, NULL, 'g' },
    { "name", required_argument, NULL, 'n' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
  };
  int c, rc = 0;

  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1 && rc == 0)
    switch (c)
      {
      case 'l': o->listen = optarg; break;
      case 'd': o->database = optarg; break;
      case 'n': o->name = optarg; break;
      case 'x': o->trust_proxy = 1; break;
      case 't': rc = whole ("--threads", optarg, 1, 1024, &o->threads); break;
      case 'm': rc = whole ("--max-connections", optarg, 1, 1e6, &o->max_connections); break;
      case 'p': rc = whole ("--per-ip-connections", optarg, 0, 1e6, &o->per_ip_connections); break;
      case 'T': rc = whole ("--timeout", optarg, 1, 3600, &o->timeout); break;
      case 'a': rc = number ("--address-rate", optarg, 0, 1e9, &o->address_rate); break;
      case 'A': rc = number ("--address-burst", optarg, 1, 1e9, &o->address_burst); break;
      case 'k': rc = number ("--key-rate", optarg, 0, 1e9, &o->key_rate); break;
      case 'K': rc = number ("--key-burst", optarg, 1, 1e9, &o->key_burst); break;
      case 's': rc = number ("--source-rate", optarg, 0, 1e9, &o->source_rate); break;
      case 'S': rc = number ("--source-burst", optarg, 1, 1e9, &o->source_burst); break;
      case 'D': rc = number ("--drain", optarg, 0, 3600, &o->drain); break;
      case 'g': rc = number ("--aggregate-ttl", optarg, 0, 86400, &o->aggregate_ttl); break;
      case 'h': usage (stdout); return 0;
      case 'V': printf ("gmpbench-server %s\n", GB_VERSION); return 0;
      default: rc = -1; break;
      }
  if (rc < 0 || c == '?')
    {
      fputs ("Try 'gmpbench-server --help'.\n", stderr);
      return -1;
    }
  return optind;
}

static struct store *
open_store (const struct options *o, unsigned connections)
{
  char err[512];
  struct store *st = store_open (o->database, connections, err, sizeof err);
  if (!st)
    fprintf (stderr, "gmpbench-server: database %s: %s\n", o->database, err);
  return st;
}

/* `key verify` and `key ban`: admin's verify and ban (admin.h), which
 * check the fingerprint and the name. */
static int
key_command (const struct options *o, int argc, char **argv)
{
  const char *action = argc > 1 ? argv[1] : "";
  int verify = strcmp (action, "verify") == 0;

  if (argc != 3 || (!verify && strcmp (action, "ban") != 0))
    {
      fputs ("gmpbench-server: usage: key verify FINGERPRINT --name NAME | key ban FINGERPRINT\n",
             stderr);
      return 2;
    }
  char *args[] = {
    "admin", argv[1], argv[2], "--database", (char *) o->database,
    verify && o->name ? "--name" : NULL, (char *) o->name, NULL
  };
  return admin_main (verify && o->name ? 7 : 5, args);
}

/* Every request: the API's paths to the API, the others to the pages. */
static enum MHD_Result
answer (struct http_request *r)
{
  return api_owns (r->path) ? api_handle (r) : web_handle (r);
}

static int
serve (const struct options *o)
{
  struct server srv = { 0 };
  sigset_t stop;
  int sig;
  char err[512];

  sigemptyset (&stop);
  sigaddset (&stop, SIGTERM);
  sigaddset (&stop, SIGINT);
  pthread_sigmask (SIG_BLOCK, &stop, NULL);   /* inherited by every thread */
  signal (SIGPIPE, SIG_IGN);

  srv.store = open_store (o, o->threads);
  if (!srv.store)
    return 1;
  srv.by_address = ratelimit_new (o->address_rate, o->address_burst);
  srv.by_key = ratelimit_new (o->key_rate, o->key_burst);
  srv.by_source = ratelimit_new (o->source_rate, o->source_burst);
  srv.trust_proxy = o->trust_proxy;
  srv.threads = o->threads;
  srv.max_connections = o->max_connections;
  srv.per_ip_connections = o->per_ip_connections;
  srv.timeout = o->timeout;
  srv.aggregate_ttl = o->aggregate_ttl;
  srv.leaderboard_data = web_leaderboard_data;
  struct http_daemon *d = NULL;
  int status = EXIT_START_FAILED;
  if (board_start (&srv) < 0)
    fputs ("gmpbench-server: cannot start the leaderboard's thread\n", stderr);
  else if (api_cpus_start (&srv) < 0)
    fputs ("gmpbench-server: cannot start the thread of /api/v1/cpus\n", stderr);
  else if (!(d = http_start (&srv, o->listen, answer, VALIDATE_MAX_BODY, err, sizeof err)))
    fprintf (stderr, "gmpbench-server: %s\n", err);
  else
    {
      log_info ("gmpbench-server %s listening on %s, database %s (schema %d)", GB_VERSION,
                o->listen, o->database, store_schema_version (srv.store));
      sigwait (&stop, &sig);
      log_info ("%s: stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
      status = http_stop (d, o->drain) == 0 ? 0 : EXIT_DRAIN_INCOMPLETE;
      log_info (status ? "stopped, the drain incomplete" : "stopped, drained");
    }
  ratelimit_free (srv.by_address);
  ratelimit_free (srv.by_key);
  ratelimit_free (srv.by_source);
  api_cpus_stop (&srv);
  board_stop (&srv);
  store_close (srv.store);
  return status;
}

int
main (int argc, char **argv)
{
  struct options o = {
    "127.0.0.1:8080", "results.db", NULL, 8, 1024, 64, 30, 100, 200, 1, 60, 1, 60, 30, 60, 0
  };
  if (argc > 1 && strcmp (argv[1], "admin") == 0)
    return admin_main (argc - 1, argv + 1);
  int first = parse_options (argc, argv, &o);

  if (first <= 0)
    return first < 0 ? 2 : 0;
  if (first < argc && strcmp (argv[first], "key") == 0)
    return key_command (&o, argc - first, argv + first);
  if (first < argc)
    {
      fprintf (stderr, "gmpbench-server: unexpected argument '%s'\nTry 'gmpbench-server --help'.\n",
               argv[first]);
      return 2;
    }
  return serve (&o);
}
