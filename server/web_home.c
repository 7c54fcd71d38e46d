/* web_home.c: the home page, the leaderboard (see docs/leaderboard.md).
 *
 * The whole view lives in the query string (arch, vendor, os, gmp,
 * compiler, verified, flagged, sort), so every filtered or sorted view is
 * a URL that can be shared, and the page needs no script: architecture
 * tabs and column headers are links to the same view with one argument
 * changed, the filters a GET form.  The rows come from the snapshot of
 * server/board.h.  `sort` is a column (score, n, iqr, best, ghz, core,
 * rsa, cpu) or any node or test of the hierarchy, whose median then shows
 * in an extra column. */
#include "server/web.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/util.h"
#include "model/registry.h"

#define MAX_DEPTH 16

static const char *const field_arg[BF_COUNT] = {
  "cpu", "arch", "vendor", "os", "gmp", "compiler", "mode", "build"
};

/* The view a URL asks for. */
struct view
{
  struct board_filter filter;
  struct board_filter shown;    /* FILTER with its run mode and build kind chosen */
  const char *sort;             /* as in the URL, NULL for the default */
  enum board_key key;
};

static const struct
{
  const char *arg, *label, *title;
  enum board_key key;
} columns[] = {
  { "n", "n", "matching results", BK_N },
  { "score", "Median score", "median GMPbench score", BK_SCORE },
  { "iqr", "IQR", "interquartile range of the score (Q1\u2013Q3)", BK_IQR },
  { "best", "Best", "best GMPbench score", BK_BEST },
  { "ghz", "Score/GHz", "median of score divided by the clock in GHz", BK_GHZ },
  { "core", "Score/core", "median of score divided by the core count", BK_CORE },
  { "rsa", "GMP/OpenSSL RSA-2048", "median ratio of GMP's to OpenSSL's RSA-2048 "
    "signatures per second (above 1: GMP faster)", BK_RSA },
};

/* Whether NODE is a test or an inner node of the registry. */
static int
known_node (const char *node)
{
  size_t len = strlen (node);
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      if (strncmp (name, node, len) == 0 && (name[len] == '\0' || name[len] == '.'))
        return 1;
    }
  return 0;
}

/* 0, or -1 for an argument that names nothing. */
static int
parse_view (struct http_request *r, struct view *v)
{
  memset (v, 0, sizeof *v);
  for (int f = BF_ARCH; f < BF_COUNT; f++)
    v->filter.value[f] = http_arg (r, field_arg[f]);
  v->filter.verified_only = http_arg (r, "verified") && strcmp (http_arg (r, "verified"), "1") == 0;
  v->filter.include_flagged = http_arg (r, "flagged") && strcmp (http_arg (r, "flagged"), "1") == 0;
  v->sort = http_arg (r, "sort");
  v->key = BK_SCORE;
  if (!v->sort || !*v->sort || strcmp (v->sort, "gmpbench") == 0)
    {
      v->sort = NULL;
      return 0;
    }
  if (strcmp (v->sort, "cpu") == 0)
    return v->key = BK_NAME, 0;
  for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
    if (strcmp (v->sort, columns[i].arg) == 0)
      return v->key = columns[i].key, 0;
  if (strlen (v->sort) > 256 || !known_node (v->sort))
    return -1;
  v->key = BK_NODE;
  return 0;
}

/* The filter arguments of V (but FIELD, unless FIELD is BF_CPU), into a
 * URL being written. */
static void
filter_args (FILE *f, int *first, const struct view *v, int skip)
{
  for (int k = BF_ARCH; k < BF_COUNT; k++)
    if (k != skip && v->filter.value[k] && *v->filter.value[k])
      web_arg (f, first, field_arg[k], v->filter.value[k]);
  if (v->filter.verified_only)
    web_arg (f, first, "verified", "1");
  if (v->filter.include_flagged)
    web_arg (f, first, "flagged", "1");
}

/* The home page URL of V with FIELD set to VALUE (NULL: any) or, with
 * FIELD < 0, sorted by SORT. */
static void
view_url (FILE *f, const struct view *v, int field, const char *value, const char *sort)
{
  int first = 1;
  fputc ('/', f);
  filter_args (f, &first, v, field);
  if (field >= 0 && value)
    web_arg (f, &first, field_arg[field], value);
  if (field >= 0 ? v->sort != NULL : sort != NULL)
    web_arg (f, &first, "sort", field >= 0 ? v->sort : sort);
}

