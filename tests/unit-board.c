/* unit-board.c: the leaderboard snapshot (server/board/) on a small
 * SQLite store whose results are written with SQL, so every aggregate is
 * known exactly: the median, quartiles and best of the score, the medians
 * of score per GHz, per core and of the GMP/OpenSSL RSA-2048 ratio; the
 * filters, every sort key and a node column; flagged results left out
 * unless asked for, retracted, unlisted and banned results never shown;
 * the views kept with a snapshot; results ranked by a test or node (the
 * API's listings sorted by a test); and the builder threads: the first
 * snapshot, a rebuild in the background while the old snapshot stays
 * readable, the views carried to the new one, a snapshot brought up to
 * date with the changes the store made (compared with a whole build), a
 * failing database, and stopping mid-build; the values pages keep with
 * a CPU's entries (board_cpu_memo); and the writers the pages share
 * (web_text, web_number). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "common/util.h"
#include "model/escape.h"
#include "server/board/board.h"
#include "server/store/store.h"
#include "server/web/web_page.h"
#include "model/registry.h"
#include "tests/check.h"

#define CPU_A "x86:GenuineIntel:family=6:model=1:stepping=1"
#define CPU_B "arm:0x41:0xd0c"
#define CPU_C "x86:AuthenticAMD:family=25:model=1:stepping=1"
#define BANNED_KEY "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static sqlite3 *db;
static int next_seq = 1;

/* A result as the tests write it; NAN scores are left out. */
struct fake
{
  const char *cpu, *name, *arch, *vendor, *os, *gmp, *compiler, *publisher, *fingerprint;
  int flagged, unlisted;
  double mhz;
  int cores;
  double score, base, rsa_gmp, rsa_openssl;
};

static void
exec (const char *sql)
{
  char *err = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    {
      fprintf (stderr, "unit-board: %s: %s\n", sql, err ? err : "?");
      exit (2);
    }
}

/* A node's score (a ranked row) or, for a test, its ops/s (test_scores). */
static void
add_score (int seq, const char *node, int depth, double score, const struct fake *r)
{
  if (isnan (score))
    return;
  char *sql = registry_find (node)
    ? sqlite3_mprintf ("INSERT INTO test_scores (node, seq, score) VALUES (%Q, %d, %.17g)",
                       node, seq, score)
    : sqlite3_mprintf ("INSERT INTO scores (seq, node, depth, score, cpu, listed, "
                       "flagged) VALUES (%d, %Q, %d, %.17g, %Q, %d, %d)", seq, node,
                       depth, score, r->cpu, !r->unlisted, r->flagged);
  exec (sql);
  sqlite3_free (sql);
}

/* Stores R; returns its id (static). */
static const char *
add (const struct fake *r)
{
  static char id[32];
  int seq = next_seq++;
  snprintf (id, sizeof id, "%016x", seq);
  char *sql = sqlite3_mprintf (
    "INSERT INTO results (seq, id, sha256, received, fingerprint, public_key, publisher, "
    "submitter, arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, "
    "unlisted, listed, body, signature, vendor, mhz, cores) VALUES (%d, %Q, %Q, %d, %Q, 'pk', "
    "%Q, 'test', %Q, %Q, %Q, %Q, %Q, %Q, '2026-11-30T05:00:00Z', '{}', %Q, %d, %d, %d, '{}', "
    "'sig', %Q, %.17g, %d)", seq, id, id, 1700000000 + seq,
    r->fingerprint ? r->fingerprint : "aaaa", r->publisher, r->arch, r->cpu, r->name, r->os,
    r->gmp, r->compiler, r->flagged ? "outlier" : "", r->flagged, r->unlisted,
    !r->unlisted, r->vendor, r->mhz, r->cores);
  exec (sql);
  sqlite3_free (sql);
  add_score (seq, "gmpbench", 0, r->score, r);
  add_score (seq, "gmpbench.base", 1, r->base, r);
  add_score (seq, "gmpbench.app.rsa.2048", 3, r->rsa_gmp, r);
  add_score (seq, "openssl.rsa.sign.2048", 3, r->rsa_openssl, r);
  return id;
}

/* CPU A: scores 100..500 (2 GHz, 4 cores, RSA ratios 1.0..1.4), three on
 * Debian, two on Fedora, plus a retracted, an unlisted and a banned key's
 * result.  CPU B: 1000..4000 at 1 GHz without cores or RSA tests, the
 * lowest by a verified publisher, and a partial run without a score.
 * CPU C: one flagged result. */
