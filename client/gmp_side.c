/* gmp_side.c: the run's side of `gmpbench run --gmp` (gmp_side.h): the
 * libraries found, a worker started for each, their tests visited in
 * turn, their documents collected and checked. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "client/gmp_side.h"

#ifdef _WIN32
/* Windows has no fork and no preloading: a run there has no --gmp. */
#include "client/gmpbench.h"

int
gmp_side_resolve (const char *const *given, size_t n, char **paths)
{
  (void) given, (void) n, (void) paths;
  gb_error ("run", "--gmp needs worker processes with a preloaded libgmp, which the Windows "
            "build does not have (docs/gmp-builds.md)");
  return -1;
}

int
gmp_side_run (const struct gmp_side *s, volatile sig_atomic_t *stop, cJSON **docs,
              struct pair_ratio *ratios)
{
  (void) s, (void) stop, (void) docs, (void) ratios;
  return -1;
}
#else

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "client/gmp_pin.h"
#include "client/gmp_proto.h"
#include "client/gmpbench.h"
#include "client/interrupt.h"
#include "client/pairs.h"
#include "client/progress.h"
#include "common/util.h"
#include "model/doc_schema.h"
#include "model/schema.h"
#if defined(__linux__) || defined(__FreeBSD__)
#include <link.h>
#endif
#if defined(__linux__)
#include <sys/prctl.h>
#endif

struct worker
{
  const char *path;
  pid_t pid;
  int to, from;                 /* command and reply pipes, -1 when closed */
  double seconds_left;
  struct pair_visits *visits;   /* per test */
};

#if defined(__linux__) || defined(__FreeBSD__)
static int
find_libgmp_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  const char *base = strrchr (info->dlpi_name, '/');
  (void) size;
  if (strncmp (base ? base + 1 : info->dlpi_name, "libgmp.", 7) != 0)
    return 0;
  snprintf (data, PATH_MAX, "%s", info->dlpi_name);
  return 1;
}
#endif

/* The libgmp file this process runs with into PATH (PATH_MAX bytes); -1
 * when GMP is linked in (or this OS cannot tell). */
static int
own_libgmp (char *path)
{
  path[0] = '\0';
#if defined(__linux__) || defined(__FreeBSD__)
  dl_iterate_phdr (find_libgmp_cb, path);
#endif
  return path[0] ? 0 : -1;
}

/* The libgmp.so of the directory DIR or of its lib/ or lib64/ into PATH. */
static int
library_in (const char *dir, char *path)
{
  static const char *const where[] = { "%s/libgmp.so", "%s/lib/libgmp.so", "%s/lib64/libgmp.so" };
  for (size_t i = 0; i < GB_ARRAY_SIZE (where); i++)
    {
      snprintf (path, PATH_MAX, where[i], dir);
      if (access (path, R_OK) == 0)
        return 0;
    }
  return -1;
}

int
gmp_side_resolve (const char *const *given, size_t n, char **paths)
{
  char own[PATH_MAX], file[PATH_MAX], real[PATH_MAX];
  struct stat st;
  if (own_libgmp (own) != 0)
    {
      gb_error ("run", "--gmp needs a gmpbench linked with a shared libgmp; this one has "
                "GMP built in (or this system cannot tell)");
      return -1;
    }
  for (size_t i = 0; i < n; i++)
    {
      const char *g = given[i];
      paths[i] = NULL;
      if (strcmp (g, "system") == 0)
        g = own;
      else if (stat (g, &st) == 0 && S_ISDIR (st.st_mode))
        {
          if (library_in (g, file) != 0)
            {
              gb_error ("run", "--gmp '%s': no libgmp.so in this directory, its lib/ or lib64/",
                        given[i]);
              return -1;
            }
          g = file;
        }
      if (realpath (g, real) == NULL || stat (real, &st) != 0)
        {
          gb_error ("run", "--gmp '%s': %s", given[i], strerror (errno));
          return -1;
        }
      if (!S_ISREG (st.st_mode))
        {
          gb_error ("run", "--gmp '%s': not a library file", given[i]);
          return -1;
        }
      paths[i] = gb_xstrdup (real);
    }
  return 0;
}

/* Moves FD to TARGET in a child about to exec, open across the exec. */
static void
move_fd (int fd, int target)
{
  if (fd == target)
    fcntl (fd, F_SETFD, 0);
  else
    dup2 (fd, target);
}

