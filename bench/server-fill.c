/* server-fill.c: fills a gmpbench-server database with synthetic results
 * shaped like whole runs, through the server's own store (store_insert),
 * so that they are stored exactly as uploads are (bench/server-load.sh
 * builds and drives it).
 *
 *   server-fill DATABASE FIXTURE FIRST LAST THREADS
 *
 * stores the results numbered FIRST..LAST (a database grows in steps)
 * from THREADS threads (SQLite's group commit then writes several per
 * transaction), but those stored already (a fill interrupted leaves
 * holes among its last numbers, which the next one, begun a little
 * before, fills).  Each result has every score node and test of FIXTURE (a
 * whole run), scaled by its CPU's speed and a noise of its own, and is
 * one of 400 CPU identities, drawn with weights 1/(rank+1) (a few CPUs
 * are common, most are rare), each CPU with its architecture (70%
 * x86_64, 20% aarch64, 5% ppc64le, 5% riscv64), vendor, name, clock and
 * cores; an OS (of five), a GMP version (of four), a compiler (of two),
 * a run mode (80% quick) and a GMP build kind (of four); one in fifty is
 * flagged; 3000 keys.  Result N is the same whatever the threads.  No
 * identity is a real CPU's (x86 models from 1000), so that uploads of a
 * real document after the fill start a category of their own.
 *
 * Its body is one of 16 copies of FIXTURE scaled as the upload load
 * generator scales them, made distinct by its number in the submitter's
 * name and by digits of its own in every measured value from the third
 * decimal on (as runs differ: without them a dictionary the server
 * trains on the fill would compress its bodies far better than real
 * runs it was not trained on); the row describes the result drawn, not
 * the body (only the body's size and bytes matter for what this fills:
 * storage, listings, the dump). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "bench/bench-doc.h"
#include "common/util.h"
#include "model/validate.h"
#include "server/store/store.h"

#define NCPUS 400
#define NBODIES 16
#define NKEYS 3000
#define NAME_DIGITS 10          /* "fill 0000000042" in the submitter's name */

struct cpu
{
  char identity[96], name[64], vendor[16];
  const char *arch;
  double mhz, speed;
  int cores;
};

/* The bodies and their summaries. */
struct body
{
  char *text;
  size_t len, number_at;        /* where the result's number goes */
  struct doc_summary doc;
};

struct fill
{
  struct store *store;
  struct body bodies[NBODIES];
  struct cpu cpus[NCPUS];
  double cpu_weight[NCPUS];     /* cumulative, the last 1 */
  int64_t first, last;
  int threads;
  int64_t done, existing;
  int failed;
  pthread_mutex_t lock;
};

