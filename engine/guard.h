/* guard.h: bounds on the setup loops that a broken library could make
 * endless.
 *
 * Test setup searches: for primes (mpz_probab_prime_p over candidates), for
 * a number below a bound, for an operand prime to a modulus.  With a right
 * library each search ends after a few steps; with a library that skips
 * work or returns garbage it may never end.  Every such loop counts its
 * steps against a bound far beyond what a right library needs (the bounds
 * are next to each loop) and, past it, calls guard_fail: the run ends at
 * once with GUARD_EXIT and a message naming the test being set up and the
 * library call that misbehaved.  Nothing has been written at that point. */
#ifndef GB_GUARD_H
#define GB_GUARD_H

#define GUARD_EXIT 3            /* gmpbench's "a test computed a wrong result" */

/* The test being set up or run (its dotted name), named by guard_fail;
 * NULL when none is. */
void guard_enter (const char *test_name);

/* Counts one more step of a loop in *STEPS; past BOUND steps, ends the run
 * as guard_fail (CALL, "%s", WHAT) does. */
void guard_step (unsigned long *steps, unsigned long bound, const char *call,
                 const char *what);

/* Ends the run: CALL is the library call that misbehaved, FMT what it did. */
void guard_fail (const char *call, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 2, 3)));

#endif
