/* board.c: the leaderboard snapshot (see board.h).
 *
 * Strings are interned per field in open-addressing hash tables, so an
 * entry holds small integers and a filter is resolved to integers once.
 * Entries are stored grouped by CPU, best GMPbench score first, so that
 * a scan reads memory in order; GROUP gives each CPU's range.  SEQS lists
 * the upload order (a score row's seq is found there by binary search)
 * and POS where each of those entries went.  The RSA-2048 ratio
 * is the GMP test's ops/s over OpenSSL's of the same result
 * (gmpbench.app.rsa.2048 / openssl.rsa.sign.2048), as in the document's
 * comparison table.
 */
#include "server/board.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/util.h"
#include "server/store.h"

#define MAX_COLUMNS 8
#define SCORE_NODE "gmpbench"
#define RSA_GMP "gmpbench.app.rsa.2048"
#define RSA_OPENSSL "openssl.rsa.sign.2048"

struct strtab
{
  char **names;                 /* in order of first appearance */
  size_t *counts;
  size_t n, cap;
  uint32_t *slots;              /* index + 1, 0 when free */
  size_t nslots;
  const char **sorted;          /* the names sorted, with their counts */
  size_t *sorted_counts;
};

struct item
{
  int64_t seq;
  uint32_t f[BF_COUNT];
  uint32_t name;
  int32_t cores;
  float mhz;
  uint8_t verified, flagged;
  double score, rsa;
};

struct column
{
  char *node;
  double *v;                    /* per item, NAN when absent */
};

struct board
{
  atomic_int refs;
  double built;                 /* monotonic seconds */
  struct strtab tab[BF_COUNT], names;
  struct item *items;
  size_t n, cap;
  int64_t *seqs;                /* every seq, ascending */
  uint32_t *pos;                /* the item of seqs[i] */
  size_t *group;                /* CPU i is items[group[i] .. group[i+1]) */
  uint32_t *newest;             /* per CPU: its newest item */
  pthread_mutex_t lock;         /* guards the columns */
  struct column cols[MAX_COLUMNS];
  size_t ncols;
};

static double
monotonic (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ interning */

static uint64_t
hash (const char *s)
{
  uint64_t h = 14695981039346656037u;
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211u;
  return h;
}

/* The slot of S in T: where it is, or the free one where it would go. */
static uint32_t *
slot_of (const struct strtab *t, const char *s)
{
  size_t mask = t->nslots - 1, i = (size_t) hash (s) & mask;
  while (t->slots[i] && strcmp (t->names[t->slots[i] - 1], s) != 0)
    i = (i + 1) & mask;
  return &t->slots[i];
}

static void
grow_slots (struct strtab *t)
{
  free (t->slots);
  t->nslots = t->nslots ? 2 * t->nslots : 64;
  t->slots = gb_xcalloc (t->nslots, sizeof *t->slots);
  for (size_t i = 0; i < t->n; i++)
    *slot_of (t, t->names[i]) = (uint32_t) i + 1;
}

static uint32_t
intern (struct strtab *t, const char *s)
{
  if (2 * (t->n + 1) > t->nslots)
    grow_slots (t);
  uint32_t *slot = slot_of (t, s);
  if (!*slot)
    {
      if (t->n == t->cap)
        {
          t->cap = t->cap ? 2 * t->cap : 16;
          t->names = gb_xrealloc (t->names, t->cap * sizeof *t->names);
          t->counts = gb_xrealloc (t->counts, t->cap * sizeof *t->counts);
        }
      t->names[t->n] = gb_xstrdup (s);
      t->counts[t->n] = 0;
      *slot = (uint32_t) ++t->n;
    }
  t->counts[*slot - 1]++;
  return *slot - 1;
}

/* The index of S in T, or -1. */
static int64_t
lookup (const struct strtab *t, const char *s)
{
  if (!t->nslots)
    return -1;
  uint32_t slot = *slot_of (t, s);
  return slot ? (int64_t) slot - 1 : -1;
}

struct named
{
  const char *name;
  size_t count;
};

static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct named *) a)->name, ((const struct named *) b)->name);
}