static void
fill (struct store *st)
{
  struct fake a = { CPU_A, "Intel Alpha", "x86_64", "Intel", "Debian", "6.3.0", "gcc", NULL, NULL,
                    0, 0, 2000, 4, 0, 10, 0, 1000 };
  for (int i = 1; i <= 5; i++)
    {
      a.score = 100 * i;
      a.rsa_gmp = 900 + 100 * i;
      a.os = i <= 3 ? "Debian" : "Fedora";
      add (&a);
    }
  struct fake b = { CPU_B, "Zeta CPU", "aarch64", "ARM", "Ubuntu", "6.2.1", "clang", NULL, NULL,
                    0, 0, 1000, 0, 0, 5, NAN, NAN };
  for (int i = 1; i <= 4; i++)
    {
      b.score = 1000 * i;
      b.publisher = i == 1 ? "ACME Labs" : NULL;
      add (&b);
    }
  b.score = b.base = NAN;
  add (&b);
  struct fake c = { CPU_C, "AMD Gamma", "x86_64", "AMD", "Debian", "6.3.0", "gcc", NULL, NULL,
                    1, 0, 3000, 8, 9999, 1, NAN, NAN };
  add (&c);

  struct fake hidden = a;
  hidden.score = 8888;
  hidden.os = "Retracted OS";
  check (store_retract (st, add (&hidden), 1700000100, NULL) == STORE_OK, "a result is retracted");
  hidden.score = 7777;
  hidden.os = "Unlisted OS";
  hidden.unlisted = 1;
  add (&hidden);
  hidden.score = 6666;
  hidden.os = "Banned OS";
  hidden.unlisted = 0;
  hidden.fingerprint = BANNED_KEY;
  add (&hidden);
  struct store_audit ban = { 1700000100, "unit-board", "ban", BANNED_KEY, NULL, NULL };
  check (store_key_ban (st, BANNED_KEY, &ban) == STORE_OK, "a key is banned");
}

static int
near (double x, double y)
{
  return fabs (x - y) <= 1e-9 * fmax (1, fabs (y));
}

/* Equal, or both NAN. */
static int
alike (double x, double y)
{
  return isnan (x) ? isnan (y) : near (x, y);
}

static size_t
rank (struct board *b, struct store *st, const struct board_filter *f, enum board_key key,
      const char *node, struct board_row **rows)
{
  size_t n;
  if (board_rank (b, st, f, key, node, rows, &n) < 0)
    {
      check (0, "board_rank answers");
      return 0;
    }
  return n;
}

/* The CPU names of ROWS, space-separated (static). */
static const char *
names (const struct board_row *rows, size_t n)
{
  static char buf[256];
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++)
    {
      strncat (buf, i ? " " : "", sizeof buf - strlen (buf) - 1);
      strncat (buf, rows[i].cpu_name, sizeof buf - strlen (buf) - 1);
    }
  return buf;
}

/* A view sorted by KEY (NODE for BK_NODE) lists its CPUs as EXPECT. */
static void
check_order (struct board *b, struct store *st, const struct board_filter *f,
             enum board_key key, const char *node, const char *expect, const char *what)
{
  struct board_row *rows;
  size_t n = rank (b, st, f, key, node, &rows);
  check (strcmp (names (rows, n), expect) == 0, "%s: %s (got %s)", what, expect, names (rows, n));
  free (rows);
}

static void
test_aggregates (struct board *b, struct store *st)
{
  struct board_filter all = { { NULL }, 0, 0 };
  struct board_row *rows;
  size_t n = rank (b, st, &all, BK_SCORE, NULL, &rows);

  check (board_size (b) == 11, "the snapshot holds the 11 listed results, flagged included "
         "(%zu)", board_size (b));
  check (n == 2 && strcmp (names (rows, n), "Zeta CPU Intel Alpha") == 0,
         "by median score: Beta, then Alpha; the flagged-only CPU is left out (%s)",
         names (rows, n));
  if (n != 2)
    return;
  const struct board_row *beta = &rows[0], *alpha = &rows[1];
  check (alpha->n == 5 && strcmp (alpha->cpu, CPU_A) == 0 && strcmp (alpha->arch, "x86_64") == 0
         && strcmp (alpha->vendor, "Intel") == 0,
         "Alpha: 5 results (retracted, unlisted, banned left out), its identity, arch, vendor");
  check (near (alpha->median, 300) && near (alpha->q1, 200) && near (alpha->q3, 400)
         && near (alpha->best, 500), "Alpha: median 300, IQR 200-400, best 500 (%g %g %g %g)",
         alpha->median, alpha->q1, alpha->q3, alpha->best);
  check (near (alpha->per_ghz, 150) && near (alpha->per_core, 75),
         "Alpha: 150 per GHz at 2 GHz, 75 per core of 4 (%g, %g)", alpha->per_ghz,
         alpha->per_core);
  check (near (alpha->rsa, 1.2), "Alpha: GMP/OpenSSL RSA-2048 ratio median 1.2 (%g)",
         alpha->rsa);
  check (near (alpha->ghz, 2) && strcmp (board_value (b, BF_GMP, alpha->gmp), "6.3.0") == 0
         && strcmp (board_value (b, BF_COMPILER, alpha->compiler), "gcc") == 0,
         "Alpha: clock 2 GHz, GMP 6.3.0, gcc (%g)", alpha->ghz);
  check (strcmp (board_value (b, BF_GMP, UINT32_MAX), "") == 0, "no value is \"\"");
  check (beta->n == 5, "Beta: 5 results, the partial run counted (%zu)", beta->n);
  check (near (beta->median, 2500) && near (beta->q1, 1750) && near (beta->q3, 3250)
         && near (beta->best, 4000),
         "Beta: an even count interpolates: median 2500, IQR 1750-3250 (%g %g %g)",
         beta->median, beta->q1, beta->q3);
  check (near (beta->per_ghz, 2500) && isnan (beta->per_core) && isnan (beta->rsa),
         "Beta: per GHz 2500; no cores and no RSA tests give no value (%g %g %g)",
         beta->per_ghz, beta->per_core, beta->rsa);
  check (near (beta->ghz, 1)
         && strcmp (board_value (b, BF_COMPILER, beta->compiler), "clang") == 0,
         "Beta: clock 1 GHz (its scored results'), clang (%g)", beta->ghz);
  free (rows);

  const char *cpu_name = board_cpu_name (b, CPU_B);
  check (cpu_name && strcmp (cpu_name, "Zeta CPU") == 0, "a CPU's name");
  check (board_cpu_name (b, "no:such:cpu") == NULL, "an unknown CPU has no name");

  const char *const *values;
  const size_t *counts;
  size_t nv = board_values (b, BF_OS, &values, &counts);
  check (nv == 3 && strcmp (values[0], "Debian") == 0 && counts[0] == 4
         && strcmp (values[1], "Fedora") == 0 && counts[1] == 2
         && strcmp (values[2], "Ubuntu") == 0 && counts[2] == 5,
         "the OS values, sorted, with counts; hidden results add none (%zu)", nv);
}

