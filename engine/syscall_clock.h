/* syscall_clock.h: the kernel's clocks asked by a system call instruction
 * of our own, neither through the C library (clock_gettime, getrusage)
 * nor through the vDSO, so that a library preloaded into the process
 * cannot rewrite the answers: the monotonic clock that clock_check.h
 * measures the CPU counter's rate against, and the calling thread's CPU
 * and kernel time that the harness reports and GMPbench-compatible
 * scores are computed from (a preloaded library slowing only the CPU
 * clocks would otherwise double a score that no wall clock contradicts).
 * Linux on x86-64, aarch64 and riscv64; elsewhere each call says it
 * cannot, and thread_cpu_seconds and thread_kernel_seconds fall back to
 * the C library's answers (common/util.h). */
#ifndef GB_SYSCALL_CLOCK_H
#define GB_SYSCALL_CLOCK_H

/* CLOCK_MONOTONIC in seconds, into *SECONDS: 0, or -1 where this build
 * has no such call or the kernel refused it. */
int syscall_clock_seconds (double *seconds);

/* The process's CPU time (all threads, user and kernel), in seconds,
 * into *SECONDS: 0, or -1 where the system does not say. */
int process_cpu_seconds (double *seconds);

#if defined(__linux__)
struct rusage;
/* getrusage (RUSAGE_THREAD, U) by the instruction where there is one. */
int thread_rusage (struct rusage *u);
#endif

/* The calling thread's CPU time (user and kernel), in seconds. */
double thread_cpu_seconds (void);

/* The calling thread's kernel (system) time, in seconds; 0 where the
 * system does not say. */
double thread_kernel_seconds (void);

#endif
