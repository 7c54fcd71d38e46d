/* web_result.c: one result's page, /results/ID (the permalink the API
 * gives): first the headline (the GMPbench score, the run mode and time
 * per test, the CPU by name, microarchitecture and codename, marked when
 * it ran in a virtual machine) and the plausibility flags with what each
 * means; then whether it ran on bare metal or under which hypervisor,
 * who submitted it and whether the publisher is verified, links to the
 * raw bytes and the signature, the hierarchy with every node's score
 * and every test's ops/s and spread (its test flags explained under it),
 * the GMP-vs-other-libraries table, and the whole machine description.
 * Tables stack on a phone (the stylesheet's table.stack), so every value
 * shows at 390 px.  A result the operators hid is shown with when and
 * why, first.
 *
 * The document is parsed from the stored bytes; everything in it is
 * untrusted and escaped.  The `system` object has members no schema
 * fixes (platforms differ), so it is written generically: objects as
 * nested definition lists, arrays item by item. */
#include "server/web/web_handlers.h"
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server/log.h"
#include "model/registry.h"
#include "model/doc_read.h"
#include "model/doc_schema.h"

#define MAX_DEPTH 8

/* The stored document's views the page links to: the path after
 * /api/v1/results/ID, and the link's text. */
static const char *const document_views[][2] = {
  { "/raw", "raw bytes" }, { "/signature", "signature" }, { "", "parsed (JSON)" },
};

struct one
{
  struct http_request *r;
  enum MHD_Result rc;
};

static void
json_value (FILE *f, const cJSON *v, int depth)
{
  if (cJSON_IsObject (v) && depth < MAX_DEPTH)
    {
      fputs ("<dl class=\"machine\">", f);
      for (const cJSON *c = v->child; c; c = c->next)
        {
          fputs ("<dt>", f);
          web_text (f, c->string);
          fputs ("</dt><dd>", f);
          json_value (f, c, depth + 1);
          fputs ("</dd>\n", f);
        }
      fputs ("</dl>", f);
    }
  else if (cJSON_IsArray (v) && depth < MAX_DEPTH)
    {
      int i = 0;
      for (const cJSON *c = v->child; c; c = c->next, i++)
        {
          fputs (i ? "<br>" : "", f);
          json_value (f, c, depth + 1);
        }
    }
  else if (cJSON_IsString (v))
    web_text (f, v->valuestring);
  else if (cJSON_IsNumber (v))
    fprintf (f, "%.10g", v->valuedouble);
  else if (cJSON_IsBool (v))
    fputs (cJSON_IsTrue (v) ? "yes" : "no", f);
  else
    fputs ("\u2013", f);
}

static void
flags_list (FILE *f, const char *flags)
{
  if (!flags || !*flags)
    {
      fputs ("none", f);
      return;
    }
  fputs ("<ul>", f);
  while (*flags)
    {
      char name[64];
      size_t len = strcspn (flags, ",");
      snprintf (name, sizeof name, "%.*s", (int) (len < sizeof name ? len : sizeof name - 1), flags);
      const char *why = web_flag_reason (name);
      fputs ("<li><span class=\"badge flag\">", f);
      web_text (f, name);
      fputs ("</span> ", f);
      web_text (f, why ? why : "");
      fputs ("</li>", f);
      flags += len + (flags[len] == ',');
    }
  fputs ("</ul>", f);
}

/* Why the flags are what they are (the notes the checks left, one a
 * line), and when they were decided: at upload, or when the result's
 * peers changed (server/judge/plausible.h). */
static void
flags_decided (FILE *f, const struct store_row *row)
{
  char when[32];
  if (row->flag_notes && *row->flag_notes)
    {
      fputs ("<ul class=\"note\" id=\"why\">", f);
      for (const char *l = row->flag_notes; *l;)
        {
          char line[1024];
          size_t len = strcspn (l, "\n");
          snprintf (line, sizeof line, "%.*s", (int) (len < sizeof line ? len : sizeof line - 1), l);
          fputs ("<li>", f);
          web_text (f, line);
          fputs ("</li>", f);
          l += len + (l[len] == '\n');
        }
      fputs ("</ul>", f);
    }
  log_time (row->flags_at ? row->flags_at : row->received, when);
  fputs ("<p class=\"note\" id=\"decided\">Decided ", f);
  web_text (f, when);
  fputs (row->flags_at > row->received ? ", when the results of this CPU changed" : ", at upload",
         f);
  fputs (".</p>", f);
}