/* A tab setting FIELD to NAME (COUNT results), marked when CURRENT. */
static void
tab (FILE *f, const struct view *v, int field, const char *name, size_t count,
     const char *current)
{
  fputs ("<li><a", f);
  if (current && strcmp (current, name) == 0)
    fputs (" class=\"current\" aria-current=\"page\"", f);
  fputs (" href=\"", f);
  view_url (f, v, field, name, NULL);
  fputs ("\">", f);
  web_text (f, *name ? name : "(unknown)");
  fprintf (f, " <span class=\"note\">%zu</span></a></li>\n", count);
}

static void
arch_tabs (FILE *f, const struct board *b, const struct view *v)
{
  const char *const *names;
  const size_t *counts;
  size_t n = board_values (b, BF_ARCH, &names, &counts);
  const char *current = v->filter.value[BF_ARCH];

  fputs ("<nav aria-label=\"Architectures\"><ul class=\"tabs\">\n<li><a", f);
  fputs (!current || !*current ? " class=\"current\"" : "", f);
  fputs (" href=\"", f);
  view_url (f, v, BF_ARCH, NULL, NULL);
  fputs ("\">All architectures</a></li>\n", f);
  for (size_t i = 0; i < n; i++)
    tab (f, v, BF_ARCH, names[i], counts[i], current);
  fputs ("</ul></nav>\n", f);
}

/* The run modes and GMP build kinds, as tabs: one of each is always
 * shown, never a pool of them (quick and full runs differ by design). */
static void
kind_tabs (FILE *f, const struct board *b, const struct view *v, int field, const char *label)
{
  const char *const *names;
  const size_t *counts;
  size_t n = board_values (b, field, &names, &counts);
  const char *current = v->shown.value[field];

  fprintf (f, "<nav aria-label=\"%s\"><ul class=\"tabs\">\n<li>%s</li>\n", label, label);
  for (size_t i = 0; i < n; i++)
    tab (f, v, field, names[i], counts[i], current);
  fputs ("</ul></nav>\n", f);
}

/* A <select> of FIELD's values with "any" first. */
static void
field_select (FILE *f, const struct board *b, const struct view *v, int field, const char *label)
{
  const char *const *names;
  const size_t *counts;
  size_t n = board_values (b, field, &names, &counts);
  const char *current = v->filter.value[field];

  fprintf (f, "<label>%s <select name=\"%s\"><option value=\"\">any</option>\n", label,
           field_arg[field]);
  for (size_t i = 0; i < n; i++)
    {
      fputs ("<option value=\"", f);
      web_text (f, names[i]);
      fputs (current && strcmp (current, names[i]) == 0 ? "\" selected>" : "\">", f);
      web_text (f, *names[i] ? names[i] : "(unknown)");
      fprintf (f, " (%zu)</option>\n", counts[i]);
    }
  fputs ("</select></label>\n", f);
}

/* An option of the sort select: a node of the hierarchy or a test, with
 * its place in tree order: for each prefix of its name, the first test
 * under that prefix. */
struct sort_option
{
  char *name;
  int test;
  size_t first;                 /* the first test under it */
  size_t key[MAX_DEPTH];
  size_t depth;
};

static struct sort_option *sort_options;
static size_t nsort_options;
static pthread_once_t sort_once = PTHREAD_ONCE_INIT;

/* The option named by the first LEN bytes of NAME, or NULL. */
static struct sort_option *
find_option (const char *name, size_t len)
{
  for (size_t i = 0; i < nsort_options; i++)
    if (strlen (sort_options[i].name) == len && strncmp (sort_options[i].name, name, len) == 0)
      return &sort_options[i];
  return NULL;
}

/* The option named by the first LEN bytes of NAME, added (under test
 * FIRST) if new. */
static struct sort_option *
sort_option (const char *name, size_t len, size_t first, size_t *cap)
{
  struct sort_option *o = find_option (name, len);
  if (o)
    return o;
  if (nsort_options == *cap)
    sort_options = gb_xrealloc (sort_options, (*cap = *cap ? 2 * *cap : 256)
                                * sizeof *sort_options);
  o = &sort_options[nsort_options++];
  memset (o, 0, sizeof *o);
  o->name = gb_xmalloc (len + 1);
  memcpy (o->name, name, len);
  o->name[len] = '\0';
  o->first = first;
  return o;
}