static void
test_filters (struct board *b, struct store *st)
{
  struct board_filter f = { { NULL }, 0, 0 };
  struct board_row *rows;
  size_t n;

  f.include_flagged = 1;
  check_order (b, st, &f, BK_SCORE, NULL, "Zeta CPU Intel Alpha ",
               "flagged results included on request: the flagged CPU's one source is an "
               "unconfirmed row, ranked last, and a flagged result's brand names nothing");
  f.include_flagged = 0;
  f.verified_only = 1;
  n = rank (b, st, &f, BK_SCORE, NULL, &rows);
  check (n == 1 && rows[0].n == 1 && near (rows[0].median, 1000),
         "verified publishers only: Beta's one result");
  free (rows);
  f.verified_only = 0;
  f.value[BF_OS] = "Fedora";
  n = rank (b, st, &f, BK_SCORE, NULL, &rows);
  check (n == 1 && rows[0].n == 2 && near (rows[0].median, 450) && near (rows[0].best, 500),
         "an OS filter: Alpha's two Fedora results, median 450");
  free (rows);
  f.value[BF_OS] = NULL;
  f.value[BF_ARCH] = "aarch64";
  check_order (b, st, &f, BK_SCORE, NULL, "Zeta CPU", "an architecture filter");
  f.value[BF_ARCH] = "x86_64";
  f.value[BF_GMP] = "6.3.0";
  f.value[BF_COMPILER] = "gcc";
  f.value[BF_VENDOR] = "Intel";
  check_order (b, st, &f, BK_SCORE, NULL, "Intel Alpha", "filters combine");
  f.value[BF_VENDOR] = "Nobody";
  check_order (b, st, &f, BK_SCORE, NULL, "", "an unknown value matches nothing");
  memset (&f, 0, sizeof f);
  f.value[BF_OS] = "Retracted OS";
  check_order (b, st, &f, BK_SCORE, NULL, "", "a retracted result's OS is not a value");
  f.value[BF_OS] = "";
  check_order (b, st, &f, BK_SCORE, NULL, "Zeta CPU Intel Alpha", "an empty value is any");

  memset (&f, 0, sizeof f);
  f.value[BF_ARCH] = "x86_64";
  f.include_flagged = 1;
  struct board_row *scanned;
  n = rank (b, st, &f, BK_NAME, NULL, &rows);
  size_t m = rank (b, st, &f, BK_NODE, "gmpbench.base", &scanned);     /* needs a scan */
  int same = n == 2 && m == 2;
  for (size_t i = 0; same && i < n; i++)
    {
      size_t j = rows[i].cpu == scanned[0].cpu ? 0 : 1;  /* the orders differ */
      same = rows[i].n == scanned[j].n && rows[i].cpu == scanned[j].cpu
        && alike (rows[i].median, scanned[j].median) && alike (rows[i].q1, scanned[j].q1)
        && alike (rows[i].q3, scanned[j].q3) && alike (rows[i].best, scanned[j].best)
        && alike (rows[i].per_ghz, scanned[j].per_ghz)
        && alike (rows[i].per_core, scanned[j].per_core) && alike (rows[i].rsa, scanned[j].rsa);
    }
  check (same, "a CPU whose results all match takes its summary's row, as a scan finds it");
  free (rows);
  free (scanned);

  struct board_entry *e;
  memset (&f, 0, sizeof f);
  f.value[BF_CPU] = CPU_A;
  n = board_cpu_entries (b, &f, &e);
  check (n == 5 && near (e[0].score, 500) && near (e[4].score, 100)
         && strcmp (e[0].gmp, "6.3.0") == 0 && strcmp (e[0].compiler, "gcc") == 0,
         "a CPU's entries, best first (%zu)", n);
  check (n == 5 && e[0].gmp == e[4].gmp && e[0].compiler == e[4].compiler,
         "equal strings are the same pointer (the CPU page compares them so)");
  free (e);
  f.value[BF_CPU] = CPU_B;
  n = board_cpu_entries (b, &f, &e);
  check (n == 5 && e[4].seq && isnan (e[4].score) && e[3].verified,
         "the partial run comes last, the verified one is marked");
  free (e);
  f.value[BF_CPU] = CPU_C;
  n = board_cpu_entries (b, &f, &e);
  check (n == 0, "a flagged result is left out of its CPU's entries");
  free (e);
  f.include_flagged = 1;
  n = board_cpu_entries (b, &f, &e);
  check (n == 1 && e[0].flagged, "unless flagged results are asked for");
  free (e);

  struct board_entry newest[3];
  f.include_flagged = 0;
  f.value[BF_CPU] = CPU_A;
  n = board_cpu_entries (b, &f, &e);
  int64_t top[2] = { 0, 0 };
  for (size_t i = 0; i < n; i++)
    if (e[i].seq > top[0])
      top[1] = top[0], top[0] = e[i].seq;
    else if (e[i].seq > top[1])
      top[1] = e[i].seq;
  free (e);
  size_t k = board_cpu_newest_entries (b, &f, 2, newest);
  check (k == 2 && ((newest[0].seq == top[0] && newest[1].seq == top[1])
                    || (newest[0].seq == top[1] && newest[1].seq == top[0])),
         "a CPU's two newest entries are its two highest seqs (%zu)", k);
  check (board_cpu_newest_entries (b, &f, 3, newest) == 3
         && board_cpu_newest_entries (b, &f, 0, newest) == 0,
         "as many as asked for, when the CPU has them");

  const char *const *names;
  const size_t *counts;
  size_t nbuilds = board_values (b, BF_BUILD, &names, &counts), sum = 0, agree = 1;
  size_t *tally = gb_xmalloc ((nbuilds + 1) * sizeof *tally);
  board_cpu_tally (b, &f, BF_BUILD, tally);
  for (size_t i = 0; i < nbuilds; i++)
    {
      struct board_filter kind = f;
      kind.value[BF_BUILD] = names[i];
      n = board_cpu_entries (b, &kind, &e);
      agree &= n == tally[i];
      sum += tally[i];
      free (e);
    }
  n = board_cpu_entries (b, &f, &e);
  free (e);
  check (agree && sum == n, "a CPU's results by build kind, counted in one pass (%zu of %zu)",
         sum, n);
  free (tally);
}