/* The member NAME of the document's system.cpu, or "". */
static const char *
cpu_string (const cJSON *doc, const char *name)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive
                                                     (cJSON_GetObjectItemCaseSensitive
                                                      (doc, DOC_SYSTEM), DOC_SYS_CPU), name);
  return cJSON_IsString (v) ? v->valuestring : "";
}

/* The machine member PATH of DOC's system (DOC_MACHINE_*), or "". */
static const char *
machine_string (const cJSON *doc, const char *path)
{
  const cJSON *v = schema_get (cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM), path);
  return cJSON_IsString (v) ? v->valuestring : "";
}

/* The score, how the run was made and on what, before anything else. */
static void
headline (FILE *f, const struct store_row *row, const cJSON *doc)
{
  const cJSON *run = cJSON_GetObjectItemCaseSensitive (doc, "run");
  const cJSON *g = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive
                                                     (doc, "scores"), "gmpbench");
  const char *uarch = cpu_string (doc, DOC_SYS_CPU_MICROARCHITECTURE);
  const char *codename = cpu_string (doc, DOC_SYS_CPU_CODENAME);
  double threads = doc_number (run, "threads", 1);

  fputs ("<p class=\"headline\" id=\"headline\">GMPbench score <strong>", f);
  web_number (f, cJSON_IsNumber (g) ? g->valuedouble : NAN);
  fputs ("</strong>", f);
  if (!cJSON_IsNumber (g))
    fputs (" <span class=\"note\">(not every test of the score ran)</span>", f);
  fputs ("</p>\n<p id=\"run\"><strong>", f);
  web_text (f, row->mode);
  fputs ("</strong> run", f);
  if (cJSON_IsNumber (cJSON_GetObjectItemCaseSensitive (run, "time_per_test")))
    fprintf (f, ", %.3g s per test", doc_number (run, "time_per_test", 0));
  if (threads > 1)
    fprintf (f, ", %.0f threads", threads);
  fputs (" \u00b7 ", f);
  web_text (f, row->cpu_name && *row->cpu_name ? row->cpu_name : row->cpu);
  if (*uarch || *codename)
    {
      fputs (" (", f);
      web_text (f, uarch);
      fputs (*uarch && *codename ? ", " : "", f);
      web_text (f, codename);
      fputs (")", f);
    }
  web_machine_text (f, machine_string (doc, DOC_MACHINE_MODEL),
                    machine_string (doc, DOC_MACHINE_SOC));
  web_virtual_badge (f, row->virtual_machine);
  fputs (" \u00b7 GMP ", f);
  web_text (f, row->gmp);
  fputs (", ", f);
  web_text (f, row->build);
  fputs (" build</p>\n", f);
  if (row->flags && *row->flags)
    {
      fputs ("<div class=\"flagged-note\" id=\"flagged\"><p><strong>Flagged</strong>: left out "
             "of the leaderboard's medians unless flagged results are included.</p>", f);
      flags_list (f, row->flags);
      fputs ("</div>\n", f);
    }
}

/* Bare metal, or the hypervisor DOC names (model/machine_kind.h). */
static void
machine_kind (FILE *f, const struct store_row *row, const cJSON *doc)
{
  fputs ("<dt>Machine kind</dt><dd>", f);
  if (row->virtual_machine)
    {
      fputs ("virtual machine, hypervisor ", f);
      web_text (f, cpu_string (doc, DOC_SYS_CPU_HYPERVISOR));
    }
  else
    fputs ("bare metal (the document names no hypervisor)", f);
  fputs ("</dd>\n", f);
}

