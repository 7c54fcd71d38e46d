/* board_view.c: the views a snapshot keeps, and board_rank, which
 * answers from them.
 *
 * A view is the rows of one filter (and node column), by CPU; it keeps
 * the order of its rows by each key once asked.  A snapshot keeps up to
 * MAX_VIEWS, dropping the least asked for when full.  Readers find
 * columns and views under the snapshot's lock and copy what they need,
 * so a view can be dropped while a page is being written.
 *
 * A new snapshot is given, before it is published, the CARRIED_VIEWS
 * views most asked for while the one before was current, with the node
 * columns they need (board_carry_views).  After an update, the rows of
 * the CPUs it did not touch are copied from the old views, and those of
 * the touched CPUs computed once per filter: the home page's views
 * differ by their node alone.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"

#define CARRIED_VIEWS 24       /* the most asked for, given to the next snapshot */

/* Whether A and B are the same filter. */
static int
same_filter (const struct resolved *a, const struct resolved *b)
{
  for (int i = 0; i < BF_COUNT; i++)
    if (a->f[i] != b->f[i])
      return 0;
  return a->verified_only == b->verified_only && a->include_flagged == b->include_flagged;
}

/* The value rows are sorted by (0 for all when sorting by name). */
static double
key_value (const struct board_row *r, enum board_key key)
{
  switch (key)
    {
    case BK_N:
      return (double) r->n;
    case BK_IQR:
      return r->q3 - r->q1;
    case BK_BEST:
      return r->best;
    case BK_GHZ:
      return r->per_ghz;
    case BK_CORE:
      return r->per_core;
    case BK_RSA:
      return r->rsa;
    case BK_NODE:
      return r->node;
    case BK_NAME:
      return 0;
    default:
      return r->median;
    }
}

/* Confirmed rows first (store.h, "Sources"), then largest key first,
 * rows without one last, then by name. */
static int
by_key (const void *pa, const void *pb)
{
  const struct board_row *a = pa, *b = pb;
  if (a->confirmed != b->confirmed)
    return a->confirmed ? -1 : 1;
  if (isnan (a->key) != isnan (b->key))
    return isnan (a->key) ? 1 : -1;
  if (a->key != b->key && !isnan (a->key))
    return a->key > b->key ? -1 : 1;
  int c = strcmp (a->cpu_name, b->cpu_name);
  return c ? c : strcmp (a->cpu, b->cpu);
}

/* A row and where it came from, for sorting a view's rows by reference. */
struct keyed
{
  struct board_row row;
  uint32_t i;
};

static int
by_keyed (const void *a, const void *b)
{
  return by_key (&((const struct keyed *) a)->row, &((const struct keyed *) b)->row);
}

/* The order of V's rows by KEY (malloc'ed). */
static uint32_t *
order_rows (const struct view *v, enum board_key key)
{
  struct keyed *k = gb_xmalloc ((v->nrows + 1) * sizeof *k);
  uint32_t *order = gb_xmalloc ((v->nrows + 1) * sizeof *order);
  for (size_t i = 0; i < v->nrows; i++)
    {
      k[i].row = v->rows[i];
      k[i].row.key = key_value (&v->rows[i], key);
      k[i].i = (uint32_t) i;
    }
  qsort (k, v->nrows, sizeof *k, by_keyed);
  for (size_t i = 0; i < v->nrows; i++)
    order[i] = k[i].i;
  free (k);
  return order;
}

void
board_view_free (struct view *v)
{
  for (int f = 0; f < BF_COUNT; f++)
    free (v->value[f]);
  for (int k = 0; k < BK_COUNT; k++)
    free (v->order[k]);
  free (v->node);
  free (v->rows);
  free (v);
}