/* Fills T's sorted view. */
static void
sort_names (struct strtab *t)
{
  struct named *v = gb_xmalloc ((t->n + 1) * sizeof *v);
  for (size_t i = 0; i < t->n; i++)
    v[i] = (struct named) { t->names[i], t->counts[i] };
  qsort (v, t->n, sizeof *v, by_name);
  t->sorted = gb_xmalloc ((t->n + 1) * sizeof *t->sorted);
  t->sorted_counts = gb_xmalloc ((t->n + 1) * sizeof *t->sorted_counts);
  for (size_t i = 0; i < t->n; i++)
    {
      t->sorted[i] = v[i].name;
      t->sorted_counts[i] = v[i].count;
    }
  free (v);
}

static void
strtab_free (struct strtab *t)
{
  for (size_t i = 0; i < t->n; i++)
    free (t->names[i]);
  free (t->names);
  free (t->counts);
  free (t->slots);
  free (t->sorted);
  free (t->sorted_counts);
}

/* ------------------------------------------------------------ building */

static int
add_item (void *ctx, const struct store_board_row *row)
{
  struct board *b = ctx;
  const char *values[BF_COUNT] = {
    row->cpu, row->arch, row->vendor, row->os, row->gmp, row->compiler
  };

  if (b->n == b->cap)
    b->items = gb_xrealloc (b->items, (b->cap = b->cap ? 2 * b->cap : 1024) * sizeof *b->items);
  struct item *it = &b->items[b->n++];
  for (int f = 0; f < BF_COUNT; f++)
    it->f[f] = intern (&b->tab[f], values[f]);
  it->name = intern (&b->names, row->cpu_name);
  it->seq = row->seq;
  it->cores = row->cores;
  it->mhz = (float) row->mhz;
  it->verified = row->verified != 0;
  it->flagged = row->flagged != 0;
  it->score = it->rsa = NAN;
  return 0;
}

