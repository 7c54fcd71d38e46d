/* plausible.h: refusals and flags for results that are valid but hard to
 * believe (docs/protocol.md, "Plausibility").
 *
 * Refused with a 422 (plausible_refuse):
 *   clock-beyond-family  a clock the document claims (maximum, nominal,
 *                      either valid measurement) above what its CPU's
 *                      family reaches (model/cpu_clocks.h) with
 *                      PLAUSIBLE_CLOCK_MARGIN (plausible_clock.c);
 *   clock-drift        the timestamp counter's rate measured before and
 *                      after the run more than PLAUSIBLE_TSC_DRIFT apart,
 *                      or the clock after it more than PLAUSIBLE_CLOCK_DRIFT
 *                      above the clock before;
 * and naming the test:
 *   inconsistent-test  a test's members contradict each other;
 *   impossible         a test faster than its clock and cores allow, at
 *                      PLAUSIBLE_BITS_PER_CYCLE bits of operand a cycle.
 * Flagged (the result is stored, shown with its flags and a note saying
 * why, and left out of aggregates by default):
 *   brand-mismatch     the brand string names another maker than the CPU
 *                      identity or vendor (model/cpu_brand.h);
 *   clock-implausible  the measured clock above what the CPU can run at;
 *   previous-definitions  measured with the previous registry's definitions
 *                      of some tests (model/registry.h): valid, but not the
 *                      same measurement, so kept out of the aggregates;
 *   interposed         GMP's timed functions resolved outside the libgmp
 *                      the document names (LD_PRELOAD, a wrapper);
 *   impossible         an inner node more than PLAUSIBLE_BEYOND_BEST times
 *                      the best score per GHz any unflagged result of
 *                      another CPU identity's confirmed row reached (a
 *                      document without a valid measured clock taken at
 *                      its family's highest clock, whatever it claims)
 *                      (a node of key generation or prime search, whose
 *                      time is random, exp (PLAUSIBLE_TEST_FAST) times
 *                      more);
 *   outlier            at some node or test, farther from the median of
 *                      its category (CPU identity, run mode, GMP build
 *                      kind) than the cutoff, in log space: PLAUSIBLE_K
 *                      scaled MADs, at least the floor of its side (faster
 *                      or slower) and kind (inner node; test; test or node
 *                      of key generation or prime search, whose time is
 *                      random: the last two judged on the faster side
 *                      only), once the
 *                      node has PLAUSIBLE_MIN_PEERS other values; a node
 *                      above key generation by its score without it
 *                      (plausible_steady.h).  Judged
 *                      again for the whole category at every upload to it
 *                      and every retraction from it, in the upload's or
 *                      the retraction's transaction.
 *
 * The judge is pure: documents, statistics and rows in, verdicts out; it
 * never calls the store.  What it remembers between calls is memory (the
 * best per GHz of each node, a large category's statistics), keyed by the
 * SCOPE its caller passes (the store the values come from).  One path
 * judges an upload, validate -> judge -> store (server/api/api_upload.c):
 *   1. plausible_refuse: refused, or on;
 *   2. plausible_flags: the document's own flags, the best per GHz of the
 *      other CPUs read by the caller's reader when not remembered;
 *   3. for a listed upload, plausible_alone: judged against its large
 *      category's kept statistics, its flags final; or else
 *      plausible_category_new: the category to be judged whole;
 *   4. store_insert writes the document, its rows and its flags in one
 *      transaction, and, given the category's store_rejudge, feeds it the
 *      category's rows with the new result, has it decide and writes the
 *      flags that change (the new result's own included) before commit;
 *   5. once committed, plausible_category_kept keeps the category's
 *      statistics and gives the new result's final flags, and
 *      plausible_stored counts an upload judged alone and raises the best
 *      per GHz by an unflagged one of a confirmed CPU row.
 * A retraction judges its category through the same plausible_category
 * and store_retract, in the retraction's transaction.  plausible.c holds
 * the document's and the CPUs' checks, plausible_peers.c the peers'.
 */
#ifndef GB_SERVER_PLAUSIBLE_H
#define GB_SERVER_PLAUSIBLE_H

