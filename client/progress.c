/* progress.c: the progress bar and the plain lines (see progress.h).
 * The bar is one line, "[=====>    ] 12/210 NAME  1:23 left" (12 of 210
 * tests finished, NAME being measured now), or while the tests are set up
 * "preparing 12/210 NAME", cut to the terminal's width (the name loses its
 * head first, since its tail is what tells tests apart). */
#include "client/progress.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Whether the terminal cannot erase a line (TERM=dumb, as in Emacs's
 * shell buffers). */
static int
dumb_terminal (void)
{
  const char *term = getenv ("TERM");
  return term && strcmp (term, "dumb") == 0;
}

void
progress_init (struct progress *p, int bar, int verbose, size_t total)
{
  p->bar = bar && !dumb_terminal ();
  p->verbose = verbose || (bar && !p->bar);
  p->total = total;
  p->width = p->bar ? terminal_width () : 80;
  p->later = 0;
  p->label = NULL;
}

/* Redraws the line as "HEAD NAME  TAIL" within the width, NAME losing its
 * head first. */
static void
draw (const struct progress *p, const char *head, const char *name, const char *tail)
{
  int room = p->width - 1 - (int) strlen (head) - 1 - 2 - (int) strlen (tail);
  int len = (int) strlen (name);
  const char *shown = len > room && room > 1 ? name + (len - room + 1) : name;
  fprintf (stderr, "\r\033[K%s %s%s%s%s", head, shown != name ? "~" : "",
           room > 1 ? shown : "", tail[0] ? "  " : "", tail);
  fflush (stderr);
}

void
progress_preparing (struct progress *p, size_t i, size_t n, const char *name)
{
  char head[64];
  if (!p->bar)
    return;
  snprintf (head, sizeof head, "preparing %zu/%zu", i, n);
  draw (p, head, name, "");
}

/* SECONDS as "M:SS left", or "H:MM:SS left" from an hour. */
static void
format_left (char *buf, size_t size, double seconds)
{
  long s = seconds > 0 ? (long) (seconds + 0.5) : 0;
  if (s >= 3600)
    snprintf (buf, size, "%ld:%02ld:%02ld left", s / 3600, s / 60 % 60, s % 60);
  else
    snprintf (buf, size, "%ld:%02ld left", s / 60, s % 60);
}

void
progress_show (struct progress *p, size_t done, const char *name, double seconds_left)
{
  char cells[BAR_CELLS + 1], head[BAR_CELLS + 64], left[32];
  if (!p->bar)
    return;
  size_t filled = p->total ? done * BAR_CELLS / p->total : 0;
  if (filled > BAR_CELLS)
    filled = BAR_CELLS;
  memset (cells, '=', filled);
  memset (cells + filled, ' ', BAR_CELLS - filled);
  if (filled < BAR_CELLS)
    cells[filled] = '>';
  cells[BAR_CELLS] = '\0';
  snprintf (head, sizeof head, "[%s] %zu/%zu", cells, done, p->total);
  format_left (left, sizeof left, seconds_left);
  draw (p, head, name, left);
}

void
progress_done (struct progress *p, size_t done, const struct test_result *r)
{
  if (!p->verbose)
    return;
  progress_clear (p);
  fprintf (stderr, "[%zu/%zu] %s%s", done, p->total, p->label ? p->label : "", r->test->name);
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

static void
hook_preparing (void *ctx, size_t i, size_t n, const char *name)
{
  progress_preparing (ctx, i, n, name);
}

static void
hook_visit (void *ctx, size_t done, const char *name, double seconds_left)
{
  struct progress *p = ctx;
  progress_show (p, done, name, seconds_left + p->later);
}

static void
hook_finished (void *ctx, size_t done, const struct test_result *r)
{
  progress_done (ctx, done, r);
}

struct runner_progress
progress_hooks (struct progress *p)
{
  struct runner_progress hooks = {
    .preparing = hook_preparing,
    .visit = hook_visit,
    .finished = hook_finished,
    .ctx = p,
  };
  return hooks;
}
