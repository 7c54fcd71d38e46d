/* progress.c: the progress bar and the --verbose lines (see progress.h).
 * The bar is one line, "[=====>    ] 12/210 NAME  1:23 left" (12 of 210
 * tests finished, NAME being measured now), cut to the
 * terminal's width (the name loses its head first, since its tail is what
 * tells tests apart). */
#include "client/progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BAR_CELLS 20
#define MIN_WIDTH 40

static int
terminal_width (void)
{
  struct winsize ws;
  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= MIN_WIDTH)
    return ws.ws_col;
  return 80;
}

void
progress_init (struct progress *p, int bar, int verbose, size_t total)
{
  p->bar = bar;
  p->verbose = verbose;
  p->total = total;
  p->width = bar ? terminal_width () : 80;
}

void
progress_show (struct progress *p, size_t done, const char *name, double seconds_left)
{
  if (!p->bar)
    return;
  char cells[BAR_CELLS + 1], counter[48], left[32];
  size_t filled = p->total ? done * BAR_CELLS / p->total : 0;
  memset (cells, '=', filled);
  memset (cells + filled, ' ', BAR_CELLS - filled);
  if (filled < BAR_CELLS)
    cells[filled] = '>';
  cells[BAR_CELLS] = '\0';
  int secs = seconds_left > 0 ? (int) seconds_left : 0;
  snprintf (counter, sizeof counter, "%zu/%zu", done, p->total);
  snprintf (left, sizeof left, "%d:%02d left", secs / 60, secs % 60);
  /* [cells] counter name  left, within width - 1 columns. */
  int room = p->width - 1 - (BAR_CELLS + 3) - (int) strlen (counter) - 3 - (int) strlen (left);
  int len = (int) strlen (name);
  const char *shown = len > room && room > 1 ? name + (len - room + 1) : name;
  fprintf (stderr, "\r\033[K[%s] %s %s%s  %s", cells, counter, shown != name ? "~" : "",
           room > 1 ? shown : "", left);
  fflush (stderr);
}

void
progress_done (struct progress *p, size_t done, const struct test_result *r)
{
  if (!p->verbose)
    return;
  progress_clear (p);
  fprintf (stderr, "[%zu/%zu] %s", done, p->total, r->test->name);
  if (r->outcome == BENCH_OK)
    fprintf (stderr, "  %.6g ops/s  ±%.1f%%  %u samples\n", r->m.ops_per_sec,
             100 * r->m.spread, r->m.samples);
  else
    fprintf (stderr, "  %s: %s\n", r->outcome == BENCH_SKIPPED ? "skipped" : "failed",
             r->message);
  fflush (stderr);
}

void
progress_clear (struct progress *p)
{
  if (p->bar)
    {
      fputs ("\r\033[K", stderr);
      fflush (stderr);
    }
}
