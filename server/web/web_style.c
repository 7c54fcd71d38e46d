/* web_style.c: the one stylesheet of the pages, served as /style.css.
 *
 * Hand-written and small: system fonts, one column that widens up to
 * 80em, tables that scroll sideways on a phone instead of squeezing, and
 * the classes the inline SVG charts use (model/svg_chart.c's and the
 * strip plot of web_strip.c).  Colours come from the same colour-blind-
 * safe palette as the charts. */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char style[] =
  ":root{--fg:#1b1f24;--muted:#5b6370;--line:#d6dae0;--bg:#fff;--accent:#0072b2;"
  "--warn:#a05000;--good:#009e73}\n"
  "*{box-sizing:border-box}\n"
  "body{margin:0;font:16px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
  "background:var(--bg)}\n"
  "header{background:#16324f;padding:.6em 1em}\n"
  "header nav a{color:#fff;margin-right:1.2em;text-decoration:none}\n"
  "header nav a.brand{font-weight:700}\n"
  "main{max-width:80em;margin:0 auto;padding:1em}\n"
  "footer{max-width:80em;margin:2em auto;padding:1em;color:var(--muted);font-size:.9em;"
  "border-top:1px solid var(--line)}\n"
  "h1{font-size:1.6em;margin:.2em 0 .6em;overflow-wrap:anywhere}\n"
  "h2{font-size:1.25em;margin-top:1.6em}\n"
  "a{color:var(--accent)}\n"
  "code{font-family:ui-monospace,monospace;font-size:.92em;overflow-wrap:anywhere}\n"
  ".scroll{overflow-x:auto}\n"
  "table{border-collapse:collapse;margin:.5em 0;font-variant-numeric:tabular-nums}\n"
  "th,td{padding:.3em .6em;border-bottom:1px solid var(--line);text-align:left;"
  "vertical-align:top}\n"
  "td.num,th.num{text-align:right;white-space:nowrap}\n"
  "th.num{white-space:normal}\n"
  "td.name{overflow-wrap:anywhere;min-width:12em}\n"
  "figure{margin:0}\n"
  "th a{color:inherit}\n"
  "th.sorted{background:#e8f1f8}\n"
  "tr.verified td{background:#eef8f3}\n"
  "tr.flagged td{color:var(--muted)}\n"
  ".tabs{display:flex;flex-wrap:wrap;gap:.3em;margin:.4em 0 1em;padding:0;list-style:none}\n"
  ".tabs a{display:block;padding:.3em .8em;border:1px solid var(--line);border-radius:1em;"
  "text-decoration:none}\n"
  ".tabs a.current{background:var(--accent);color:#fff;border-color:var(--accent)}\n"
  ".tabs a.current .note{color:#fff}\n"
  "form.filters{display:flex;flex-wrap:wrap;gap:.6em 1.2em;align-items:end;padding:.8em;"
  "background:#f4f6f8;border-radius:.4em}\n"
  "form.filters label{display:flex;flex-direction:column;font-size:.9em}\n"
  "form.filters label.check{flex-direction:row;gap:.3em;align-items:center}\n"
  "select,button,input{font:inherit}\n"
  "select{max-width:100%}\n"
  ".badge{display:inline-block;padding:0 .4em;border-radius:.3em;font-size:.85em;"
  "background:#e6f4ee;color:#00664a}\n"
  ".flag{background:#fdf0e3;color:var(--warn)}\n"
  ".note{color:var(--muted);font-size:.92em}\n"
  ".headline{font-size:1.2em;margin:.2em 0}\n"
  ".kind{font-size:.92em;font-weight:600}\n"
  ".headline strong{font-size:1.5em}\n"
  ".flagged-note{border-left:4px solid var(--warn);padding:.2em .8em;margin:.6em 0;"
  "background:#fdf6ee}\n"
  "table.tree td.depth0 a{font-weight:700}\n"
  "dl.machine{display:grid;grid-template-columns:minmax(8em,max-content) 1fr;gap:.2em 1em}\n"
  "dl.machine dt{color:var(--muted)}\n"
  "dl.machine dd{margin:0;overflow-wrap:anywhere}\n"
  "dl.machine dl.machine{margin:0}\n"
  ".depth1{padding-left:1.2em}.depth2{padding-left:2.4em}.depth3{padding-left:3.6em}\n"
  ".depth4{padding-left:4.8em}\n"
  "tr.node td{font-weight:600}\n"
  ".within{color:var(--muted)}\n"
  "svg.chart{width:100%;max-width:52em;height:auto;display:block;margin:.5em 0}\n"
  "svg.chart text{font:12px system-ui,sans-serif;fill:var(--fg)}\n"
  "svg.chart text.title{font-weight:600;font-size:13px}\n"
  "svg.chart .grid{stroke:#e3e6ea}\n"
  "svg.chart .frame{fill:none;stroke:#9aa2ad}\n"
  "svg.chart .bar rect{fill:var(--accent)}\n"
  "svg.chart .bar.muted rect{fill:#b8bec6}\n"
  "svg.chart .point{fill:var(--accent);fill-opacity:.55}\n"
  "svg.chart .point.verified{fill:var(--good);fill-opacity:1;stroke:#004d38}\n"
  "svg.chart .box{fill:#cfe3f1;stroke:#16324f}\n"
  "svg.chart .median{stroke:#16324f;stroke-width:3}\n"
  "svg.chart .whisker{stroke:#16324f}\n"
  "svg.bars{max-width:32em}\n"
  "svg.bars text{font-size:14px}\n"
  "svg.bars a text{fill:var(--accent);text-decoration:underline}\n"
  "svg.chart .bar.marked rect{fill:var(--warn)}\n"
  "svg.chart .range{stroke:#16324f;stroke-width:3}\n"
  "svg.chart .point.flagged{fill:var(--warn);fill-opacity:1}\n"
  "svg.chart text.checked{fill:#00664a;font-weight:700}\n"
  "table.categories{font-size:.9em}\n"
  "table.categories th,table.categories td{padding:.3em .4em}\n"
  "table.categories td[data-label]:not(.num){overflow-wrap:anywhere}\n"
  "@media (max-width:40em){body{font-size:15px}main{padding:.6em}th,td{padding:.25em .4em}\n"
  " table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}\n"
  " table.stack,table.stack tbody{display:block}\n"
  " table.stack tr{display:flex;flex-wrap:wrap;gap:0 .2em;align-items:baseline;"
  "border-bottom:1px solid var(--line);padding:.3em 0}\n"
  " table.stack td{border:0;padding:.1em .4em;text-align:left}\n"
  " table.stack td.name{flex:1 1 12em;min-width:0}\n"
  " table.stack td[data-label]::before{content:attr(data-label) \": \";color:var(--muted);"
  "font-size:.85em}\n"
  " table.stack tr.node td:first-child,table.stack td.test{flex:1 0 100%}\n"
  " table.stack td.unit{display:none}\n"
  " table.stack td.depth1{padding-left:1em}table.stack td.depth2{padding-left:2em}\n"
  " table.stack td.depth3{padding-left:3em}table.stack td.depth4{padding-left:4em}}\n";

/* The stylesheet's version: FNV-1a of its bytes, in hex.  Pages link
 * /style.css?v=VERSION, which may be cached for a year: a new stylesheet
 * has a new URL. */
static char version[17];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void
make_version (void)
{
  uint64_t h = 14695981039346656037u;
  for (const char *c = style; *c; c++)
    h = (h ^ (unsigned char) *c) * 1099511628211u;
  snprintf (version, sizeof version, "%016llx", (unsigned long long) h);
}

const char *
web_style_version (void)
{
  pthread_once (&version_once, make_version);
  return version;
}

enum MHD_Result
web_style (struct http_request *r)
{
  const char *v = http_arg (r, "v");
  struct MHD_Response *resp =
    MHD_create_response_from_buffer (strlen (style), (void *) style, MHD_RESPMEM_PERSISTENT);
  if (!resp)
    return MHD_NO;
  MHD_add_response_header (resp, "Content-Type", "text/css; charset=utf-8");
  if (v && strcmp (v, web_style_version ()) == 0)
    MHD_add_response_header (resp, "Cache-Control", "public, max-age=31536000, immutable");
  else
    MHD_add_response_header (resp, "Cache-Control", "no-cache");
  return http_queue_body (r, 200, resp, style, strlen (style));
}