/* The view of R (with NODE's column, or none for NULL), under B's lock. */
static struct view *
find_view (struct board *b, const struct resolved *r, const char *node)
{
  for (size_t i = 0; i < b->nviews; i++)
    {
      struct view *v = b->views[i];
      if (same_filter (&v->r, r) && (node ? v->node && strcmp (v->node, node) == 0 : !v->node))
        return v;
    }
  return NULL;
}

/* Copies the rows of the view of R and NODE sorted by KEY into *ROWS
 * (malloc'ed); 0 when the snapshot has no such view. */
static int
take_view (struct board *b, const struct resolved *r, const char *node, enum board_key key,
           struct board_row **rows, size_t *nrows)
{
  pthread_mutex_lock (&b->lock);
  struct view *v = find_view (b, r, node);
  if (v)
    {
      v->hits++;
      if (!v->order[key])
        v->order[key] = order_rows (v, key);
      *rows = gb_xmalloc ((v->nrows + 1) * sizeof **rows);
      for (size_t i = 0; i < v->nrows; i++)
        {
          (*rows)[i] = v->rows[v->order[key][i]];
          (*rows)[i].key = key_value (&(*rows)[i], key);
        }
      *nrows = v->nrows;
    }
  pthread_mutex_unlock (&b->lock);
  return v != NULL;
}

/* Keeps ROWS (which it takes) as the view of F (resolved to R) and NODE,
 * unless B has it already; when B keeps MAX_VIEWS, the least asked for
 * goes. */
static void
add_view (struct board *b, const struct board_filter *f, const struct resolved *r,
          const char *node, struct board_row *rows, size_t nrows)
{
  pthread_mutex_lock (&b->lock);
  if (find_view (b, r, node))
    {
      pthread_mutex_unlock (&b->lock);
      free (rows);
      return;
    }
  if (b->nviews == MAX_VIEWS)
    {
      size_t least = 0;
      for (size_t i = 1; i < b->nviews; i++)
        if (b->views[i]->hits < b->views[least]->hits)
          least = i;
      board_view_free (b->views[least]);
      b->views[least] = b->views[--b->nviews];
    }
  struct view *v = gb_xcalloc (1, sizeof *v);
  v->r = *r;
  for (int i = 0; i < BF_COUNT; i++)
    v->value[i] = f->value[i] && *f->value[i] ? gb_xstrdup (f->value[i]) : NULL;
  v->node = node ? gb_xstrdup (node) : NULL;
  v->rows = rows;
  v->nrows = nrows;
  b->views[b->nviews++] = v;
  pthread_mutex_unlock (&b->lock);
}

size_t
board_views (struct board *b)
{
  pthread_mutex_lock (&b->lock);
  size_t n = b->nviews;
  pthread_mutex_unlock (&b->lock);
  return n;
}

int
board_rank (struct board *b, struct store *st, const struct board_filter *f,
            enum board_key key, const char *node, struct board_row **rows, size_t *nrows)
{
  struct resolved r;
  int owned = 0;
  struct segment *const *column = NULL;

  *rows = NULL;
  *nrows = 0;
  if (key != BK_NODE)
    node = NULL;
  if (board_resolve (b, f, &r) < 0)
    {
      *rows = gb_xmalloc (sizeof **rows);
      return 0;
    }
  if (take_view (b, &r, node, key, rows, nrows))
    return 0;
  if (node && !(column = board_node_column (b, st, node, &owned)))
    {
      *rows = gb_xmalloc (sizeof **rows);
      return -1;
    }
  struct board_row *computed;
  size_t n = board_compute_rows (b, &r, column, &computed);
  if (!owned)
    {
      add_view (b, f, &r, node, computed, n);
      if (take_view (b, &r, node, key, rows, nrows))
        return 0;
      n = board_compute_rows (b, &r, column, &computed);        /* dropped meanwhile */
    }
  else
    board_segments_free ((struct segment **) column, b->tab[BF_CPU].n);
  for (size_t i = 0; i < n; i++)
    computed[i].key = key_value (&computed[i], key);
  qsort (computed, n, sizeof *computed, by_key);
  *rows = computed;
  *nrows = n;
  return 0;
}

