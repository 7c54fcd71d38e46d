/* web_home_rows.c: what a leaderboard row shows besides the board's row
 * (web_home.h), each from another view of the snapshot matched to the
 * rows by CPU: how many of its results are flagged (the view with flagged
 * results included against the one without), how many are of verified
 * publishers (the view of verified publishers only), the median of each
 * category (a view sorted by that node); and the search by name. */
#include "server/web/web_home.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/validate.h"

const struct home_category home_categories[HOME_CATEGORIES] = {
  { "gmpbench.base", "Base", "base" },
  { "gmpbench.app", "App", "app" },
  { "gmpbench.base.multiply", "Multiply", "multiply" },
  { "gmpbench.base.divide", "Divide", "divide" },
  { "gmpbench.base.gcd", "GCD", "gcd" },
  { "gmpbench.base.gcdext", "GCDext", "gcdext" },
  { "gmpbench.app.rsa", "RSA", "rsa" },
  { "gmpbench.app.pi", "Pi", "pi" },
  { VALIDATE_ALLCORE_NODE, "All-core", "allcore" },
};

int
home_cpu_matches (const char *cpu, const char *name, const char *query)
{
  char kind[96];
  return web_contains (name, query) || web_contains (cpu, query)
    || web_contains (web_cpu_kind (cpu, NULL, kind, sizeof kind), query);
}

size_t
home_keep_matching (struct board_row *rows, size_t n, const char *query)
{
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (home_cpu_matches (rows[i].cpu, rows[i].cpu_name, query))
      rows[kept++] = rows[i];
  return kept;
}

static int
by_cpu (const void *a, const void *b)
{
  return strcmp (((const struct board_row *) a)->cpu, ((const struct board_row *) b)->cpu);
}

/* The rows of F under V's search, by KEY (NODE), sorted by CPU for
 * find_cpu; -1 when the board fails. */
static int
rank_by_cpu (struct board *b, struct store *st, const struct view *v,
             const struct board_filter *f, enum board_key key, const char *node,
             struct board_row **rows, size_t *n)
{
  if (board_rank (b, st, f, key, node, rows, n) < 0)
    {
      free (*rows);
      *rows = NULL;
      return -1;
    }
  if (v->query)
    *n = home_keep_matching (*rows, *n, v->query);
  qsort (*rows, *n, sizeof **rows, by_cpu);
  return 0;
}

static const struct board_row *
find_cpu (const struct board_row *rows, size_t n, const char *cpu)
{
  struct board_row key;
  memset (&key, 0, sizeof key);
  key.cpu = cpu;
  return n ? bsearch (&key, rows, n, sizeof *rows, by_cpu) : NULL;
}

size_t
home_count_flagged (struct board *b, struct store *st, const struct view *v,
                    const struct board_row *rows, size_t n, struct extra *x)
{
  struct board_filter other = v->shown;
  struct board_row *more;
  size_t nmore, hidden = 0;

  other.include_flagged = !other.include_flagged;
  if (rank_by_cpu (b, st, v, &other, BK_SCORE, NULL, &more, &nmore) < 0)
    return 0;
  for (size_t i = 0; i < nmore; i++)
    hidden += more[i].n;
  for (size_t i = 0; i < n; i++)
    {
      const struct board_row *clean = find_cpu (more, nmore, rows[i].cpu);
      x[i].flagged = rows[i].n - (clean ? clean->n : 0);
    }
  free (more);
  return hidden;
}

void
home_count_verified (struct board *b, struct store *st, const struct view *v,
                     const struct board_row *rows, size_t n, struct extra *x)
{
  struct board_filter verified = v->shown;
  struct board_row *only;
  size_t nonly;

  verified.verified_only = 1;
  if (rank_by_cpu (b, st, v, &verified, BK_SCORE, NULL, &only, &nonly) < 0)
    return;
  for (size_t i = 0; i < n; i++)
    {
      const struct board_row *row = find_cpu (only, nonly, rows[i].cpu);
      x[i].verified = row ? row->n : 0;
    }
  free (only);
}

void
home_category_medians (struct board *b, struct store *st, const struct view *v,
                       const struct board_row *rows, size_t n, struct extra *x)
{
  for (size_t k = 0; k < HOME_CATEGORIES; k++)
    {
      struct board_row *cat;
      size_t ncat;
      int ok = rank_by_cpu (b, st, v, &v->shown, BK_NODE, home_categories[k].node, &cat,
                            &ncat) == 0;
      for (size_t i = 0; i < n; i++)
        {
          const struct board_row *c = ok ? find_cpu (cat, ncat, rows[i].cpu) : NULL;
          x[i].category[k] = c ? c->node : NAN;
        }
      free (cat);
    }
}
