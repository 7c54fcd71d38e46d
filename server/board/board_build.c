/* board_build.c: a full build, a snapshot of every listed result read
 * from the store, and the blocks of entries every snapshot is made of.
 *
 * Entries are stored grouped by CPU, best GMPbench score first, each
 * CPU's in a block of its own, so that a scan reads memory in order; a
 * block is never changed once made, and is shared (reference-counted)
 * by the snapshots in which its CPU did not change.  GROUP numbers the
 * entries of all blocks in CPU order, which indexes the node columns.
 * The RSA-2048 ratio is GMP's signatures per second over OpenSSL's
 * (openssl.rsa.sign.2048, constant-time) in the same result, GMP's
 * constant-time signature (ext.rsa.sign-sec.2048) when the result has
 * it, else GMPbench's (gmpbench.app.rsa.2048): the rule of the
 * document's own comparison table; score per GHz and per core are
 * computed once.
 *
 * Each CPU is shown by a name its results give it (name_group), and a
 * snapshot counts its results per run mode and build kind (PAIRS), so
 * that a page views the most common by default; an update
 * (board_derive.c) names again and counts again only what it changes,
 * with the functions here.
 */
#include "server/board/board_internal.h"

#include <math.h>
#include <stdlib.h>
#include "common/util.h"
#include "model/cpu_brand.h"
#include "model/machine_kind.h"

/* What a build needs besides the snapshot. */
struct build
{
  struct board *b;
  struct item *items;           /* in upload order, until grouped */
  size_t n, cap;
  float *mhz;                   /* per item, until scored */
  int32_t *cores;
  const atomic_int *abandon;    /* NULL, or set when the build is abandoned */
};

/* IT from ROW, its strings interned in B; its scores not yet known. */
void
board_fill_item (struct board *b, struct item *it, const struct store_board_row *row)
{
  const char *values[BF_COUNT] = {
    row->cpu, row->arch, row->vendor, row->os, row->gmp, row->compiler, row->mode, row->build,
    machine_kind_name (row->virtual_machine)
  };
  for (int f = 0; f < BF_COUNT; f++)
    it->f[f] = board_intern (&b->tab[f], values[f]);
  it->name = board_intern (&b->names, row->cpu_name);
  it->seq = row->seq;
  it->source = store_source_bits (row->source, row->seq);
  it->verified = row->verified != 0;
  it->flagged = row->flagged != 0;
  it->score = it->rsa = it->per_ghz = it->per_core = NAN;
}

/* IT's RSA ratio and score per GHz and per core, from the ops/s of GMP's
 * RSA-2048 signature (the constant-time one when the result has it) and
 * OpenSSL's (NAN when absent), its clock and cores (0: unknown). */
void
board_finish_item (struct item *it, double gmp, double ossl, float mhz, int32_t cores)
{
  it->rsa = gmp / ossl;         /* NAN when either is absent */
  if (!isnan (it->score) && mhz > 0)
    it->per_ghz = it->score / (mhz / 1000.0);
  if (!isnan (it->score) && cores > 0)
    it->per_core = it->score / cores;
}

