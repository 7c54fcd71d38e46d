/* board_derive.c: an update, a snapshot derived from another and the
 * changes the journal lists since.
 *
 * An update copies the string tables (their indexes stay valid), shares
 * the blocks of the CPUs the changes do not touch, and makes the touched
 * CPUs' blocks again: the changed results' entries taken out (their
 * counts too), the changed results as they are now merged in; it
 * carries the node columns over (each column a segment per CPU: the
 * untouched CPUs' shared, the others' made entry by entry, by where
 * each came from), and names and summarizes again only the touched
 * CPUs.  So it copies the entries of those CPUs and their segments, not
 * every entry.  A CPU left without results keeps its index, with an
 * empty block, and is shown nowhere.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

/* A changed result as the store has it now. */
struct change
{
  struct item it;               /* interned in the new snapshot, when listed */
  int listed;
  int64_t cpu;                  /* the index of its CPU, or -1 (unlisted, unknown) */
  float mhz;
  int32_t cores;
  double gmp, sec, ossl;        /* the RSA-2048 tests' ops/s, NAN when absent */
  double *col;                  /* per node column of the old snapshot, NAN when absent */
};

/* The changes read for a new snapshot B. */
struct delta
{
  struct board *b;
  struct change *ch;
  size_t n, cap;
  const char *const *cols;      /* the node columns' nodes */
  size_t ncols;
  const atomic_int *abandon;
};

static int
take_change (void *ctx, const struct store_board_row *row)
{
  struct delta *d = ctx;
  if (board_abandoned (d->abandon))
    return 1;
  if (d->n == d->cap)
    d->ch = gb_xrealloc (d->ch, (d->cap = d->cap ? 2 * d->cap : 64) * sizeof *d->ch);
  struct change *c = &d->ch[d->n++];
  memset (c, 0, sizeof *c);
  c->listed = row->listed;
  c->mhz = (float) row->mhz;
  c->cores = row->cores;
  c->gmp = c->sec = c->ossl = NAN;
  c->col = gb_xmalloc ((d->ncols + 1) * sizeof *c->col);
  for (size_t i = 0; i < d->ncols; i++)
    c->col[i] = NAN;
  if (c->listed)
    board_fill_item (d->b, &c->it, row);
  else
    c->it.seq = row->seq;
  c->cpu = c->listed ? (int64_t) c->it.f[BF_CPU] : board_lookup (&d->b->tab[BF_CPU], row->cpu);
  return 0;
}

static int
take_change_score (void *ctx, int64_t seq, const char *node, double score)
{
  struct delta *d = ctx;
  if (d->n == 0 || d->ch[d->n - 1].it.seq != seq)
    return 0;
  struct change *c = &d->ch[d->n - 1];
  if (strcmp (node, BOARD_SCORE_NODE) == 0)
    c->it.score = score;
  else if (strcmp (node, TEST_PAIR_RSA_GMP) == 0)
    c->gmp = score;
  else if (strcmp (node, TEST_PAIR_RSA_GMP_SEC) == 0)
    c->sec = score;
  else if (strcmp (node, TEST_PAIR_RSA_OPENSSL) == 0)
    c->ossl = score;
  for (size_t i = 0; i < d->ncols; i++)
    if (strcmp (node, d->cols[i]) == 0)
      c->col[i] = score;
  return 0;
}

/* Whether A goes before B in a snapshot: by CPU, then best score first
 * (none last), then newest first (as board_build.c's by_cpu_score). */
static int
item_before (const struct item *a, const struct item *b)
{
  if (a->f[BF_CPU] != b->f[BF_CPU])
    return a->f[BF_CPU] < b->f[BF_CPU];
  if (isnan (a->score) != isnan (b->score))
    return !isnan (a->score);
  if (a->score != b->score)
    return a->score > b->score;
  return a->seq > b->seq;
}

/* A new item and the change it came from. */
struct arrival
{
  struct item it;
  uint32_t change;
};

static int
by_arrival (const void *pa, const void *pb)
{
  const struct item *a = &((const struct arrival *) pa)->it, *b = &((const struct arrival *) pb)->it;
  return item_before (a, b) ? -1 : item_before (b, a);
}

static int
by_seq_value (const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *) pa, b = *(const int64_t *) pb;
  return (a > b) - (a < b);
}

