/* unit-report.c: the pieces of the report renderers that can be checked
 * without a run: escaping for every format, the tree walk over dotted
 * names (adjacent or not), SI formatting, the document index (registry
 * order grouped by node, skipped tests) and the SVG charts' structure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check.h"
#include "model/escape.h"
#include "client/report.h"
#include "model/svg_chart.h"
#include "client/tree.h"
#include "model/si_format.h"
#include "model/registry.h"

/* What WRITE prints for S, in a static buffer. */
static const char *
printed (void (*write) (FILE *, const char *), const char *s)
{
  static char buf[1024];
  FILE *f = fmemopen (buf, sizeof buf, "w");
  write (f, s);
  fclose (f);
  return buf;
}

static void
test_escaping (void)
{
  check (strcmp (printed (escape_html, "<a href=\"x\">'&'</a>"),
                 "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;") == 0,
         "HTML escapes & < > \" '");
  check (strcmp (printed (escape_html, "a\033[31mb\n"), "a [31mb ") == 0,
         "HTML turns control characters into spaces");
  check (strcmp (printed (escape_markdown, "a|b*c_<d>"), "a\\|b\\*c\\_&lt;d&gt;") == 0,
         "Markdown escapes table bars, emphasis and HTML");
  check (strcmp (printed (escape_csv, "plain"), "plain") == 0, "CSV leaves plain fields alone");
  check (strcmp (printed (escape_csv, "a,\"b\""), "\"a,\"\"b\"\"\"") == 0,
         "CSV quotes fields with commas and doubles quotes");
  check (strcmp (printed (escape_csv, "=1+2"), "'=1+2") == 0
         && strcmp (printed (escape_csv, "@x,y"), "\"'@x,y\"") == 0,
         "CSV defuses formulas");
  check (strcmp (printed (escape_csv, "a\nb"), "a b") == 0, "CSV keeps a record on one line");
  check (strcmp (printed (escape_text, "a\033]0;x\007\nb"), "a ]0;x \nb") == 0,
         "text keeps line feeds and drops other control characters");
}

struct walk
{
  char out[512];
};

static void
w_node (void *ctx, int depth, const char *path, size_t pathlen, const char *label,
        size_t labellen)
{
  struct walk *w = ctx;
  size_t n = strlen (w->out);
  (void) path;
  snprintf (w->out + n, sizeof w->out - n, "N%d:%.*s(%zu) ", depth, (int) labellen, label,
            pathlen);
}

static void
w_leaf (void *ctx, int depth, size_t index, const char *label)
{
  struct walk *w = ctx;
  size_t n = strlen (w->out);
  snprintf (w->out + n, sizeof w->out - n, "L%d:%s#%zu ", depth, label, index);
}

static void
test_tree (void)
{
  const char *names[] = { "a.b.1", "a.b.2", "a.c.1", "d.1", "e" };
  struct walk w = { "" };
  const struct tree_visitor v = { w_node, w_leaf };
  tree_walk (names, 5, &v, &w);
  check (strcmp (w.out, "N0:a(1) N1:b(3) L2:1#0 L2:2#1 N1:c(3) L2:1#2 N0:d(1) L1:1#3 L0:e#4 ")
         == 0, "tree_walk reports each node once, before its leaves (%s)", w.out);
  const char *apart[] = { "a.b.1", "c.1", "a.b.2", "a.d", "c.2" };
  size_t order[5];
  w.out[0] = '\0';
  tree_walk (apart, 5, &v, &w);
  check (strcmp (w.out, "N0:a(1) N1:b(3) L2:1#0 L2:2#2 L1:d#3 N0:c(1) L1:1#1 L1:2#4 ") == 0,
         "names under one node need not be adjacent: each node is still reported once (%s)",
         w.out);
  tree_group (apart, 5, order);
  check (order[0] == 0 && order[1] == 2 && order[2] == 3 && order[3] == 1 && order[4] == 4,
         "tree_group orders them by node, in the order each node first appears");
  check (tree_under ("a.b.1", "a.b", 3) && !tree_under ("a.bc.1", "a.b", 3)
         && !tree_under ("a.b", "a.b", 3), "tree_under needs a dot after the node");
}

static void
test_si (void)
{
  char buf[32];
  si_format (64236000, buf, sizeof buf);
  check (strcmp (buf, "64.24 M") == 0, "64236000 is 64.24 M (%s)", buf);
  si_format (42.126, buf, sizeof buf);
  check (strcmp (buf, "42.13") == 0, "42.126 is 42.13 (%s)", buf);
  si_format (NAN, buf, sizeof buf);
  check (strcmp (buf, "-") == 0, "an unknown value is -");
}

