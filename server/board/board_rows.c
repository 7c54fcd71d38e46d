/* board_rows.c: a filter resolved against a snapshot, and the row of
 * each CPU under it: how many results match, the medians and quartiles
 * of their scores, the most common GMP version and compiler.
 *
 * Medians come from a linear-time selection over the matching results'
 * values, gathered in scratch big enough for the largest group; the
 * GMPbench score's quartiles are read off the block, which is sorted by
 * it.
 *
 * INFO summarizes each CPU's results: the values they all share, how
 * many are verified, and the CPU's rows over its unflagged and over all
 * its results.  A filter that all of a CPU's results match (an
 * architecture or vendor, flagged results included or not) takes that
 * row without scanning them; one that matches none skips the CPU.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* Lists the fields R fixes, but SKIP (-1: none), for board_matches. */
void
board_list_fields (struct resolved *r, int skip)
{
  r->nfields = 0;
  for (int i = 0; i < BF_COUNT; i++)
    if (r->f[i] >= 0 && i != skip)
      {
        r->field[r->nfields] = i;
        r->value[r->nfields++] = (uint32_t) r->f[i];
      }
}

/* 0, or -1 when some value is not in the snapshot (nothing matches). */
int
board_resolve (const struct board *b, const struct board_filter *f, struct resolved *r)
{
  r->verified_only = f->verified_only != 0;
  r->include_flagged = f->include_flagged != 0;
  for (int i = 0; i < BF_COUNT; i++)
    {
      r->f[i] = -1;
      if (f->value[i] && *f->value[i] && (r->f[i] = board_lookup (&b->tab[i], f->value[i])) < 0)
        return -1;
    }
  board_list_fields (r, -1);
  return 0;
}

/* The K-th smallest of V[0..N) (which it reorders), by Hoare's selection. */
static double
select_kth (double *v, size_t n, size_t k)
{
  size_t lo = 0, hi = n - 1;
  while (lo < hi)
    {
      double pivot = v[lo + (hi - lo) / 2];
      size_t i = lo, j = hi;
      for (;;)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i >= j)
            break;
          double t = v[i];
          v[i++] = v[j];
          v[j--] = t;
        }
      if (k <= j)
        hi = j;
      else
        lo = j + 1;
    }
  return v[k];
}

/* The median of V[0..N) in linear time (V is reordered); NAN for none. */
double
board_median (double *v, size_t n)
{
  if (n == 0)
    return NAN;
  double upper = select_kth (v, n, n / 2);
  if (n % 2)
    return upper;
  double lower = v[0];
  for (size_t i = 1; i < n / 2; i++)
    if (v[i] > lower)
      lower = v[i];
  return (lower + upper) / 2;
}

/* The Q-quantile (linear interpolation) of V[0..N) sorted best first. */
static double
quantile_desc (const double *v, size_t n, double q)
{
  double pos = (1 - q) * (double) (n - 1);
  size_t i = (size_t) pos;
  double frac = pos - (double) i;
  return i + 1 < n ? v[i] * (1 - frac) + v[i + 1] * frac : v[i];
}

/* ROW's strings, those of CPU C in B: its identity and name, and the
 * architecture and vendor of its newest result. */
void
board_name_row (const struct board *b, size_t c, struct board_row *row)
{
  const struct block *blk = b->blocks[c];
  row->cpu = b->tab[BF_CPU].names[c];
  row->cpu_name = b->names.names[b->cpu_name[c]];
  row->arch = row->vendor = "";
  if (blk->n)
    {
      row->arch = b->tab[BF_ARCH].names[blk->items[blk->newest].f[BF_ARCH]];
      row->vendor = b->tab[BF_VENDOR].names[blk->items[blk->newest].f[BF_VENDOR]];
    }
}

/* The most common of a few values (GMP versions, compilers of one CPU):
 * the first COUNTED distinct ones are counted, later new ones ignored. */
#define COUNTED 8
struct most
{
  uint32_t value[COUNTED];
  size_t count[COUNTED], n;
};

static void
most_add (struct most *t, uint32_t v)
{
  size_t i = 0;
  while (i < t->n && t->value[i] != v)
    i++;
  if (i == t->n && t->n < COUNTED)
    t->value[t->n++] = v;
  if (i < t->n)
    t->count[i]++;
}

/* The most counted value, the first counted on a tie; UINT32_MAX for none. */
static uint32_t
most_common_of (const struct most *t)
{
  size_t top = 0;
  for (size_t i = 1; i < t->n; i++)
    if (t->count[i] > t->count[top])
      top = i;
  return t->n ? t->value[top] : UINT32_MAX;
}

/* Adds the values of IT (and *NODE, its sort node's, unless NULL) to S. */
static void
add_values (struct scratch *s, const struct item *it, const double *node)
{
  if (!isnan (it->score))
    s->score[s->nscore++] = it->score;
  if (!isnan (it->per_ghz))
    {
      s->ghz[s->nghz++] = it->per_ghz;
      s->clock[s->nclock++] = it->score / it->per_ghz;
    }
  if (!isnan (it->per_core))
    s->core[s->ncore++] = it->per_core;
  if (!isnan (it->rsa))
    s->rsa[s->nrsa++] = it->rsa;
  if (node && !isnan (*node))
    s->node[s->nnode++] = *node;
}