/* The arrivals of D's listed changes, counted in B's PAIRS, sorted (by
 * CPU first) into *ADD; the CPUs of all changes marked AFFECTED; the
 * changed seqs, sorted, into *GONE (N of them, as D's changes). */
static size_t
sort_changes (struct board *b, const struct delta *d, uint8_t *affected,
              struct arrival **add, int64_t **gone)
{
  size_t n = 0;
  *add = gb_xmalloc ((d->n + 1) * sizeof **add);
  *gone = gb_xmalloc ((d->n + 1) * sizeof **gone);
  for (size_t j = 0; j < d->n; j++)
    {
      struct change *c = &d->ch[j];
      (*gone)[j] = c->it.seq;
      if (c->cpu >= 0)
        affected[c->cpu] = 1;
      if (c->listed)
        {
          board_finish_item (&c->it, isnan (c->sec) ? c->gmp : c->sec, c->ossl, c->mhz, c->cores);
          board_pair_add (b, &c->it, 1);
          (*add)[n++] = (struct arrival) { c->it, (uint32_t) j };
        }
    }
  qsort (*add, n, sizeof **add, by_arrival);
  qsort (*gone, d->n, sizeof **gone, by_seq_value);
  return n;
}

/* Takes the old entry O out of B's counts (and PAIRS). */
static void
count_out (struct board *b, const struct item *o)
{
  board_pair_add (b, o, -1);
  for (int f = 0; f < BF_COUNT; f++)
    b->tab[f].counts[o->f[f]]--;
  b->names.counts[o->name]--;
}

/* CPU C's block in B, made from OLD's (none when C is new to B): its
 * entries but those of the NGONE changed seqs GONE (sorted; taken out of
 * B's counts), merged in order with the N arrivals ADD of C.  ORIGIN[k]
 * (malloc'ed) is where entry k came from: its index in OLD's block, or
 * -1 - its change. */
static struct block *
remake_block (struct board *b, const struct board *old, size_t c, const int64_t *gone,
              size_t ngone, const struct arrival *add, size_t n, int64_t **origin)
{
  const struct block *ob = c < old->tab[BF_CPU].n ? old->blocks[c] : NULL;
  size_t on = ob ? ob->n : 0, i = 0, j = 0, k = 0;
  struct block *blk = board_block_new (on + n);
  *origin = gb_xmalloc ((on + n + 1) * sizeof **origin);
  for (;;)
    {
      while (i < on && bsearch (&ob->items[i].seq, gone, ngone, sizeof *gone, by_seq_value))
        count_out (b, &ob->items[i++]);
      if (i >= on && j >= n)
        break;
      if (j < n && (i >= on || item_before (&add[j].it, &ob->items[i])))
        {
          blk->items[k] = add[j].it;
          (*origin)[k++] = -1 - (int64_t) add[j++].change;
        }
      else
        {
          blk->items[k] = ob->items[i];
          (*origin)[k++] = (int64_t) i++;
        }
    }
  blk->n = k;
  board_block_finish (b, blk);
  return blk;
}

/* OLD's node columns (V) for B's entries, the changes' values for new
 * ones: a CPU without ORIGIN (its block shared) shares its segment. */
static void
carry_columns (struct board *b, const struct delta *d, struct segment *const *const *v,
               int64_t *const *origin)
{
  for (size_t i = 0; i < d->ncols; i++)
    {
      struct segment **col = gb_xmalloc ((b->tab[BF_CPU].n + 1) * sizeof *col);
      for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
        {
          const int64_t *from = origin[c];
          if (!from)
            {
              col[c] = board_ref_retain (v[i][c]);
              continue;
            }
          col[c] = board_segment_new (b->blocks[c]->n);
          for (size_t k = 0; k < b->blocks[c]->n; k++)
            col[c]->v[k] = from[k] >= 0 ? v[i][c]->v[from[k]] : d->ch[-1 - from[k]].col[i];
        }
      b->cols[b->ncols].node = gb_xstrdup (d->cols[i]);
      b->cols[b->ncols++].seg = col;
    }
}

static void
delta_free (struct delta *d)
{
  for (size_t j = 0; j < d->n; j++)
    free (d->ch[j].col);
  free (d->ch);
}

/* B's blocks, GROUP, PAIRS and node columns, from OLD's and D's changes
 * (VALUES: OLD's node columns, as D's): OLD's block of a CPU none of the
 * changes touches is shared, the others made again; the CPUs touched
 * are marked in AFFECTED. */
