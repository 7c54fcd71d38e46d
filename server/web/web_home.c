/* web_home.c: the home page, the leaderboard (see docs/leaderboard.md).
 *
 * The whole view lives in the query string (arch, vendor, os, gmp,
 * compiler, mode, build, machine, verified, flagged, q, sort, cols), so every
 * filtered or sorted view is a URL that can be shared, and the page needs
 * no script: tabs and column headers are links to the same view with one
 * argument changed, the filters a GET form.  The rows come from the
 * snapshot of server/board/board.h; `q` keeps the CPUs whose name, identity, or
 * microarchitecture and code name (web_names.c) contain it (any case).
 * `sort` is a column (score, n, iqr, best, ghz, rsa, cpu, a category) or
 * any node or test of the hierarchy, whose median then shows in an extra
 * column; the sort menu offers the columns and the nodes of the first two
 * levels (a CPU page links every node).  `cols` picks one of two sets of
 * columns, so that either fits a wide screen: the eight GMPbench
 * categories with the clock, GMP version and compiler (gmplib.org's
 * table), or the score's spread and the ratios.  The page draws the rows
 * as a bar chart (median and IQR, verified publishers checked), lists
 * them in a form whose checkboxes compare CPUs, and lists the newest
 * uploads.  The same rows, every column, as data are the API's
 * (/api/v1/leaderboard and .csv, web.h): the page's format=csv and
 * format=json moved there, and redirect (web_home_data.c). */
#include "server/web/web_home.h"
#include "server/web/web_handlers.h"
#include "server/web/web.h"

#include <math.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include <string.h>
#include "common/util.h"
#include "model/machine_kind.h"
#include "model/protocol.h"
#include "model/registry.h"
#include "model/validate.h"
#include "server/log.h"
#include "server/web/web_bars.h"
#include "server/web/web_nodes.h"

#define CHARTED 30               /* rows drawn in the chart */
#define RECENT_UPLOADS 8
#define MAX_QUERY 100

static const struct
{
  const char *arg, *label;
} sets[] = {
  { "categories", "Categories" },
  { "stats", "Spread and ratios" },
};

enum cell_kind
{
  CELL_N, CELL_MEDIAN, CELL_IQR, CELL_BEST, CELL_CATEGORY, CELL_GHZ, CELL_RSA,
  CELL_CLOCK, CELL_GMP, CELL_COMPILER
};

/* The columns after the CPU's name.  ARG sorts by it (NULL: it does not
 * sort); a category's ARG and LABEL are its node's and label
 * (home_categories), through column_arg and column_label. */