#include <stddef.h>
#include "model/validate.h"
#include "server/store/store_verdict.h"

/* Peers.  The floors (in log space) were calibrated on repeated honest
 * quick runs of one busy 2-core machine (docs/protocol.md): none of them
 * passes its cutoff, while a result 20% faster at some node than five
 * peers within 2% does.  Slower is allowed more than faster: a shared
 * machine's other work only ever takes time from a benchmark, and a slow
 * result inflates nothing.  Honest runs under load (nice 10 at load 5-9)
 * were up to 2.3 times slower at an inner node, but 5.3 times at a test
 * and 9 at a key generation test: a test, or a node of key generation or
 * prime search, is never an outlier for being slow.  Among the first
 * peers of a category, a run made when the machine was quieter than for
 * theirs read key generation up to 4.1 times faster than their median:
 * a quick run makes a handful of keys, each taking a random time. */
#define PLAUSIBLE_K 6.0
#define PLAUSIBLE_NODE_FAST 0.15        /* 16% faster */
#define PLAUSIBLE_TEST_FAST 0.92        /* 2.5 times */
#define PLAUSIBLE_RANDOM_FAST 1.61      /* 5 times */
#define PLAUSIBLE_NODE_SLOW 0.92        /* 2.5 times slower */
#define PLAUSIBLE_MIN_PEERS 5
/* The newest this many results of a category are judged together: the
 * median and MAD of a hundred are as robust as of thousands. */
#define PLAUSIBLE_MAX_PEERS 100
/* Of which at most this many come from any one source: its median is all
 * the judge takes of it, and a flood from one source cannot push the
 * other sources out of the window. */
#define PLAUSIBLE_PER_SOURCE 5

/* Physics. */
#define PLAUSIBLE_BITS_PER_CYCLE 1024.0 /* two 512-bit loads a cycle */
#define PLAUSIBLE_MAX_MHZ 9000.0        /* about the record overclock (some
                                           9.1 GHz, under liquid helium) */
#define PLAUSIBLE_TURBO 1.25            /* over the highest clock reported */
#define PLAUSIBLE_BEYOND_BEST 2.0

/* Clocks (docs/protocol.md).  A family's fastest part plus what a
 * measurement's error and a mild overclock add.  The counter runs at one
 * rate: in 8 honest quick runs of a 2-vCPU VM at load 5-6, its rate
 * before and after agreed within 0.1%.  The clock after a run may read
 * well below the clock before it (a hot CPU boosts less); in those runs
 * after/before went from -20% to +8%: either measurement may read 20%
 * low (the host takes the trials' time unseen), so after may read 25%
 * above before, and the margin is twice that.  Measurements whose trials
 * spread more than PLAUSIBLE_DRIFT_SPREAD are not compared (clients
 * before preempted trials were dropped read +85%, at spreads of 40%). */
#define PLAUSIBLE_CLOCK_MARGIN 1.15
#define PLAUSIBLE_TSC_DRIFT 0.05
#define PLAUSIBLE_CLOCK_DRIFT 0.5
#define PLAUSIBLE_DRIFT_SPREAD 0.05

/* Consistency (engine/harness.c; its marks' thresholds in
 * model/test_marks.h). */
#define PLAUSIBLE_TOLERANCE 1e-3        /* relative, for printed numbers */
#define PLAUSIBLE_CPU_SLACK 0.05        /* clock granularity at the thresholds */
#define PLAUSIBLE_CPU_TICK 0.016        /* a thread CPU clock's step per sample:
                                           Windows counts it in 15.625 ms */

/* Sizes of the buffers for flags and notes. */
#define PLAUSIBLE_FLAGS 256
#define PLAUSIBLE_NOTES 1024

/* The GMP build kind the server pools and filters by: the document's
 * system.build.gmp.build (sysinfo/gmp_build.c) when it is "distribution",
 * "fat" or "native", else "unknown" (documents from clients before it,
 * and any other value). */
const char *plausible_build_kind (const char *gmp_build);

/* The fewest cycles one operation of TEST can take: its operands' bits
 * (registry sizes) over PLAUSIBLE_BITS_PER_CYCLE, at least 1. */
