/* interrupt.h: SIGINT and SIGTERM during `gmpbench run`.
 *
 * A signal sets interrupt_signal, which the runner polls between samples
 * and the run ends cleanly, writing nothing, with status 128 + the signal
 * (130, 143).  A library call that never returns (a broken GMP looping
 * inside one operation) never lets the runner see it, so the signal also
 * arms a deadline: INTERRUPT_DEADLINE_MS later, if the run has not ended,
 * the process ends there with the same status.  Until interrupt_disarm
 * nothing has been written, so ending abruptly loses nothing; after it
 * (the result is being written and uploaded) a signal only sets the flag. */
#ifndef GB_INTERRUPT_H
#define GB_INTERRUPT_H

#include <signal.h>

#define INTERRUPT_DEADLINE_MS 500

extern volatile sig_atomic_t interrupt_signal;

/* Handles SIGINT and SIGTERM as above. */
void interrupt_install (void);
/* The result is about to be written: no more deadline. */
void interrupt_disarm (void);
/* The exit status of an interrupted run: 128 + the signal. */
int interrupt_exit_status (void);

#endif