static const struct
{
  const char *arg, *label, *title;
  enum board_key key;
  enum cell_kind cell;
  int category;                 /* index into categories, for CELL_CATEGORY */
  unsigned sets;
} columns[] = {
  { "n", "n", "matching results", BK_N, CELL_N, 0, SET_BOTH },
  { "score", "Median score", "median GMPbench score", BK_SCORE, CELL_MEDIAN, 0, SET_BOTH },
  { "iqr", "IQR", "interquartile range of the score (Q1\u2013Q3)", BK_IQR, CELL_IQR, 0,
    SET_STATS },
  { "best", "Best", "best GMPbench score", BK_BEST, CELL_BEST, 0, SET_STATS },
  { NULL, NULL, "median of the base category's score (multiply, divide, gcd, gcdext)", BK_NODE,
    CELL_CATEGORY, 0, SET_BOTH },
  { NULL, NULL, "median of the application category's score (rsa, pi)", BK_NODE,
    CELL_CATEGORY, 1, SET_BOTH },
  { NULL, NULL, "median of the multiply category's score", BK_NODE, CELL_CATEGORY, 2,
    SET_CATEGORIES },
  { NULL, NULL, "median of the divide category's score", BK_NODE, CELL_CATEGORY, 3,
    SET_CATEGORIES },
  { NULL, NULL, "median of the gcd category's score", BK_NODE, CELL_CATEGORY, 4,
    SET_CATEGORIES },
  { NULL, NULL, "median of the gcdext category's score", BK_NODE, CELL_CATEGORY, 5,
    SET_CATEGORIES },
  { NULL, NULL, "median of the rsa category's score", BK_NODE, CELL_CATEGORY, 6,
    SET_CATEGORIES },
  { NULL, NULL, "median of the pi category's score", BK_NODE, CELL_CATEGORY, 7,
    SET_CATEGORIES },
  { "ghz", "Score/GHz", "median of score divided by the clock in GHz", BK_GHZ, CELL_GHZ, 0,
    SET_STATS },
  { NULL, NULL, "median all-core GMPbench score of the results run with a copy of each test "
    "on every CPU (--threads all); the other scores are single-threaded", BK_NODE,
    CELL_CATEGORY, 8, SET_STATS },
  { "rsa", "GMP/OpenSSL RSA-2048", "median ratio of GMP's to OpenSSL's RSA-2048 "
    "signatures per second, GMP's constant-time signature when the result has it, as in "
    "each result's comparison table (above 1: GMP faster)", BK_RSA, CELL_RSA, 0, SET_STATS },
  { NULL, "Clock", "median clock of the results, the one Score/GHz divides by: the maximum "
    "the system reports, else the nominal, else the measured clock", BK_COUNT, CELL_CLOCK, 0,
    SET_CATEGORIES },
  { NULL, "GMP", "the GMP version most of the results used; every row is of the GMP build "
    "kind of the tab", BK_COUNT, CELL_GMP, 0, SET_CATEGORIES },
  { NULL, "Compiler", "the compiler most of the results' gmpbench was built with", BK_COUNT,
    CELL_COMPILER, 0, SET_CATEGORIES },
};

/* Column I's sort argument, NULL when it does not sort. */
static const char *
column_arg (size_t i)
{
  return columns[i].cell == CELL_CATEGORY ? home_categories[columns[i].category].node
    : columns[i].arg;
}

static const char *
column_label (size_t i)
{
  return columns[i].cell == CELL_CATEGORY ? home_categories[columns[i].category].label
    : columns[i].label;
}

/* Whether SET is a set of columns showing the sort KEY (NODE's column). */
static int
shows_sort (unsigned set, enum board_key key, const char *node)
{
  for (size_t i = 0; i < GB_ARRAY_SIZE (columns); i++)
    if ((columns[i].sets & set) && columns[i].key == key
        && (key != BK_NODE || strcmp (column_arg (i), node) == 0))
      return 1;
  return 0;
}

/* V's column set: `cols` when given, else the categories unless only the
 * other set shows the sort column.  0, or -1 for an unknown set. */
static int
parse_set (struct http_request *r, struct view *v)
{
  const char *cols = http_arg (r, "cols");
  v->set = SET_CATEGORIES;
  if (cols && *cols)
    {
      for (size_t i = 0; i < GB_ARRAY_SIZE (sets); i++)
        if (strcmp (cols, sets[i].arg) == 0)
          return v->set = (enum column_set) (i + 1), v->set_chosen = 1, 0;
      return -1;
    }
  if (!shows_sort (SET_CATEGORIES, v->key, v->sort) && shows_sort (SET_STATS, v->key, v->sort))
    v->set = SET_STATS;
  return 0;
}

/* 0, or -1 for an argument that names nothing. */
static int
parse_view (struct http_request *r, struct view *v)
{
  memset (v, 0, sizeof *v);
  if (web_read_filter (r, &v->filter) < 0)
    return -1;
  v->filter.value[BF_CPU] = NULL;
  v->query = http_arg (r, "q");
  if (v->query && !*v->query)
    v->query = NULL;
  if (v->query && strlen (v->query) > MAX_QUERY)
    return -1;
  v->sort = http_arg (r, "sort");
  v->key = BK_SCORE;
  if (!v->sort || !*v->sort || strcmp (v->sort, "gmpbench") == 0)
    v->sort = NULL;
  else if (strcmp (v->sort, "cpu") == 0)
    v->key = BK_NAME;
  else
    {
      v->key = BK_NODE;
      for (size_t i = 0; i < GB_ARRAY_SIZE (columns); i++)
        if (columns[i].arg && columns[i].key != BK_NODE && strcmp (v->sort, columns[i].arg) == 0)
          v->key = columns[i].key;
      if (v->key == BK_NODE && (strlen (v->sort) > 256 || !validate_known_node (v->sort)))
        return -1;
    }
  return parse_set (r, v);
}