/* The item with SEQ, or -1. */
static int64_t
find_seq (const struct board *b, int64_t seq)
{
  size_t lo = 0, hi = b->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (b->seqs[mid] < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < b->n && b->seqs[lo] == seq ? (int64_t) b->pos[lo] : -1;
}

/* SEQS and POS for the items in upload order (before grouping). */
static void
index_seqs (struct board *b)
{
  b->seqs = gb_xmalloc ((b->n + 1) * sizeof *b->seqs);
  b->pos = gb_xmalloc ((b->n + 1) * sizeof *b->pos);
  for (size_t i = 0; i < b->n; i++)
    {
      b->seqs[i] = b->items[i].seq;
      b->pos[i] = (uint32_t) i;
    }
}

struct column_load
{
  const struct board *b;
  double *v;
};

static int
take_score (void *ctx, int64_t seq, double score)
{
  struct column_load *l = ctx;
  int64_t i = find_seq (l->b, seq);
  if (i >= 0)
    l->v[i] = score;
  return 0;
}

/* NODE's score per item (malloc'ed), or NULL on a database error. */
static double *
load_column (const struct board *b, struct store *st, const char *node)
{
  struct column_load l = { b, gb_xmalloc ((b->n + 1) * sizeof (double)) };
  for (size_t i = 0; i < b->n; i++)
    l.v[i] = NAN;
  if (store_node_column (st, node, take_score, &l) != STORE_OK)
    {
      free (l.v);
      return NULL;
    }
  return l.v;
}

/* An item's place in ORDER: by CPU, then best score first (none last),
 * then newest first. */
struct place
{
  uint32_t cpu, item;
  double score;
  int64_t seq;
};

static int
by_cpu_score (const void *pa, const void *pb)
{
  const struct place *a = pa, *b = pb;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  if (isnan (a->score) != isnan (b->score))
    return isnan (a->score) ? 1 : -1;
  if (a->score != b->score)
    return a->score > b->score ? -1 : 1;
  return a->seq > b->seq ? -1 : a->seq < b->seq;
}

static void
group_items (struct board *b)
{
  size_t ncpu = b->tab[BF_CPU].n;

  struct place *p = gb_xmalloc ((b->n + 1) * sizeof *p);
  for (size_t i = 0; i < b->n; i++)
    p[i] = (struct place) { b->items[i].f[BF_CPU], (uint32_t) i, b->items[i].score,
                            b->items[i].seq };
  qsort (p, b->n, sizeof *p, by_cpu_score);
  struct item *grouped = gb_xmalloc ((b->n + 1) * sizeof *grouped);
  for (size_t k = 0; k < b->n; k++)
    {
      grouped[k] = b->items[p[k].item];
      b->pos[p[k].item] = (uint32_t) k;
    }
  free (p);
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  b->newest = gb_xcalloc (ncpu + 1, sizeof *b->newest);
  for (size_t i = 0; i < b->n; i++)             /* upload order: the last is newest */
    {
      b->group[b->items[i].f[BF_CPU] + 1]++;
      b->newest[b->items[i].f[BF_CPU]] = b->pos[i];
    }
  for (size_t c = 0; c < ncpu; c++)
    b->group[c + 1] += b->group[c];
  free (b->items);
  b->items = grouped;
}

static void
board_free (struct board *b)
{
  for (int f = 0; f < BF_COUNT; f++)
    strtab_free (&b->tab[f]);
  strtab_free (&b->names);
  for (size_t i = 0; i < b->ncols; i++)
    {
      free (b->cols[i].node);
      free (b->cols[i].v);
    }
  pthread_mutex_destroy (&b->lock);
  free (b->items);
  free (b->seqs);
  free (b->pos);
  free (b->group);
  free (b->newest);
  free (b);
}

/* The scores and the RSA ratio of every item; -1 on a database error. */
static int
load_scores (struct board *b, struct store *st)
{
  double *score = load_column (b, st, SCORE_NODE);
  double *gmp = score ? load_column (b, st, RSA_GMP) : NULL;
  double *ossl = gmp ? load_column (b, st, RSA_OPENSSL) : NULL;
  for (size_t i = 0; ossl && i < b->n; i++)
    {
      b->items[i].score = score[i];
      b->items[i].rsa = gmp[i] / ossl[i];     /* NAN when either is absent */
    }
  free (score);
  free (gmp);
  int ok = ossl != NULL;
  free (ossl);
  return ok ? 0 : -1;
}

static struct board *
build (struct store *st)
{
  struct board *b = gb_xcalloc (1, sizeof *b);

  atomic_init (&b->refs, 1);
  pthread_mutex_init (&b->lock, NULL);
  if (store_board_rows (st, add_item, b) != STORE_OK)
    {
      board_free (b);
      return NULL;
    }
  index_seqs (b);
  if (load_scores (b, st) < 0)
    {
      board_free (b);
      return NULL;
    }
  group_items (b);
  for (int f = 0; f < BF_COUNT; f++)
    sort_names (&b->tab[f]);
  b->built = monotonic ();
  return b;
}

/* ------------------------------------------------------------ lifetime */

static struct board *
retain (struct board *b)
{
  if (b)
    atomic_fetch_add (&b->refs, 1);
  return b;
}

void
board_release (struct board *b)
{
  if (b && atomic_fetch_sub (&b->refs, 1) == 1)
    board_free (b);
}

/* Builds a snapshot and makes it current; returns it (retained), or the
 * old one when the database fails. */
static struct board *
rebuild (struct server *srv)
{
  struct board *fresh = build (srv->store);

  pthread_mutex_lock (&srv->board_lock);
  struct board *old = srv->board;
  if (fresh)
    srv->board = fresh;
  srv->board_building = 0;
  struct board *mine = retain (srv->board);
  pthread_cond_broadcast (&srv->board_built);
  pthread_mutex_unlock (&srv->board_lock);
  if (fresh)
    board_release (old);
  return mine;
}

struct board *
board_acquire (struct server *srv)
{
  pthread_mutex_lock (&srv->board_lock);
  while (!srv->board && srv->board_building)
    pthread_cond_wait (&srv->board_built, &srv->board_lock);
  struct board *b = srv->board;
  int stale = !b || monotonic () - b->built >= srv->aggregate_ttl;
  if (stale && !srv->board_building)
    {
      srv->board_building = 1;
      pthread_mutex_unlock (&srv->board_lock);
      return rebuild (srv);
    }
  retain (b);
  pthread_mutex_unlock (&srv->board_lock);
  return b;
}

void
board_shutdown (struct server *srv)
{
  board_release (srv->board);
  srv->board = NULL;
}

/* ------------------------------------------------------------ queries */

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
  return b->tab[field].n;
}

