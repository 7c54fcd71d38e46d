/* board_query.c: what the pages and the API ask a snapshot besides its
 * ranked rows (board_view.c): its size and values, a CPU's name, the
 * results best by a node (board_ranked), and a CPU's entries for its
 * page.
 *
 * board_ranked keeps the best results met in a heap of the page's size,
 * the last at its root: the GMPbench score is each entry's own and a
 * block is sorted by it, so a block is read until its scores fall below
 * the heap's last; any other node is a column (board_column.c).  A CPU's
 * queries read its block alone.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

size_t
board_size (const struct board *b)
{
  return b->n;
}

size_t
board_values (const struct board *b, enum board_field field, const char *const **names,
              const size_t **counts)
{
  *names = b->tab[field].sorted;
  *counts = b->tab[field].sorted_counts;
  return b->tab[field].nsorted;
}

const char *
board_cpu_name (const struct board *b, const char *cpu)
{
  int64_t c = board_lookup (&b->tab[BF_CPU], cpu);
  return c < 0 || b->group[c] == b->group[c + 1] ? NULL : b->names.names[b->cpu_name[c]];
}

const char *
board_value (const struct board *b, enum board_field field, uint32_t i)
{
  return i < b->tab[field].n ? b->tab[field].names[i] : "";
}

/* Whether A ranks before B in board_ranked's order. */
static int
ranks_before (const struct board_scored *a, const struct board_scored *b)
{
  return a->score > b->score || (a->score == b->score && a->seq > b->seq);
}

static int
by_rank (const void *a, const void *b)
{
  return ranks_before (b, a) - ranks_before (a, b);
}

static void
swap_scored (struct board_scored *a, struct board_scored *b)
{
  struct board_scored t = *a;
  *a = *b;
  *b = t;
}

/* The heap H[0..N), the last in rank at its root, made whole again after
 * H[I] was put below its place. */
static void
sift_down (struct board_scored *h, size_t n, size_t i)
{
  for (;;)
    {
      size_t last = i, left = 2 * i + 1, right = left + 1;
      if (left < n && ranks_before (&h[last], &h[left]))
        last = left;
      if (right < n && ranks_before (&h[last], &h[right]))
        last = right;
      if (last == i)
        return;
      swap_scored (&h[i], &h[last]);
      i = last;
    }
}

/* The same after H[I] was added. */
static void
sift_up (struct board_scored *h, size_t i)
{
  while (i > 0 && ranks_before (&h[(i - 1) / 2], &h[i]))
    {
      swap_scored (&h[(i - 1) / 2], &h[i]);
      i = (i - 1) / 2;
    }
}

/* Adds E to the heap H of *N results, at most LIMIT: in its place while
 * there is room, else in that of the last, which goes; once the heap is
 * full, *FLOOR is its last score. */
static void
heap_add (struct board_scored *h, size_t *n, size_t limit, struct board_scored e, double *floor)
{
  if (*n < limit)
    {
      h[*n] = e;
      sift_up (h, (*n)++);
    }
  else
    {
      h[0] = e;
      sift_down (h, *n, 0);
    }
  if (*n == limit)
    *floor = h[0].score;
}

int
board_ranked (struct board *b, struct store *st, const struct board_filter *f,
              const char *node, int after, double score, int64_t seq, size_t limit,
              struct board_scored **out, size_t *nout)
{
  struct resolved r;
  int owned = 0;
  size_t n = 0;

  *out = gb_xmalloc ((limit + 1) * sizeof **out);
  *nout = 0;
  if (board_resolve (b, f, &r) < 0 || limit == 0)
    return 0;
  /* The GMPbench score is each entry's own, and a block's entries are
   * sorted by it: a block is read until its scores fall below the heap's
   * last.  Any other node is a column. */
  int own = strcmp (node, BOARD_SCORE_NODE) == 0;
  struct segment *const *column = own ? NULL : board_node_column (b, st, node, &owned);
  if (!own && !column)
    return -1;
  struct board_scored *h = *out;
  double floor = -INFINITY;     /* the heap's last score once it is full */
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    {
      if (board_whole_group (b, c, &r) < 0)     /* none of its results matches */
        continue;
      const struct block *bl = b->blocks[c];
      const double *v = own ? NULL : column[c]->v;
      for (size_t k = 0; k < bl->n; k++)
        {
          double x = own ? bl->items[k].score : v[k];
          if (own && !(x >= floor))
            break;
          /* The score alone first (NAN fails): once the heap is full, few
           * results reach its last, and only those have their entry read
           * (the column is 8 bytes a result, an entry ten times that). */
          if (!(x >= floor) || (after && x > score))
            continue;
          struct board_scored e = { bl->items[k].seq, x };
          if ((n == limit && !ranks_before (&e, &h[0]))
              || (after && !(e.score < score || (e.score == score && e.seq < seq)))
              || !board_matches (&bl->items[k], &r))
            continue;
          heap_add (h, &n, limit, e, &floor);
        }
    }
  if (owned)
    board_segments_free ((struct segment **) column, b->tab[BF_CPU].n);
  qsort (h, n, sizeof *h, by_rank);
  *nout = n;
  return 0;
}

/* The block of F's CPU, with F resolved into R (matching its entries:
 * all of them have its CPU, and SKIP, a field, or -1, is not checked);
 * NULL when F names no CPU of B. */
static const struct block *
cpu_block (const struct board *b, const struct board_filter *f, int skip, struct resolved *r)
{
  if (board_resolve (b, f, r) < 0 || r->f[BF_CPU] < 0)
    return NULL;
  if (skip >= 0)
    r->f[skip] = -1;
  board_list_fields (r, BF_CPU);
  return b->blocks[r->f[BF_CPU]];
}

