#!/bin/sh
# server-reads.sh: the read paths of two or more server builds side by
# side, on one database that bench/server-load.sh -w filled (-k DB).
#
# Each SERVER (a gmpbench-server binary) is started in turn on DB, in the
# order given (so "A B A B" alternates two builds in one sitting), and
# measured as server-load.sh measures a filled database: the time until
# the leaderboard's first snapshot, then for the home page, the page of
# the CPU with the most results, /api/v1/results filtered by os=Ubuntu and
# sorted by a node and by a test, and /api/v1/cpus (its first page, and
# a page of 500 rows, the most a page holds), the first request's time
# and R more over 4 connections (p50/p99).  These requests only read.
# With -f FIXTURE (a whole run), the busiest CPU's page, then the home
# page, is each asked for V times a second for S seconds while whole runs
# of that CPU are uploaded U times a second (bench/server-load.c steady):
# this adds 2 x U x S results to DB for each SERVER.  The load generator is built from the
# source tree against -b BUILDDIR's libraries.
#
# usage: bench/server-reads.sh -k DB [-b BUILDDIR] [-r R] [-f FIXTURE [-U U] [-V V] [-S S]] SERVER...
#   defaults: -b . -r 200 -U 2 -V 20 -S 30

. "$(dirname "$0")/lib.sh"
build=. db= requests=200 fixture= up=2 views=20 seconds=30
options 'b:build k:db r:requests f:fixture U:up V:views S:seconds' "$@"
shift $((OPTIND - 1))
[ -n "$db" ] && [ -f "$db" ] && [ $# -gt 0 ] && { [ -z "$fixture" ] || [ -f "$fixture" ]; } || usage
build=$(cd "$build" && pwd)
tmp=$(mktemp -d) || exit 1
pids=
trap '[ -n "$pids" ] && kill $pids 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

. "$src/bench/server-lib.sh"

cpu=$(sqlite3 "$db" 'SELECT cpu FROM results GROUP BY cpu ORDER BY count(*) DESC LIMIT 1')
q=/api/v1/results
for server in "$@"; do
  [ -x "$server" ] || { echo "$server: not executable" >&2; exit 1; }
  t0=$(date +%s.%N)
  start "$db"
  while [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/")" = 503 ]; do sleep 0.05; done
  echo "== $server: first snapshot after $(echo "$(date +%s.%N) - $t0" | bc) s," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
  for page in "/" "/cpu?cpu=$cpu" "$q?os=Ubuntu&sort=gmpbench.base.multiply&limit=50" \
      "$q?os=Ubuntu&sort=gmpbench.base.multiply.8192&limit=50" "/api/v1/cpus" \
      "/api/v1/cpus?limit=500"; do
    first=$(curl -s -o /dev/null -w '%{time_total}' "http://$addr$page")
    echo "first $first s; $("$tmp/server-load" list "$addr" 4 "$requests" "$page" | grep -v '^list:')"
  done
  for page in ${fixture:+"/cpu?cpu=$cpu" "/"}; do
    echo "steady: $up uploads/s of $cpu, $page $views times a second, $seconds s," \
      "load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$tmp/server-load" steady "$addr" "$fixture" "$cpu" "$up" "$views" "$seconds" "$page"
  done
  stop
done
