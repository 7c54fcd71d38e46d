/* plausible.c: refusals and flags for results hard to believe (see
 * plausible.h and docs/protocol.md): the document's own and the CPUs'.
 *
 * The document's own: its clocks must fit its CPU's family and agree
 * before and after the run (plausible_clock.c), its tests' members must
 * agree with each other and with physics (refused with a 422), its brand
 * string must fit the CPU and its measured clock the CPU's maximum
 * (flags).  The CPUs': an inner node far
 * faster per GHz than the best any other CPU has reached is flagged (a
 * document without a valid measured clock taken at its family's highest
 * clock); the best per node is read once through the caller's reader and
 * raised in memory by each unflagged upload.  The peers' judgement is
 * plausible_peers.c's.  Nothing here calls the store. */
#include "server/judge/plausible.h"
#include "server/judge/plausible_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "model/cpu_brand.h"
#include "model/registry.h"
#include "model/test_marks.h"
#include "server/judge/plausible_steady.h"

/* ------------------------------------------------------------ flag lists */

static int
has_flag (const char *list, const char *flag)
{
  size_t len = strlen (flag);
  for (const char *p = list; (p = strstr (p, flag)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return 1;
  return 0;
}

void
plausible_add_flag (char *out, size_t size, const char *flag)
{
  size_t len = strlen (out);
  if (has_flag (out, flag))
    return;
  snprintf (out + len, size - len, "%s%s", len ? "," : "", flag);
}

void
plausible_add_note (char *out, size_t size, const char *fmt, ...)
{
  size_t len = strlen (out);
  va_list ap;
  if (len + 1 >= size)
    return;
  if (len)
    out[len++] = '\n', out[len] = '\0';
  va_start (ap, fmt);
  vsnprintf (out + len, size - len, fmt, ap);
  va_end (ap);
}

/* ------------------------------------------------------------ the document */

const char *
plausible_build_kind (const char *gmp_build)
{
  static const char *const kinds[] = { "distribution", "fat", "native" };
  for (size_t i = 0; gmp_build && i < sizeof kinds / sizeof *kinds; i++)
    if (strcmp (gmp_build, kinds[i]) == 0)
      return kinds[i];
  return "unknown";
}

/* The highest clock the document allows its CPU, in MHz: the highest it
 * reports (measured, maximum, nominal) with PLAUSIBLE_TURBO for what a
 * boost adds, never above the bound of its family (plausible_clock.c),
 * which is also the clock of a document that reports none. */
static double
allowed_mhz (const struct doc_summary *doc)
{
  double mhz = fmax (doc->mhz_measured, fmax (doc->mhz_max, doc->mhz_nominal));
  double bound = plausible_clock_bound (doc);
  return mhz > 0 ? fmin (PLAUSIBLE_TURBO * mhz, bound) : bound;
}

double
plausible_floor_cycles (const char *test)
{
  const struct bench_test *t = registry_find (test);
  double bits = t ? fabs ((double) t->a) + fabs ((double) t->b) : 0;
  return fmax (1.0, bits / PLAUSIBLE_BITS_PER_CYCLE);
}

static int
refuse (struct validate_error *err, const char *rule, const char *field, const char *test,
        const char *what, double a, double b)
{
  validate_fail (err, 422, rule, field, "%s: %s (%.6g against %.6g)", test, what, a, b);
  err->tests = gb_xmalloc (sizeof *err->tests);
  err->tests[0] = gb_xstrdup (test);
  err->ntests = 1;
  return -1;
}

/* The members of test T contradict each other: -1 with ERR set.  The
 * client's harness (engine/harness.c) makes seconds_per_op the inverse of
 * ops_per_sec, the median over all samples no faster than the estimate
 * from the fastest (fast_ops_per_sec; ops_per_sec in documents without it
 * and for the tests outside GMPbench's, docs/scoring.md), the timed wall time the sum of samples of which at
 * least half are no faster than the estimate, CPU time no more than wall
 * time (one thread; a CPU clock's step per sample allowed), and sets noisy and cpu-diverged by fixed thresholds. */
static int
contradicts (const struct doc_test *t, const char *field, struct validate_error *err)
{
  const double tol = PLAUSIBLE_TOLERANCE;
  double timed = 0.5 * t->samples * t->reps_per_sample * t->seconds_per_op;
  double fastest = t->fast_ops_per_sec > 0 ? t->fast_ops_per_sec : t->ops_per_sec;

  if (fabs (t->seconds_per_op * t->ops_per_sec - 1) > tol)
    return refuse (err, "inconsistent-test", field, t->name,
                   "seconds_per_op is not 1 / ops_per_sec", t->seconds_per_op,
                   1 / t->ops_per_sec);
  if (t->median_ops_per_sec > fastest * (1 + tol))
    return refuse (err, "inconsistent-test", field, t->name,
                   "median_ops_per_sec is above the estimate from the fastest samples "
                   "(fast_ops_per_sec, else ops_per_sec)", t->median_ops_per_sec, fastest);
  if (t->wall_seconds < timed * (1 - tol))
    return refuse (err, "inconsistent-test", field, t->name,
                   "wall_seconds is less than half of samples * reps_per_sample * "
                   "seconds_per_op", t->wall_seconds, 2 * timed);
  if (t->threads == 1
      && t->cpu_seconds > t->wall_seconds * (1 + PLAUSIBLE_CPU_SLACK) + 0.01
                          + t->samples * PLAUSIBLE_CPU_TICK)
    return refuse (err, "inconsistent-test", field, t->name,
                   "cpu_seconds exceeds wall_seconds in one thread", t->cpu_seconds,
                   t->wall_seconds);
  if (t->noisy ? t->spread < TEST_NOISY_SPREAD * (1 - PLAUSIBLE_CPU_SLACK)
      : t->spread > TEST_NOISY_SPREAD * (1 + PLAUSIBLE_CPU_SLACK))
    return refuse (err, "inconsistent-test", field, t->name,
                   t->noisy ? "flagged noisy with a spread below the noisy threshold"
                   : "a spread above the noisy threshold without the noisy flag",
                   t->spread, TEST_NOISY_SPREAD);
  if (t->threads == 1 && t->wall_seconds > 0
      && (t->cpu_diverged ? t->cpu_seconds > TEST_CPU_DIVERGED_RATIO * (1 + PLAUSIBLE_CPU_SLACK)
          * t->wall_seconds
          : t->cpu_seconds < TEST_CPU_DIVERGED_RATIO * (1 - PLAUSIBLE_CPU_SLACK) * t->wall_seconds))
    return refuse (err, "inconsistent-test", field, t->name,
                   t->cpu_diverged ? "flagged cpu-diverged with CPU time near wall time"
                   : "CPU time well below wall time without the cpu-diverged flag",
                   t->cpu_seconds, t->wall_seconds);
  return 0;
}

int
plausible_refuse (const struct doc_summary *doc, struct validate_error *err)
{
  size_t single = doc->nscores - doc->ninner;
  double hz = allowed_mhz (doc) * 1e6;
  char field[64];

  if (plausible_clock_refuse (doc, err) < 0)
    return -1;
  for (size_t i = 0; i < doc->ntests; i++)
    {
      const struct doc_test *t = &doc->tests[i];
      if (i < single)
        snprintf (field, sizeof field, "results[%zu]", i);
      else
        snprintf (field, sizeof field, "threads.results[%zu]", i - single);
      if (contradicts (t, field, err) < 0)
        return -1;
      double cycles = plausible_floor_cycles (t->name);
      double most = hz * (t->threads > 0 ? t->threads : 1) / cycles;
      if (t->ops_per_sec > most)
        return refuse (err, "impossible", field, t->name,
                       "faster than the clock and cores allow (at least "
                       "max(1, operand bits / 1024) cycles per operation)",
                       t->ops_per_sec, most);
    }
  return 0;
}

enum plausible_kind
plausible_kind_of (const char *name)
{
  if (steady_key_generation (name) || strstr (name, ".prime"))
    return PLAUSIBLE_RANDOM;
  return registry_find (name) ? PLAUSIBLE_TEST : PLAUSIBLE_NODE;
}

/* ------------------------------------------------------------ across CPUs */

/* The best score per GHz of each inner node any unflagged result reached,
 * the CPU that reached it and the best of the other CPUs, by scope and
 * node (a hash; a collision drops the older entry).  A result is held to
 * the best of the CPUs other than its own: its own CPU's results are its
 * peers, and on a server with one CPU the best is that CPU's (a starved
 * first run would hold every later one to its own slowness). */
#define BEST_SLOTS 1024
#define BEST_TTL 600

struct best_slot
{
  const void *scope;
  char *node;
  struct store_best best;
  time_t taken;
};

static struct best_slot best_cache[BEST_SLOTS];
static pthread_mutex_t best_lock = PTHREAD_MUTEX_INITIALIZER;

size_t
plausible_slot_of (const void *scope, const char *key, size_t n)
{
  return (gb_hash_string (key) ^ (uint64_t) (uintptr_t) scope) % n;
}

static struct best_slot *
best_slot (const void *scope, const char *node)
{
  return &best_cache[plausible_slot_of (scope, node, BEST_SLOTS)];
}

/* The best per GHz of NODE any CPU but CPU reached into *BEST (0: none
 * yet), from the memo, else from READ: 0, or -1 when READ fails. */
static int
best_per_ghz (const void *scope, const char *node, const char *cpu,
              const struct plausible_best_reader *read, double *best)
{
  struct store_best b;
  pthread_mutex_lock (&best_lock);
  struct best_slot *s = best_slot (scope, node);
  int hit = s->node && s->scope == scope && strcmp (s->node, node) == 0
    && time (NULL) - s->taken < BEST_TTL;
  if (hit)
    b = s->best;
  pthread_mutex_unlock (&best_lock);
  if (!hit)
    {
      if (read->fn (read->ctx, node, &b) < 0)
        return -1;
      char *copy = gb_xstrdup (node);
      pthread_mutex_lock (&best_lock);
      s = best_slot (scope, node);
      free (s->node);
      *s = (struct best_slot) { scope, copy, b, time (NULL) };
      pthread_mutex_unlock (&best_lock);
    }
  *best = strcmp (b.cpu, cpu) == 0 ? b.other_per_ghz : b.per_ghz;
  return 0;
}

/* Whether NODE's best per GHz bounds every CPU's: not the all-core
 * score, which grows with the number of cores. */
static int
bounded_per_ghz (const char *node)
{
  return strcmp (node, VALIDATE_ALLCORE_NODE) != 0;
}

/* Adds CPU's score per GHz V to the best B. */
static void
best_add (struct store_best *b, const char *cpu, double v)
{
  if (strcmp (b->cpu, cpu) == 0)
    b->per_ghz = fmax (b->per_ghz, v);
  else if (v > b->per_ghz)
    {
      b->other_per_ghz = b->per_ghz;
      b->per_ghz = v;
      snprintf (b->cpu, sizeof b->cpu, "%s", cpu);
    }
  else
    b->other_per_ghz = fmax (b->other_per_ghz, v);
}

/* The clock the leaderboard divides by (max, else nominal, else measured),
 * in GHz; 0 when none is known. */
static double
board_ghz (const struct doc_summary *doc)
{
  double mhz = doc->mhz_max > 0 ? doc->mhz_max : doc->mhz_nominal > 0 ? doc->mhz_nominal
    : doc->mhz_measured;
  return mhz / 1000;
}

/* The clock DOC is judged at against other CPUs' best per GHz, in GHz:
 * the leaderboard's when the document has a valid measured clock (its
 * claims are bounded by its family, plausible_clock.c), else the highest
 * its family reaches, whatever it claims. */
static double
judged_ghz (const struct doc_summary *doc)
{
  int known;
  return doc->mhz_measured > 0 ? board_ghz (doc) : plausible_family_mhz (doc, &known) / 1000;
}

void
plausible_raise_best (const void *scope, const struct doc_summary *doc)
{
  double ghz = board_ghz (doc);
  if (ghz <= 0)
    return;
  pthread_mutex_lock (&best_lock);
  for (size_t i = 0; i < doc->ninner; i++)
    {
      if (!bounded_per_ghz (doc->scores[i].name))
        continue;
      struct best_slot *s = best_slot (scope, doc->scores[i].name);
      if (s->node && s->scope == scope && strcmp (s->node, doc->scores[i].name) == 0)
        best_add (&s->best, doc->cpu, doc->scores[i].score / ghz);
    }
  pthread_mutex_unlock (&best_lock);
}

int
plausible_flags (const void *scope, const struct doc_summary *doc,
                 const struct plausible_best_reader *read, char *flags, size_t fsize,
                 char *notes, size_t nsize)
{
  double ghz = judged_ghz (doc), best;

  flags[0] = notes[0] = '\0';
  if (doc->cpu_name && *doc->cpu_name
      && cpu_brand_contradicts (doc->cpu, doc->cpu_vendor, doc->cpu_name))
    {
      plausible_add_flag (flags, fsize, "brand-mismatch");
      plausible_add_note (notes, nsize, "brand-mismatch: the brand string names another maker "
                          "than the CPU identity or vendor");
    }
  if (doc->mhz_measured > 0
      && ((doc->mhz_max > 0 && doc->mhz_measured > 1.15 * doc->mhz_max)
          || (doc->mhz_max <= 0 && doc->mhz_nominal > 0
              && doc->mhz_measured > 2 * doc->mhz_nominal)))
    {
      plausible_add_flag (flags, fsize, "clock-implausible");
      plausible_add_note (notes, nsize, "clock-implausible: measured %.0f MHz, the CPU's "
                          "maximum %.0f MHz", doc->mhz_measured,
                          doc->mhz_max > 0 ? doc->mhz_max : doc->mhz_nominal);
    }
  if (doc->previous_definitions)
    {
      plausible_add_flag (flags, fsize, "previous-definitions");
      plausible_add_note (notes, nsize, "previous-definitions: measured with the registry before "
                          "definitions generation %d, which some tests measured otherwise",
                          REGISTRY_DEFINITIONS);
    }
  if (doc->gmp_interposed)
    {
      plausible_add_flag (flags, fsize, "interposed");
      plausible_add_note (notes, nsize, "interposed: GMP's timed functions resolved outside "
                          "the libgmp the document names");
    }
  for (size_t i = 0; i < doc->ninner; i++)
    {
      if (!bounded_per_ghz (doc->scores[i].name))
        continue;
      if (best_per_ghz (scope, doc->scores[i].name, doc->cpu, read, &best) < 0)
        return -1;
      double v = doc->scores[i].score / ghz;
      double beyond = PLAUSIBLE_BEYOND_BEST
        * (plausible_kind_of (doc->scores[i].name) != PLAUSIBLE_NODE ? exp (PLAUSIBLE_TEST_FAST) : 1);
      if (best > 0 && v > beyond * best)
        {
          plausible_add_flag (flags, fsize, "impossible");
          plausible_add_note (notes, nsize, "impossible: %s is %.3g per GHz, %.1f times the "
                              "best any other CPU has reached (%.3g)", doc->scores[i].name, v,
                              v / best, best);
          break;
        }
    }
  return 0;
}