/* In the child: the worker's environment, CPUs, pipes and program. */
static void
exec_worker (const struct gmp_side *s, const struct gmp_pin *pin, const char *path, int cmd,
             int rep)
{
  char **argv = gb_xcalloc ((size_t) s->argc + 2, sizeof *argv);
  const char *preload = getenv ("LD_PRELOAD");
  size_t len = strlen (path) + (preload ? strlen (preload) : 0) + 2;
  char *value = gb_xmalloc (len);
#if defined(__linux__)
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
  snprintf (value, len, "%s%s%s", path, preload && *preload ? ":" : "",
            preload ? preload : "");
  setenv ("LD_PRELOAD", value, 1);
  setenv (GMP_PROTO_ENV, path, 1);
  gmp_pin_child (pin);
#if defined(__SANITIZE_ADDRESS__)
  /* The preload comes before the sanitizer's runtime, which it tolerates. */
  const char *asan = getenv ("ASAN_OPTIONS");
  char *opts = gb_xmalloc ((asan ? strlen (asan) : 0) + 32);
  sprintf (opts, "%s%sverify_asan_link_order=0", asan ? asan : "", asan && *asan ? ":" : "");
  setenv ("ASAN_OPTIONS", opts, 1);
#endif
  /* Out of the way of 3 and 4 first: the pipes may be there already. */
  cmd = fcntl (cmd, F_DUPFD, 10);
  rep = fcntl (rep, F_DUPFD, 10);
  move_fd (cmd, GMP_PROTO_COMMAND_FD);
  move_fd (rep, GMP_PROTO_REPLY_FD);
  close (cmd);
  close (rep);
  int null = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0)
    dup2 (null, STDOUT_FILENO);
  argv[0] = (char *) "gmpbench";
  for (int i = 0; i < s->argc; i++)
    argv[i + 1] = s->argv[i];
  execv ("/proc/self/exe", argv);
  gb_error ("run", "cannot start a worker (/proc/self/exe): %s", strerror (errno));
  _exit (1);
}

static int
spawn (const struct gmp_side *s, const struct gmp_pin *pin, struct worker *w)
{
  int cmd[2], rep[2];
  if (pipe2 (cmd, O_CLOEXEC) != 0)
    return -1;
  if (pipe2 (rep, O_CLOEXEC) != 0)
    {
      close (cmd[0]);
      close (cmd[1]);
      return -1;
    }
  fflush (NULL);
  w->pid = fork ();
  if (w->pid == 0)
    exec_worker (s, pin, w->path, cmd[0], rep[1]);
  close (cmd[0]);
  close (rep[1]);
  w->to = cmd[1];
  w->from = rep[0];
  if (w->pid < 0)
    {
      close (w->to);
      close (w->from);
      w->to = w->from = -1;
      return -1;
    }
  return 0;
}

/* Ends W (SIGKILL when KILL_IT: it has nothing to clean up), closes its
 * pipes and returns its exit status: its own, 128 + the signal that ended
 * it. */
static int
reap (struct worker *w, int kill_it)
{
  int st = 0;
  if (kill_it && w->pid > 0)
    kill (w->pid, SIGKILL);
  if (w->to >= 0)
    close (w->to);
  if (w->from >= 0)
    close (w->from);
  w->to = w->from = -1;
  if (w->pid <= 0)
    return 1;
  while (waitpid (w->pid, &st, 0) < 0 && errno == EINTR)
    ;
  w->pid = -1;
  return WIFEXITED (st) ? WEXITSTATUS (st) : 128 + WTERMSIG (st);
}

/* The status of the run after worker W stopped answering: its own (it
 * has said why on stderr), or the interrupt's; every worker is ended. */
static int
fail (struct worker *ws, size_t n, struct worker *w, volatile sig_atomic_t *stop)
{
  int status = w ? reap (w, *stop != 0) : 1;
  for (size_t i = 0; i < n; i++)
    reap (&ws[i], 1);
  if (*stop)
    {
      interrupt_disarm ();
      gb_error ("run", "interrupted; no result was written");
      return interrupt_exit_status ();
    }
  if (w)
    gb_error ("run", "the run with --gmp %s ended with status %d; no result was written for "
              "any library", w->path, status);
  return status ? status : 1;
}

/* Sends KIND (about test INDEX) to W and, unless it is FINISH, reads the
 * answer into M; -1 when W has stopped answering. */
static int
ask (struct worker *w, uint32_t kind, size_t index, struct gmp_proto_msg *m)
{
  memset (m, 0, sizeof *m);
  m->kind = kind;
  m->index = (uint32_t) index;
  if (gmp_proto_write (w->to, m, sizeof *m) != 0)
    return -1;
  return gmp_proto_read (w->from, m, sizeof *m);
}

