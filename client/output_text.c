/* output_text.c: the hierarchy as an indented tree with ops/s at the
 * leaves and scores at the nodes, and JSON printing. */
#include <string.h>
#include <stdlib.h>
#include "client/output.h"
#include "suites/harness.h"

#define NAME_WIDTH 44

static const struct score_node *
find_score (const struct score_node *scores, size_t n, const char *name, size_t len)
{
  for (size_t i = 0; i < n; i++)
    if (strlen (scores[i].name) == len && strncmp (scores[i].name, name, len) == 0)
      return &scores[i];
  return NULL;
}

/* Length of the common prefix of A and B that ends before a dot. */
static size_t
common_nodes (const char *a, const char *b)
{
  size_t keep = 0;
  for (size_t i = 0; a[i] && a[i] == b[i]; i++)
    if (a[i] == '.' )
      keep = i + 1;
  return keep;
}

static void
print_leaf (FILE *f, int depth, const char *label, const struct test_result *r)
{
  fprintf (f, "%*s%-*s", 2 * depth, "", NAME_WIDTH - 2 * depth, label);
  if (!r)
    {
      fputc ('\n', f);
      return;
    }
  if (r->outcome == BENCH_SKIPPED)
    {
      fprintf (f, " skipped: %s\n", r->message);
      return;
    }
  fprintf (f, " %14.6g ops/s  ±%.1f%%", r->m.ops_per_sec, 100 * r->m.spread);
  if (r->m.flags & MEAS_NOISY)
    fputs ("  noisy", f);
  if (r->m.flags & MEAS_CPU_DIVERGED)
    fputs ("  cpu<wall", f);
  fputc ('\n', f);
}

void
output_text_tree (FILE *f, const struct bench_test *const *tests, size_t n,
                  const struct test_result *results,
                  const struct score_node *scores, size_t nscores)
{
  const char *prev = "";
  for (size_t i = 0; i < n; i++)
    {
      const char *name = tests[i]->name;
      size_t start = common_nodes (prev, name);
      /* Print the nodes between the last printed one and this leaf. */
      int depth = 0;
      for (size_t j = 0; j < start; j++)
        depth += name[j] == '.';
      for (const char *dot = strchr (name + start, '.'); dot; dot = strchr (dot + 1, '.'))
        {
          const char *label = name + start;
          size_t len = (size_t) (dot - label);
          const struct score_node *s = find_score (scores, nscores, name, (size_t) (dot - name));
          fprintf (f, "%*s%.*s", 2 * depth, "", (int) len, label);
          if (s)
            fprintf (f, "%*s %14.6g score", NAME_WIDTH - 2 * depth - (int) len, "", s->score);
          fputc ('\n', f);
          start = (size_t) (dot - name) + 1;
          depth++;
        }
      print_leaf (f, depth, name + start, results ? &results[i] : NULL);
      prev = name;
    }
}

void
output_json_print (FILE *f, const cJSON *json)
{
  char *s = cJSON_Print (json);
  fputs (s, f);
  fputc ('\n', f);
  free (s);
}