static int
by_tree (const void *pa, const void *pb)
{
  const struct sort_option *a = pa, *b = pb;
  for (size_t i = 0; i < a->depth && i < b->depth; i++)
    if (a->key[i] != b->key[i])
      return a->key[i] < b->key[i] ? -1 : 1;
  return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* Every node and test of the registry once, in tree order (the registry
 * need not list the tests of a node together). */
static void
make_sort_options (void)
{
  size_t cap = 0;
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      for (const char *dot = strchr (name, '.'); dot; dot = strchr (dot + 1, '.'))
        sort_option (name, (size_t) (dot - name), i, &cap);
      sort_option (name, strlen (name), i, &cap)->test = 1;
    }
  for (size_t i = 0; i < nsort_options; i++)
    {
      struct sort_option *o = &sort_options[i];
      const char *name = o->name;
      for (const char *dot = strchr (name, '.'); dot && o->depth + 1 < MAX_DEPTH;
           dot = strchr (dot + 1, '.'))
        o->key[o->depth++] = find_option (name, (size_t) (dot - name))->first;
      o->key[o->depth++] = o->first;
    }
  qsort (sort_options, nsort_options, sizeof *sort_options, by_tree);
}

/* The options of the sort select: the columns, then every node and test
 * of the registry in tree order. */
static void
sort_select (FILE *f, const struct view *v)
{
  pthread_once (&sort_once, make_sort_options);
  fputs ("<label>Sort by <select name=\"sort\">\n", f);
  for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
    fprintf (f, "<option value=\"%s\"%s>%s</option>\n", columns[i].arg,
             v->key == columns[i].key ? " selected" : "",
             columns[i].label);
  for (size_t i = 0; i < nsort_options; i++)
    {
      const struct sort_option *o = &sort_options[i];
      fprintf (f, "<option value=\"%s\"%s>%s%s</option>\n", o->name,
               v->sort && strcmp (v->sort, o->name) == 0 ? " selected" : "", o->name,
               o->test ? " (ops/s)" : "");
    }
  fputs ("</select></label>\n", f);
}

static void
filter_form (FILE *f, const struct board *b, const struct view *v)
{
  fputs ("<form class=\"filters\" method=\"get\" action=\"/\">\n", f);
  static const int hidden[] = { BF_ARCH, BF_MODE, BF_BUILD };
  for (size_t i = 0; i < GB_ARRAY_SIZE (hidden); i++)
    if (v->filter.value[hidden[i]] && *v->filter.value[hidden[i]])
      {
        fprintf (f, "<input type=\"hidden\" name=\"%s\" value=\"", field_arg[hidden[i]]);
        web_text (f, v->filter.value[hidden[i]]);
        fputs ("\">\n", f);
      }
  field_select (f, b, v, BF_VENDOR, "Vendor");
  field_select (f, b, v, BF_OS, "OS");
  field_select (f, b, v, BF_GMP, "GMP version");
  field_select (f, b, v, BF_COMPILER, "Compiler");
  sort_select (f, v);
  fprintf (f, "<label class=\"check\"><input type=\"checkbox\" name=\"verified\" value=\"1\"%s>"
           " verified publishers only</label>\n", v->filter.verified_only ? " checked" : "");
  fprintf (f, "<label class=\"check\"><input type=\"checkbox\" name=\"flagged\" value=\"1\"%s>"
           " include flagged results</label>\n", v->filter.include_flagged ? " checked" : "");
  fputs ("<button type=\"submit\">Apply</button> <a href=\"/\">Reset</a>\n</form>\n", f);
}

/* A column header: a link sorting by ARG, marked when it is the sort. */
static void
header_cell (FILE *f, const struct view *v, const char *arg, const char *label,
             const char *title, int sorted, int numeric)
{
  fprintf (f, "<th scope=\"col\" class=\"%s%s\" title=\"", numeric ? "num" : "",
           sorted ? " sorted" : "");
  web_text (f, title);
  fputc ('"', f);
  fputs (sorted ? " aria-sort=\"descending\"><a href=\"" : "><a href=\"", f);
  view_url (f, v, -1, NULL, arg);
  fputs ("\">", f);
  web_text (f, label);
  fputs (sorted ? " \u25be</a></th>" : "</a></th>", f);
}