/* The result document W hands over once told to finish, parsed. */
static cJSON *
collect (struct worker *w)
{
  struct gmp_proto_msg m;
  if (ask (w, GMP_PROTO_FINISH, 0, &m) != 0 || m.kind != GMP_PROTO_DOCUMENT
      || m.length > (1u << 30))
    return NULL;
  char *json = gb_xmalloc (m.length + 1);
  cJSON *doc = NULL;
  if (gmp_proto_read (w->from, json, m.length) == 0)
    {
      json[m.length] = '\0';
      doc = cJSON_Parse (json);
    }
  free (json);
  return doc;
}

/* Whether DOC was measured with the library PATH and nothing else: the
 * libgmp that ran is that file, and no timed function resolved elsewhere;
 * -1 after a message. */
static int
check_provenance (const cJSON *doc, const char *path)
{
  char hex[65];
  const cJSON *gmp = schema_get (doc, DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_GMP));
  const cJSON *sha = schema_get (gmp, DOC_PATH (DOC_SYS_LIBRARY, DOC_SYS_LIBRARY_SHA256));
  const cJSON *loaded = schema_get (gmp, DOC_PATH (DOC_SYS_LIBRARY, DOC_SYS_LIBRARY_PATH));
  const cJSON *interposed = schema_get (gmp, DOC_PATH (DOC_SYS_GMP_ENTRY_POINTS,
                                                       DOC_SYS_ENTRY_POINTS_INTERPOSED));
  if (gb_sha256_file (path, hex) != 0)
    gb_error ("run", "--gmp %s: cannot read it again: %s", path, strerror (errno));
  else if (!cJSON_IsString (sha) || strcmp (sha->valuestring, hex) != 0)
    gb_error ("run", "--gmp %s: the libgmp that ran (%s) is not this file; is it a libgmp "
              "with the SONAME libgmp.so.10?", path,
              cJSON_IsString (loaded) ? loaded->valuestring : "none found");
  else if (!cJSON_IsFalse (interposed))
    gb_error ("run", "--gmp %s: timed GMP functions resolved outside it ("
              DOC_PATH (DOC_SYSTEM, DOC_SYS_BUILD, DOC_SYS_BUILD_GMP, DOC_SYS_GMP_ENTRY_POINTS)
              ": an LD_PRELOAD?)", path);
  else
    return 0;
  return -1;
}

/* Starts every worker, one after the other: each sets up and calibrates
 * its tests alone on the machine, on PIN's CPU.  0, or the run's status. */
static int
start_all (const struct gmp_side *s, const struct gmp_pin *pin, struct worker *ws,
           struct progress *prog, volatile sig_atomic_t *stop)
{
  for (size_t k = 0; k < s->n; k++)
    {
      struct gmp_proto_msg m;
      progress_preparing (prog, k + 1, s->n, ws[k].path);
      if (spawn (s, pin, &ws[k]) != 0)
        {
          gb_error ("run", "cannot start a worker: %s", strerror (errno));
          return fail (ws, s->n, NULL, stop);
        }
      if (gmp_proto_read (ws[k].from, &m, sizeof m) != 0 || m.kind != GMP_PROTO_READY)
        return fail (ws, s->n, &ws[k], stop);
    }
  return 0;
}

/* One visit (KIND VISIT) of test I in worker K, or its end (END), shown on
 * PROG (*DONE tests finished so far): 1 when the test finished, 0 when not
 * yet, -1 when the worker stopped answering. */
static int
visit (const struct gmp_side *s, struct worker *ws, uint32_t kind, size_t k, size_t i,
       struct progress *prog, size_t *done)
{
  struct gmp_proto_msg m;
  char label[320];              /* "gmp N: " and a test's name */
  double seconds = 0;
  for (size_t x = 0; x < s->n; x++)
    seconds += ws[x].seconds_left;
  snprintf (label, sizeof label, "gmp %zu: %s", k + 1, s->sel->tests[i]->name);
  progress_show (prog, *done, label, seconds);
  if (ask (&ws[k], kind, i, &m) != 0 || m.kind != GMP_PROTO_VISITED)
    return -1;
  ws[k].seconds_left = m.seconds_left;
  if (kind == GMP_PROTO_VISIT)
    pair_visits_add (&ws[k].visits[i], m.visit.ops > 0
                      ? (m.visit.cpu > 0 ? m.visit.cpu : m.visit.wall) / m.visit.ops : 0);
  if (!m.finished)
    return 0;
  m.result.test = s->sel->tests[i];
  snprintf (label, sizeof label, "gmp %zu: ", k + 1);
  prog->label = label;
  progress_done (prog, ++*done, &m.result);
  prog->label = NULL;
  return 1;
}