static void
test_index (void)
{
  char err[128];
  struct report r;
  const struct bench_test *first = registry_test (0), *second = registry_test (1);
  char json[1024];
  snprintf (json, sizeof json,
            "{\"format\":\"gmpbench-result/1\",\"results\":["
            "{\"name\":\"zz.unknown\",\"ops_per_sec\":1},"
            "{\"name\":\"%s\",\"ops_per_sec\":2}],"
            "\"skipped\":[{\"name\":\"%s\",\"reason\":\"no\"}],"
            "\"scores\":{\"x.y\":3}}", second->name, first->name);
  cJSON *doc = cJSON_Parse (json);
  check (report_open (&r, doc, err, sizeof err) == 0 && r.nrows == 3, "a document is indexed");
  check (r.nrows == 3 && strcmp (r.rows[0].name, first->name) == 0 && !r.rows[0].result
         && strcmp (r.rows[0].reason, "no") == 0
         && strcmp (r.rows[1].name, second->name) == 0 && r.rows[1].result
         && strcmp (r.rows[2].name, "zz.unknown") == 0,
         "rows follow the registry, skipped ones included, unknown names last");
  check (report_score (r.scores, "x.y.z", 3) == 3 && isnan (report_score (r.scores, "x", 1)),
         "scores are found by node path");
  report_close (&r);
  cJSON_Delete (doc);
  doc = cJSON_Parse ("{\"format\":\"gmpbench-result/1\",\"results\":["
                     "{\"name\":\"zz.a.1\"},{\"name\":\"zz.b.1\"},{\"name\":\"zz.a.2\"}]}");
  check (report_open (&r, doc, err, sizeof err) == 0 && r.nrows == 3
         && strcmp (r.rows[1].name, "zz.a.2") == 0 && strcmp (r.names[1], "zz.a.2") == 0
         && strcmp (r.rows[2].name, "zz.b.1") == 0, "rows are grouped by node");
  report_close (&r);
  cJSON_Delete (doc);
  doc = cJSON_Parse ("{\"format\":\"gmpbench-result/1\"}");
  check (report_open (&r, doc, err, sizeof err) != 0, "a document without results is refused");
  cJSON_Delete (doc);
}

static void
test_svg (void)
{
  static const double x[] = { 128, 1024, 8192 }, y[] = { 1e7, 2e5, 3e3 };
  const struct chart_series s[] = { { "GMP <&>", 0, x, y, 3 }, { "OpenSSL", 1, x, y, 2 } };
  const struct line_chart c = { "mul <b>", "operand size (bits)", "ops/s", "bits", "ops/s", s, 2 };
  const struct chart_bar bars[] = { { "2048, OpenSSL", 1.7, 0 }, { "4096 <x>", 0.9, 1 } };
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  svg_line_chart (f, &c);
  svg_ratio_bars (f, "ratios", "GMP / library", bars, 2);
  svg_value_bars (f, "rng", "MiB/s", "MiB/s", bars, 2);
  fclose (f);
  check (strstr (buf, "<b>") == NULL && strstr (buf, "<x>") == NULL
         && strstr (buf, "GMP &lt;&amp;&gt;") != NULL, "chart text is escaped");
  check (strstr (buf, ">100<") && strstr (buf, ">10 k<") && strstr (buf, ">1 M<")
         && strstr (buf, ">10 M<"), "log axes are labelled at each decade");
  check (strstr (buf, "operand size (bits)") && strstr (buf, ">GMP / library<")
         && strstr (buf, ">MiB/s<"), "axis titles are drawn");
  check (strstr (buf, "within the spreads") != NULL, "a muted bar says why");
  size_t opened = 0, closed = 0;
  for (const char *p = buf; (p = strstr (p, "<svg")); p++)
    opened++;
  for (const char *p = buf; (p = strstr (p, "</svg>")); p++)
    closed++;
  check (opened == 3 && closed == 3, "three charts, each closed");
  free (buf);

  const struct chart_bar rng[] = { { "mt", 2420, 0 }, { "os", 310, 0 } };
  f = open_memstream (&buf, &len);
  svg_value_bars (f, "rng", "MiB/s", "MiB/s", rng, 2);
  fclose (f);
  check (strstr (buf, ">2500<") && strstr (buf, ">500<") && !strstr (buf, ">5000<")
         && !strstr (buf, ">3000<"),
         "a value axis ends at the first 1-2-5 step above the largest value (2420: 2500)");
  free (buf);
}

int
main (void)
{
  test_escaping ();
  test_tree ();
  test_si ();
  test_index ();
  test_svg ();
  return check_exit_status ();
}