/* The filter arguments of V (but FIELD, unless FIELD is BF_CPU), into a
 * URL being written. */
static void
filter_args (FILE *f, int *first, const struct view *v, int skip)
{
  for (int k = BF_ARCH; k < BF_COUNT; k++)
    if (k != skip && v->filter.value[k] && *v->filter.value[k])
      web_arg (f, first, web_field_arg[k], v->filter.value[k]);
  if (v->filter.verified_only)
    web_arg (f, first, "verified", "1");
  if (v->filter.include_flagged)
    web_arg (f, first, "flagged", "1");
  if (v->query)
    web_arg (f, first, "q", v->query);
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
    web_arg (f, &first, web_field_arg[field], value);
  if (field >= 0 ? v->sort != NULL : sort != NULL)
    web_arg (f, &first, "sort", field >= 0 ? v->sort : sort);
  if (v->set_chosen)
    web_arg (f, &first, "cols", sets[v->set - 1].arg);
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
           web_field_arg[field]);
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

/* The sort menu: the columns, then the nodes of the first two levels
 * of the hierarchy in tree order, and the current sort node when it is
 * deeper (every node is reachable from a CPU page's tree). */
static void
sort_select (FILE *f, const struct view *v)
{
  int listed = 0;
  fputs ("<label>Sort by <select name=\"sort\">\n", f);
  for (size_t i = 0; i < GB_ARRAY_SIZE (columns); i++)
    if (columns[i].arg && columns[i].key != BK_NODE)
      fprintf (f, "<option value=\"%s\"%s>%s</option>\n", columns[i].arg,
               v->key == columns[i].key ? " selected" : "", columns[i].label);
  for (size_t i = 0; i < web_node_count (); i++)
    {
      int depth;
      const char *node = web_node (i, &depth);
      int current = v->sort && strcmp (v->sort, node) == 0;
      if (depth > 1 || strcmp (node, "gmpbench") == 0)
        continue;
      listed |= current;
      fprintf (f, "<option value=\"%s\"%s>%s</option>\n", node, current ? " selected" : "",
               node);
    }
  if (v->key == BK_NODE && !listed)
    {
      fputs ("<option value=\"", f);
      web_text (f, v->sort);
      fputs ("\" selected>", f);
      web_text (f, v->sort);
      fputs ("</option>\n", f);
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
        fprintf (f, "<input type=\"hidden\" name=\"%s\" value=\"", web_field_arg[hidden[i]]);
        web_text (f, v->filter.value[hidden[i]]);
        fputs ("\">\n", f);
      }
  if (v->set_chosen)
    fprintf (f, "<input type=\"hidden\" name=\"cols\" value=\"%s\">\n", sets[v->set - 1].arg);
  fputs ("<label>CPU name <input type=\"search\" name=\"q\" maxlength=\"100\" "
         "placeholder=\"e.g. EPYC, Zen 4, Neoverse\" value=\"", f);
  web_text (f, v->query ? v->query : "");
  fputs ("\"></label>\n", f);
  field_select (f, b, v, BF_VENDOR, "Vendor");
  field_select (f, b, v, BF_OS, "OS");
  field_select (f, b, v, BF_GMP, "GMP version");
  field_select (f, b, v, BF_COMPILER, "Compiler");
  field_select (f, b, v, BF_MACHINE, "Machine");
  sort_select (f, v);
  fprintf (f, "<label class=\"check\"><input type=\"checkbox\" name=\"verified\" value=\"1\"%s>"
           " verified publishers only</label>\n", v->filter.verified_only ? " checked" : "");
  fprintf (f, "<label class=\"check\"><input type=\"checkbox\" name=\"flagged\" value=\"1\"%s>"
           " include flagged results</label>\n", v->filter.include_flagged ? " checked" : "");
  fputs ("<button type=\"submit\">Apply</button> <a href=\"/\">Reset</a>\n</form>\n", f);
}

