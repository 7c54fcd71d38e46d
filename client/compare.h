/* compare.h: GMP side by side with the other libraries.
 *
 * Which tests compare with which is model/test_pairing.h: results that
 * share operation and size form one comparison, kept when GMP and at least
 * one other library have a result in it.
 *
 * Each other library's entry carries the ratio of GMP's ops/s to its own
 * (above 1: GMP is faster) against the fair GMP entry: the constant-time
 * one (mpz_powm_sec) when the library's operation is constant-time (the
 * private-key operations of crypto libraries, and *-sec tests), otherwise
 * the plain one.  The ratio is "within the spreads" when it differs from 1
 * by no more than the two relative spreads together: a reader should not
 * conclude anything from it.
 *
 * Random generators (rng.NAME, a block of t->a bytes per operation) form
 * their own comparison, in MiB/s and, given the clock, cycles per byte.
 *
 * The public-key table, in the style of libgcrypt's `benchmark pubkey`,
 * regroups the rows of the public-key operations: per algorithm and size,
 * one line per library and variant with its seconds per key generation
 * (rsa.keygen), private-key operation (rsa.sign, dsa.sign, dh.derive) and
 * public-key operation (rsa.verify, dsa.verify).  In JSON those rows carry
 * "pubkey": "generate", "private" or "public".
 */
#ifndef GB_COMPARE_H
#define GB_COMPARE_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "engine/runner.h"
#include "model/test_pairing.h"

/* The `comparisons` array of the result document, from the results of a
 * run (skipped and failed ones are ignored). */
cJSON *compare_build (const struct test_result *results, size_t n);

/* Adds cycles_per_byte to the random generators' entries, for a clock of
 * CPU_GHZ (measured, or given by the user). */
void compare_add_cycles (cJSON *comparisons, double cpu_ghz);

/* The comparisons as text tables: the general side-by-side table, RSA in
 * the classic `openssl speed` layout, the public-key table, and the random
 * generators.  Prints
 * nothing when COMPARISONS is empty. */
void compare_print_text (FILE *f, const cJSON *comparisons);

#endif
