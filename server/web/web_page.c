/* web_page.c: the frame and headers of the public pages, and the writers
 * they share (web_page.h).
 *
 * The security headers are the same for every page: the policy lets the
 * page load /style.css from this origin and nothing else; forms submit
 * only to this origin; nothing may frame the page.  Inline SVG needs no
 * permission (it is markup, styled by classes from the stylesheet). */
#include "server/web/web_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/escape.h"
#include "model/machine_kind.h"

#define CSP "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; " \
  "base-uri 'none'; frame-ancestors 'none'"

/* What escape_html() writes, but copying the runs between the characters
 * it replaces whole: pages write a lot of text, and stdio a character at
 * a time is a tenth of a page's time. */
void
web_text (FILE *f, const char *s)
{
  const char *run = s;

  if (!s)
    return;
  for (;; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (c >= 0x20 && c != 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'')
        continue;
      if (s > run)
        fwrite (run, 1, (size_t) (s - run), f);
      if (!c)
        return;
      char one[2] = { (char) c, '\0' };
      escape_html (f, one);
      run = s + 1;
    }
}

void
web_url_encode (FILE *f, const char *s)
{
  for (const unsigned char *c = (const unsigned char *) s; *c; c++)
    if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
        || strchr ("-._~", *c))
      fputc (*c, f);
    else
      fprintf (f, "%%%02X", *c);
}

void
web_arg (FILE *f, int *first, const char *name, const char *value)
{
  fputs (*first ? "?" : "&amp;", f);
  *first = 0;
  fputs (name, f);
  fputc ('=', f);
  web_url_encode (f, value);
}

void
web_number (FILE *f, double v)
{
  if (isnan (v) || isinf (v))
    fputs ("\u2013", f);
  else if (fabs (v) >= 1000 && fabs (v) < 1e9)
    fprintf (f, "%lld", (long long) nearbyint (v));    /* as "%.0f", without its cost */
  else
    fprintf (f, "%.4g", v);
}

const char *
web_plural (size_t n)
{
  return n == 1 ? "" : "s";
}

void
web_cpu_link (FILE *f, const char *cpu, const char *name)
{
  int first = 1;
  fputs ("<a href=\"/cpu", f);
  web_arg (f, &first, "cpu", cpu);
  fputs ("\">", f);
  web_text (f, name && *name ? name : cpu);
  fputs ("</a>", f);
}

void
web_result_link (FILE *f, const char *id)
{
  fputs ("<a href=\"/results/", f);
  web_text (f, id);
  fputs ("\"><code>", f);
  web_text (f, id);
  fputs ("</code></a>", f);
}

void
web_key_link (FILE *f, const char *fingerprint)
{
  fputs ("<a href=\"/submitters/", f);
  web_text (f, fingerprint);
  fprintf (f, "\"><code>%.12s</code></a>", fingerprint ? fingerprint : "");
}

int
web_contains (const char *s, const char *part)
{
  size_t len = strlen (part);
  for (; *s; s++)
    if (strncasecmp (s, part, len) == 0)
      return 1;
  return 0;
}

struct collect
{
  const char *name;
  const char **out;
  int max, n;
};

static enum MHD_Result
collect_arg (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct collect *c = cls;
  (void) kind;
  if (strcmp (key, c->name) == 0 && value && *value)
    {
      if (c->n < c->max)
        c->out[c->n] = value;
      c->n++;
    }
  return MHD_YES;
}

int
web_args (struct http_request *r, const char *name, const char **out, int max)
{
  struct collect c = { name, out, max, 0 };
  MHD_get_connection_values (r->conn, MHD_GET_ARGUMENT_KIND, collect_arg, &c);
  return c.n <= max ? c.n : -1;
}

void
web_build_cells (FILE *f, const char *gmp, const char *compiler, const char *os)
{
  fputs ("<td data-label=\"GMP\">", f);
  web_text (f, gmp);
  fputs ("</td><td data-label=\"Compiler\">", f);
  web_text (f, compiler);
  fputs ("</td><td data-label=\"OS\">", f);
  web_text (f, os);
  fputs ("</td>", f);
}

void
web_compare_table_head (FILE *f, const char *first, int n)
{
  fprintf (f, "<div class=\"scroll\"><table id=\"compare\" class=\"stack\">\n<thead><tr>"
           "<th scope=\"col\">%s</th><th class=\"num\" scope=\"col\">A</th>", first);
  for (int k = 1; k < n; k++)
    fprintf (f, "<th class=\"num\" scope=\"col\">%c</th><th class=\"num\" scope=\"col\">%c/A"
             "</th>", 'A' + k, 'A' + k);
  fputs ("</tr></thead>\n<tbody>\n", f);
}

const char *const web_field_arg[BF_COUNT] = {
  "cpu", "arch", "vendor", "os", "gmp", "compiler", "mode", "build", "machine"
};