/* A column header: a link sorting by ARG, marked when it is the sort;
 * LABEL may break after its dots (a node's name). */
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
  for (const char *dot; (dot = strchr (label, '.')) && dot - label < 64; label = dot + 1)
    {
      char piece[64];
      snprintf (piece, sizeof piece, "%.*s", (int) (dot - label), label);
      web_text (f, piece);
      fputs (".<wbr>", f);
    }
  web_text (f, label);
  fputs (sorted ? " \u25be</a></th>" : "</a></th>", f);
}

/* Whether column I is the sort. */
static int
sorted_by (const struct view *v, size_t i)
{
  return columns[i].key == v->key && (v->key != BK_NODE || strcmp (column_arg (i), v->sort) == 0);
}

/* Whether the sort node needs a column of its own (no shown column is it). */
static int
node_column (const struct view *v)
{
  return v->key == BK_NODE && !shows_sort (v->set, v->key, v->sort);
}

/* The tabs choosing the set of columns. */
static void
set_tabs (FILE *f, const struct view *v)
{
  fputs ("<nav aria-label=\"Columns\"><ul class=\"tabs\">\n<li>Columns</li>\n", f);
  for (size_t i = 0; i < GB_ARRAY_SIZE (sets); i++)
    {
      int first = 1;
      fprintf (f, "<li><a%s href=\"/", v->set == i + 1 ? " class=\"current\" aria-current=\"page\""
               : "");
      filter_args (f, &first, v, -1);
      if (v->sort)
        web_arg (f, &first, "sort", v->sort);
      web_arg (f, &first, "cols", sets[i].arg);
      fprintf (f, "\">%s</a></li>\n", sets[i].label);
    }
  fputs ("</ul></nav>\n", f);
}

static void
table_head (FILE *f, const struct view *v)
{
  fprintf (f, "<div class=\"scroll\"><table id=\"leaderboard\" class=\"stack %s\">\n<thead><tr>"
           "<th scope=\"col\">Compare</th><th scope=\"col\">#</th>", sets[v->set - 1].arg);
  header_cell (f, v, "cpu", "CPU", "sort by name", v->key == BK_NAME, 0);
  for (size_t i = 0; i < GB_ARRAY_SIZE (columns); i++)
    {
      if (!(columns[i].sets & v->set))
        continue;
      if (column_arg (i))
        header_cell (f, v, column_arg (i), column_label (i), columns[i].title, sorted_by (v, i),
                     1);
      else
        {
          fprintf (f, "<th scope=\"col\"%s title=\"", columns[i].cell == CELL_CLOCK
                   ? " class=\"num\"" : "");
          web_text (f, columns[i].title);
          fputs ("\">", f);
          web_text (f, columns[i].label);
          if (columns[i].cell == CELL_GMP)
            {
              fputs (" <span class=\"note\">", f);
              web_text (f, v->shown.value[BF_BUILD] ? v->shown.value[BF_BUILD] : "");
              fputs ("</span>", f);
            }
          fputs ("</th>", f);
        }
    }
  if (node_column (v))
    header_cell (f, v, v->sort, v->sort, "median of this node", 1, 1);
  fputs ("</tr></thead>\n<tbody>\n", f);
}

/* A numeric cell labelled LABEL (shown when the table stacks on a phone). */
static void
cell (FILE *f, const char *label, double v)
{
  fprintf (f, "<td class=\"num\" data-label=\"%s\">", label);
  web_number (f, v);
  fputs ("</td>", f);
}

/* A text cell labelled LABEL. */
static void
text_cell (FILE *f, const char *label, const char *text)
{
  fprintf (f, "<td data-label=\"%s\">", label);
  web_text (f, text);
  fputs ("</td>", f);
}