/* splitmix64: the random numbers of result N (or CPU K) from N alone. */
static uint64_t
mix (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double
uniform (uint64_t *state)
{
  return (double) (mix (state) >> 11) / 9007199254740992.0;
}

static void
make_cpu (struct cpu *c, int k)
{
  uint64_t r = 1000003u * (uint64_t) k;
  unsigned h = (unsigned) (mix (&r) % 20);

  c->speed = 0.3 + 2.7 * uniform (&r);
  c->mhz = 1000 + 100 * (double) (mix (&r) % 45);
  c->cores = 2 << (mix (&r) % 6);
  if (h < 14)
    {
      int amd = mix (&r) % 2;
      c->arch = "x86_64";
      snprintf (c->vendor, sizeof c->vendor, "%s", amd ? "AMD" : "Intel");
      snprintf (c->identity, sizeof c->identity, "x86:%s:family=%d:model=%d:stepping=%d",
                amd ? "AuthenticAMD" : "GenuineIntel", amd ? 25 : 6, 1000 + k,
                (int) (mix (&r) % 16));
    }
  else if (h < 18)
    {
      c->arch = "aarch64";
      snprintf (c->vendor, sizeof c->vendor, "ARM");
      snprintf (c->identity, sizeof c->identity, "arm:0x41:0x%03x:r%dp%d", 0xd00 + k,
                (int) (mix (&r) % 4), (int) (mix (&r) % 4));
    }
  else if (h == 18)
    {
      c->arch = "ppc64le";
      snprintf (c->vendor, sizeof c->vendor, "IBM");
      snprintf (c->identity, sizeof c->identity, "ppc:pvr=0x%08x", 0x4e0000 + k);
    }
  else
    {
      c->arch = "riscv64";
      snprintf (c->vendor, sizeof c->vendor, "SiFive");
      snprintf (c->identity, sizeof c->identity, "riscv:0x489:0x%x:0x1", 0x8000 + k);
    }
  snprintf (c->name, sizeof c->name, "%s Synthetic %d", c->vendor, k);
}

/* Chooses among N values with the weights W (summing to 1). */
static int
pick (uint64_t *state, const double *w, int n)
{
  double u = uniform (state);
  for (int i = 0; i < n - 1; i++)
    if ((u -= w[i]) < 0)
      return i;
  return n - 1;
}

static void
make_bodies (struct fill *f, const char *fixture)
{
  cJSON *doc = bench_load_fixture (fixture);
  struct validate_error err;

  for (int b = 0; b < NBODIES; b++)
    {
      struct body *body = &f->bodies[b];
      size_t prefix;
      body->text = bench_scaled_document (doc, 0.7 * (1 + (double) b / NBODIES), &prefix);
      body->text = gb_xrealloc (body->text, prefix + 256);
      int extra = snprintf (body->text + prefix, 256, ",\n \"submitter\": {\"public_key\": "
                            "\"nzJBMeewtZNb5SsaHY9GRQeKtpTdqP/H92LVqix8pJw=\", "
                            "\"name\": \"fill %0*d\"}\n}\n", NAME_DIGITS, 0);
      body->len = prefix + (size_t) extra;
      body->number_at = (size_t) (strstr (body->text + prefix, "\"fill ") - body->text) + 6;
      if (validate_document (body->text, body->len, &body->doc, &err) < 0)
        {
          fprintf (stderr, "server-fill: %s: %s\n", fixture, err.message);
          exit (1);
        }
    }
  cJSON_Delete (doc);
}

static void
sha256_hex (const char *data, size_t len, char hex[65])
{
  unsigned char md[32];
  unsigned int mdlen = 0;
  EVP_Digest (data, len, md, &mdlen, EVP_sha256 (), NULL);
  for (int i = 0; i < 32; i++)
    snprintf (hex + 2 * i, 3, "%02x", md[i]);
}

static const char *const oses[] = {
  "Debian GNU/Linux", "Ubuntu", "Fedora Linux", "FreeBSD", "macOS",
};
static const double os_weights[] = { 0.35, 0.3, 0.15, 0.1, 0.1 };
static const char *const gmps[] = { "6.3.0", "6.2.1", "6.2.0", "6.1.2" };
static const double gmp_weights[] = { 0.5, 0.3, 0.1, 0.1 };
static const char *const compilers[] = { "gcc", "clang" };
static const double compiler_weights[] = { 0.75, 0.25 };
static const char *const builds[] = { "distribution", "native", "fat", "unknown" };
static const double build_weights[] = { 0.6, 0.25, 0.1, 0.05 };

/* Draws the digits of TEXT (LEN bytes of JSON) that follow the second
 * decimal of a number, from the state of result N. */
static void
vary_digits (char *text, size_t len, int64_t n)
{
  uint64_t r = (uint64_t) n * 0x9e3779b97f4a7c15ull + 1;
  int in_string = 0, decimals = -1;

  for (size_t i = 0; i < len; i++)
    {
      char ch = text[i];
      if (in_string)
        {
          if (ch == '\\')
            i++;
          else if (ch == '"')
            in_string = 0;
        }
      else if (ch == '"')
        in_string = 1;
      else if (ch == '.')
        decimals = 0;
      else if (ch >= '0' && ch <= '9' && decimals >= 0)
        {
          if (++decimals > 2)
            text[i] = (char) ('0' + mix (&r) % 10);
        }
      else
        decimals = -1;
    }
}

/* Stores result N; its body and scores are in the thread's buffers. */
static enum store_status
store_one (struct fill *f, int64_t n, char *text, struct score_node *scores)
{
  uint64_t r = (uint64_t) n * 0x100000001b3ull;
  struct body *b = &f->bodies[mix (&r) % NBODIES];
  double u = uniform (&r);
  int k = 0;
  while (k < NCPUS - 1 && u > f->cpu_weight[k])
    k++;
  const struct cpu *c = &f->cpus[k];
  char sha[65], id[65], fingerprint[65], submitter[32], digits[NAME_DIGITS + 1];

  memcpy (text, b->text, b->len + 1);
  snprintf (digits, sizeof digits, "%0*lld", NAME_DIGITS, (long long) n);
  memcpy (text + b->number_at, digits, NAME_DIGITS);
  vary_digits (text, b->len, n);
  sha256_hex (text, b->len, sha);
  snprintf (submitter, sizeof submitter, "key %d", (int) (mix (&r) % NKEYS));
  sha256_hex (submitter, strlen (submitter), fingerprint);

  struct doc_summary d = b->doc;
  double noise = 0.9 + 0.2 * uniform (&r);
  for (size_t i = 0; i < d.nscores; i++)
    {
      scores[i] = d.scores[i];
      scores[i].score *= c->speed * noise * (0.95 + 0.1 * uniform (&r));
    }
  d.scores = scores;
  d.arch = (char *) c->arch;
  d.cpu = (char *) c->identity;
  d.cpu_name = (char *) c->name;
  d.cpu_vendor = (char *) c->vendor;
  d.os = (char *) oses[pick (&r, os_weights, 5)];
  d.gmp = (char *) gmps[pick (&r, gmp_weights, 4)];
  d.compiler = (char *) compilers[pick (&r, compiler_weights, 2)];
  d.mode = (char *) (uniform (&r) < 0.8 ? "quick" : "full");
  d.submitter = submitter;
  d.mhz_max = c->mhz;
  d.cores = c->cores;
  /* Its measurements are its own, as its digits are: its body's hash
   * stands for their fingerprint, which the store holds unique. */
  snprintf (d.measurements, sizeof d.measurements, "%s", sha);
  int flagged = mix (&r) % 50 == 0;
  struct store_upload up = {
    .body = text, .len = b->len, .sha256 = sha, .signature = "c2lnbmF0dXJl",
    .public_key = "nzJBMeewtZNb5SsaHY9GRQeKtpTdqP/H92LVqix8pJw=", .fingerprint = fingerprint,
    .doc = &d, .flags = flagged ? "outlier" : "",
    .flag_notes = flagged ? "synthetic: flagged by server-fill" : "",
    .build = builds[pick (&r, build_weights, 4)], .unlisted = 0,
    .received = 1700000000 + 30 * n,
  };
  return store_insert (f->store, &up, id);
}

static void *
filler (void *arg)
{
  struct fill *f = arg;
  char *text = gb_xmalloc (1 << 20);
  struct score_node *scores = gb_xmalloc (f->bodies[0].doc.nscores * sizeof *scores);

  for (;;)
    {
      pthread_mutex_lock (&f->lock);
      int64_t n = f->failed ? f->last + 1 : f->first + f->done++;
      pthread_mutex_unlock (&f->lock);
      if (n > f->last)
        break;
      enum store_status rc = store_one (f, n, text, scores);
      if (rc == STORE_EXISTS)
        {
          pthread_mutex_lock (&f->lock);
          f->existing++;
          pthread_mutex_unlock (&f->lock);
        }
      else if (rc != STORE_OK)
        {
          fprintf (stderr, "server-fill: result %lld: the store failed\n", (long long) n);
          pthread_mutex_lock (&f->lock);
          f->failed = 1;
          pthread_mutex_unlock (&f->lock);
        }
      else if (n % 10000 == 0)
        fprintf (stderr, "server-fill: %lld stored\n", (long long) n);
    }
  free (text);
  free (scores);
  return NULL;
}

int
main (int argc, char **argv)
{
  static struct fill f;
  char err[256];

  if (argc != 6)
    {
      fputs ("usage: server-fill DATABASE FIXTURE FIRST LAST THREADS\n", stderr);
      return 2;
    }
  f.first = strtoll (argv[3], NULL, 10);
  f.last = strtoll (argv[4], NULL, 10);
  f.threads = atoi (argv[5]);
  if (f.first < 1 || f.last < f.first || f.threads < 1 || f.threads > 64)
    {
      fputs ("server-fill: FIRST >= 1, LAST >= FIRST and 1 <= THREADS <= 64\n", stderr);
      return 2;
    }
  make_bodies (&f, argv[2]);
  double sum = 0;
  for (int k = 0; k < NCPUS; k++)
    {
      make_cpu (&f.cpus[k], k);
      sum += 1.0 / (k + 1);
    }
  for (int k = 0; k < NCPUS; k++)
    f.cpu_weight[k] = (k ? f.cpu_weight[k - 1] : 0) + 1.0 / (k + 1) / sum;
  f.store = store_open (argv[1], (unsigned) f.threads, err, sizeof err);
  if (!f.store)
    {
      fprintf (stderr, "server-fill: %s\n", err);
      return 1;
    }
  pthread_mutex_init (&f.lock, NULL);
  pthread_t t[64];
  double t0 = gb_wall_seconds ();
  for (int i = 0; i < f.threads; i++)
    pthread_create (&t[i], NULL, filler, &f);
  for (int i = 0; i < f.threads; i++)
    pthread_join (t[i], NULL);
  double elapsed = gb_wall_seconds () - t0;
  store_close (f.store);
  if (f.failed)
    return 1;
  int64_t stored = f.last - f.first + 1 - f.existing;
  printf ("fill: %lld results in %.0f s (%.0f/s), %lld stored already\n", (long long) stored,
          elapsed, (double) stored / elapsed, (long long) f.existing);
  for (int b = 0; b < NBODIES; b++)
    {
      validate_summary_free (&f.bodies[b].doc);
      free (f.bodies[b].text);
    }
  return 0;
}
