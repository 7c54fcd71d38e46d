/* test_marks.h: when a measured test is marked noisy or cpu-diverged
 * (docs/timing.md).  The client's harness (engine/harness.c, and
 * engine/threads.c for a multi-threaded run) sets the members by these
 * thresholds, and the server refuses a document whose members contradict
 * them (server/judge/plausible.c, "inconsistent-test"): both read them
 * here. */
#ifndef GB_MODEL_TEST_MARKS_H
#define GB_MODEL_TEST_MARKS_H

/* The spread (docs/timing.md) above which a test is noisy. */
#define TEST_NOISY_SPREAD 0.02

/* The share of the wall time its CPU time must reach, or the test is
 * cpu-diverged (the process waited: another program, a throttled vCPU). */
#define TEST_CPU_DIVERGED_RATIO 0.90

#endif