double plausible_floor_cycles (const char *test);

/* 0, or -1 with ERR set (422 clock-beyond-family, clock-drift,
 * inconsistent-test or impossible). */
int plausible_refuse (const struct doc_summary *doc, struct validate_error *err);

/* What a value is, for the floors of its cutoff. */
enum plausible_kind
{
  PLAUSIBLE_NODE,               /* an inner node */
  PLAUSIBLE_TEST,               /* a test */
  PLAUSIBLE_RANDOM              /* a test or node of key generation or prime search */
};

/* The kind of the node or test NAME. */
enum plausible_kind plausible_kind_of (const char *name);

/* The cutoff, in log space, for a value of KIND whose peers' scaled MAD
 * (in log space) is SCALE, above the median (FASTER) or below (infinite
 * but for an inner node). */
double plausible_cutoff (double scale, enum plausible_kind kind, int faster);

/* Whether X, of KIND, is an outlier among the N values V (V is
 * overwritten). */
int plausible_outlier (double x, double *v, size_t n, enum plausible_kind kind);

/* The best per GHz of an inner node as the caller reads it (from the
 * store: store_best_per_ghz): FN puts NODE's into *BEST, 0, or -1 when
 * it cannot. */
struct plausible_best_reader
{
  int (*fn) (void *ctx, const char *node, struct store_best *best);
  void *ctx;
};

/* The flags of DOC before it is stored, with a note for each in NOTES
 * (lines): its own, and impossible against the best per GHz of the other
 * CPUs of SCOPE, remembered, else from READ.  0, or -1 when READ fails. */
int plausible_flags (const void *scope, const struct doc_summary *doc,
                     const struct plausible_best_reader *read, char *flags, size_t fsize,
                     char *notes, size_t nsize);

/* A stored result's flags judged again from its document DOC
 * (gmpbench-server admin rejudge): its own flags and notes anew, as
 * plausible_flags gives them, and its category's (outlier) as they were
 * in OLD_FLAGS and OLD_NOTES, for the category's judgement to decide
 * (store_rejudge_row).  0, or -1 when READ fails. */
int plausible_own_again (const void *scope, const struct doc_summary *doc,
                         const struct plausible_best_reader *read, const char *old_flags,
                         const char *old_notes, char *flags, size_t fsize, char *notes,
                         size_t nsize);

/* Judges DOC, of GMP build kind BUILD, with the flags FLAGS and notes
 * NOTES of plausible_flags, alone against its category's statistics as
 * SCOPE's last whole judgement of it left them (a large category, until
 * it grew by a quarter): 1, FLAGS and NOTES its final ones; or 0, when
 * the category is due to be judged whole (plausible_category_new),
 * nothing changed. */
int plausible_alone (const void *scope, const struct doc_summary *doc, const char *build,
                     char *flags, size_t fsize, char *notes, size_t nsize);

/* After DOC, of BUILD, was stored listed in SCOPE with the final flags
 * FLAGS: counts it against its category's statistics when it was judged
 * ALONE, and raises the best per GHz of its nodes when unflagged and its
 * CPU row is CONFIRMED (store.h, "Sources"): the bar across CPUs stands
 * on confirmed rows alone, so that no single source can raise it. */
void plausible_stored (const void *scope, const struct doc_summary *doc, const char *build,
                       int alone, const char *flags, int confirmed);

/* A category judged whole from its rows, in the transaction that changes
 * it (an upload's or a retraction's): plausible_category_new fills *RJ
 * with its callbacks (its newest PLAUSIBLE_MAX_PEERS listed results, at
 * most PLAUSIBLE_PER_SOURCE from one source) for
 * store_insert or store_retract.  Once that committed,
 * plausible_category_kept keeps the statistics for the uploads judged
 * alone and gives the flags of the result the transaction stored (NULL
 * when the category was not judged).  Free it with
 * plausible_category_free (NULL is nothing). */
struct plausible_category;
struct plausible_category *plausible_category_new (const void *scope, struct store_rejudge *rj);
const char *plausible_category_kept (struct plausible_category *cat);
void plausible_category_free (struct plausible_category *cat);

#endif