/* Column I of ROW. */
static void
column_cell (FILE *f, const struct board *b, size_t i, const struct board_row *row,
             const struct extra *x)
{
  const char *label = column_label (i);
  switch (columns[i].cell)
    {
    case CELL_N:
      fprintf (f, "<td class=\"num\" data-label=\"n\">%zu</td>", row->n);
      break;
    case CELL_MEDIAN:
      cell (f, "Median", row->median);
      break;
    case CELL_IQR:
      fputs ("<td class=\"num\" data-label=\"IQR\">", f);
      web_number (f, row->q1);
      fputs ("\u2013", f);
      web_number (f, row->q3);
      fputs ("</td>", f);
      break;
    case CELL_BEST:
      cell (f, label, row->best);
      break;
    case CELL_CATEGORY:
      cell (f, label, x->category[columns[i].category]);
      break;
    case CELL_GHZ:
      cell (f, label, row->per_ghz);
      break;
    case CELL_RSA:
      cell (f, "GMP/OpenSSL RSA", row->rsa);
      break;
    case CELL_CLOCK:
      fputs ("<td class=\"num\" data-label=\"Clock\">", f);
      if (!isnan (row->ghz))
        fprintf (f, "%.2f GHz", row->ghz);
      else
        web_number (f, NAN);
      fputs ("</td>", f);
      break;
    case CELL_GMP:
      text_cell (f, label, board_value (b, BF_GMP, row->gmp));
      break;
    case CELL_COMPILER:
      text_cell (f, label, board_value (b, BF_COMPILER, row->compiler));
      break;
    }
}

static void
table_row (FILE *f, const struct board *b, const struct view *v, size_t rank,
           const struct board_row *row, const struct extra *x)
{
  size_t flagged = x->flagged;
  int first = 1;
  const char *name = *row->cpu_name ? row->cpu_name : row->cpu;
  char kind[96];
  fputs (flagged ? "<tr class=\"flagged\">" : x->verified ? "<tr class=\"verified\">" : "<tr>", f);
  fputs ("<td class=\"pick\"><input type=\"checkbox\" name=\"cpu\" value=\"", f);
  web_text (f, row->cpu);
  fputs ("\" aria-label=\"compare ", f);
  web_text (f, name);
  fprintf (f, "\"></td><td class=\"num rank\">%zu</td><td class=\"name\"><a href=\"/cpu",
           rank);
  web_arg (f, &first, "cpu", row->cpu);
  filter_args (f, &first, v, BF_ARCH);
  fputs ("\">", f);
  web_text (f, name);
  fputs ("</a>", f);
  if (x->verified)
    fprintf (f, " <span class=\"badge\">\u2713 %zu verified</span>", x->verified);
  if (flagged)
    fprintf (f, " <span class=\"badge flag\">%zu flagged</span>", flagged);
  if (!row->confirmed)
    fprintf (f, " <span class=\"badge unconfirmed\" title=\"fewer than %d independent sources "
             "and no verified publisher: ranked after the confirmed rows\">unconfirmed, %zu "
             "source%s</span>", STORE_CONFIRMING_SOURCES, row->sources,
             row->sources == 1 ? "" : "s");
  fputs ("<br>", f);
  if (*web_cpu_kind (row->cpu, name, kind, sizeof kind))
    {
      fputs ("<span class=\"kind\">", f);
      web_text (f, kind);
      fputs ("</span> ", f);
    }
  fputs ("<span class=\"note\">", f);
  web_text (f, row->arch);
  fputs ("</span> <code class=\"note\">", f);
  web_text (f, row->cpu);
  fputs ("</code></td>", f);
  for (size_t i = 0; i < GB_ARRAY_SIZE (columns); i++)
    if (columns[i].sets & v->set)
      column_cell (f, b, i, row, x);
  if (node_column (v))
    cell (f, "Node", row->node);
  fputs ("</tr>\n", f);
}

/* The first CHARTED rows as bars: the median with the IQR over it (the
 * sort node's median when sorting by a node), marked when some of the
 * row's results are flagged (X), checked when some are of verified
 * publishers. */
