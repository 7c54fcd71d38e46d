/* gmp_worker.c: a worker of `gmpbench run --gmp` (gmp_proto.h), the
 * gmpbench executable run again with one libgmp preloaded: it measures the
 * selected tests one short visit (a few samples) at a time, when the run
 * says, and hands its result document back unsigned. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "client/gmp_side.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "client/gmp_pin.h"
#include "client/gmp_proto.h"
#include "client/gmpbench.h"
#if defined(__linux__) || defined(__FreeBSD__)
#include <link.h>
#endif

static double seconds_left;

int
gmp_worker_active (void)
{
  return getenv (GMP_PROTO_ENV) != NULL;
}

#if defined(__linux__) || defined(__FreeBSD__)
static int
loaded_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  char real[PATH_MAX];
  (void) size;
  return info->dlpi_name[0] && realpath (info->dlpi_name, real) && strcmp (real, data) == 0;
}
#endif

int
gmp_worker_check_library (void)
{
  const char *want = getenv (GMP_PROTO_ENV);
#if defined(__linux__) || defined(__FreeBSD__)
  if (dl_iterate_phdr (loaded_cb, (void *) want))
    return 0;
#endif
  gb_error ("run", "--gmp %s: the library was not loaded (the dynamic loader's message "
            "above says why: not a shared library of this architecture?)", want);
  return -1;
}

static void
on_visit (void *ctx, size_t done, const char *name, double left)
{
  (void) ctx, (void) done, (void) name;
  seconds_left = left;
}

static int
reply (const struct gmp_proto_msg *m)
{
  return gmp_proto_write (GMP_PROTO_REPLY_FD, m, sizeof *m);
}

/* A visit lasts about VISIT_SAMPLES sample lengths (a sample is calibrated
 * to one, or is a single operation that takes longer): short enough that
 * the builds' visits of a test see the same stretch of the machine, long
 * enough that switching between the workers costs little (at one sample a
 * visit, two builds took 2.31 times one build's time here,
 * docs/gmp-builds.md); shorter where a test measured for its mean
 * (harness.h) would otherwise get fewer than MIN_PAIRS visits.  A test
 * measured for its mean whose single operation outlasts a visit (the
 * million digits of pi, half a second) takes MIN_SLOW_PAIRS visits all
 * the same: with the three a single build takes, the same library given
 * twice read its pi 3.6% apart; each further pair of that test costs a
 * second, against the 2.2x time target (docs/gmp-builds.md). */
#define VISIT_SAMPLES 3.5
#define MIN_PAIRS 12
#define MIN_SLOW_PAIRS 8

/* CFG with short visits, so that the builds take turns every few samples
 * and a pair of their visits sees the same moment of the machine
 * (gmp_side.h); never fewer visits than CFG has. */
static struct harness_config
short_visits (const struct harness_config *cfg)
{
  struct harness_config c = *cfg;
  double visit = fmin (VISIT_SAMPLES * cfg->sample_time,
                       fmin (cfg->mean_time, cfg->max_time) / MIN_PAIRS);
  c.visits = (unsigned) fmin (ceil (cfg->max_time / visit), UINT_MAX);
  if (c.visits < cfg->visits)
    c.visits = cfg->visits;
  c.mean_min_visits = MIN_SLOW_PAIRS;
  return c;
}

enum runner_status
gmp_worker_measure (const struct bench_test *const *tests, const struct bench_ops *const *ops,
                    size_t n, const struct harness_config *cfg, struct test_result *r,
                    size_t *failed, volatile sig_atomic_t *stop)
{
  struct runner_progress hooks = { .visit = on_visit };
  struct runner_batch b;
  struct gmp_proto_msg m = { .kind = GMP_PROTO_READY };
  struct harness_config visits = short_visits (cfg);
  gmp_pin_worker ();
  enum runner_status st = runner_batch_start (&b, tests, ops, n, &visits, r, failed, stop,
                                              &hooks);
  if (st != RUNNER_OK)
    return st;
  if (reply (&m) != 0)
    st = RUNNER_INTERRUPTED;
  while (st == RUNNER_OK && gmp_proto_read (GMP_PROTO_COMMAND_FD, &m, sizeof m) == 0
         && (m.kind == GMP_PROTO_VISIT || m.kind == GMP_PROTO_END) && m.index < n)
    {
      int finished = 1;
      st = m.kind == GMP_PROTO_END ? runner_batch_end (&b, m.index, failed, stop)
        : runner_batch_visit (&b, m.index, &finished, &m.visit, failed, stop);
      if (st != RUNNER_OK)
        break;
      if (m.kind == GMP_PROTO_END)
        memset (&m.visit, 0, sizeof m.visit);
      memset (&m.result, 0, sizeof m.result);
      m.kind = GMP_PROTO_VISITED;
      m.finished = (uint32_t) finished;
      m.seconds_left = seconds_left;
      if (finished)
        m.result = r[m.index];
      if (reply (&m) != 0)
        st = RUNNER_INTERRUPTED;
    }
  /* The loop ends on FINISH, or on a closed pipe: the run is gone. */
  if (st == RUNNER_OK && m.kind != GMP_PROTO_FINISH)
    st = RUNNER_INTERRUPTED;
  runner_batch_abandon (&b);
  return st;
}

int
gmp_worker_send_document (const char *json)
{
  struct gmp_proto_msg m = { .kind = GMP_PROTO_DOCUMENT, .length = strlen (json) };
  if (reply (&m) == 0 && gmp_proto_write (GMP_PROTO_REPLY_FD, json, m.length) == 0)
    return 0;
  gb_error ("run", "cannot hand the result to the run: %s", strerror (errno));
  return 1;
}
