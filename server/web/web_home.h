/* web_home.h: what the parts of the home page share (docs/leaderboard.md):
 *   web_home.c       the page: tabs, chart, filters, table, newest uploads;
 *   web_home_rows.c  what a row shows besides the board's row (flagged and
 *                    verified counts, category medians), and the search;
 *   web_home_data.c  the view's rows as CSV or JSON (the API's
 *                    /api/v1/leaderboard, web.h), and the redirect of the
 *                    page's old format= there.
 * The view is the page's URL parsed. */
#ifndef GB_SERVER_WEB_HOME_H
#define GB_SERVER_WEB_HOME_H

#include "server/web/web_page.h"

/* The sets of columns the table shows (the `cols` argument): the
 * categories with the clock, GMP and compiler, as gmplib.org's table, or
 * the score's spread and the ratios.  The data formats have them all. */
enum column_set
{
  SET_CATEGORIES = 1, SET_STATS = 2, SET_BOTH = 3
};

/* The view a URL asks for. */
struct view
{
  struct board_filter filter;
  struct board_filter shown;    /* FILTER with its run mode and build kind chosen */
  const char *sort;             /* as in the URL, NULL for the default */
  const char *query;            /* q: part of a CPU's name, NULL for any */
  enum board_key key;
  enum column_set set;          /* the columns shown */
  int set_chosen;               /* as given by `cols` (else from the sort) */
};

/* The category nodes, as gmplib.org's table has them: the two of the
 * GMPbench score, then the six of theirs; then the all-core score of
 * `--threads all` runs.  KEY names them in the data. */
#define HOME_CATEGORIES 9
struct home_category
{
  const char *node, *label, *key;
};
extern const struct home_category home_categories[HOME_CATEGORIES];

/* What a row shows besides the board's row: how many of its results are
 * flagged (with flagged=1) and how many are of verified publishers, and
 * the category medians (NAN where unknown). */
struct extra
{
  size_t flagged, verified;
  double category[HOME_CATEGORIES];
};

/* web_home_rows.c.  Keeps the N ROWS whose CPU name, identity, or
 * microarchitecture and code name contain QUERY (any case); how many. */
size_t home_keep_matching (struct board_row *rows, size_t n, const char *query);
/* The flagged results of V's rows, from the difference between V with
 * flagged results included and without: with ROWS (N of them, flagged
 * included), how many of each row's are flagged, into X; without (V
 * excludes them), how many results V would show with them, returned. */
size_t home_count_flagged (struct board *b, struct store *st, const struct view *v,
                           const struct board_row *rows, size_t n, struct extra *x);
/* How many of each of V's rows' results are of verified publishers, into
 * X (none when the board fails). */
void home_count_verified (struct board *b, struct store *st, const struct view *v,
                          const struct board_row *rows, size_t n, struct extra *x);
/* The category medians of V's rows into X. */
void home_category_medians (struct board *b, struct store *st, const struct view *v,
                            const struct board_row *rows, size_t n, struct extra *x);

/* web_home_data.c: the N ROWS of V (with X) as FORMAT, "csv" or "json". */
enum MHD_Result home_export (struct http_request *r, const struct board *b, const struct view *v,
                             const struct board_row *rows, size_t n, const struct extra *x,
                             const char *format);
/* The answer to the home page asked for FORMAT (its old format=csv and
 * format=json): 301 to the API's address of the same view as data, or a
 * 400 page for another format. */
enum MHD_Result home_moved (struct http_request *r, const char *format);
/* An error of the view as data (FORMAT set: JSON, rule "query" for a 400,
 * "unavailable" otherwise) or of the page (FORMAT NULL). */
enum MHD_Result home_error (struct http_request *r, const char *format, int status,
                            const char *message);
/* The 503 of the view as data when there is no snapshot (page_no_board's
 * JSON: Retry-After 5 s while the first is PREPARING, else 30 s). */
enum MHD_Result home_no_board (struct http_request *r, int preparing);

#endif