static void
chart (FILE *f, const struct view *v, const struct board_row *rows, size_t n,
       const struct extra *x)
{
  int any = 0;
  struct web_bar bars[CHARTED];
  char *links[CHARTED];
  char labels[CHARTED][160];
  size_t nb = n < CHARTED ? n : CHARTED;

  if (nb == 0)
    return;
  for (size_t i = 0; i < nb; i++)
    {
      size_t len = 0;
      int first = 1;
      FILE *u = open_memstream (&links[i], &len);
      if (u)
        {
          fputs ("/cpu", u);
          web_arg (u, &first, "cpu", rows[i].cpu);
          filter_args (u, &first, v, BF_ARCH);
        }
      if (!u || fclose (u) != 0)
        links[i] = NULL;
      const char *name = *rows[i].cpu_name ? rows[i].cpu_name : rows[i].cpu;
      char kind[96];
      if (*web_cpu_kind (rows[i].cpu, name, kind, sizeof kind))
        snprintf (labels[i], sizeof labels[i], "%s (%s)", name, kind);
      else
        snprintf (labels[i], sizeof labels[i], "%s", name);
      if (v->key == BK_NODE)
        bars[i] = (struct web_bar) { labels[i], links[i], rows[i].node, NAN, NAN,
                                     x[i].flagged > 0, x[i].verified > 0 };
      else
        bars[i] = (struct web_bar) { labels[i], links[i], rows[i].median, rows[i].q1, rows[i].q3,
                                     x[i].flagged > 0, x[i].verified > 0 };
      any |= x[i].flagged > 0;
    }
  char title[320];
  snprintf (title, sizeof title, "Median %s%s%s", v->key == BK_NODE ? "of " : "GMPbench score",
            v->key == BK_NODE ? v->sort : "", n > nb ? ", the first rows" : "");
  fputs ("<figure id=\"headline\">\n", f);
  web_bars_linear (f, title, v->key != BK_NODE ? "GMPbench score (higher is faster; line: "
                   "Q1\u2013Q3)" : registry_find (v->sort) ? "ops/s (higher is faster)"
                   : "score (higher is faster)",
                   any ? "with flagged results (included by the filter)" : NULL, bars, nb);
  fputs ("</figure>\n", f);
  for (size_t i = 0; i < nb; i++)
    free (links[i]);
}

/* Hidden inputs carrying V's filters into the compare form. */
static void
compare_inputs (FILE *f, const struct view *v)
{
  for (int k = BF_ARCH; k < BF_COUNT; k++)
    if (v->shown.value[k] && *v->shown.value[k])
      {
        fprintf (f, "<input type=\"hidden\" name=\"%s\" value=\"", web_field_arg[k]);
        web_text (f, v->shown.value[k]);
        fputs ("\">\n", f);
      }
  if (v->filter.verified_only)
    fputs ("<input type=\"hidden\" name=\"verified\" value=\"1\">\n", f);
  if (v->filter.include_flagged)
    fputs ("<input type=\"hidden\" name=\"flagged\" value=\"1\">\n", f);
}

/* Links to this view as data (the API's, web.h), and to its results as
 * the API exports them (/api/v1/export.csv has the filters, not the
 * search). */
static void
data_links (FILE *f, const struct view *v)
{
  static const char *const addresses[] = {
    PROTOCOL_LEADERBOARD_CSV_PATH, PROTOCOL_LEADERBOARD_PATH
  };
  int first = 1;
  fputs ("<p class=\"note\" id=\"data\">This view as ", f);
  for (size_t i = 0; i < GB_ARRAY_SIZE (addresses); i++)
    {
      first = 1;
      fprintf (f, "%s<a href=\"%s", i ? " or " : "", addresses[i]);
      filter_args (f, &first, v, -1);
      if (v->sort)
        web_arg (f, &first, "sort", v->sort);
      fprintf (f, "\">%s</a>", i ? "JSON" : "CSV");
    }
  fputs (" (the same rows, filters and order, every column); its results one per line: "
         "<a href=\"/api/v1/export.csv", f);
  first = 1;
  for (int k = BF_ARCH; k < BF_COUNT; k++)
    if (v->shown.value[k] && *v->shown.value[k])
      web_arg (f, &first, web_field_arg[k], v->shown.value[k]);
  if (v->filter.verified_only)
    web_arg (f, &first, "verified", "1");
  web_arg (f, &first, "flagged", v->filter.include_flagged ? "1" : "0");
  fputs (v->query ? "\">CSV</a> (not narrowed by the CPU name searched for).</p>\n"
         : "\">CSV</a>.</p>\n", f);
}