int
web_read_filter (struct http_request *r, struct board_filter *f)
{
  const char *verified = http_arg (r, "verified"), *flagged = http_arg (r, "flagged");
  enum machine_kind machine;
  memset (f, 0, sizeof *f);
  for (int k = 0; k < BF_COUNT; k++)
    f->value[k] = http_arg (r, web_field_arg[k]);
  f->verified_only = verified && strcmp (verified, "1") == 0;
  f->include_flagged = flagged && strcmp (flagged, "1") == 0;
  if (machine_kind_parse (f->value[BF_MACHINE], &machine) < 0)
    return -1;
  f->value[BF_MACHINE] = machine == MACHINE_ANY ? NULL
    : machine_kind_name (machine == MACHINE_VIRTUAL);
  return 0;
}

void
web_virtual_badge (FILE *f, int virtual_machine)
{
  if (virtual_machine)
    fputs (" <span class=\"badge\" title=\"run in a virtual machine: its document names a "
           "hypervisor\">virtual</span>", f);
}

void
web_machine_filter_text (FILE *out, const struct board_filter *f)
{
  const char *kind = f->value[BF_MACHINE];
  if (kind && *kind)
    fputs (strcmp (kind, machine_kind_name (1)) == 0 ? " in virtual machines" : " on bare metal",
           out);
}

/* ------------------------------------------------------------ the frame */

int
page_begin (struct page *p, struct http_request *r, const char *title)
{
  p->r = r;
  p->buf = NULL;
  p->len = 0;
  p->f = open_memstream (&p->buf, &p->len);
  if (!p->f)
    return -1;
  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>", p->f);
  web_text (p->f, title);
  fprintf (p->f, " \u2013 GMPbench results</title>\n<link rel=\"stylesheet\" "
           "href=\"/style.css?v=%s\">\n<link rel=\"icon\" href=\"/favicon.svg\" "
           "type=\"image/svg+xml\">\n", web_style_version ());
  fputs ("</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n"
         "<header><nav><a class=\"brand\" href=\"/\">GMPbench results</a> "
         "<a href=\"/\">Leaderboard</a> <a href=\"/about\">About</a> "
         "<a href=\"/api/v1/cpus\">API</a></nav></header>\n<main id=\"main\">\n<h1>", p->f);
  web_text (p->f, title);
  fputs ("</h1>\n", p->f);
  return 0;
}

static enum MHD_Result
send_html (struct http_request *r, int status, char *buf, size_t len, const char *retry_after)
{
  struct MHD_Response *resp = MHD_create_response_from_buffer (len, buf, MHD_RESPMEM_MUST_FREE);
  if (!resp)
    {
      free (buf);
      return MHD_NO;
    }
  MHD_add_response_header (resp, "Content-Type", "text/html; charset=utf-8");
  MHD_add_response_header (resp, "Content-Security-Policy", CSP);
  MHD_add_response_header (resp, "X-Frame-Options", "DENY");
  MHD_add_response_header (resp, "Referrer-Policy", "no-referrer");
  if (retry_after)
    MHD_add_response_header (resp, "Retry-After", retry_after);
  return http_queue_body (r, status, resp, buf, len);
}

/* Closes the page and sends it, with Retry-After when RETRY_AFTER is not
 * NULL. */
static enum MHD_Result
finish (struct page *p, int status, const char *retry_after)
{
  fputs ("</main>\n<footer><p>Every result is signed by its submitter; the raw documents "
         "are at <a href=\"/api/v1/dump\">/api/v1/dump</a> and the listing as "
         "<a href=\"/api/v1/export.csv\">CSV</a>. <a href=\"/about\">How to verify one "
         "yourself</a>.</p></footer>\n</body>\n</html>\n", p->f);
  if (fclose (p->f) != 0)
    {
      free (p->buf);
      return MHD_NO;
    }
  return send_html (p->r, status, p->buf, p->len, retry_after);
}

enum MHD_Result
page_end (struct page *p, int status)
{
  return finish (p, status, NULL);
}

enum MHD_Result
page_error (struct http_request *r, int status, const char *message)
{
  struct page p;
  if (page_begin (&p, r, status == 404 ? "Not found" : status == 410 ? "Gone"
                  : status == 400 ? "Bad request" : status == 405 ? "Method not allowed"
                  : "Unavailable") < 0)
    return MHD_NO;
  fputs ("<p>", p.f);
  web_text (p.f, message);
  fputs ("</p>\n<p><a href=\"/\">Back to the leaderboard</a></p>\n", p.f);
  return page_end (&p, status);
}

enum MHD_Result
page_no_board (struct http_request *r, int preparing)
{
  struct page p;
  if (page_begin (&p, r, preparing ? "Being prepared" : "Unavailable") < 0)
    return MHD_NO;
  fputs (preparing ? "<p>The server has just started and is still reading the results for "
         "the leaderboard; try again in a few seconds.</p>\n"
         : "<p>The database is unavailable; try again later.</p>\n", p.f);
  fputs ("<p><a href=\"/about\">About the results</a></p>\n", p.f);
  return finish (&p, 503, preparing ? "5" : "30");
}