static void
test_sorting (struct board *b, struct store *st)
{
  struct board_filter all = { { NULL }, 0, 0 };

  check_order (b, st, &all, BK_N, NULL, "Intel Alpha Zeta CPU", "equal counts: by name");
  check_order (b, st, &all, BK_IQR, NULL, "Zeta CPU Intel Alpha", "by IQR");
  check_order (b, st, &all, BK_BEST, NULL, "Zeta CPU Intel Alpha", "by best");
  check_order (b, st, &all, BK_GHZ, NULL, "Zeta CPU Intel Alpha", "by score per GHz");
  check_order (b, st, &all, BK_CORE, NULL, "Intel Alpha Zeta CPU",
               "by score per core: a CPU without the value comes last");
  check_order (b, st, &all, BK_RSA, NULL, "Intel Alpha Zeta CPU", "by the RSA ratio");
  check_order (b, st, &all, BK_NAME, NULL, "Intel Alpha Zeta CPU", "by name");
  check_order (b, st, &all, BK_NODE, "gmpbench.base", "Intel Alpha Zeta CPU",
               "by the node gmpbench.base");
  struct board_row *rows;
  size_t n = rank (b, st, &all, BK_NODE, "gmpbench.base", &rows);
  check (n == 2 && near (rows[0].node, 10) && near (rows[1].node, 5) && near (rows[0].key, 10),
         "with the node's median in each row");
  free (rows);
  n = rank (b, st, &all, BK_SCORE, NULL, &rows);
  check (n == 2 && isnan (rows[0].node), "a view not sorted by a node has no node median");
  free (rows);
  n = rank (b, st, &all, BK_NODE, "no.such.node", &rows);
  check (n == 2 && isnan (rows[0].node) && isnan (rows[1].node),
         "a node no result has: no medians, every CPU still listed");
  free (rows);
}

static void
test_views (struct board *b, struct store *st)
{
  struct board_filter f = { { NULL }, 0, 0 };
  struct board_row *first, *again;
  size_t views = board_views (b);

  f.value[BF_GMP] = "6.3.0";
  size_t n = rank (b, st, &f, BK_SCORE, NULL, &first);
  check (board_views (b) == views + 1, "a new filter's rows are kept as a view");
  size_t m = rank (b, st, &f, BK_SCORE, NULL, &again);
  check (board_views (b) == views + 1 && n == m && n == 1
         && memcmp (first, again, n * sizeof *first) == 0,
         "asked again, the view answers the same rows");
  free (first);
  free (again);
  n = rank (b, st, &f, BK_NAME, NULL, &first);
  check (board_views (b) == views + 1 && n == 1,
         "another sort of the same filter uses the same view");
  free (first);
  for (int i = 0; i < 80; i++)
    {
      f.value[BF_OS] = i % 2 ? "Debian" : "Ubuntu";
      f.value[BF_GMP] = i % 4 < 2 ? "6.3.0" : "6.2.1";
      f.verified_only = i % 8 < 4;
      f.include_flagged = i % 16 < 8;
      f.value[BF_COMPILER] = i % 40 < 16 ? "gcc" : i % 40 < 32 ? "clang" : NULL;
      f.value[BF_ARCH] = i < 40 ? NULL : "x86_64";
      rank (b, st, &f, i % 3 ? BK_SCORE : BK_NODE, "gmpbench.base", &first);
      free (first);
    }
  check (board_views (b) == 64, "a snapshot keeps 64 views at most (%zu)", board_views (b));
}