static void
about_result (FILE *f, const struct store_row *row, const cJSON *doc)
{
  char when[32];
  log_time (row->received, when);
  int first = 1;
  /* The brand string this result gave, linking to the CPU's page among
   * the results run the same way. */
  fputs ("<dl class=\"machine\" id=\"about\">\n<dt>CPU</dt><dd><a href=\"/cpu", f);
  web_arg (f, &first, "cpu", row->cpu);
  web_arg (f, &first, "mode", row->mode);
  web_arg (f, &first, "build", row->build);
  fputs ("\">", f);
  web_text (f, row->cpu_name && *row->cpu_name ? row->cpu_name : row->cpu);
  fputs ("</a>", f);
  fputs (" <code class=\"note\">", f);
  web_text (f, row->cpu);
  fputs ("</code></dd>\n", f);
  const char *const software[][2] = {
    { "OS", row->os }, { "GMP", row->gmp }, { "Compiler", row->compiler },
  };
  for (size_t i = 0; i < GB_ARRAY_SIZE (software); i++)
    {
      fprintf (f, "<dt>%s</dt><dd>", software[i][0]);
      web_text (f, software[i][1]);
      fputs ("</dd>\n", f);
    }
  fputs ("<dt>Run</dt><dd>", f);
  web_text (f, row->created);
  fputs (", received ", f);
  web_text (f, when);
  fputs (", ", f);
  web_text (f, row->mode);
  fputs (" run, ", f);
  web_text (f, row->build);
  fputs (" GMP build</dd>\n", f);
  machine_kind (f, row, doc);
  fputs ("<dt>Submitter</dt><dd>", f);
  if (row->publisher)
    {
      fputs ("<span class=\"badge\">verified</span> ", f);
      web_text (f, row->publisher);
      fputs (", ", f);
    }
  web_text (f, row->submitter ? row->submitter : "(no name)");
  fputs (", key ", f);
  web_key_link (f, row->fingerprint);
  fputs ("<br><code class=\"note\">", f);
  web_text (f, row->fingerprint);
  fputs ("</code></dd>\n<dt>Flags</dt><dd>", f);
  flags_list (f, row->flags);
  flags_decided (f, row);
  fputs ("</dd>\n<dt>Document</dt><dd>", f);
  for (size_t i = 0; i < GB_ARRAY_SIZE (document_views); i++)
    {
      fputs ("<a href=\"/api/v1/results/", f);
      web_text (f, row->id);
      fprintf (f, "%s\">%s</a> \u00b7 ", document_views[i][0], document_views[i][1]);
    }
  fputs ("<a href=\"/about#verify\">how to verify</a></dd>\n</dl>\n", f);
}

/* The results[] entry of TEST, or NULL. */
static const cJSON *
find_test (const cJSON *results, const char *test)
{
  const cJSON *e;
  cJSON_ArrayForEach (e, results)
    if (strcmp (doc_string (e, "name"), test) == 0)
      return e;
  return NULL;
}

static void
node_row (FILE *f, const char *name, size_t len, int depth, double score)
{
  fprintf (f, "<tr class=\"node\"><td class=\"test depth%d\">%.*s</td><td class=\"num\" "
           "data-label=\"score\">", depth > 4 ? 4 : depth, (int) len, name);
  web_number (f, score);
  fputs ("</td><td class=\"unit\">score</td><td></td><td></td></tr>\n", f);
}

/* What a test's flag means, or NULL. */
static const char *
test_flag_reason (const char *flag)
{
  return strcmp (flag, "noisy") == 0 ? "the spread of its samples is above 2%"
    : strcmp (flag, "cpu-diverged") == 0 ? "its CPU time was below 90% of its wall time (the "
    "process was not running all the time: another load, or throttling)" : NULL;
}

/* Writes TEST's row; sets the bits of *SEEN for the flags it has (1:
 * noisy, 2: cpu-diverged). */
static void
test_row (FILE *f, const char *name, int depth, const cJSON *e, int *seen)
{
  fprintf (f, "<tr><td class=\"test depth%d\">%s</td><td class=\"num\" data-label=\"ops/s\">",
           depth > 4 ? 4 : depth, name);
  web_number (f, doc_number (e, DOC_RESULT_OPS_PER_SEC, 0));
  fprintf (f, "</td><td class=\"unit\">ops/s</td><td class=\"num\" data-label=\"spread\">"
           "\u00b1%.1f%%</td><td>", 100 * doc_number (e, DOC_RESULT_SPREAD, 0));
  const cJSON *flag;
  cJSON_ArrayForEach (flag, cJSON_GetObjectItemCaseSensitive (e, "flags"))
    if (cJSON_IsString (flag))
      {
        const char *why = test_flag_reason (flag->valuestring);
        fputs ("<span class=\"badge flag\"", f);
        if (why)
          {
            fputs (" title=\"", f);
            web_text (f, why);
            fputc ('"', f);
            *seen |= strcmp (flag->valuestring, "noisy") == 0 ? 1 : 2;
          }
        fputc ('>', f);
        web_text (f, flag->valuestring);
        fputs ("</span> ", f);
      }
  fputs ("</td></tr>\n", f);
}

