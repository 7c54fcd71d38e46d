/* programs.h: the benchmark programs of this build, and the registry's
 * tests they can run.
 *
 * A program is the code of one kind of measurement (engine/bench.h: setup,
 * run, check, teardown), e.g. gmp.rsa.sign; the registry's rows
 * (model/registry.h) say which program runs each test with which sizes.
 * programs.def lists the programs by name.  A new program is one file
 * in suites/ defining its bench_ops (the build compiles every C file
 * there) and one row in that list; the libraries configure did not find
 * (libgcrypt, Nettle) leave theirs out, and their tests are then not
 * runnable here.
 */
#ifndef GB_PROGRAMS_H
#define GB_PROGRAMS_H

#include <stddef.h>
#include "engine/bench.h"

/* The program that runs T, or NULL when this build has none. */
const struct bench_ops *program_ops (const struct bench_test *t);

/* The registry's tests this build can run, in run order. */
size_t runnable_count (void);
const struct bench_test *runnable_test (size_t i);
/* The --suite name of runnable test I. */
const char *runnable_suite_name (size_t i);
/* The runnable test named NAME, or NULL. */
const struct bench_test *runnable_find (const char *name);

/* For the programs of one file that share their four functions and differ
 * by a variant (sign or verify, blinded or not): the index of T's program
 * among the N names of PROGRAMS.  -1, with the test failed in ERR, for a
 * program that is not among them (a row of programs.def naming another
 * file's bench_ops). */
int program_variant (const struct bench_test *t, const char *const programs[], size_t n,
                     struct bench_error *err);

#endif