static void
remake_blocks (struct board *b, const struct board *old, const struct delta *d,
               struct segment *const *const *values, uint8_t *affected)
{
  size_t old_cpus = old->tab[BF_CPU].n, ncpu = b->tab[BF_CPU].n, a = 0;
  struct arrival *add;
  int64_t *gone, **origin = gb_xcalloc (ncpu + 1, sizeof *origin);
  board_pairs_new (b, old);
  size_t nadd = sort_changes (b, d, affected, &add, &gone);
  b->blocks = gb_xcalloc (ncpu + 1, sizeof *b->blocks);
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  for (size_t c = 0; c < ncpu; c++)
    {
      size_t first = a;
      while (a < nadd && add[a].it.f[BF_CPU] == c)
        a++;
      if (c < old_cpus && !affected[c])
        b->blocks[c] = board_ref_retain (old->blocks[c]);
      else
        b->blocks[c] = remake_block (b, old, c, gone, d->n, add + first, a - first, &origin[c]);
      b->group[c + 1] = b->group[c] + b->blocks[c]->n;
    }
  b->n = b->group[ncpu];
  carry_columns (b, d, values, origin);
  for (size_t c = 0; c < ncpu; c++)
    free (origin[c]);
  free (origin);
  free (add);
  free (gone);
}

/* B's CPU names, kinds and summaries: OLD's for the CPUs not AFFECTED
 * (their summaries' rows named again), made again for the others. */
static void
name_and_summarize (struct board *b, const struct board *old, const uint8_t *affected)
{
  size_t old_cpus = old->tab[BF_CPU].n, ncpu = b->tab[BF_CPU].n;

  b->cpu_name = gb_xmalloc ((ncpu + 1) * sizeof *b->cpu_name);
  for (size_t c = 0; c < old_cpus; c++)
    b->cpu_name[c] = old->cpu_name[c];
  board_name_cpus (b, affected);
  board_kinds_of_pairs (b);
  b->info = gb_xcalloc (ncpu + 1, sizeof *b->info);
  for (size_t c = 0; c < old_cpus; c++)
    if (!affected[c])
      {
        b->info[c] = old->info[c];
        board_name_row (b, c, &b->info[c].rows[0]);
        board_name_row (b, c, &b->info[c].rows[1]);
      }
  board_summarize (b, affected);
}

/* A snapshot of OLD with the results of the N distinct ids IDS as the
 * store has them now (each stored, retracted, unlisted or with new flags
 * since OLD), without views; NULL on a database error or when abandoned.
 * It shares OLD's blocks of the CPUs the changes do not touch, and makes
 * the touched CPUs' again (*TOUCHED, malloc'ed, says which), names and
 * summarizes them again; OLD's node columns are carried over. */
struct board *
board_derive (struct board *old, struct store *st, const char *const *ids, size_t nids,
              const atomic_int *abandon, uint8_t **touched)
{
  struct board *b = board_new ();
  const char *nodes[MAX_COLUMNS];
  struct segment *const *values[MAX_COLUMNS];
  struct delta d = { b, NULL, 0, 0, nodes, 0, abandon };

  for (int f = 0; f < BF_COUNT; f++)
    board_strtab_copy (&b->tab[f], &old->tab[f]);
  board_strtab_copy (&b->names, &old->names);
  pthread_mutex_lock (&old->lock);      /* columns are only ever added */
  for (; d.ncols < old->ncols; d.ncols++)
    {
      nodes[d.ncols] = old->cols[d.ncols].node;
      values[d.ncols] = old->cols[d.ncols].seg;
    }
  pthread_mutex_unlock (&old->lock);
  if (store_board_changes (st, ids, nids, take_change, take_change_score, &d) != STORE_OK
      || board_abandoned (abandon))
    {
      delta_free (&d);
      board_free (b);
      return NULL;
    }

  uint8_t *affected = gb_xcalloc (b->tab[BF_CPU].n + 1, 1);
  remake_blocks (b, old, &d, values, affected);
  delta_free (&d);
  name_and_summarize (b, old, affected);
  *touched = affected;
  for (int f = 0; f < BF_COUNT; f++)
    board_sort_names (&b->tab[f]);
  return b;
}