/* The tests of the document in registry order, each under the scored
 * nodes above it (written when their first test comes). */
static void
hierarchy (FILE *f, const cJSON *doc)
{
  const cJSON *results = cJSON_GetObjectItemCaseSensitive (doc, "results");
  const cJSON *scores = cJSON_GetObjectItemCaseSensitive (doc, "scores");
  const char *prev = "";
  char node[256];

  int seen = 0;

  fputs ("<h2 id=\"hierarchy\">Scores and tests</h2>\n<div class=\"scroll\"><table class=\"stack\">\n"
         "<thead><tr><th scope=\"col\">Node or test</th><th class=\"num\" scope=\"col\">Value"
         "</th><th scope=\"col\">Unit</th><th class=\"num\" scope=\"col\">Spread</th>"
         "<th scope=\"col\">Flags</th></tr></thead>\n<tbody>\n", f);
  for (size_t i = 0; i < registry_count (); i++)
    {
      const char *name = registry_test (i)->name;
      const cJSON *e = find_test (results, name);
      if (!e)
        continue;
      int depth = 0;
      for (const char *dot = strchr (name, '.'); dot; dot = strchr (dot + 1, '.'), depth++)
        {
          size_t len = (size_t) (dot - name);
          if ((strncmp (prev, name, len) == 0 && prev[len] == '.') || len >= sizeof node)
            continue;
          memcpy (node, name, len);
          node[len] = '\0';
          const cJSON *s = cJSON_GetObjectItemCaseSensitive (scores, node);
          if (cJSON_IsNumber (s))
            node_row (f, name, len, depth, s->valuedouble);
        }
      test_row (f, name, depth, e, &seen);
      prev = name;
    }
  fputs ("</tbody></table></div>\n", f);
  if (seen)
    {
      fputs ("<ul class=\"note\" id=\"test-flags\">", f);
      if (seen & 1)
        fprintf (f, "<li><span class=\"badge flag\">noisy</span>: %s.</li>",
                 test_flag_reason ("noisy"));
      if (seen & 2)
        fprintf (f, "<li><span class=\"badge flag\">cpu-diverged</span>: %s.</li>",
                 test_flag_reason ("cpu-diverged"));
      fputs ("</ul>\n", f);
    }
}

static void
comparisons (FILE *f, const cJSON *doc)
{
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive (doc, "comparisons"), *row, *e;
  if (cJSON_GetArraySize (rows) == 0)
    return;
  fputs ("<h2 id=\"comparisons\">GMP and other libraries</h2>\n<p class=\"note\">Ratio = GMP "
         "ops/s over the library's (above 1: GMP faster), against GMP's constant-time variant "
         "for constant-time operations; ~ marks a ratio within the two spreads.</p>\n"
         "<div class=\"scroll\"><table class=\"stack\">\n<thead><tr><th scope=\"col\">Operation</th>"
         "<th scope=\"col\">Library</th><th class=\"num\" "
         "scope=\"col\">ops/s</th><th class=\"num\" scope=\"col\">Spread</th>"
         "<th class=\"num\" scope=\"col\">Ratio</th></tr></thead>\n<tbody>\n", f);
  cJSON_ArrayForEach (row, rows)
    cJSON_ArrayForEach (e, cJSON_GetObjectItemCaseSensitive (row, "entries"))
    {
      fputs ("<tr><td class=\"test\">", f);
      web_text (f, doc_string (row, "operation"));
      fputc (' ', f);
      web_text (f, doc_string (row, "size"));
      fputs ("</td><td data-label=\"library\">", f);
      web_text (f, doc_string (e, "library"));
      fputc (' ', f);
      web_text (f, doc_string (e, "variant"));
      fputs ("</td><td class=\"num\" data-label=\"ops/s\">", f);
      web_number (f, doc_number (e, DOC_RESULT_OPS_PER_SEC, 0));
      fprintf (f, "</td><td class=\"num\" data-label=\"spread\">\u00b1%.1f%%</td>"
               "<td class=\"num\" data-label=\"GMP/it\">", 100 * doc_number (e, DOC_RESULT_SPREAD, 0));
      if (cJSON_IsNumber (cJSON_GetObjectItemCaseSensitive (e, "ratio")))
        {
          web_number (f, doc_number (e, "ratio", 0));
          fputs (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (e, "within_spread"))
                 ? " ~" : "", f);
        }
      fputs ("</td></tr>\n", f);
    }
  fputs ("</tbody></table></div>\n", f);
}