/* The seqs of the N results R, space-separated (static). */
static const char *
seqs (const struct board_scored *r, size_t n)
{
  static char buf[256];
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++)
    snprintf (buf + strlen (buf), sizeof buf - strlen (buf), "%s%lld", i ? " " : "",
              (long long) r[i].seq);
  return buf;
}

/* Results ranked by NODE under F (after the cursor when AFTER) are the
 * seqs EXPECT; the last one's score in *LAST. */
static void
check_ranked (struct board *b, struct store *st, const struct board_filter *f, const char *node,
              int after, double score, int64_t seq, size_t limit, const char *expect,
              double *last, const char *what)
{
  struct board_scored *r;
  size_t n;
  int rc = board_ranked (b, st, f, node, after, score, seq, limit, &r, &n);
  check (rc == 0 && strcmp (seqs (r, n), expect) == 0, "%s: %s (got %s)", what, expect,
         seqs (r, n));
  if (last && n > 0)
    *last = r[n - 1].score;
  free (r);
}

/* The API's listings sorted by a test (board_ranked). */
static void
test_ranked (struct board *b, struct store *st)
{
  struct board_filter all = { { NULL }, 0, 0 }, f = all;
  double last = NAN;

  check_ranked (b, st, &all, "gmpbench.app.rsa.2048", 0, 0, 0, 3, "5 4 3", &last,
                "ranked by a test, best first; retracted, unlisted, banned and results "
                "without the test left out");
  check (near (last, 1200), "with the test's score (%g)", last);
  check_ranked (b, st, &all, "gmpbench.app.rsa.2048", 1, last, 3, 3, "2 1", NULL,
                "after the cursor, the rest");
  check_ranked (b, st, &all, "openssl.rsa.sign.2048", 0, 0, 0, 2, "5 4", &last,
                "equal scores: the newest first");
  check_ranked (b, st, &all, "openssl.rsa.sign.2048", 1, last, 4, 2, "3 2", NULL,
                "equal scores: the cursor's seq decides");
  f.value[BF_OS] = "Debian";
  check_ranked (b, st, &f, "gmpbench.app.rsa.2048", 0, 0, 0, 10, "3 2 1", NULL, "filtered");
  f.value[BF_OS] = "Nowhere";
  check_ranked (b, st, &f, "gmpbench.app.rsa.2048", 0, 0, 0, 10, "", NULL,
                "a value no result has: none");
  f = all;
  f.include_flagged = 1;
  check_ranked (b, st, &f, "gmpbench", 0, 0, 0, 2, "11 9", NULL,
                "a node, flagged results included on request");
  check_ranked (b, st, &all, "gmpbench", 0, 0, 0, 2, "9 8", NULL, "flagged results left out");

  /* The GMPbench score, each entry's own, read down to the page's last
   * score: pages of 2 by cursor give the whole ranking, in order. */
  for (int flagged = 0; flagged < 2; flagged++)
    {
      struct board_scored *whole, *page;
      size_t nwhole, npage, at = 0;
      int same;
      f = all;
      f.include_flagged = flagged;
      board_ranked (b, st, &f, "gmpbench", 0, 0, 0, 100, &whole, &nwhole);
      same = nwhole > 2;
      for (int after = 0; same && at < nwhole; after = 1)
        {
          board_ranked (b, st, &f, "gmpbench", after, at ? whole[at - 1].score : 0,
                        at ? whole[at - 1].seq : 0, 2, &page, &npage);
          for (size_t i = 0; same && i < npage; i++)
            same = at + i < nwhole && page[i].seq == whole[at + i].seq;
          same = same && npage > 0;
          at += npage;
          free (page);
        }
      check (same && at == nwhole, "ranked by the GMPbench score, pages of 2 by cursor give "
             "all %zu results in order (flagged %d)", nwhole, flagged);
      free (whole);
    }
}

/* A database that fails: the current snapshot stays; without one, pages
 * learn that the database, not the first build, is the problem. */
static void
test_failure (struct store *st)
{
  struct server srv = { 0 };
  int preparing;

  srv.store = st;
  srv.aggregate_ttl = 0.05;
  check (board_start (&srv) == 0, "the builder starts, TTL 50 ms");
  struct board *b1 = board_acquire (&srv, &preparing);
  exec ("ALTER TABLE results RENAME TO results_gone");
  usleep (100000);
  struct board *b2 = board_acquire (&srv, &preparing);
  board_release (b2);
  usleep (300000);
  b2 = board_acquire (&srv, &preparing);
  check (b1 && b2 == b1, "a rebuild that fails keeps the current snapshot");
  board_release (b1);
  board_release (b2);
  board_stop (&srv);

  srv.aggregate_ttl = 60;
  check (board_start (&srv) == 0, "the builder starts on a failing database");
  preparing = 1;
  b1 = board_acquire (&srv, &preparing);
  check (!b1 && !preparing, "no snapshot, and not 'being prepared': the database failed");
  board_release (b1);
  board_stop (&srv);
  exec ("ALTER TABLE results_gone RENAME TO results");
}

/* The pages' writers: web_text() writes exactly what escape_html() does,
 * web_number() four significant digits or a whole number. */