/* A view of the old snapshot to make again in the new one. */
struct spec
{
  struct board_filter filter;
  char *value[BF_COUNT];
  char *node;
  unsigned long hits;
  struct board_row *rows;       /* its rows, for update_view */
  size_t nrows;
};

static int
by_hits (const void *a, const void *b)
{
  unsigned long x = ((const struct spec *) a)->hits, y = ((const struct spec *) b)->hits;
  return x > y ? -1 : x < y;
}

/* Computes the view of F with NODE (whose column B must have, unless
 * NULL) and keeps it in B. */
static void
make_view (struct board *b, const struct board_filter *f, const char *node)
{
  struct resolved r;
  struct segment *const *column = NULL;

  if (node)
    column = board_find_column (b, node);
  if (board_resolve (b, f, &r) < 0 || (node && !column))
    return;
  struct board_row *rows;
  size_t n = board_compute_rows (b, &r, column, &rows);
  add_view (b, f, &r, node, rows, n);
}

/* The rows of the CPUs an update touched, by filter, as the views made
 * again have them: the home page's views differ by their node alone
 * (its categories), and so share all of a row but the node's median. */
#define ROW_MEMOS 64
struct row_memos
{
  size_t n;
  struct row_memo
  {
    size_t c;
    struct resolved r;
    int found;                  /* whether a result of C matches R */
    struct board_row row;
  } m[ROW_MEMOS];
};

/* The median of SEG (CPU C's segment of a node column) over C's results
 * under R. */
static double
node_median (const struct board *b, size_t c, const struct resolved *r,
             const struct segment *seg, struct scratch *s)
{
  const struct block *blk = b->blocks[c];
  s->nnode = 0;
  for (size_t k = 0; k < blk->n; k++)
    if (!isnan (seg->v[k]) && board_matches (&blk->items[k], r))
      s->node[s->nnode++] = seg->v[k];
  return board_median (s->node, s->nnode);
}

/* CPU C's row under R with the median of COLUMN's node (or none) into
 * ROW, as board_group_row, from MEMOS when a view made again before had it. */
static int
memo_row (const struct board *b, size_t c, const struct resolved *r,
          struct segment *const *column, struct scratch *s, struct row_memos *memos,
          struct board_row *row)
{
  for (size_t i = 0; i < memos->n; i++)
    {
      const struct row_memo *m = &memos->m[i];
      if (m->c != c || !same_filter (&m->r, r))
        continue;
      if (!m->found)
        return 0;
      *row = m->row;
      row->node = column ? node_median (b, c, r, column[c], s) : NAN;
      return 1;
    }
  int found = board_group_row (b, c, r, column, s, row);
  if (memos->n < ROW_MEMOS)
    memos->m[memos->n++] = (struct row_memo) { c, *r, found, *row };
  return found;
}

/* Like make_view, for a snapshot derived from another whose view of F
 * and NODE had the NPREV rows PREV: the rows of the CPUs AFFECTED
 * (AFFECTED[c]) are computed (or taken from MEMOS), the others copied.
 * S is scratch for the largest group. */
static void
update_view (struct board *b, const struct board_filter *f, const char *node,
             const struct board_row *prev, size_t nprev, const uint8_t *affected,
             struct scratch *s, struct row_memos *memos)
{
  struct resolved r;
  struct segment *const *column = NULL;

