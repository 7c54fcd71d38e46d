/* interrupt.c: SIGINT and SIGTERM during a run (see interrupt.h). */
#include "client/interrupt.h"

#include <string.h>
#include <sys/time.h>
#include <unistd.h>

volatile sig_atomic_t interrupt_signal;
static volatile sig_atomic_t armed = 1;

static void
on_deadline (int sig)
{
  static const char msg[] = "gmpbench run: interrupted; no result was written\n";
  (void) sig;
  if (write (STDERR_FILENO, msg, sizeof msg - 1) != (ssize_t) sizeof msg - 1)
    {
      /* Nothing more to do about stderr: the status says it. */
    }
  _exit (128 + interrupt_signal);
}

static void
on_signal (int sig)
{
  if (interrupt_signal && armed)
    on_deadline (sig);
  if (!interrupt_signal)
    interrupt_signal = sig;
  if (armed)
    {
      struct itimerval at = { { 0, 0 }, { 0, INTERRUPT_DEADLINE_MS * 1000 } };
      setitimer (ITIMER_REAL, &at, NULL);
    }
}

void
interrupt_install (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sa.sa_handler = on_deadline;
  sigaction (SIGALRM, &sa, NULL);
}

void
interrupt_disarm (void)
{
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  armed = 0;
  setitimer (ITIMER_REAL, &off, NULL);
}

int
interrupt_exit_status (void)
{
  return 128 + (interrupt_signal ? interrupt_signal : SIGINT);
}
