/* board_column.c: node columns, a node's score for every entry of a
 * snapshot, for ranking by a node other than the GMPbench score.
 *
 * The store gives a node's scores by seq (store_node_column); a score
 * row's seq is found among the entries through a SEQ_INDEX made when a
 * column is loaded: a direct map when the seqs are dense (they are, but
 * for retracted and unlisted results), else a binary search.  A column
 * is a segment per CPU, in the order of the CPU's block, so that the
 * snapshots that share a block share its segment too (reference-
 * counted).  A snapshot keeps up to MAX_COLUMNS, loaded by the first
 * request that asks for one while the others asking wait for it.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

static int
by_pair_seq (const void *pa, const void *pb)
{
  int64_t a = ((const struct seq_pair *) pa)->seq, b = ((const struct seq_pair *) pb)->seq;
  return (a > b) - (a < b);
}

/* X over the N pairs P (malloc'ed; X takes them). */
static void
seq_index_make (struct seq_index *x, struct seq_pair *p, size_t n)
{
  memset (x, 0, sizeof *x);
  x->pairs = p;
  x->n = n;
  if (n == 0)
    return;
  int64_t lo = p[0].seq, hi = p[0].seq;
  for (size_t i = 1; i < n; i++)
    {
      lo = p[i].seq < lo ? p[i].seq : lo;
      hi = p[i].seq > hi ? p[i].seq : hi;
    }
  if ((uint64_t) (hi - lo) >= 4 * (uint64_t) n + 1024)
    {
      qsort (p, n, sizeof *p, by_pair_seq);
      return;
    }
  x->first = lo;
  x->span = (size_t) (hi - lo) + 1;
  x->direct = gb_xmalloc (x->span * sizeof *x->direct);
  memset (x->direct, 0xff, x->span * sizeof *x->direct);
  for (size_t i = 0; i < n; i++)
    x->direct[p[i].seq - lo] = p[i].at;
}

void
board_seq_index_free (struct seq_index *x)
{
  free (x->pairs);
  free (x->direct);
}

/* Where SEQ is, or -1. */
static int64_t
seq_find (const struct seq_index *x, int64_t seq)
{
  if (x->direct)
    {
      uint64_t i = (uint64_t) (seq - x->first);
      return i < x->span && x->direct[i] != UINT32_MAX ? (int64_t) x->direct[i] : -1;
    }
  size_t lo = 0, hi = x->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (x->pairs[mid].seq < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < x->n && x->pairs[lo].seq == seq ? (int64_t) x->pairs[lo].at : -1;
}

/* The index of a build's items, in upload order. */
void
board_seq_index_items (struct seq_index *x, const struct item *items, size_t n)
{
  struct seq_pair *p = gb_xmalloc ((n + 1) * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = (struct seq_pair) { items[i].seq, (uint32_t) i };
  seq_index_make (x, p, n);
}

/* The index of B's entries, numbered as GROUP does. */
static void
seq_index_board (struct seq_index *x, const struct board *b)
{
  struct seq_pair *p = gb_xmalloc ((b->n + 1) * sizeof *p);
  size_t k = 0;
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    for (size_t j = 0; j < b->blocks[c]->n; j++, k++)
      p[k] = (struct seq_pair) { b->blocks[c]->items[j].seq, (uint32_t) k };
  seq_index_make (x, p, k);
}

struct column_load
{
  const struct seq_index *x;
  double *v;
  const atomic_int *abandon;
};

static int
take_score (void *ctx, int64_t seq, double score)
{
  struct column_load *l = ctx;
  int64_t i = seq_find (l->x, seq);
  if (i >= 0)
    l->v[i] = score;
  return board_abandoned (l->abandon);
}

/* NODE's score per entry of X, N of them (malloc'ed), or NULL on a
 * database error or when the build is abandoned. */
double *
board_load_column (const struct seq_index *x, size_t n, struct store *st, const char *node,
                   const atomic_int *abandon)
{
  struct column_load l = { x, gb_xmalloc ((n + 1) * sizeof (double)), abandon };
  for (size_t i = 0; i < n; i++)
    l.v[i] = NAN;
  if (store_node_column (st, node, take_score, &l) != STORE_OK || board_abandoned (abandon))
    {
      free (l.v);
      return NULL;
    }
  return l.v;
}

struct segment *
board_segment_new (size_t n)
{
  struct segment *sg = gb_xmalloc (sizeof *sg + (n + 1) * sizeof (double));
  board_ref_init (&sg->ref);
  return sg;
}

/* Lets go of the column SEG of a snapshot of NCPU CPUs. */
void
board_segments_free (struct segment **seg, size_t ncpu)
{
  for (size_t c = 0; seg && c < ncpu; c++)
    board_ref_release (seg[c], free);
  free (seg);
}

/* NODE's column of B's entries (see board_load_column), a segment per
 * CPU. */
struct segment **
board_load_segments (const struct board *b, struct store *st, const char *node,
                     const atomic_int *abandon)
{
  struct seq_index x;
  size_t ncpu = b->tab[BF_CPU].n;
  seq_index_board (&x, b);
  double *v = board_load_column (&x, b->n, st, node, abandon);
  board_seq_index_free (&x);
  if (!v)
    return NULL;
  struct segment **seg = gb_xmalloc ((ncpu + 1) * sizeof *seg);
  for (size_t c = 0; c < ncpu; c++)
    {
      seg[c] = board_segment_new (b->blocks[c]->n);
      memcpy (seg[c]->v, v + b->group[c], b->blocks[c]->n * sizeof *v);
    }
  free (v);
  return seg;
}

/* NODE's column in B, or NULL, under B's lock. */
struct segment *const *
board_find_column (const struct board *b, const char *node)
{
  for (size_t i = 0; i < b->ncols; i++)
    if (strcmp (b->cols[i].node, node) == 0)
      return b->cols[i].seg;
  return NULL;
}

/* Whether a request is loading NODE's column into B, under B's lock. */
static int
loading (const struct board *b, const char *node)
{
  for (size_t i = 0; i < b->nloading; i++)
    if (strcmp (b->loading[i], node) == 0)
      return 1;
  return 0;
}

/* NODE's column from the snapshot, loading it (and keeping it when there
 * is room) if needed; a request that finds another loading it waits for
 * that.  *OWNED is set when the caller must free it. */
struct segment *const *
board_node_column (struct board *b, struct store *st, const char *node, int *owned)
{
  struct segment *const *kept;

  *owned = 0;
  pthread_mutex_lock (&b->lock);
  while (!(kept = board_find_column (b, node)) && loading (b, node))
    pthread_cond_wait (&b->loaded, &b->lock);
  int mark = !kept && b->nloading < MAX_COLUMNS;
  if (mark)
    b->loading[b->nloading++] = node;
  pthread_mutex_unlock (&b->lock);
  if (kept)
    return kept;

  struct segment **v = board_load_segments (b, st, node, NULL);
  pthread_mutex_lock (&b->lock);
  for (size_t i = 0; mark && i < b->nloading; i++)
    if (b->loading[i] == node)
      b->loading[i] = b->loading[--b->nloading];
  pthread_cond_broadcast (&b->loaded);
  if (v && (kept = board_find_column (b, node)))
    {
      board_segments_free (v, b->tab[BF_CPU].n);
      v = (struct segment **) kept;
    }
  else if (v && b->ncols < MAX_COLUMNS)
    {
      b->cols[b->ncols].node = gb_xstrdup (node);
      b->cols[b->ncols++].seg = v;
    }
  else
    *owned = v != NULL;
  pthread_mutex_unlock (&b->lock);
  return v;
}