static void
table_head (FILE *f, const struct view *v)
{
  fputs ("<div class=\"scroll\"><table id=\"leaderboard\">\n<thead><tr><th scope=\"col\">#</th>", f);
  header_cell (f, v, "cpu", "CPU", "sort by name", v->key == BK_NAME, 0);
  fputs ("<th scope=\"col\">Arch</th>", f);
  for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
    header_cell (f, v, columns[i].arg, columns[i].label, columns[i].title,
                 v->key == columns[i].key, 1);
  if (v->key == BK_NODE)
    header_cell (f, v, v->sort, v->sort, "median of this node", 1, 1);
  fputs ("</tr></thead>\n<tbody>\n", f);
}

static void
table_row (FILE *f, const struct view *v, size_t rank, const struct board_row *row)
{
  int first = 1;
  fprintf (f, "<tr><td class=\"num\">%zu</td><td><a href=\"/cpu", rank);
  web_arg (f, &first, "cpu", row->cpu);
  filter_args (f, &first, v, BF_ARCH);
  fputs ("\">", f);
  web_text (f, *row->cpu_name ? row->cpu_name : row->cpu);
  fputs ("</a><br><code class=\"note\">", f);
  web_text (f, row->cpu);
  fputs ("</code></td><td>", f);
  web_text (f, row->arch);
  fprintf (f, "</td><td class=\"num\">%zu</td><td class=\"num\">", row->n);
  web_number (f, row->median);
  fputs ("</td><td class=\"num\">", f);
  web_number (f, row->q1);
  fputs ("\u2013", f);
  web_number (f, row->q3);
  fputs ("</td><td class=\"num\">", f);
  web_number (f, row->best);
  fputs ("</td><td class=\"num\">", f);
  web_number (f, row->per_ghz);
  fputs ("</td><td class=\"num\">", f);
  web_number (f, row->per_core);
  fputs ("</td><td class=\"num\">", f);
  web_number (f, row->rsa);
  if (v->key == BK_NODE)
    {
      fputs ("</td><td class=\"num\">", f);
      web_number (f, row->node);
    }
  fputs ("</td></tr>\n", f);
}

static void
leaderboard (FILE *f, const struct view *v, const struct board_row *rows, size_t n,
             size_t total)
{
  size_t results = 0;
  for (size_t i = 0; i < n; i++)
    results += rows[i].n;
  fprintf (f, "<p class=\"note\" id=\"summary\">%zu CPUs, %zu of %zu listed results: ",
           n, results, total);
  web_text (f, v->shown.value[BF_MODE] ? v->shown.value[BF_MODE] : "");
  fputs (" runs of ", f);
  web_text (f, v->shown.value[BF_BUILD] ? v->shown.value[BF_BUILD] : "");
  fputs (" GMP builds (the tabs above show the others; they are never pooled).  "
         "Scores are GMPbench scores (higher is faster); a CPU is its identity "
         "(vendor, family, model, stepping, or the MIDR).</p>\n", f);
  if (n == 0)
    {
      fputs ("<p id=\"empty\">No results match these filters.</p>\n", f);
      return;
    }
  table_head (f, v);
  for (size_t i = 0; i < n; i++)
    table_row (f, v, i + 1, &rows[i]);
  fputs ("</tbody></table></div>\n", f);
}

enum MHD_Result
web_home (struct http_request *r)
{
  struct view v;
  struct page p;
  struct board_row *rows;
  size_t n;

  if (parse_view (r, &v) < 0)
    return page_error (r, 400, "The sort argument names no column and no node of the hierarchy.");
  int preparing;
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return page_no_board (r, preparing);
  v.shown = v.filter;
  board_default_kinds (b, NULL, &v.shown);
  if (board_rank (b, r->srv->store, &v.shown, v.key, v.sort, &rows, &n) < 0)
    {
      free (rows);
      board_release (b);
      return page_error (r, 503, "The database is unavailable; try again later.");
    }
  if (page_begin (&p, r, "Leaderboard") < 0)
    {
      free (rows);
      board_release (b);
      return MHD_NO;
    }
  arch_tabs (p.f, b, &v);
  kind_tabs (p.f, b, &v, BF_MODE, "Runs");
  kind_tabs (p.f, b, &v, BF_BUILD, "GMP builds");
  filter_form (p.f, b, &v);
  leaderboard (p.f, &v, rows, n, board_size (b));
  free (rows);
  board_release (b);
  return page_end (&p, 200);
}
