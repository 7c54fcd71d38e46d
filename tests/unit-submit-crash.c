/* unit-submit-crash.c: kill -9 of a writer at many points while it queues
 * documents, and the spool still holds only whole entries.
 *
 * A child queues documents of 512 KiB, each different, in a loop; the
 * parent kills it with SIGKILL after a delay spread over the time one
 * spool_add takes (measured first), round after round until at least
 * ROUNDS/4 kills have hit a write in progress (each leaves its temporary
 * file behind), so the test cannot pass without testing anything.
 * Afterwards every *.spool entry must read back, and since an entry's name
 * is the hash of its document, a torn document would not match its own
 * name; spool_clean must delete exactly the temporary files left. */
#include <dirent.h>
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
#define MAX_ROUNDS (10 * ROUNDS)
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

/* The temporary files of killed writers in DIR. */
static size_t
count_tmp (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  size_t n = 0;
  if (!d)
    return 0;
  while ((e = readdir (d)))
    if (strstr (e->d_name, ".tmp."))
      n++;
  closedir (d);
  return n;
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
  char dir[4096], err[512], **paths, *spool;
  const char *t = getenv ("TEST_TMP");
  size_t n, whole = 0, bad = 0, hits = 0;
  double one, start;
  char *d;
  int r;

  snprintf (dir, sizeof dir, "%s/unit-submit-crash", t ? t : "/tmp");
  mkdir (dir, 0700);
  setenv ("XDG_DATA_HOME", dir, 1);

  d = make_doc (0);
  start = now ();
  check (spool_add ("http://127.0.0.1:1", 0, sig, d, DOC_BYTES, NULL, err, sizeof err) == 0,
         "a 512 KiB document is queued");
  one = now () - start;
  free (d);

  spool = spool_dir (err, sizeof err);
  check (spool != NULL, "the spool directory is known (%s)", spool ? spool : err);
  srand ((unsigned) time (NULL));
  for (r = 0; spool && r < MAX_ROUNDS && (r < ROUNDS || hits < ROUNDS / 4); r++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        writer (1 + r * 1000L);
      pause_for (one * 1.5 * rand () / RAND_MAX);
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      hits = count_tmp (spool);
    }
  check (hits >= ROUNDS / 4, "%zu of %d kills hit a write in progress (at least %d wanted)",
         hits, r, ROUNDS / 4);

  int listed = spool_list (".spool", &paths, &n, err, sizeof err) == 0;
  check (listed && n >= 1, "after %d kills the spool lists %zu entries", r, n);
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
  size_t cleaned = spool_clean ();
  check (cleaned == hits && count_tmp (spool) == 0,
         "spool_clean deleted the %zu temporary files the killed writers left (%zu)",
         hits, cleaned);
  free (spool);
  return check_exit_status ();
}