static void
test_writers (void)
{
  char all[256], *a = NULL, *b = NULL;
  size_t alen = 0, blen = 0;
  for (int i = 1; i < 256; i++)
    all[i - 1] = (char) i;
  all[255] = '\0';
  const char *samples[] = { all, "<script>alert('x')</script> & \"q\"", "", "plain", "\x7f<" };
  int same = 1;
  for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
    {
      FILE *fa = open_memstream (&a, &alen), *fb = open_memstream (&b, &blen);
      web_text (fa, samples[i]);
      escape_html (fb, samples[i]);
      fclose (fa);
      fclose (fb);
      same &= alen == blen && memcmp (a, b, alen) == 0;
      free (a);
      free (b);
    }
  check (same, "web_text writes what escape_html writes");
  const double numbers[] = { 1234.5, 1235.5, -2500.49, 999999999, 12.3456, NAN };
  const char *expect = "1234 1236 -2500 999999999 12.35 \u2013 ";
  FILE *f = open_memstream (&a, &alen);
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
    {
      web_number (f, numbers[i]);
      fputc (' ', f);
    }
  fclose (f);
  check (strcmp (a, expect) == 0, "web_number: %s", a);
  free (a);
}

/* Acquires SRV's snapshot until it is not OLD (at most 10 s). */
static struct board *
acquire_other (struct server *srv, struct board *old)
{
  for (int i = 0; i < 1000; i++)
    {
      int preparing;
      struct board *b = board_acquire (srv, &preparing);
      if (b && b != old)
        return b;
      board_release (b);
      usleep (10000);
    }
  return NULL;
}

static void
test_keeper (struct store *st)
{
  struct server srv = { 0 };
  struct board_filter f = { { NULL }, 0, 0 };
  struct board_row *rows;
  int preparing;

  srv.store = st;
  srv.aggregate_ttl = 3600;
  check (board_start (&srv) == 0, "the builder starts");
  struct board *b1 = board_acquire (&srv, &preparing);
  check (b1 && board_size (b1) == 11, "the first snapshot: a page waits for it");
  struct board *same = board_acquire (&srv, &preparing);
  check (same == b1, "a fresh snapshot is shared");
  board_release (same);
  f.value[BF_OS] = "Fedora";
  rank (b1, st, &f, BK_SCORE, NULL, &rows);
  free (rows);
  rank (b1, st, &f, BK_NODE, "gmpbench.base", &rows);
  free (rows);
  board_stop (&srv);
  check (b1 && board_size (b1) == 11, "a snapshot outlives the builder while retained");
  board_release (b1);

  srv.aggregate_ttl = 0;
  check (board_start (&srv) == 0, "the builder starts again, TTL 0");
  b1 = board_acquire (&srv, &preparing);
  struct fake a = { CPU_A, "Intel Alpha (new name)", "x86_64", "Intel", "Debian", "6.3.0", "gcc",
                    NULL, NULL, 0, 0, 2000, 4, 600, 10, 1000, 1000 };
  add (&a);
  struct board *b2 = board_acquire (&srv, &preparing);
  check (b1 && b2 && b1 != b2 && board_size (b2) == 12,
         "with TTL 0, a page waits for a snapshot begun after it arrived");
  check (b1 && board_size (b1) == 11 && strcmp (board_cpu_name (b1, CPU_A), "Intel Alpha") == 0,
         "the old snapshot stays whole for its readers");
  check (b2 && strcmp (board_cpu_name (b2, CPU_A), "Intel Alpha") == 0,
         "the new one keeps the name most results give, not the newest");
  board_release (b1);
  board_release (b2);
  board_stop (&srv);

  srv.aggregate_ttl = 0.05;
  check (board_start (&srv) == 0, "the builder starts again, TTL 50 ms");
  b1 = board_acquire (&srv, &preparing);
  rank (b1, st, &f, BK_NODE, "gmpbench.base", &rows);
  free (rows);
  size_t views = board_views (b1);
  add (&a);
  usleep (100000);
  b2 = board_acquire (&srv, &preparing);
  check (b2 == b1, "a stale snapshot is still served while the next is built");
  board_release (b2);
  b2 = acquire_other (&srv, b1);
  check (b2 && board_size (b2) == 13, "then the new one replaces it (%zu)",
         b2 ? board_size (b2) : 0);
  check (b2 && board_views (b2) == views,
         "with the views that were asked for and the default one (%zu of %zu)",
         b2 ? board_views (b2) : 0, views);
  board_release (b1);
  board_release (b2);
  board_stop (&srv);

  next_seq = 10000000;           /* sparse seqs: found by binary search */
  a.score = 700;
  add (&a);
  srv.aggregate_ttl = 0;
  check (board_start (&srv) == 0, "the builder starts again, on sparse seqs");
  b1 = board_acquire (&srv, &preparing);
  f.value[BF_OS] = NULL;
  size_t n = b1 ? rank (b1, st, &f, BK_BEST, NULL, &rows) : 0;
  check (b1 && board_size (b1) == 14 && n == 2 && near (rows[1].best, 700),
         "scores are matched to sparse results too");
  if (b1)
    free (rows);
  board_release (b1);
  board_stop (&srv);

  srv.aggregate_ttl = 60;
  check (board_start (&srv) == 0, "the builder starts again");
  board_stop (&srv);
  check (srv.boards == NULL, "and stops at once, mid-build");
}

/* Whether A and B rank F alike by KEY (NODE for BK_NODE): the same
 * CPUs in the same order with the same figures. */