/* The entry of IT, for the CPU page. */
static struct board_entry
entry_of (const struct board *b, const struct item *it)
{
  struct board_entry e = {
    it->seq, b->tab[BF_GMP].names[it->f[BF_GMP]], b->tab[BF_COMPILER].names[it->f[BF_COMPILER]],
    it->verified, it->flagged, it->score, it->source
  };
  return e;
}

void
board_cpu_tally (const struct board *b, const struct board_filter *f, enum board_field field,
                 size_t *counts)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, (int) field, &r);
  const struct strtab *t = &b->tab[field];
  size_t *by_index = gb_xcalloc (t->n + 1, sizeof *by_index);

  for (size_t k = 0; blk && k < blk->n; k++)
    if (board_matches (&blk->items[k], &r))
      by_index[blk->items[k].f[field]]++;
  for (size_t i = 0; i < t->nsorted; i++)
    counts[i] = by_index[board_lookup (t, t->sorted[i])];
  free (by_index);
}

/* Adds to BY_INDEX, by their value of FIELD, the results of CPU C that R
 * (which leaves FIELD open) matches: the count of C's summary row when
 * they all match and share one value, else by a scan. */
static void
tally_cpu (const struct board *b, size_t c, const struct resolved *r, enum board_field field,
           size_t *by_index)
{
  const struct block *blk = b->blocks[c];
  int whole = board_whole_group (b, c, r);
  uint32_t value = b->info[c].uniform[field];

  if (whole < 0)
    return;
  if (whole > 0 && value != UINT32_MAX)
    {
      by_index[value] += b->info[c].rows[r->include_flagged].n;
      return;
    }
  for (size_t k = 0; k < blk->n; k++)
    if (board_matches (&blk->items[k], r))
      by_index[blk->items[k].f[field]]++;
}

void
board_tally (const struct board *b, const struct board_filter *f, enum board_field field,
             board_keep_cpu keep, void *ctx, size_t *counts)
{
  struct board_filter open = *f;
  struct resolved r;
  const struct strtab *t = &b->tab[field];
  size_t *by_index = gb_xcalloc (t->n + 1, sizeof *by_index);

  open.value[field] = NULL;
  open.value[BF_CPU] = NULL;
  if (board_resolve (b, &open, &r) == 0)
    for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
      if (!keep || keep (ctx, b->tab[BF_CPU].names[c], b->names.names[b->cpu_name[c]]))
        tally_cpu (b, c, &r, field, by_index);
  for (size_t i = 0; i < t->nsorted; i++)
    counts[i] = by_index[board_lookup (t, t->sorted[i])];
  free (by_index);
}

/* Moves the entry at I of the min-heap by seq H (N entries) down to its
 * place. */
static void
seq_heap_down (struct board_entry *h, size_t n, size_t i)
{
  for (;;)
    {
      size_t least = i, l = 2 * i + 1, r = l + 1;
      if (l < n && h[l].seq < h[least].seq)
        least = l;
      if (r < n && h[r].seq < h[least].seq)
        least = r;
      if (least == i)
        return;
      struct board_entry t = h[i];
      h[i] = h[least];
      h[least] = t;
      i = least;
    }
}

size_t
board_cpu_newest_entries (const struct board *b, const struct board_filter *f, size_t k,
                          struct board_entry *out)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, -1, &r);
  size_t n = 0;

  for (size_t i = 0; blk && k > 0 && i < blk->n; i++)
    {
      const struct item *it = &blk->items[i];
      if (!board_matches (it, &r) || (n == k && it->seq <= out[0].seq))
        continue;
      if (n < k)
        {
          out[n++] = entry_of (b, it);
          if (n == k)
            for (size_t j = k / 2; j-- > 0;)
              seq_heap_down (out, n, j);
        }
      else
        {
          out[0] = entry_of (b, it);
          seq_heap_down (out, n, 0);
        }
    }
  return n;
}

size_t
board_cpu_entries (const struct board *b, const struct board_filter *f, struct board_entry **out)
{
  struct resolved r;
  const struct block *blk = cpu_block (b, f, -1, &r);
  size_t n = 0;

  *out = NULL;
  if (!blk)
    return 0;
  *out = gb_xmalloc ((blk->n + 1) * sizeof **out);
  for (size_t k = 0; k < blk->n; k++)
    if (board_matches (&blk->items[k], &r))
      (*out)[n++] = entry_of (b, &blk->items[k]);
  return n;
}

void
board_default_kinds (const struct board *b, const char *cpu, struct board_filter *f)
{
  int64_t kind[2] = { b->kind[0], b->kind[1] };
  int64_t c = cpu ? board_lookup (&b->tab[BF_CPU], cpu) : -1;
  if (c >= 0)
    memcpy (kind, b->blocks[c]->kind, sizeof kind);
  static const int fields[2] = { BF_MODE, BF_BUILD };
  for (int i = 0; i < 2; i++)
    if ((!f->value[fields[i]] || !*f->value[fields[i]]) && kind[i] >= 0)
      f->value[fields[i]] = b->tab[fields[i]].names[kind[i]];
}

int64_t
board_cpu_newest (const struct board *b, const char *cpu)
{
  int64_t c = board_lookup (&b->tab[BF_CPU], cpu);
  const struct block *blk = c >= 0 ? b->blocks[c] : NULL;
  return blk && blk->n ? blk->items[blk->newest].seq : 0;
}