static int
add_item (void *ctx, const struct store_board_row *row)
{
  struct build *bd = ctx;

  if (board_abandoned (bd->abandon))
    return 1;
  if (bd->n == bd->cap)
    {
      bd->cap = bd->cap ? 2 * bd->cap : 1024;
      bd->items = gb_xrealloc (bd->items, bd->cap * sizeof *bd->items);
      bd->mhz = gb_xrealloc (bd->mhz, bd->cap * sizeof *bd->mhz);
      bd->cores = gb_xrealloc (bd->cores, bd->cap * sizeof *bd->cores);
    }
  bd->mhz[bd->n] = (float) row->mhz;
  bd->cores[bd->n] = row->cores;
  board_fill_item (bd->b, &bd->items[bd->n++], row);
  return 0;
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

/* How a name ranks: by the votes of verified publishers' unflagged
 * results, then by how many sources' unflagged results give it (a
 * source counts once: store.h, "Sources"), then the oldest; ALL counts
 * its results; and whether it fits the CPU identity with the vendor
 * FIT_VENDOR - 1 (0: not asked yet). */
struct tally
{
  size_t verified, unflagged, all;
  uint32_t name;
  int64_t first;
  uint32_t fit_vendor;
  int fits;
};

static int
tally_beats (const struct tally *a, const struct tally *b)
{
  if (a->verified != b->verified)
    return a->verified > b->verified;
  if (a->unflagged != b->unflagged)
    return a->unflagged > b->unflagged;
  return a->first < b->first;
}

/* An unflagged result's name and source, to count each source once. */
struct vote
{
  uint32_t name;
  uint64_t source;
};

static int
by_name_source (const void *pa, const void *pb)
{
  const struct vote *a = pa, *b = pb;
  if (a->name != b->name)
    return (a->name > b->name) - (a->name < b->name);
  return (a->source > b->source) - (a->source < b->source);
}

/* Sets each name's unflagged count in T to the number of distinct
 * sources among its N VOTES (sorted here). */
static void
count_sources (struct tally *t, struct vote *votes, size_t n)
{
  qsort (votes, n, sizeof *votes, by_name_source);
  for (size_t k = 0; k < n; k++)
    if (k == 0 || votes[k].name != votes[k - 1].name || votes[k].source != votes[k - 1].source)
      t[votes[k].name].unflagged++;
}

/* CPU C's shown name (docs/leaderboard.md): the brand string most
 * verified publishers' unflagged results give it, else the one most
 * sources' unflagged results give it, ties going to the oldest.  A brand
 * that does not fit the CPU identity (model/cpu_brand.h) never counts,
 * nor one only flagged results give; a CPU no such brand names is shown
 * by its identity (UNNAMED, ""; the pages name the identity from the
 * model tables).  T, indexed by name, is zeroed and left so; SEEN and
 * VOTES have room for the group's names and results.  One pass over the
 * group asking whether a brand fits once per name and vendor, then a
 * sort of its unflagged votes: each update names again the CPUs it
 * touches, however many results they have. */
static uint32_t
name_group (const struct board *b, size_t c, uint32_t unnamed, struct tally *t,
            uint32_t *seen, struct vote *votes)
{
  size_t n = 0, nvotes = 0;
  const struct block *blk = b->blocks[c];
  for (size_t k = 0; k < blk->n; k++)
    {
      const struct item *it = &blk->items[k];
      struct tally *x = &t[it->name];
      if (x->fit_vendor != it->f[BF_VENDOR] + 1)
        {
          if (!x->fit_vendor && !x->all)
            seen[n++] = it->name;
          x->fit_vendor = it->f[BF_VENDOR] + 1;
          x->fits = cpu_brand_fits (b->tab[BF_CPU].names[it->f[BF_CPU]],
                                    b->tab[BF_VENDOR].names[it->f[BF_VENDOR]],
                                    b->names.names[it->name]);
        }
      if (!x->fits)
        continue;
      if (x->all++ == 0)
        {
          x->name = it->name;
          x->first = it->seq;
        }
      else if (it->seq < x->first)
        x->first = it->seq;
      x->verified += it->verified && !it->flagged;
      if (!it->flagged)
        votes[nvotes++] = (struct vote) { it->name, it->source };
    }
  count_sources (t, votes, nvotes);
  struct tally best = { 0, 0, 0, unnamed, 0, 0, 0 };
  int found = 0;
  for (size_t k = 0; k < n; k++)
    {
      const struct tally *x = &t[seen[k]];
      if ((x->verified || x->unflagged) && (!found++ || tally_beats (x, &best)))
        best = *x;
      t[seen[k]] = (struct tally) { 0, 0, 0, 0, 0, 0, 0 };
    }
  return best.name;
}

/* The most results any CPU has, at least 1. */
size_t
board_biggest_group (const struct board *b)
{
  size_t biggest = 1;
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (b->group[c + 1] - b->group[c] > biggest)
      biggest = b->group[c + 1] - b->group[c];
  return biggest;
}

/* Names every CPU of B (grouped) whose AFFECTED entry is set (all when
 * AFFECTED is NULL); the others keep the name they have. */
void
board_name_cpus (struct board *b, const uint8_t *affected)
{
  int64_t found = board_lookup (&b->names, "");
  uint32_t unnamed = found >= 0 ? (uint32_t) found : board_intern (&b->names, "");
  struct tally *t = gb_xcalloc (b->names.n + 1, sizeof *t);
  uint32_t *seen = gb_xmalloc ((board_biggest_group (b) + 1) * sizeof *seen);
  struct vote *votes = gb_xmalloc ((board_biggest_group (b) + 1) * sizeof *votes);
  for (size_t c = 0; c < b->tab[BF_CPU].n; c++)
    if (!affected || affected[c])
      b->cpu_name[c] = name_group (b, c, unnamed, t, seen, votes);
  free (votes);
  free (seen);
  free (t);
}

struct block *
board_block_new (size_t n)
{
  struct block *blk = gb_xmalloc (sizeof *blk + (n + 1) * sizeof *blk->items);
  board_ref_init (&blk->ref);
  blk->memos = board_memos_new ();
  blk->n = n;
  blk->newest = 0;
  return blk;
}

/* Frees BLOCK (a struct block), which no snapshot holds. */
void
board_block_free (void *block)
{
  struct block *blk = block;
  board_ref_release (blk->memos, board_memos_free);
  free (blk);
}

/* The most common value of FIELD among the N ITEMS whose mode is MODE
 * (-1: any), ties going to the first seen; -1 when there are none. */
static int64_t
most_common (const struct board *b, const struct item *items, size_t n, int field,
             int64_t mode)
{
  size_t nvalues = b->tab[field].n;
  size_t *count = gb_xcalloc (nvalues + 1, sizeof *count);
  int64_t best = -1;
  for (size_t k = 0; k < n; k++)
    if (mode < 0 || items[k].f[BF_MODE] == mode)
      count[items[k].f[field]]++;
  for (size_t i = 0; i < nvalues; i++)
    if (count[i] && (best < 0 || count[i] > count[best]))
      best = (int64_t) i;
  free (count);
  return best;
}

static void
choose_kinds (const struct board *b, const struct item *items, size_t n, int64_t kind[2])
{
  kind[0] = most_common (b, items, n, BF_MODE, -1);
  kind[1] = kind[0] < 0 ? -1 : most_common (b, items, n, BF_BUILD, kind[0]);
}

/* Sets BLK's newest entry and its kinds (B: the snapshot it is made
 * for, whose string tables name its items' values); a CPU page views
 * its kinds by default, and a block is shared by the snapshots in which
 * its CPU's results do not change, so they are counted once, here. */
void
board_block_finish (const struct board *b, struct block *blk)
{
  blk->newest = 0;
  for (size_t k = 1; k < blk->n; k++)
    if (blk->items[k].seq > blk->items[blk->newest].seq)
      blk->newest = k;
  choose_kinds (b, blk->items, blk->n, blk->kind);
}

/* B's blocks and GROUP from its N ITEMS (in any order). */
static void
group_items (struct board *b, const struct item *items, size_t n)
{
  size_t ncpu = b->tab[BF_CPU].n;

  struct place *p = gb_xmalloc ((n + 1) * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = (struct place) { items[i].f[BF_CPU], (uint32_t) i, items[i].score, items[i].seq };
  qsort (p, n, sizeof *p, by_cpu_score);
  b->n = n;
  b->group = gb_xcalloc (ncpu + 1, sizeof *b->group);
  for (size_t i = 0; i < n; i++)
    b->group[items[i].f[BF_CPU] + 1]++;
  for (size_t c = 0; c < ncpu; c++)
    b->group[c + 1] += b->group[c];
  b->blocks = gb_xcalloc (ncpu + 1, sizeof *b->blocks);
  for (size_t c = 0; c < ncpu; c++)
    b->blocks[c] = board_block_new (b->group[c + 1] - b->group[c]);
  for (size_t k = 0; k < n; k++)
    {
      uint32_t c = p[k].cpu;
      b->blocks[c]->items[k - b->group[c]] = items[p[k].item];
    }
  for (size_t c = 0; c < ncpu; c++)
    board_block_finish (b, b->blocks[c]);
  free (p);
}

/* The scores, the RSA ratio and the scores per GHz and per core of every
 * item of BD (in upload order); -1 on a database error. */
static int
load_scores (struct build *bd, struct store *st)
{
  struct seq_index x;
  board_seq_index_items (&x, bd->items, bd->n);
  double *score = board_load_column (&x, bd->n, st, BOARD_SCORE_NODE, bd->abandon);
  double *gmp = score ? board_load_column (&x, bd->n, st, TEST_PAIR_RSA_GMP, bd->abandon) : NULL;
  double *sec = gmp ? board_load_column (&x, bd->n, st, TEST_PAIR_RSA_GMP_SEC, bd->abandon) : NULL;
  double *ossl = sec ? board_load_column (&x, bd->n, st, TEST_PAIR_RSA_OPENSSL, bd->abandon) : NULL;
  board_seq_index_free (&x);
  for (size_t i = 0; ossl && i < bd->n; i++)
    {
      bd->items[i].score = score[i];
      board_finish_item (&bd->items[i], isnan (sec[i]) ? gmp[i] : sec[i], ossl[i],
                         bd->mhz[i], bd->cores[i]);
    }
  free (score);
  free (gmp);
  free (sec);
  int ok = ossl != NULL;
  free (ossl);
  return ok ? 0 : -1;
}

/* B's PAIRS for its string tables as they are, with OLD's counts (OLD may
 * be NULL: none). */
void
board_pairs_new (struct board *b, const struct board *old)
{
  size_t modes = b->tab[BF_MODE].n, builds = b->tab[BF_BUILD].n;
  b->pair_builds = builds;
  b->pairs = gb_xcalloc (modes * builds + 1, sizeof *b->pairs);
  for (size_t m = 0; old && m < old->tab[BF_MODE].n; m++)
    for (size_t k = 0; k < old->pair_builds; k++)
      b->pairs[m * builds + k] = old->pairs[m * old->pair_builds + k];
}

void
board_pair_add (struct board *b, const struct item *it, int delta)
{
  b->pairs[it->f[BF_MODE] * b->pair_builds + it->f[BF_BUILD]] += (size_t) delta;
}

/* KIND as choose_kinds gives it over all of B's results, from PAIRS: the
 * most common mode, then build kind among its results, the first
 * interned winning ties. */
void
board_kinds_of_pairs (struct board *b)
{
  size_t modes = b->tab[BF_MODE].n, builds = b->pair_builds, best = 0;
  b->kind[0] = b->kind[1] = -1;
  for (size_t m = 0; m < modes; m++)
    {
      size_t n = 0;
      for (size_t k = 0; k < builds; k++)
        n += b->pairs[m * builds + k];
      if (n > best)
        best = n, b->kind[0] = (int64_t) m;
    }
  best = 0;
  for (size_t k = 0; b->kind[0] >= 0 && k < builds; k++)
    if (b->pairs[(size_t) b->kind[0] * builds + k] > best)
      best = b->pairs[(size_t) b->kind[0] * builds + k], b->kind[1] = (int64_t) k;
}

/* A snapshot of the store, without columns or views; NULL on a database
 * error or when abandoned. */
struct board *
board_build (struct store *st, const atomic_int *abandon)
{
  struct build bd = { board_new (), NULL, 0, 0, NULL, NULL, abandon };
  struct board *b = bd.b;

  int ok = store_board_rows (st, add_item, &bd) == STORE_OK && !board_abandoned (abandon)
    && load_scores (&bd, st) == 0;
  free (bd.mhz);
  free (bd.cores);
  if (!ok)
    {
      free (bd.items);
      board_free (b);
      return NULL;
    }
  group_items (b, bd.items, bd.n);
  b->cpu_name = gb_xmalloc ((b->tab[BF_CPU].n + 1) * sizeof *b->cpu_name);
  board_name_cpus (b, NULL);
  board_pairs_new (b, NULL);
  for (size_t k = 0; k < bd.n; k++)
    board_pair_add (b, &bd.items[k], 1);
  free (bd.items);
  board_kinds_of_pairs (b);
  b->info = gb_xcalloc (b->tab[BF_CPU].n + 1, sizeof *b->info);
  board_summarize (b, NULL);
  for (int f = 0; f < BF_COUNT; f++)
    board_sort_names (&b->tab[f]);
  return b;
}
