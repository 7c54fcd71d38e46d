/* gmp_proto.h: the pipe protocol between `gmpbench run --gmp ...` and its
 * workers, one per libgmp (client/gmp_side.c, client/gmp_worker.c).
 *
 * A worker is the gmpbench executable itself, started again with the same
 * command line and its libgmp preloaded; it reads commands on fd
 * GMP_PROTO_COMMAND_FD and answers on GMP_PROTO_REPLY_FD.  Both ends are
 * the same binary, so messages are plain structs:
 *
 *   worker: READY                      its tests are set up and calibrated
 *   run:    VISIT i    worker: VISITED i (what the visit measured: its
 *                      samples; finished, result, seconds left)
 *   run:    END i      worker: VISITED i, finished with the samples it has
 *   run:    FINISH     worker: DOCUMENT (length, then that many bytes of
 *                      its result document, unsigned JSON), and exits 0
 *
 * A worker whose test fails or is interrupted says why on stderr and exits
 * with the run's status (3, 130, 143); the run sees the pipe close. */
#ifndef GB_GMP_PROTO_H
#define GB_GMP_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include "engine/runner.h"

#define GMP_PROTO_COMMAND_FD 3
#define GMP_PROTO_REPLY_FD 4
/* Set in a worker's environment: the libgmp file it is to run with. */
#define GMP_PROTO_ENV "GMPBENCH_GMP_WORKER"

enum gmp_proto_kind
{
  GMP_PROTO_READY = 1,
  GMP_PROTO_VISIT,
  GMP_PROTO_VISITED,
  GMP_PROTO_END,
  GMP_PROTO_FINISH,
  GMP_PROTO_DOCUMENT
};

struct gmp_proto_msg
{
  uint32_t kind;
  uint32_t index;               /* VISIT, END, VISITED: the test */
  uint32_t finished;            /* VISITED: the test is done (result holds it) */
  double seconds_left;          /* VISITED: the worker's estimate */
  struct runner_visit visit;    /* VISITED: the visit's sample, if any */
  uint64_t length;              /* DOCUMENT: bytes that follow */
  struct test_result result;    /* VISITED and finished; result.test is the
                                   worker's pointer, meaningless to the run */
};

/* 0, or -1 (errno set; EPIPE or 0 for a closed pipe). */
int gmp_proto_write (int fd, const void *buf, size_t len);
int gmp_proto_read (int fd, void *buf, size_t len);

#endif
