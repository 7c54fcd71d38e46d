/* api_metrics.c: /metrics, in Prometheus's text exposition format
 * (version 0.0.4), served only on the --metrics-listen address by a
 * daemon of its own (main.c), so that the public port never shows it:
 * the counters of server/metrics.h, then the gauges read now, the store's
 * (results stored, database size: one count over an index, tens of
 * milliseconds at a million results) and the leaderboard snapshot's
 * (its age, the changes not yet in it), read without waiting for a
 * snapshot.  docs/server.md, "Metrics", lists every series. */
#include "server/api/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server/board/board.h"
#include "server/metrics.h"
#include "server/store/store.h"

#define EXPOSITION_TYPE "text/plain; version=0.0.4; charset=utf-8"

static void
write_store_gauges (FILE *out, struct store *st)
{
  int64_t results = 0, bytes = 0;
  int up = store_measure (st, &results, &bytes) == STORE_OK;
  metrics_write_gauge (out, "gmpbench_database_up",
                       "Whether the database answered this scrape's queries (1) or not (0)", up);
  if (!up)
    return;
  metrics_write_gauge (out, "gmpbench_results_stored",
                       "Rows of the table results: every result stored, listed or not", results);
  metrics_write_gauge (out, "gmpbench_database_size_bytes",
                       "The database's size (SQLite: its pages, without the WAL file; "
                       "PostgreSQL: pg_database_size)", bytes);
}

static void
write_board_gauges (FILE *out, struct server *srv)
{
  struct board_status b;
  board_status (srv, &b);
  metrics_write_gauge (out, "gmpbench_snapshot_ready",
                       "Whether the leaderboard's snapshot exists (1) or its first build is "
                       "still under way (0)", b.ready);
  if (!b.ready)
    return;
  metrics_write_gauge (out, "gmpbench_snapshot_results", "Listed results in the snapshot",
                       (double) b.results);
  metrics_write_gauge (out, "gmpbench_snapshot_age_seconds",
                       "Seconds since the snapshot's build or last update began", b.age);
  metrics_write_gauge (out, "gmpbench_snapshot_full_build_age_seconds",
                       "Seconds since the full build the snapshot descends from began",
                       b.full_age);
  metrics_write_gauge (out, "gmpbench_snapshot_pending_changes",
                       "Changes to results journaled and not yet in the snapshot",
                       (double) b.pending);
}

enum MHD_Result
api_metrics (struct http_request *r)
{
  if (strcmp (r->path, "/metrics") != 0)
    return http_error (r, 404, "not-found", NULL, "this address serves /metrics only");
  if (strcmp (r->method, "GET") != 0 && strcmp (r->method, "HEAD") != 0)
    {
      r->rule = "method";
      return http_json_header (r, 405, http_error_body ("method", NULL, "method not allowed here"),
                               "Allow", "GET, HEAD");
    }
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  if (!out)
    return http_error (r, 503, "unavailable", NULL, "out of memory");
  metrics_write (out);
  write_store_gauges (out, r->srv->store);
  write_board_gauges (out, r->srv);
  fclose (out);
  return http_bytes_owned (r, 200, EXPOSITION_TYPE, text, len);
}