static int
same_rank (struct board *a, struct board *b, struct store *st, const struct board_filter *f,
           enum board_key key, const char *node)
{
  struct board_row *x, *y;
  size_t n = rank (a, st, f, key, node, &x), m = rank (b, st, f, key, node, &y);
  int same = n == m;
  for (size_t i = 0; same && i < n; i++)
    same = strcmp (x[i].cpu, y[i].cpu) == 0 && strcmp (x[i].cpu_name, y[i].cpu_name) == 0
      && strcmp (x[i].arch, y[i].arch) == 0 && x[i].n == y[i].n && alike (x[i].median, y[i].median)
      && alike (x[i].q1, y[i].q1) && alike (x[i].q3, y[i].q3) && alike (x[i].best, y[i].best)
      && alike (x[i].per_ghz, y[i].per_ghz) && alike (x[i].per_core, y[i].per_core)
      && alike (x[i].rsa, y[i].rsa) && alike (x[i].node, y[i].node);
  free (x);
  free (y);
  return same;
}

/* Whether A and B have the same values of every field, with the same
 * counts. */
static int
same_values (const struct board *a, const struct board *b)
{
  for (int f = 0; f < BF_COUNT; f++)
    {
      const char *const *an, *const *bn;
      const size_t *ac, *bc;
      size_t n = board_values (a, f, &an, &ac), m = board_values (b, f, &bn, &bc);
      if (n != m)
        return 0;
      for (size_t i = 0; i < n; i++)
        if (strcmp (an[i], bn[i]) != 0 || ac[i] != bc[i])
          return 0;
    }
  return 1;
}

/* Tells the journal of ID's change the way the server's writes do: new
 * flags for it (it may have been written with SQL just before). */
static void
set_flags (struct store *st, const char *id, const char *flags)
{
  struct store_flags change = { id, flags, "" };
  check (store_set_flags (st, &change, 1, 1700000200) == STORE_OK, "flags of %s set", id);
}

/* A snapshot brought up to date with the journal (new results, new flags,
 * retractions, a CPU left without results, a new CPU) ranks, names and
 * counts exactly as a snapshot built from the store. */
static void
test_update (struct store *st)
{
  struct server srv = { 0 };
  struct board_filter f = { { NULL }, 0, 0 };
  struct board_row *rows;
  int preparing;
  char id[32];

  srv.store = st;
  srv.aggregate_ttl = 3600;
  check (board_start (&srv) == 0, "the builder starts (updates)");
  struct board *b1 = board_acquire (&srv, &preparing);
  for (int flagged = 0; flagged < 2; flagged++)         /* views to carry, a node column */
    for (int os = 0; os < 2; os++)
      for (int key = BK_SCORE; key <= BK_NODE; key += BK_NODE - BK_SCORE)
        {
          f.include_flagged = flagged;
          f.value[BF_OS] = os ? "Debian" : NULL;
          rank (b1, st, &f, key, "gmpbench.base", &rows);
          free (rows);
        }
  struct fake d = { "x86:GenuineIntel:family=6:model=9:stepping=0", "Intel Delta", "x86_64",
                    "Intel", "Gentoo", "6.3.0", "gcc", NULL, NULL, 0, 0, 2500, 6, 250, 12, 800,
                    900 };
  snprintf (id, sizeof id, "%s", add (&d));
  set_flags (st, id, "");
  d.score = 4000;               /* an outlier of the new CPU */
  snprintf (id, sizeof id, "%s", add (&d));
  set_flags (st, id, "outlier");
  struct fake a = { CPU_A, "Intel Alpha", "x86_64", "Intel", "Fedora", "6.3.0", "gcc", NULL, NULL,
                    0, 0, 2000, 4, 350, 11, 1000, 1000 };
  snprintf (id, sizeof id, "%s", add (&a));
  set_flags (st, id, "");
  set_flags (st, "0000000000000007", "outlier");        /* a result of CPU B flagged */
  set_flags (st, "000000000000000b", "");               /* CPU C's, unflagged */
  check (store_retract (st, "0000000000000002", 1700000300, NULL) == STORE_OK
         && store_retract (st, "000000000000000b", 1700000300, NULL) == STORE_OK,
         "a result of CPU A and CPU C's only one are retracted");
  struct board *b2 = board_acquire (&srv, &preparing);
  check (b2 && b2 != b1 && board_size (b2) == board_size (b1) + 1,
         "a page after the changes gets a snapshot with them (%zu results, %zu before)",
         b2 ? board_size (b2) : 0, board_size (b1));
  board_release (b1);
  board_stop (&srv);

  check (board_start (&srv) == 0, "the builder starts again (a whole build)");
  struct board *b3 = board_acquire (&srv, &preparing);
  int same = b2 && b3 && board_size (b2) == board_size (b3) && same_values (b2, b3);
  for (int flagged = 0; same && flagged < 2; flagged++)
    for (int key = BK_SCORE; same && key <= BK_NODE; key++)
      {
        f.include_flagged = flagged;
        f.value[BF_OS] = NULL;
        same = same_rank (b2, b3, st, &f, key, "gmpbench.base");
        f.value[BF_OS] = "Debian";
        same = same && same_rank (b2, b3, st, &f, key, "gmpbench.base");
      }
  check (same, "the updated snapshot ranks every view and column as a whole build does");
  const char *cpus[] = { CPU_A, CPU_B, CPU_C, d.cpu };
  for (size_t i = 0; b2 && b3 && i < sizeof cpus / sizeof *cpus; i++)
    {
      const char *x = board_cpu_name (b2, cpus[i]), *y = board_cpu_name (b3, cpus[i]);
      check (x ? y && strcmp (x, y) == 0 : !y, "%s is named alike (%s, %s)", cpus[i],
             x ? x : "none", y ? y : "none");
    }
  f.value[BF_OS] = NULL;
  f.value[BF_CPU] = CPU_A;
  struct board_entry *e2 = NULL, *e3 = NULL;
  size_t n2 = b2 ? board_cpu_entries (b2, &f, &e2) : 0, n3 = b3 ? board_cpu_entries (b3, &f, &e3) : 1;
  same = n2 == n3;
  for (size_t i = 0; same && i < n2; i++)
    same = e2[i].seq == e3[i].seq && alike (e2[i].score, e3[i].score)
      && e2[i].flagged == e3[i].flagged;
  check (same, "... and lists a CPU's results alike (%zu, %zu)", n2, n3);
  free (e2);
  free (e3);
  board_release (b2);
  board_release (b3);
  board_stop (&srv);
}

