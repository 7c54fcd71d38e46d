/* web_page.h: what the pages share (web_page.c): the page frame, the
 * headers every page gets, and the small writers (links, numbers); and
 * the parts one page lends another (machines, node pages, CPU kinds).
 * The room's files (docs/leaderboard.md), by concern:
 *   web_routes.c     the routing table (web_handlers.h names the handlers);
 *   web_page.c       the page frame, headers and shared writers;
 *   web_style.c      the stylesheet;
 *   web_home*.c      the leaderboard by architecture (web_home.h);
 *   web_cpu.c        one CPU identity: distribution, medians, breakdowns;
 *   web_cpu_node.c   one node's distribution for one CPU identity;
 *   web_strip.c      the strip plot over a box plot of a distribution;
 *   web_machine.c    the machine a result ran in, and the one a CPU's agree on;
 *   web_result.c     one result: machine, hierarchy, comparisons, flags;
 *   web_flags.c      the plausibility flags in plain words, and what to do;
 *   web_compare.c    two or more results side by side;
 *   web_compare_cpus.c  two or more CPUs side by side (medians per node);
 *   web_nodes.c      the hierarchy's nodes in tree order, a CPU's node medians;
 *   web_bars.c       bar charts readable on a phone;
 *   web_names.c      a CPU identity's microarchitecture and code name;
 *   web_submitter.c  the results of one key;
 *   web_about.c      the scoring formula, the schema, verifying a result.
 *
 * Pages are plain HTML written into a memory stream and sent whole, with
 * a Content-Security-Policy that allows the server's stylesheet and
 * nothing else (no script, no inline style, no other origin).  Every
 * string that comes from a result goes through web_text(), which writes
 * what escape_html() does; URLs are percent-encoded before they are
 * escaped. */
#ifndef GB_SERVER_WEB_PAGE_H
#define GB_SERVER_WEB_PAGE_H

#include <stdio.h>
#include "server/board/board.h"
#include "server/http/http.h"

/* A page being written. */
struct page
{
  struct http_request *r;
  FILE *f;
  char *buf;
  size_t len;
};

/* Opens the stream and writes everything up to <main>; TITLE is text
 * (escaped here).  0, or -1 when out of memory. */
int page_begin (struct page *p, struct http_request *r, const char *title);
/* Closes <main> and the document and sends the page with STATUS. */
enum MHD_Result page_end (struct page *p, int status);
/* A page saying MESSAGE (plain text) with STATUS. */
enum MHD_Result page_error (struct http_request *r, int status, const char *message);

/* The 503 page of a request that found no leaderboard snapshot
 * (board_acquire): PREPARING, the first is still being built (Retry-After
 * 5 s); otherwise the database failed. */
enum MHD_Result page_no_board (struct http_request *r, int preparing);

/* Text into the page, escaped. */
void web_text (FILE *f, const char *s);
/* A query argument: "?" before the first (*FIRST set), "&amp;" before the
 * others, VALUE percent-encoded. */
void web_arg (FILE *f, int *first, const char *name, const char *value);
/* S percent-encoded but for RFC 3986's unreserved characters. */
void web_url_encode (FILE *f, const char *s);
/* A number with 4 significant digits (thousands unabbreviated), or "–"
 * for NAN. */
void web_number (FILE *f, double v);
/* "s" when N things are more than one (or none): "1 result", "2 results". */
const char *web_plural (size_t n);
/* <a href="/cpu?cpu=...">NAME</a>, <a href="/results/ID">ID</a>,
 * <a href="/submitters/FP">FP (12 digits)</a>. */
void web_cpu_link (FILE *f, const char *cpu, const char *name);
void web_result_link (FILE *f, const char *id);
void web_key_link (FILE *f, const char *fingerprint);
/* Whether S contains PART, ASCII letters in any case. */
int web_contains (const char *s, const char *part);
/* The non-empty values of the query argument NAME (repeated: ?id=A&id=B),
 * up to MAX into OUT; how many, or -1 when there are more than MAX. */
int web_args (struct http_request *r, const char *name, const char **out, int max);
/* The GMP version, compiler and OS cells of a row of results. */
void web_build_cells (FILE *f, const char *gmp, const char *compiler, const char *os);
/* The compare pages' side-by-side table up to its <tbody>: the heading
 * FIRST (HTML, not escaped) over the names, then A and, for each of the
 * N - 1 other columns B, C..., its own and its ratio to A. */
void web_compare_table_head (FILE *f, const char *first, int n);
/* The compare page when fewer than two CPUs (CPUS set) or results were
 * checked (N of them): what to check and where, a link back (400). */
enum MHD_Result web_compare_unchecked (struct http_request *r, int cpus, int n);
/* A result's mark, " virtual" as a badge, when VIRTUAL_MACHINE (its
 * document names a hypervisor); nothing on bare metal. */
void web_virtual_badge (FILE *f, int virtual_machine);
/* What F's machine kind narrows a view to, " on bare metal" or " in
 * virtual machines"; nothing when it is open. */
void web_machine_filter_text (FILE *out, const struct board_filter *f);

/* The URL argument of each filter field ("cpu", "arch", ...). */
extern const char *const web_field_arg[BF_COUNT];
/* The filter a page's URL asks for: the fields, verified=1, flagged=1;
 * machine=all (or none, or empty) leaves the machine kind open.  0, or
 * -1 when machine is not bare-metal, virtual or all. */
int web_read_filter (struct http_request *r, struct board_filter *f);

/* The microarchitecture and code name of a CPU IDENTITY ("Zen 3, Milan",
 * "Neoverse-N1") into BUF, leaving out what NAME (the brand string shown,
 * or NULL) already says; "" when the tables do not know it.  Returns BUF. */
const char *web_cpu_kind (const char *identity, const char *name, char *buf, size_t size);

/* The machine of a result (system.machine): " in MODEL (SoC SOC)", each
 * part left out when "" (web_machine.c). */
struct web_machine
{
  char model[257], soc[257];
};
void web_machine_text (FILE *f, const char *model, const char *soc);
/* The machine the newest few unflagged results of F (a CPU's view) all
 * name, into M (kept with the snapshot B): 1, or 0 (M empty) when they
 * do not agree or name none, -1 (M empty) when the store fails. */
int web_machine_agreed (struct board *b, struct store *st, const struct board_filter *f,
                        struct web_machine *m);

/* What a plausibility flag means, and what its submitter can do about
 * it, in plain words (web_flags.c), or NULL for an unknown one. */
const char *web_flag_reason (const char *flag);
const char *web_flag_remedy (const char *flag);
/* A listed result's mark when its comma-separated FLAGS are not empty:
 * a badge, each flag in a few words, and a link to result ID's page,
 * which says why and what to do. */
void web_flag_mark (FILE *f, const char *id, const char *flags);

/* The URL of the CPU page of BF, every filter it sets kept (with NODE,
 * when not NULL), escaped for an attribute (web_cpu_node.c). */
void web_cpu_url (FILE *f, const struct board_filter *bf, const char *node);
/* The page of one NODE of the CPU of BF (named NAME), its filters
 * complete, under the snapshot B (web_cpu_node.c); and a link to it,
 * with NODE as its text. */
enum MHD_Result web_cpu_node (struct http_request *r, const struct board *b,
                              const struct board_filter *bf, const char *name,
                              const char *node);
void web_cpu_node_link (FILE *f, const struct board_filter *bf, const char *node);
/* The stylesheet's version, for its URL (/style.css?v=...) (web_style.c). */
const char *web_style_version (void);

#endif