static int
best_first (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a < b) - (a > b);
}

/* A matching result of a group and its source, sorted by source. */
struct sourced
{
  uint64_t source;
  uint32_t k;
};

static int
by_source (const void *pa, const void *pb)
{
  const struct sourced *a = pa, *b = pb;
  return (a->source > b->source) - (a->source < b->source);
}

/* Replaces S's values from N0 on (a source's, at ARRAY's end since N0)
 * by their median, as one value of that source. */
static void
keep_median (double *array, size_t *n, size_t n0)
{
  if (*n > n0 + 1)
    array[n0] = board_median (array + n0, *n - n0);
  if (*n > n0)
    *n = n0 + 1;
}

/* S's values from the N matching results M (sorted by source) of block
 * BLK, each source's reduced to its median: a source counts once, however
 * many results it sent.  The number of sources. */
static size_t
add_by_source (struct scratch *s, const struct block *blk, const double *node,
               const struct sourced *m, size_t n)
{
  size_t sources = 0;
  for (size_t i = 0; i < n; sources++)
    {
      size_t n0[6] = { s->nscore, s->nghz, s->ncore, s->nrsa, s->nnode, s->nclock };
      size_t j = i;
      for (; j < n && m[j].source == m[i].source; j++)
        add_values (s, &blk->items[m[j].k], node ? node + m[j].k : NULL);
      keep_median (s->score, &s->nscore, n0[0]);
      keep_median (s->ghz, &s->nghz, n0[1]);
      keep_median (s->core, &s->ncore, n0[2]);
      keep_median (s->rsa, &s->nrsa, n0[3]);
      keep_median (s->node, &s->nnode, n0[4]);
      keep_median (s->clock, &s->nclock, n0[5]);
      i = j;
    }
  qsort (s->score, s->nscore, sizeof *s->score, best_first);
  return sources;
}

/* The row's medians, quartiles and most common values from S. */
static void
fill_row (const struct scratch *s, const struct most *gmp, const struct most *compiler,
          struct board_row *row)
{
  row->median = s->nscore ? quantile_desc (s->score, s->nscore, 0.5) : NAN;
  row->q1 = s->nscore ? quantile_desc (s->score, s->nscore, 0.25) : NAN;
  row->q3 = s->nscore ? quantile_desc (s->score, s->nscore, 0.75) : NAN;
  row->best = s->nscore ? s->score[0] : NAN;
  row->per_ghz = board_median (s->ghz, s->nghz);
  row->per_core = board_median (s->core, s->ncore);
  row->rsa = board_median (s->rsa, s->nrsa);
  row->ghz = board_median (s->clock, s->nclock);
  row->gmp = most_common_of (gmp);
  row->compiler = most_common_of (compiler);
  row->node = board_median (s->node, s->nnode);
  row->key = NAN;
}

/* The row of CPU C under R, or 0 when no result matches.  Each source's
 * results count as one value, their median (store.h, "Sources"). */
static int
rank_group (const struct board *b, size_t c, const struct resolved *r,
            const struct segment *seg, struct scratch *s, struct board_row *row)
{
  size_t n = 0;
  int verified = 0;
  struct most gmp = { { 0 }, { 0 }, 0 }, compiler = { { 0 }, { 0 }, 0 };
  const struct block *blk = b->blocks[c];
  const double *node = seg ? seg->v : NULL;
  int shared = b->info[c].shared_source;
  struct sourced *m = shared ? gb_xmalloc ((blk->n + 1) * sizeof *m) : NULL;
  s->nscore = s->nghz = s->ncore = s->nrsa = s->nnode = s->nclock = 0;
  for (size_t k = 0; k < blk->n; k++)
    {
      const struct item *it = &blk->items[k];
      if (!board_matches (it, r))
        continue;
      most_add (&gmp, it->f[BF_GMP]);
      most_add (&compiler, it->f[BF_COMPILER]);
      verified |= it->verified;
      if (shared)
        m[n] = (struct sourced) { it->source, (uint32_t) k };
      else
        add_values (s, it, node ? node + k : NULL);
      n++;
    }
  if (n == 0)
    {
      free (m);
      return 0;
    }
  if (shared)
    qsort (m, n, sizeof *m, by_source);
  board_name_row (b, c, row);
  row->n = n;
  row->sources = shared ? add_by_source (s, blk, node, m, n) : n;
  row->confirmed = verified || row->sources >= STORE_CONFIRMING_SOURCES;
  free (m);
  fill_row (s, &gmp, &compiler, row);
  return 1;
}

/* Scratch for the largest group into S; returns what to free. */
double *
board_scratch_new (const struct board *b, struct scratch *s)
{
  size_t biggest = board_biggest_group (b);
  double *all = gb_xmalloc (6 * biggest * sizeof *all);
  s->score = all, s->ghz = all + biggest, s->core = all + 2 * biggest;
  s->rsa = all + 3 * biggest, s->node = all + 4 * biggest, s->clock = all + 5 * biggest;
  return all;
}