static void
leaderboard (FILE *f, const struct board *b, const struct view *v, const struct board_row *rows,
             size_t n, size_t total, size_t hidden_flagged, const struct extra *x)
{
  size_t results = 0;
  for (size_t i = 0; i < n; i++)
    results += rows[i].n;
  fprintf (f, "<p class=\"note\" id=\"summary\">%zu CPUs, %zu of %zu listed results: ",
           n, results, total);
  web_text (f, v->shown.value[BF_MODE] ? v->shown.value[BF_MODE] : "");
  fputs (" runs of ", f);
  web_text (f, v->shown.value[BF_BUILD] ? v->shown.value[BF_BUILD] : "");
  fputs (" GMP builds", f);
  web_machine_filter_text (f, &v->shown);
  fputs (" (the tabs above show the others; they are never pooled).  "
         "Scores are GMPbench scores (higher is faster); a CPU is its identity "
         "(vendor, family, model, stepping, or the MIDR).</p>\n", f);
  if (n == 0)
    {
      fputs ("<p id=\"empty\">No results match these filters.", f);
      if (hidden_flagged > 0)
        {
          int first = 1;
          fprintf (f, " %zu result%s would, but %s flagged as implausible and hidden: <a "
                   "href=\"/", hidden_flagged, hidden_flagged == 1 ? "" : "s",
                   hidden_flagged == 1 ? "it is" : "they are");
          filter_args (f, &first, v, -1);
          web_arg (f, &first, "flagged", "1");
          if (v->sort)
            web_arg (f, &first, "sort", v->sort);
          fputs ("\">include flagged results</a>.", f);
        }
      fputs ("</p>\n", f);
      return;
    }
  fputs ("<form method=\"get\" action=\"/compare\">\n", f);
  compare_inputs (f, v);
  set_tabs (f, v);
  table_head (f, v);
  for (size_t i = 0; i < n; i++)
    table_row (f, b, v, i + 1, &rows[i], &x[i]);
  fputs ("</tbody></table></div>\n<button type=\"submit\">Compare the checked CPUs</button>\n"
         "</form>\n", f);
  data_links (f, v);
}

/* ------------------------------------------------------------ newest uploads */

struct uploads
{
  FILE *f;
  const struct board *board;
  int count;
};

static int
take_upload (void *ctx, const struct store_row *row, double score)
{
  struct uploads *u = ctx;
  cJSON *scores = row->scores ? cJSON_Parse (row->scores) : NULL;
  const cJSON *g = cJSON_GetObjectItemCaseSensitive (scores, "gmpbench");
  char when[21];
  const char *name;
  (void) score;
  log_time (row->received, when);
  fputs ("<li>", u->f);
  web_result_link (u->f, row->id);
  fputs (" ", u->f);
  name = board_cpu_name (u->board, row->cpu);
  web_text (u->f, name && *name ? name : row->cpu);
  fputs (", score ", u->f);
  web_number (u->f, cJSON_IsNumber (g) ? g->valuedouble : NAN);
  fputs (row->publisher ? " <span class=\"badge\">verified</span>" : "", u->f);
  web_virtual_badge (u->f, row->virtual_machine);
  fputs (" <span class=\"note\">", u->f);
  web_text (u->f, row->mode);
  fputs (" run, ", u->f);
  web_text (u->f, when);
  fputs ("</span></li>\n", u->f);
  cJSON_Delete (scores);
  u->count++;
  return 0;
}

/* The newest listed results, unflagged, of V's architecture and machine
 * kind, each CPU by the name B shows it by (not the brand string of the
 * upload, which its submitter chose). */