/* Visits the tests of every worker in turn, each test in every worker
 * before the next test, the workers' order reversed every other round.
 * A test ends in every worker in the round it ends in one (by its
 * stopping rule), so that all measure it over the same visits, the same
 * stretches of the machine's time.  0, or the run's status. */
static int
interleave (const struct gmp_side *s, struct worker *ws, struct progress *prog,
            volatile sig_atomic_t *stop)
{
  size_t n = s->sel->ntests, left = n * s->n, done = 0;
  unsigned char *active = gb_xmalloc (left ? left : 1);
  memset (active, 1, left);
  for (unsigned round = 0; left > 0; round++)
    for (size_t i = 0; i < n; i++)
      {
        int ended = 0;
        for (size_t j = 0; j < 2 * s->n; j++)
          {
            size_t k = round % 2 ? s->n - 1 - j % s->n : j % s->n;
            if (!active[k * n + i] || (j >= s->n && !ended))
              continue;
            int v = visit (s, ws, j < s->n ? GMP_PROTO_VISIT : GMP_PROTO_END, k, i, prog, &done);
            if (v < 0)
              {
                free (active);
                return fail (ws, s->n, &ws[k], stop);
              }
            if (v)
              {
                active[k * n + i] = 0;
                left--;
                ended = 1;
              }
          }
      }
  free (active);
  return 0;
}

/* The ratios of every build after the first to it, from their paired
 * samples, into RATIOS ((S->n - 1) * the tests), and the samples freed. */
static void
pair_up (const struct gmp_side *s, struct worker *ws, struct pair_ratio *ratios)
{
  size_t n = s->sel->ntests;
  for (size_t k = 1; k < s->n; k++)
    for (size_t i = 0; i < n; i++)
      ratios[(k - 1) * n + i] = pairs_ratio (s->sel->tests[i]->name, &ws[0].visits[i],
                                             &ws[k].visits[i]);
  for (size_t k = 0; k < s->n; k++)
    {
      for (size_t i = 0; i < n; i++)
        pair_visits_free (&ws[k].visits[i]);
      free (ws[k].visits);
    }
}

int
gmp_side_run (const struct gmp_side *s, volatile sig_atomic_t *stop, cJSON **docs,
              struct pair_ratio *ratios)
{
  struct worker *ws = gb_xcalloc (s->n, sizeof *ws);
  struct progress prog;
  struct gmp_pin pin;
  int status;
  signal (SIGPIPE, SIG_IGN);
  if (gmp_pin_run (&pin) != 0)
    gb_error ("run", "the builds run where the system puts them, not on one CPU: %s",
              pin.why_not);
  for (size_t k = 0; k < s->n; k++)
    {
      ws[k].path = s->paths[k];
      ws[k].to = ws[k].from = -1;
      ws[k].visits = gb_xcalloc (s->sel->ntests ? s->sel->ntests : 1, sizeof *ws[k].visits);
      docs[k] = NULL;
    }
  progress_init (&prog, !s->quiet && isatty (STDERR_FILENO),
                 !s->quiet && (s->verbose || !isatty (STDERR_FILENO)), s->n * s->sel->ntests);
  status = start_all (s, &pin, ws, &prog, stop);
  if (status == 0)
    status = interleave (s, ws, &prog, stop);
  progress_clear (&prog);
  pair_up (s, ws, ratios);
  for (size_t k = 0; k < s->n && status == 0; k++)
    {
      docs[k] = collect (&ws[k]);
      if (!docs[k])
        status = fail (ws, s->n, &ws[k], stop);
      else if ((status = reap (&ws[k], 0)) != 0)
        {
          gb_error ("run", "the run with --gmp %s ended with status %d after its result",
                    ws[k].path, status);
          status = fail (ws, s->n, NULL, stop);
        }
      else if (check_provenance (docs[k], ws[k].path) != 0)
        status = fail (ws, s->n, NULL, stop);
    }
  if (status != 0)
    for (size_t k = 0; k < s->n; k++)
      {
        cJSON_Delete (docs[k]);
        docs[k] = NULL;
      }
  free (ws);
  return status;
}
#endif