static int
by_bits (const void *pa, const void *pb)
{
  uint64_t a = *(const uint64_t *) pa, b = *(const uint64_t *) pb;
  return (a > b) - (a < b);
}

/* Whether two of the N SOURCES are one (SOURCES is sorted). */
static int
shares_a_source (uint64_t *sources, size_t n)
{
  qsort (sources, n, sizeof *sources, by_bits);
  for (size_t k = 1; k < n; k++)
    if (sources[k] == sources[k - 1])
      return 1;
  return 0;
}

/* Fills CPU C's INFO: the values all its results share, how many are
 * verified, and its rows over its unflagged and over all its results. */
static void
summarize_group (struct board *b, size_t c, struct scratch *s)
{
  struct group_info *g = &b->info[c];
  const struct block *blk = b->blocks[c];
  memset (g, 0, sizeof *g);
  if (blk->n == 0)
    return;                     /* every result of it left; board_whole_group skips it */
  memcpy (g->uniform, blk->items[0].f, sizeof g->uniform);
  uint64_t *sources = gb_xmalloc (blk->n * sizeof *sources);
  for (size_t k = 0; k < blk->n; k++)
    {
      for (int f = 0; f < BF_COUNT; f++)
        if (blk->items[k].f[f] != g->uniform[f])
          g->uniform[f] = UINT32_MAX;
      g->verified += blk->items[k].verified;
      sources[k] = blk->items[k].source;
    }
  g->shared_source = shares_a_source (sources, blk->n);
  free (sources);
  for (int flagged = 0; flagged < 2; flagged++)
    {
      struct resolved r;
      for (int f = 0; f < BF_COUNT; f++)
        r.f[f] = -1;
      r.verified_only = 0;
      r.include_flagged = flagged;
      board_list_fields (&r, -1);
      rank_group (b, c, &r, NULL, s, &g->rows[flagged]);
    }
}

/* Fills INFO for every CPU whose AFFECTED entry is set (all when NULL). */
void
board_summarize (struct board *b, const uint8_t *affected)
{
  struct scratch s;
  double *all = board_scratch_new (b, &s);
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (!affected || affected[c])
      summarize_group (b, c, &s);
  free (all);
}

/* Whether R matches none of CPU C's results (-1), all those of the set
 * one of C's rows covers (1), or some (0), by C's summary. */
int
board_whole_group (const struct board *b, size_t c, const struct resolved *r)
{
  const struct group_info *g = &b->info[c];
  int all = 1;

  if ((r->f[BF_CPU] >= 0 && (size_t) r->f[BF_CPU] != c) || b->group[c] == b->group[c + 1])
    return -1;
  for (int f = BF_ARCH; f < BF_COUNT; f++)
    if (r->f[f] >= 0 && g->uniform[f] != (uint32_t) r->f[f])
      {
        if (g->uniform[f] != UINT32_MAX)
          return -1;
        all = 0;
      }
  if (r->verified_only && g->verified < b->group[c + 1] - b->group[c])
    return g->verified ? 0 : -1;
  return all;
}

/* The row of CPU C under R with the median of NODE (a column, or NULL),
 * into ROW: from C's summary when all its results match and NODE is not
 * needed, else by a scan; 0 when none matches. */
int
board_group_row (const struct board *b, size_t c, const struct resolved *r,
                 struct segment *const *column, struct scratch *s, struct board_row *row)
{
  int whole = board_whole_group (b, c, r);
  if (whole < 0)
    return 0;
  if (whole > 0 && !column)
    {
      *row = b->info[c].rows[r->include_flagged];
      return row->n > 0;
    }
  return rank_group (b, c, r, column ? column[c] : NULL, s, row);
}

/* The row of CPU C under R, by a scan, into ROW, and its values (the
 * GMPbench scores, a source's reduced to their median when the row counts
 * by source), best first, in S->score[0..S->nscore); 0 when none matches. */
int
board_row_values (const struct board *b, size_t c, const struct resolved *r, struct scratch *s,
                  struct board_row *row)
{
  return rank_group (b, c, r, NULL, s, row);
}

/* The rows of every CPU some result of which matches R, by CPU, with the
 * median of NODE (a column, or NULL); *ROWS is malloc'ed.  A CPU whose
 * results all match (a tab, a vendor, flagged results included) takes
 * its summary's row without a scan, unless NODE is needed. */
size_t
board_compute_rows (const struct board *b, const struct resolved *r,
                    struct segment *const *node, struct board_row **rows)
{
  size_t ncpu = b->tab[BF_CPU].n, n = 0;
  struct scratch s;
  double *all = board_scratch_new (b, &s);

  *rows = gb_xcalloc (ncpu + 1, sizeof **rows);
  for (size_t c = 0; c < ncpu; c++)
    n += (size_t) board_group_row (b, c, r, node, &s, &(*rows)[n]);
  free (all);
  return n;
}
