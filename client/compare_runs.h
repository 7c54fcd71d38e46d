/* compare_runs.h: the lines of `gmpbench compare` (cmd_compare.c), shared
 * with their HTML rendering (compare_html.c). */
#ifndef GB_COMPARE_RUNS_H
#define GB_COMPARE_RUNS_H

#include <stdio.h>
#include "client/pairs.h"
#include "client/report.h"

struct cell
{
  double ratio;                 /* NAN when not measured in both */
  double spread;                /* the noise bound: the two runs' relative
                                   spreads together, a node's their tests'
                                   mean; for paired ratios, pairs.h's */
  int within;
  size_t tests;                 /* tests behind the ratio */
  size_t pairs;                 /* pairs of visits behind it; 0: not paired */
};

struct line
{
  int node, depth;
  char name[256], label[128];
  const struct report_row *row; /* the baseline's test, for a leaf */
  struct cell *cells;           /* one per run, [0] unused */
};

struct comparison
{
  const char *cmd;              /* whose notes: "compare", "run" */
  const char *const *files;
  struct report *runs;          /* runs[0] is the baseline */
  size_t nruns;
  const struct pair_ratio *paired;      /* NULL, or npaired per other run */
  size_t npaired;
  struct line *lines;
  size_t nlines;
};

/* C as one self-contained HTML page: every run's scores and ops/s side by
 * side, each other run's ratio and spread per node and test. */
void compare_html (FILE *f, const struct comparison *c);

#endif
