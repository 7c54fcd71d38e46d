/* prefault.h: GMP's allocations made resident as they are made.
 *
 * A test's samples run in memory that its earlier repetitions touched; a
 * copy of the test set up afresh (fresh.h) holds result storage that no
 * one has written yet (mpz_init2 allocates, GMP writes at the first
 * operation), and on a virtual machine the first touch of each page can
 * cost tens of microseconds: the first product of a 16777216- by 512-bit
 * multiply on a fresh copy took 20 times as long as the next, all of it
 * page faults (511 of them).  Between prefault_begin and prefault_end,
 * GMP's allocation functions (mp_set_memory_functions) are the ones it
 * had, followed by a write to every page of the new block, so that the
 * pages are mapped when the setup returns.  Only the setup of copies runs
 * in between, never a timed operation. */
#ifndef GB_PREFAULT_H
#define GB_PREFAULT_H

void prefault_begin (void);
void prefault_end (void);

#endif
