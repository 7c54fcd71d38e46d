/* board_standing.c: where one result stands (board_standing, board.h),
 * for the answer to its upload: within its CPU row (the identity, run
 * mode and GMP build kind, unflagged results) and within its
 * architecture (every CPU's unflagged results of that mode and build).
 *
 * The CPU row is counted as the leaderboard counts it (board_rows.c):
 * when two of its results share a source, each source is one value, the
 * median of its results; the row's median is the median of those
 * values, and the result's percentile is the share of them strictly
 * below its score.  The architecture counts results, one value each,
 * read in one pass over the snapshot's entries.  A tie is never "faster
 * than": only values strictly below the score count, over all of them
 * (the result's own included when it is one of them). */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include "common/util.h"

/* How many of the N values V (best first) lie strictly below SCORE. */
static size_t
count_below (const double *v, size_t n, double score)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (v[mid] < score)
        hi = mid;
      else
        lo = mid + 1;
    }
  return n - lo;
}

/* The CPU row of R (which fixes the CPU) into OUT. */
static void
cpu_standing (const struct board *b, const struct resolved *r, double score, int counted,
              struct board_standing *out)
{
  struct scratch s;
  struct board_row row;
  double *all = board_scratch_new (b, &s);

  if (board_row_values (b, (size_t) r->f[BF_CPU], r, &s, &row) && s.nscore > (size_t) counted)
    {
      out->has_cpu = 1;
      out->cpu_results = row.n;
      out->cpu_sources = row.sources;
      out->cpu_median = row.median;
      out->cpu_percentile = 100.0 * (double) count_below (s.score, s.nscore, score)
        / (double) s.nscore;
    }
  free (all);
}

/* The architecture of R (which leaves the CPU open) into OUT. */
static void
arch_standing (const struct board *b, const struct resolved *r, double score, int counted,
               struct board_standing *out)
{
  size_t n = 0, below = 0;
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    {
      const struct block *blk = b->blocks[c];
      for (size_t k = 0; k < blk->n; k++)
        if (!isnan (blk->items[k].score) && board_matches (&blk->items[k], r))
          {
            n++;
            below += blk->items[k].score < score;
          }
    }
  if (n > (size_t) counted)
    {
      out->has_arch = 1;
      out->arch_results = n;
      out->arch_percentile = 100.0 * (double) below / (double) n;
    }
}

void
board_standing (const struct board *b, const struct board_filter *f, double score, int counted,
                struct board_standing *out)
{
  struct board_filter only = { { NULL }, 0, 0 };
  struct resolved r;

  out->has_cpu = out->has_arch = 0;
  if (isnan (score))
    return;
  static const enum board_field kept[] = { BF_CPU, BF_ARCH, BF_MODE, BF_BUILD };
  for (size_t i = 0; i < GB_ARRAY_SIZE (kept); i++)
    only.value[kept[i]] = f->value[kept[i]];
  if (board_resolve (b, &only, &r) == 0 && r.f[BF_CPU] >= 0)
    cpu_standing (b, &r, score, counted, out);
  only.value[BF_CPU] = NULL;
  if (board_resolve (b, &only, &r) == 0)
    arch_standing (b, &r, score, counted, out);
}