static void
skipped (FILE *f, const cJSON *doc)
{
  const cJSON *list = cJSON_GetObjectItemCaseSensitive (doc, "skipped"), *e;
  if (cJSON_GetArraySize (list) == 0)
    return;
  fputs ("<h2 id=\"skipped\">Skipped tests</h2>\n<ul>\n", f);
  cJSON_ArrayForEach (e, list)
    {
      fputs ("<li><code>", f);
      web_text (f, doc_string (e, "name"));
      fputs ("</code>: ", f);
      web_text (f, doc_string (e, "reason"));
      fputs ("</li>\n", f);
    }
  fputs ("</ul>\n", f);
}

/* A hidden result's notice: when and why the operators hid it (it
 * stays readable here, its bytes kept for audit). */
static void
hidden_notice (FILE *f, const struct store_row *row)
{
  char day[16];
  time_t at = (time_t) row->hidden_at;
  struct tm tm;

  strftime (day, sizeof day, "%Y-%m-%d", gmtime_r (&at, &tm));
  fprintf (f, "<p class=\"flagged-note\" id=\"hidden\">This result was hidden by the site's "
           "operators on %s: ", day);
  web_text (f, row->hidden_reason ? row->hidden_reason : "");
  fputs ("<br>It is left out of listings, the leaderboard and its medians; its document "
         "is kept for audit.</p>\n", f);
}

static enum MHD_Result
render (struct http_request *r, const struct store_row *row)
{
  struct page p;
  cJSON *doc = cJSON_ParseWithLength (row->body, row->body_len);
  char title[160];

  snprintf (title, sizeof title, "Result %s", row->id);
  if (page_begin (&p, r, title) < 0)
    {
      cJSON_Delete (doc);
      return MHD_NO;
    }
  if (row->hidden_at)
    hidden_notice (p.f, row);
  headline (p.f, row, doc);
  about_result (p.f, row, doc);
  hierarchy (p.f, doc);
  comparisons (p.f, doc);
  skipped (p.f, doc);
  fputs ("<h2 id=\"machine\">The machine</h2>\n", p.f);
  json_value (p.f, cJSON_GetObjectItemCaseSensitive (doc, DOC_SYSTEM), 0);
  cJSON_Delete (doc);
  return page_end (&p, 200);
}

static int
answer (void *ctx, const struct store_row *row)
{
  struct one *o = ctx;
  o->rc = row->retracted ? page_error (o->r, 410, "This result was retracted by its submitter.")
    : render (o->r, row);
  return 1;
}

enum MHD_Result
web_result (struct http_request *r, const char *id)
{
  struct one o = { r, MHD_NO };
  size_t len = strspn (id, "0123456789abcdef");

  if (len < 16 || len > 64 || id[len])
    return page_error (r, 404, "There is no such result.");
  snprintf (r->id, sizeof r->id, "%s", id);
  switch (store_get (r->srv->store, id, answer, &o))
    {
    case STORE_OK:
      return o.rc;
    case STORE_NOT_FOUND:
      return page_error (r, 404, "There is no such result.");
    case STORE_CORRUPT:
      return page_error (r, 500, "This result's stored document is damaged (it fails its "
                         "SHA-256 check), so it is not shown.");
    default:
      return page_error (r, 503, "The database is unavailable; try again later.");
    }
}