/* A memo's value: the count of memos made so far, when it was made. */
static int memos_made;

static void *
make_memo (void *ctx, size_t *bytes)
{
  int *made = gb_xmalloc (sizeof *made);
  (void) ctx;
  *bytes = sizeof *made;
  *made = ++memos_made;
  return made;
}

/* The value kept for KEY of CPU in B (a memo made when none was). */
static int
memo (struct board *b, const char *cpu, const char *key)
{
  int owned;
  int *made = board_cpu_memo (b, cpu, key, make_memo, NULL, free, &owned);
  int v = *made;
  if (owned)
    free (made);
  return v;
}

/* What pages keep with a CPU's entries lasts until one of its results
 * changes, is shared by the snapshots in which it does not, and is taken
 * over by a full build that finds the CPU's results as they were. */
static void
test_memos (struct store *st)
{
  struct server srv = { 0 };
  int preparing, owned;
  char id[32];

  srv.store = st;
  srv.aggregate_ttl = 3600;
  check (board_start (&srv) == 0, "the builder starts (memos)");
  struct board *b1 = board_acquire (&srv, &preparing);
  int a1 = memo (b1, CPU_A, "x"), b_1 = memo (b1, CPU_B, "x");
  check (memo (b1, CPU_A, "x") == a1 && memo (b1, CPU_A, "y") != a1,
         "a memo is kept per CPU and key");
  int *none = board_cpu_memo (b1, "no such CPU", "x", make_memo, NULL, free, &owned);
  check (owned, "a memo of an unknown CPU is the caller's");
  free (none);
  struct fake a = { CPU_A, "Intel Alpha", "x86_64", "Intel", "Fedora", "6.3.0", "gcc", NULL, NULL,
                    0, 0, 2000, 4, 450, 11, 1000, 1000 };
  snprintf (id, sizeof id, "%s", add (&a));
  set_flags (st, id, "");
  struct board *b2 = board_acquire (&srv, &preparing);
  check (b2 && b2 != b1 && board_cpu_newest (b2, CPU_A) == next_seq - 1
         && board_cpu_newest (b1, CPU_A) < next_seq - 1,
         "a new result of CPU A makes a new snapshot, with it as A's newest");
  check (b2 && memo (b2, CPU_A, "x") != a1, "where A's memo is made again");
  check (b2 && memo (b2, CPU_B, "x") == b_1, "and B's is shared");
  int a2 = b2 ? memo (b2, CPU_A, "x") : 0;
  board_release (b1);

  srv.aggregate_ttl = 0.05;
  usleep (100000);
  board_release (board_acquire (&srv, &preparing));     /* asks for a full build */
  struct board *b3 = acquire_other (&srv, b2);
  check (b3 && memo (b3, CPU_A, "x") == a2 && memo (b3, CPU_B, "x") == b_1,
         "a full build takes over the memos of CPUs whose results it finds unchanged");
  board_release (b2);
  board_release (b3);
  board_stop (&srv);
}

int
main (void)
{
  char dir[] = "/tmp/unit-board.XXXXXX", path[64], err[256];

  if (!mkdtemp (dir))
    return 2;
  snprintf (path, sizeof path, "%s/board.db", dir);
  struct store *st = store_open (path, 2, err, sizeof err);
  if (!st)
    {
      fprintf (stderr, "unit-board: %s\n", err);
      return 2;
    }
  if (sqlite3_open (path, &db) != SQLITE_OK)
    return 2;
  sqlite3_busy_timeout (db, 5000);
  fill (st);

  struct server srv = { 0 };
  srv.store = st;
  srv.aggregate_ttl = 3600;
  check (board_start (&srv) == 0, "the builder starts");
  int preparing;
  struct board *b = board_acquire (&srv, &preparing);
  check (b != NULL, "a snapshot is built");
  if (b)
    {
      test_aggregates (b, st);
      test_filters (b, st);
      test_sorting (b, st);
      test_views (b, st);
      test_ranked (b, st);
      board_release (b);
    }
  board_stop (&srv);
  test_keeper (st);
  test_update (st);
  test_memos (st);
  test_failure (st);
  test_writers ();

  sqlite3_close (db);
  store_close (st);
  char cmd[128];
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  if (system (cmd) != 0)
    check (0, "the scratch directory is removed");
  return check_exit_status ();
}
