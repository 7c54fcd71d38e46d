/* unit-submit-crash.c: kill -9 of a writer at many points while it queues
 * documents, and the spool still holds only whole entries.
 *
 * A child queues documents of about 512 KiB, each different, in a loop;
 * the parent kills it with SIGKILL after a delay spread over the time one
 * spool_add takes (measured first), many times.  Afterwards every *.spool
 * entry must read back, and since an entry's name is the hash of its
 * document, a torn document would not match its own name. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "common/util.h"
#include "submit/spool.h"
#include "tests/check.h"

#define ROUNDS 60
#define DOC_BYTES (512 * 1024)

static const char sig[] =
  "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";

/* Document number N: a JSON string of DOC_BYTES characters. */
static char *
make_doc (long n)
{
  char *d = gb_xmalloc (DOC_BYTES + 1);
  memset (d, 'x', DOC_BYTES);
  int k = snprintf (d, 64, "{\"n\": %ld, \"pad\": \"", n);
  d[k] = 'x';
  memcpy (d + DOC_BYTES - 3, "\"}\n", 3);
  d[DOC_BYTES] = '\0';
  return d;
}

static void
writer (long first)
{
  char err[512];
  for (long n = first;; n++)
    {
      char *d = make_doc (n);
      if (spool_add ("http://127.0.0.1:1", 0, sig, d, DOC_BYTES, NULL, err, sizeof err) != 0)
        _exit (1);
      free (d);
    }
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
pause_for (double s)
{
  struct timespec ts = { (time_t) s, (long) ((s - (time_t) s) * 1e9) };
  nanosleep (&ts, NULL);
}

int
main (void)
{
  char dir[4096], err[512], **paths;
  const char *t = getenv ("TEST_TMP");
  size_t n, whole = 0, bad = 0;
  double one, start;
  char *d;

  snprintf (dir, sizeof dir, "%s/unit-submit-crash", t ? t : "/tmp");
  mkdir (dir, 0700);
  setenv ("XDG_DATA_HOME", dir, 1);

  d = make_doc (0);
  start = now ();
  check (spool_add ("http://127.0.0.1:1", 0, sig, d, DOC_BYTES, NULL, err, sizeof err) == 0,
         "a 512 KiB document is queued");
  one = now () - start;
  free (d);

  srand ((unsigned) time (NULL));
  for (int r = 0; r < ROUNDS; r++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        writer (1 + r * 1000L);
      pause_for (one * 1.5 * rand () / RAND_MAX);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
    }

  int listed = spool_list (".spool", &paths, &n, err, sizeof err) == 0;
  check (listed && n >= 1, "after %d kills the spool lists %zu entries", ROUNDS, n);
  for (size_t i = 0; i < n; i++)
    {
      struct spool_entry e;
      char id[65];
      const char *base = strrchr (paths[i], '/') + 1;
      if (spool_read (paths[i], &e, err, sizeof err) != 0)
        {
          bad++;
          continue;
        }
      gb_sha256_hex (e.bytes, e.len, id);
      if (e.len == DOC_BYTES && strncmp (base, id, 16) == 0)
        whole++;
      else
        bad++;
      spool_entry_free (&e);
    }
  check (bad == 0 && whole == n, "every entry is whole (%zu whole, %zu torn or damaged)", whole, bad);
  spool_list_free (paths, n);
  check (1, "%zu kills hit a write in progress (their temporary files were cleaned up)",
         spool_clean ());
  return check_exit_status ();
}
