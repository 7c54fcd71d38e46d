/* unit-score.c: the GMPbench formula.  Fixed per-test numbers (test i of
 * the 39, in registry order, gets 1000*(i+1), times 1.5 when i is a
 * multiple of 3) give scores computed independently with runbench's
 * formula, checked to 5 significant digits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/score.h"
#include "model/registry.h"
#include "tests/check.h"

static double
find (const struct score_node *nodes, size_t n, const char *name)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (nodes[i].name, name) == 0)
      return nodes[i].score;
  return 0;
}

static int
five_digits (double got, double want)
{
  return fabs (got - want) <= 5e-5 * want;
}

int
main (void)
{
  size_t total = registry_count (), ncompat = 0;
  struct score_input *in = calloc (total, sizeof *in);
  for (size_t i = 0; i < total; i++)
    {
      const struct bench_test *t = registry_test (i);
      if (!(t->flags & BENCH_COMPAT))
        continue;
      in[ncompat].name = t->name;
      in[ncompat].ops_per_sec = 1000.0 * (ncompat + 1) * (ncompat % 3 == 0 ? 1.5 : 1);
      ncompat++;
    }
  check (ncompat == 39, "the registry has the 39 tests of GMPbench 0.2 (%zu)", ncompat);

  struct score_node *nodes;
  size_t n = score_compute (in, ncompat, &nodes);
  static const struct { const char *node; double score; } want[] = {
    { "gmpbench", 26982.413480327734 },
    { "gmpbench.base", 17444.07458854652 },
    { "gmpbench.app", 41736.27173673052 },
    { "gmpbench.base.multiply", 7352.985797042459 },
    { "gmpbench.base.divide", 22544.134889602177 },
    { "gmpbench.base.gcd", 30532.740202063957 },
    { "gmpbench.base.gcdext", 33583.598157194756 },
    { "gmpbench.app.rsa", 40054.093481073585 },
    { "gmpbench.app.pi", 43489.09754518101 },
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    {
      double got = find (nodes, n, want[i].node);
      check (five_digits (got, want[i].score), "%s = %.5g (want %.5g)",
             want[i].node, got, want[i].score);
    }
  check (n == 9, "exactly the 9 inner nodes of the compatible tree are scored (%zu)", n);
  check (strcmp (nodes[0].name, "gmpbench") == 0 && nodes[0].depth == 0,
         "nodes come in pre-order, root first");
  check (find (nodes, n, "ext") == 0, "no extended score without the extended tests");
  score_free (nodes, n);

  /* A partial run: without pi.1000000, app and the total are not scored. */
  n = score_compute (in, ncompat - 1, &nodes);
  check (find (nodes, n, "gmpbench") == 0 && find (nodes, n, "gmpbench.app") == 0
         && find (nodes, n, "gmpbench.app.pi") == 0,
         "a node missing a test below it has no score");
  check (five_digits (find (nodes, n, "gmpbench.base"), 17444.07458854652),
         "complete subtrees of a partial run are still scored");
  score_free (nodes, n);

  check (registry_test_weight ("gmpbench.base.gcd.128,128") == 0.5
         && registry_test_weight ("gmpbench.base.divide.8192,32") == 1,
         "program weights are GMPbench's (gcd 0.5, divide 1)");
  check (score_equal (1.0, 1.000001) && !score_equal (1.0, 1.0001), "score_equal is to rounding");
  free (in);
  return check_exit_status ();
}
