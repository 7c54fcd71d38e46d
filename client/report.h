/* report.h: a result document (docs/result-format.md) as the renderers
 * read it, and the formats it can be rendered in.
 *
 * `gmpbench run` renders the document it has just built and `gmpbench
 * show` one read from disk, through the same functions, so a saved result
 * prints exactly as it did when it was made.  The renderers read only the
 * document: nothing is measured or recomputed, and any string in it is
 * treated as hostile (escape.h).
 *
 * JSON is the document's exact bytes (the signed ones for run, the file's
 * for show), never a re-serialisation. */
#ifndef GB_REPORT_H
#define GB_REPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "client/options.h"

enum report_format
{
  REPORT_TEXT,
  REPORT_JSON,
  REPORT_HTML,
  REPORT_CSV,
  REPORT_MARKDOWN
};

#define REPORT_FORMAT_NAMES "text, json, html, csv or markdown"

/* One test of the document: measured (RESULT) or skipped (REASON). */
struct report_row
{
  const char *name;
  const cJSON *result;          /* an element of results[], or NULL */
  const char *reason;           /* why it was skipped, or NULL */
};

struct report
{
  const char *bytes;            /* the serialised document, set by the caller */
  const char *command;          /* "run" or "show", set by the caller for the
                                   HTML footer; NULL: not said */
  const cJSON *doc, *system, *run, *scores, *comparisons, *threads;
  struct report_row *rows;      /* registry order (unknown names after),
                                   grouped by node: the tree's order */
  const char **names;           /* rows[i].name, for tree_walk */
  size_t nrows;
};

/* 0 and FMT set, or -1 for an unknown NAME. */
int report_parse_format (const char *name, enum report_format *fmt);

/* The value of --format (an options.h callback) into the enum
 * report_format the row points to. */
option_parse_fn report_format_option;

/* Reads PATH (at most 1 MiB) into a parsed document, checking its format
 * member; BYTES gets the file's exact bytes (NUL-terminated) if not NULL.
 * 0, or -1 with a one-line message in ERR. */
int report_load_file (const char *path, cJSON **doc, char **bytes, char *err, size_t errlen);

/* Indexes DOC (which must outlive R).  0, or -1 with a message in ERR when
 * DOC lacks results[]. */
int report_open (struct report *r, const cJSON *doc, char *err, size_t errlen);
void report_close (struct report *r);

/* Members of a cJSON object: "" or NAN when absent or of another type. */
const char *report_str (const cJSON *o, const char *key);
double report_num (const cJSON *o, const char *key);
/* The score of node PATH (PATHLEN bytes) in SCORES, or NAN. */
double report_score (const cJSON *scores, const char *path, size_t pathlen);
/* Whether RESULT's flags[] holds FLAG. */
int report_has_flag (const cJSON *result, const char *flag);
/* The comparison entry of the test NAME in COMPARISONS, or NULL. */
const cJSON *report_comparison_entry (const cJSON *comparisons, const char *name);

/* How many rows of COMPARISONS are random generators (RNG 1) or not (0). */
size_t report_count_rows (const cJSON *comparisons, int rng);
/* Which clock the cycles figures of R use, for people: "2.91 GHz,
 * measured" or "3 GHz, given with --cpu-ghz"; "" when the document does not
 * say (run.cycles_ghz). */
void report_cycles_clock (const struct report *r, char *buf, size_t len);
/* "OpenSSL", "GMP sec": a library (gmp, openssl...) and variant for people. */
void report_library_label (const char *library, const char *variant, char *buf, size_t len);

/* The text of one row of a report's comparison tables, cell by cell: the
 * first NTEXT cells are text from the document (to be escaped), the others
 * figures formatted here. */
#define REPORT_MAX_CELLS 6
struct report_cells
{
  size_t n, ntext;
  char cell[REPORT_MAX_CELLS][128];
  int within_spread;            /* a ratio within the spreads, marked ~ */
};
typedef void report_cells_fn (void *ctx, const struct report_cells *c);

/* Each entry of COMPARISONS but the random generators' to FN, as the cells
 * operation, size, library, ops/s, spread and ratio (GMP's ops/s over the
 * library's, "~" after it within the spreads, empty when none). */
void report_comparison_rows (const cJSON *comparisons, report_cells_fn *fn, void *ctx);

/* The random generators' tables of R, one per comparison row of operation
 * rng: HEAD with the row and the clock of the cycles figures ("" when the
 * document does not say), ROW with each generator's cells (library, MiB/s,
 * cycles per byte or empty, spread), then TAIL unless it is NULL. */
struct report_rng_writer
{
  void (*head) (void *ctx, const cJSON *row, const char *clock);
  report_cells_fn *row;
  void (*tail) (void *ctx, const cJSON *row, const char *clock);
};
void report_rng_tables (const struct report *r, const struct report_rng_writer *w, void *ctx);

/* The machine as label and value pairs: the lines of the text summary
 * (sysinfo_print_summary) followed by caches and build flags. */
typedef void report_machine_fn (void *ctx, const char *label, const char *value);
void report_machine (const struct report *r, report_machine_fn *fn, void *ctx);
/* "native, /path/libgmp.so.10.5.0": the kind of build and the file of
 * GMP (system.build.gmp of a document), said when it was interposed; ""
 * for a document that does not say. */
void report_gmp_build (const cJSON *gmp, char *buf, size_t len);

/* The renderers, one file each. */
void report_text (FILE *f, const struct report *r, int color);
void report_html (FILE *f, const struct report *r);
void report_csv (FILE *f, const struct report *r);
void report_markdown (FILE *f, const struct report *r);

/* Renders R in FMT; COLOR only affects text. */
void report_write (FILE *f, const struct report *r, enum report_format fmt, int color);

/* The comparison of DOCS[1..N) with DOCS[0], named NAMES (gmpbench compare,
 * client/cmd_compare.c), on F in FORMAT, notes on stderr as "gmpbench CMD:
 * note: ..."; PAIRED, unless NULL, NPAIRED ratios from paired visits per
 * other document (client/pairs.h), which replace the ratios of their
 * tests' ops/s.  0, or 1 after a message on a document that cannot be
 * read. */
struct pair_ratio;
int compare_print (FILE *f, const char *cmd, const char *const *names,
                   const cJSON *const *docs, size_t n, const struct pair_ratio *paired,
                   size_t npaired, enum report_format format, int color);

#endif