const char *
board_cpu_name (const struct board *b, const char *cpu)
{
  int64_t c = lookup (&b->tab[BF_CPU], cpu);
  return c < 0 ? NULL : b->names.names[b->items[b->newest[c]].name];
}

/* A filter resolved to indexes: -1 for any value. */
struct resolved
{
  int64_t f[BF_COUNT];
  int verified_only, include_flagged;
};

/* 0, or -1 when some value is not in the snapshot (nothing matches). */
static int
resolve (const struct board *b, const struct board_filter *f, struct resolved *r)
{
  r->verified_only = f->verified_only;
  r->include_flagged = f->include_flagged;
  for (int i = 0; i < BF_COUNT; i++)
    {
      r->f[i] = -1;
      if (f->value[i] && *f->value[i] && (r->f[i] = lookup (&b->tab[i], f->value[i])) < 0)
        return -1;
    }
  return 0;
}

static int
matches (const struct item *it, const struct resolved *r)
{
  for (int i = 0; i < BF_COUNT; i++)
    if (r->f[i] >= 0 && it->f[i] != (uint32_t) r->f[i])
      return 0;
  return (!r->verified_only || it->verified) && (r->include_flagged || !it->flagged);
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
static double
median (double *v, size_t n)
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

/* Per-group scratch: the values of the matching results. */
struct scratch
{
  double *score, *ghz, *core, *rsa, *node;
  size_t nscore, nghz, ncore, nrsa, nnode;
};

/* The row of CPU C under R, or 0 when no result matches. */
static int
rank_group (const struct board *b, size_t c, const struct resolved *r, const double *node,
            struct scratch *s, struct board_row *row)
{
  size_t n = 0;
  s->nscore = s->nghz = s->ncore = s->nrsa = s->nnode = 0;
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (!matches (it, r))
        continue;
      n++;
      if (!isnan (it->score))
        {
          s->score[s->nscore++] = it->score;
          if (it->mhz > 0)
            s->ghz[s->nghz++] = it->score / (it->mhz / 1000.0);
          if (it->cores > 0)
            s->core[s->ncore++] = it->score / it->cores;
        }
      if (!isnan (it->rsa))
        s->rsa[s->nrsa++] = it->rsa;
      if (node && !isnan (node[k]))
        s->node[s->nnode++] = node[k];
    }
  if (n == 0)
    return 0;
  const struct item *newest = &b->items[b->newest[c]];
  row->cpu = b->tab[BF_CPU].names[c];
  row->cpu_name = b->names.names[newest->name];
  row->arch = b->tab[BF_ARCH].names[newest->f[BF_ARCH]];
  row->vendor = b->tab[BF_VENDOR].names[newest->f[BF_VENDOR]];
  row->n = n;
  row->median = s->nscore ? quantile_desc (s->score, s->nscore, 0.5) : NAN;
  row->q1 = s->nscore ? quantile_desc (s->score, s->nscore, 0.25) : NAN;
  row->q3 = s->nscore ? quantile_desc (s->score, s->nscore, 0.75) : NAN;
  row->best = s->nscore ? s->score[0] : NAN;
  row->per_ghz = median (s->ghz, s->nghz);
  row->per_core = median (s->core, s->ncore);
  row->rsa = median (s->rsa, s->nrsa);
  row->node = median (s->node, s->nnode);
  return 1;
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

/* Largest key first, rows without one last, then by name. */
static int
by_key (const void *pa, const void *pb)
{
  const struct board_row *a = pa, *b = pb;
  if (isnan (a->key) != isnan (b->key))
    return isnan (a->key) ? 1 : -1;
  if (a->key != b->key && !isnan (a->key))
    return a->key > b->key ? -1 : 1;
  int c = strcmp (a->cpu_name, b->cpu_name);
  return c ? c : strcmp (a->cpu, b->cpu);
}

/* NODE's column from the snapshot, loading it (and keeping it when there
 * is room) if needed.  *OWNED is set when the caller must free it. */
static const double *
node_column (struct board *b, struct store *st, const char *node, int *owned)
{
  *owned = 0;
  pthread_mutex_lock (&b->lock);
  for (size_t i = 0; i < b->ncols; i++)
    if (strcmp (b->cols[i].node, node) == 0)
      {
        pthread_mutex_unlock (&b->lock);
        return b->cols[i].v;
      }
  pthread_mutex_unlock (&b->lock);
  double *v = load_column (b, st, node);
  if (!v)
    return NULL;
  pthread_mutex_lock (&b->lock);
  if (b->ncols < MAX_COLUMNS)
    {
      b->cols[b->ncols].node = gb_xstrdup (node);
      b->cols[b->ncols++].v = v;
    }
  else
    *owned = 1;
  pthread_mutex_unlock (&b->lock);
  return v;
}

int
board_rank (struct board *b, struct store *st, const struct board_filter *f,
            enum board_key key, const char *node, struct board_row **rows, size_t *nrows)
{
  struct resolved r;
  int owned = 0;
  const double *column = NULL;
  size_t ncpu = b->tab[BF_CPU].n, biggest = 1;

  *rows = gb_xcalloc (ncpu + 1, sizeof **rows);
  *nrows = 0;
  if (resolve (b, f, &r) < 0)
    return 0;
  if (key == BK_NODE && !(column = node_column (b, st, node, &owned)))
    return -1;
  for (size_t c = 0; c < ncpu; c++)
    if (b->group[c + 1] - b->group[c] > biggest)
      biggest = b->group[c + 1] - b->group[c];
  struct scratch s;
  double *all = gb_xmalloc (5 * biggest * sizeof *all);
  s.score = all, s.ghz = all + biggest, s.core = all + 2 * biggest;
  s.rsa = all + 3 * biggest, s.node = all + 4 * biggest;
  for (size_t c = 0; c < ncpu; c++)
    if ((r.f[BF_CPU] < 0 || (size_t) r.f[BF_CPU] == c)
        && rank_group (b, c, &r, column, &s, &(*rows)[*nrows]))
      {
        (*rows)[*nrows].key = key_value (&(*rows)[*nrows], key);
        (*nrows)++;
      }
  free (all);
  if (owned)
    free ((double *) column);
  qsort (*rows, *nrows, sizeof **rows, by_key);
  return 0;
}

size_t
board_cpu_entries (const struct board *b, const struct board_filter *f, struct board_entry **out)
{
  struct resolved r;
  size_t n = 0;

  *out = NULL;
  if (resolve (b, f, &r) < 0 || r.f[BF_CPU] < 0)
    return 0;
  size_t c = (size_t) r.f[BF_CPU];
  *out = gb_xmalloc ((b->group[c + 1] - b->group[c] + 1) * sizeof **out);
  for (size_t k = b->group[c]; k < b->group[c + 1]; k++)
    {
      const struct item *it = &b->items[k];
      if (!matches (it, &r))
        continue;
      struct board_entry *e = &(*out)[n++];
      e->seq = it->seq;
      e->gmp = b->tab[BF_GMP].names[it->f[BF_GMP]];
      e->compiler = b->tab[BF_COMPILER].names[it->f[BF_COMPILER]];
      e->verified = it->verified;
      e->flagged = it->flagged;
      e->score = it->score;
    }
  return n;
}