  if (node)
    column = board_find_column (b, node);
  if (board_resolve (b, f, &r) < 0 || (node && !column))
    return;
  size_t ncpu = b->tab[BF_CPU].n, n = 0, j = 0;
  struct board_row *rows = gb_xcalloc (ncpu + 1, sizeof *rows);
  for (size_t c = 0; c < ncpu; c++)
    {
      int64_t at = -1;          /* the CPU of the next previous row */
      while (j < nprev && (at = board_lookup (&b->tab[BF_CPU], prev[j].cpu)) < (int64_t) c)
        j++;
      if (affected[c])
        n += (size_t) memo_row (b, c, &r, column, s, memos, &rows[n]);
      else if (j < nprev && at == (int64_t) c)
        {
          rows[n] = prev[j];
          board_name_row (b, c, &rows[n++]);
        }
    }
  add_view (b, f, &r, node, rows, n);
}

/* The views of OLD someone asked for, into SPECS (room for MAX_VIEWS),
 * with their rows when AFFECTED (see board_carry_views); how many. */
static size_t
asked_views (struct board *old, const uint8_t *affected, struct spec *specs)
{
  size_t nspecs = 0;

  pthread_mutex_lock (&old->lock);
  for (size_t i = 0; i < old->nviews; i++)
    {
      const struct view *v = old->views[i];
      if (!v->hits)
        continue;
      struct spec *s = &specs[nspecs++];
      for (int k = 0; k < BF_COUNT; k++)
        s->filter.value[k] = s->value[k] = v->value[k] ? gb_xstrdup (v->value[k]) : NULL;
      s->filter.verified_only = v->r.verified_only;
      s->filter.include_flagged = v->r.include_flagged;
      s->node = v->node ? gb_xstrdup (v->node) : NULL;
      s->hits = v->hits;
      s->rows = NULL;
      s->nrows = affected ? v->nrows : 0;
      if (affected)
        {
          s->rows = gb_xmalloc ((v->nrows + 1) * sizeof *s->rows);
          memcpy (s->rows, v->rows, v->nrows * sizeof *s->rows);
        }
    }
  pthread_mutex_unlock (&old->lock);
  return nspecs;
}

static void
spec_free (struct spec *s)
{
  for (int k = 0; k < BF_COUNT; k++)
    free (s->value[k]);
  free (s->node);
  free (s->rows);
}

/* Gives B (not yet published) the most asked-for views of OLD, with the
 * node columns they need, and the default view.  A view nobody asked for
 * while OLD was current is not carried, nor its column.  When B was
 * derived from OLD, AFFECTED says which CPUs changed, and the views'
 * rows of the others are copied; otherwise (NULL) they are computed. */
void
board_carry_views (struct board *b, struct store *st, struct board *old,
                   const uint8_t *affected, const atomic_int *abandon)
{
  struct board_filter none = { { NULL }, 0, 0 };
  struct spec specs[MAX_VIEWS];
  size_t nspecs = old ? asked_views (old, affected, specs) : 0;

  qsort (specs, nspecs, sizeof *specs, by_hits);
  for (; nspecs > CARRIED_VIEWS; nspecs--)
    spec_free (&specs[nspecs - 1]);
  for (size_t i = 0; i < nspecs; i++)
    {
      const char *node = specs[i].node;
      if (node && !board_find_column (b, node) && b->ncols < MAX_COLUMNS
          && !board_abandoned (abandon))
        {
          struct segment **v = board_load_segments (b, st, node, abandon);
          if (v)
            {
              b->cols[b->ncols].node = gb_xstrdup (node);
              b->cols[b->ncols++].seg = v;
            }
        }
    }
  make_view (b, &none, NULL);
  struct scratch s;
  struct row_memos *memos = gb_xmalloc (sizeof *memos);
  double *all = affected ? board_scratch_new (b, &s) : NULL;
  memos->n = 0;
  for (size_t i = 0; i < nspecs; i++)
    {
      if (board_abandoned (abandon))
        ;
      else if (affected)
        update_view (b, &specs[i].filter, specs[i].node, specs[i].rows, specs[i].nrows,
                     affected, &s, memos);
      else
        make_view (b, &specs[i].filter, specs[i].node);
      spec_free (&specs[i]);
    }
  free (all);
  free (memos);
}
