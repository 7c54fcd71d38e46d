/* syscall_clock.h: the kernel's monotonic clock asked by a system call
 * instruction of our own, neither through the C library's clock_gettime
 * nor through the vDSO, so that a library preloaded into the process
 * cannot rewrite the answer (clock_check.h measures the CPU counter's
 * rate against it).  Linux on x86-64, aarch64 and riscv64; elsewhere the
 * call says it cannot, and the caller falls back to the C library. */
#ifndef GB_SYSCALL_CLOCK_H
#define GB_SYSCALL_CLOCK_H

/* CLOCK_MONOTONIC in seconds, into *SECONDS: 0, or -1 where this build
 * has no such call or the kernel refused it. */
int syscall_clock_seconds (double *seconds);

#endif
