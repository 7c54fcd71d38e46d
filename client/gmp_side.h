/* gmp_side.h: `gmpbench run --gmp LIB [--gmp LIB2 ...]`, the same tests
 * measured against several builds of libgmp in one run.
 *
 * Each library gets a worker process: the gmpbench executable started
 * again with the run's own command line and that libgmp preloaded, whose
 * SONAME (libgmp.so.10) then satisfies gmpbench's need for libgmp, so that
 * it is the only libgmp in the worker and every timed GMP function
 * resolves into it (sysinfo records where they resolve: build.gmp
 * entry_points).  The run (gmp_side.c) sets every worker's tests up one
 * worker after the other, then visits the tests round after round, each
 * test in each worker in turn (A, B, then B, A in the next round), one
 * process measuring at a time and a visit a few samples long, so that the
 * builds' visits of a test come in pairs taken moments apart, on the same
 * stretch of a noisy machine (pairs.h makes their ratio); a test ends in
 * all workers in the round its stopping rule ends it in one, so that all
 * are measured over the same visits.  Each worker writes an ordinary
 * result document with its own system section; the run checks that the
 * library that ran is the file given (its SHA-256) and that nothing
 * interposed, then signs, saves and uploads each document like a single
 * run's.  gmp_worker.c is the worker's side, gmp_proto.h the pipe
 * protocol between them. */
#ifndef GB_GMP_SIDE_H
#define GB_GMP_SIDE_H

#include <cjson/cJSON.h>
#include <signal.h>
#include "client/output.h"
#include "client/pairs.h"
#include "engine/runner.h"

struct gmp_side
{
  int argc;                     /* the run's command line, argv[0] "run" */
  char **argv;
  char **paths;                 /* the libraries (gmp_side_resolve) */
  size_t n;
  const struct test_selection *sel;
  int quiet, verbose;
};

/* The file of each --gmp value: "system" is the libgmp this gmpbench runs
 * with, a directory the libgmp.so in it or in its lib/ (a prefix), else
 * the file itself, each as a canonical path into PATHS[0..N) (free each).
 * -1 after a message naming the value. */
int gmp_side_resolve (const char *const *given, size_t n, char **paths);

/* Measures S->sel's tests against every library into DOCS[0..S->n)
 * (unsigned result documents, checked as above), and each test's ratio
 * of every library after the first to the first, from their paired
 * visits (pairs.h), into RATIOS[(K - 1) * S->sel->ntests + I] for library
 * K and test I (set when the run measured them).  0, or the run's exit
 * status after a message: that of a worker whose test failed (3) or
 * which was interrupted (130, 143), 1 when a worker could not run or its
 * library is not the one given. */
int gmp_side_run (const struct gmp_side *s, volatile sig_atomic_t *stop, cJSON **docs,
                  struct pair_ratio *ratios);

/* The worker's side.  Whether this process is a worker. */
int gmp_worker_active (void);
/* Whether the library the run preloaded is loaded; -1 after a message. */
int gmp_worker_check_library (void);
/* runner_run_tests at the run's pace: after setting the tests up, a visit
 * of the test the run names at a time, until it says to finish. */
enum runner_status gmp_worker_measure (const struct bench_test *const *tests,
                                       const struct bench_ops *const *ops, size_t n,
                                       const struct harness_config *cfg,
                                       struct test_result *r, size_t *failed,
                                       volatile sig_atomic_t *stop);
/* Hands JSON, the worker's result document, to the run; 0 or 1. */
int gmp_worker_send_document (const char *json);

#endif