static void
recent_uploads (FILE *f, struct http_request *r, const struct board *b, const struct view *v)
{
  struct store_filter sf = { 0 };
  struct uploads u = { f, b, 0 };
  const char *arch = v->filter.value[BF_ARCH];

  sf.arch = arch && *arch ? arch : NULL;
  machine_kind_parse (v->filter.value[BF_MACHINE], &sf.machine);      /* read checked it */
  sf.unflagged_only = 1;
  sf.limit = RECENT_UPLOADS;
  fputs ("<h2 id=\"recent\">Recent uploads</h2>\n<ul class=\"recent\">\n", f);
  enum store_status st = store_list (r->srv->store, &sf, take_upload, &u);
  fputs ("</ul>\n", f);
  if (st != STORE_OK)
    fputs ("<p>The newest uploads are unavailable; try again later.</p>\n", f);
  else if (u.count == 0)
    fputs ("<p>None yet.</p>\n", f);
}

/* The page of the view V of B: its N ROWS, with their extras X. */
static enum MHD_Result
home_page (struct http_request *r, struct board *b, struct view *v, struct board_row *rows,
           size_t n, struct extra *x)
{
  struct page p;
  size_t hidden_flagged = 0;

  if (n == 0 && !v->filter.include_flagged)
    hidden_flagged = home_count_flagged (b, r->srv->store, v, NULL, 0, x);
  else if (v->filter.include_flagged)
    home_count_flagged (b, r->srv->store, v, rows, n, x);
  home_count_verified (b, r->srv->store, v, rows, n, x);
  if (page_begin (&p, r, "Leaderboard") < 0)
    return MHD_NO;
  arch_tabs (p.f, b, v);
  kind_tabs (p.f, b, v, BF_MODE, "Runs");
  kind_tabs (p.f, b, v, BF_BUILD, "GMP builds");
  chart (p.f, v, rows, n, x);
  filter_form (p.f, b, v);
  leaderboard (p.f, b, v, rows, n, board_size (b), hidden_flagged, x);
  recent_uploads (p.f, r, b, v);
  return page_end (&p, 200);
}

/* The view R asks for, as the page (FORMAT NULL) or as data, FORMAT
 * "csv" or "json" (web.h: /api/v1/leaderboard answers errors in JSON). */
static enum MHD_Result
home_answer (struct http_request *r, const char *format)
{
  struct view v;
  struct board_row *rows;
  size_t n;

  if (parse_view (r, &v) < 0)
    return home_error (r, format, 400, "The sort argument names no column and no node of the "
                       "hierarchy, the CPU name searched for is too long, or the machine "
                       "argument is not bare-metal, virtual or all.");
  int preparing;
  struct board *b = board_acquire (r->srv, &preparing);
  if (!b)
    return format ? home_no_board (r, preparing) : page_no_board (r, preparing);
  v.shown = v.filter;
  board_default_kinds (b, NULL, &v.shown);
  if (board_rank (b, r->srv->store, &v.shown, v.key, v.sort, &rows, &n) < 0)
    {
      free (rows);
      board_release (b);
      return home_error (r, format, 503, "The database is unavailable; try again later.");
    }
  if (v.query)
    n = home_keep_matching (rows, n, v.query);
  struct extra *x = gb_xcalloc (n + 1, sizeof *x);
  home_category_medians (b, r->srv->store, &v, rows, n, x);
  if (format)
    {
      home_count_verified (b, r->srv->store, &v, rows, n, x);
      enum MHD_Result rc = home_export (r, b, &v, rows, n, x, format);
      free (x);
      free (rows);
      board_release (b);
      return rc;
    }
  enum MHD_Result rc = home_page (r, b, &v, rows, n, x);
  free (x);
  free (rows);
  board_release (b);
  return rc;
}

/* The page; the view as data moved to the API (home_moved). */
enum MHD_Result
web_home (struct http_request *r)
{
  const char *format = http_arg (r, "format");
  return format ? home_moved (r, format) : home_answer (r, NULL);
}

enum MHD_Result
web_leaderboard_data (struct http_request *r, const char *format)
{
  return home_answer (r, format);
}
