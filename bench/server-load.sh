#!/bin/sh
# server-load.sh: how fast is gmpbench-server?
#
# 1. Uploads: builds bench/server-load.c against the build directory's
#    libraries, starts a server on a fresh SQLite database, posts N distinct
#    signed documents over C connections, and reports accepted/s and the
#    p50/p99 latency; then checks that the database holds exactly as many
#    results as were accepted.
# 2. Listings: fills a second database with M synthetic results through
#    the server's own store code (-m 0 skips this), starts a server on it,
#    and reports p50/p99 of filtered, sorted listing pages.
#
# Targets on a 2-core machine (issue 5): >= 1000 accepted uploads/s,
# p99 < 20 ms for a listing page with 1,000,000 results.
#
# usage: bench/server-load.sh [-b BUILDDIR] [-n N] [-c C] [-m M] [-k DB]
#   defaults: -b . -n 5000 -c 8 -m 1000000; -k keeps (and reuses) the
#   listing database at DB, since filling a million results takes minutes.

build=. n=5000 c=8 m=1000000 keep=
while getopts b:n:c:m:k: opt; do
  case $opt in
    b) build=$OPTARG ;;
    n) n=$OPTARG ;;
    c) c=$OPTARG ;;
    m) m=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
  esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
server=$build/gmpbench-server
[ -x "$server" ] || { echo "$server: not built (make gmpbench-server)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

. "$src/bench/server-lib.sh"

echo "uploads: $n documents over $c connections"
start "$tmp/upload.db"
"$tmp/server-load" upload $addr "$src/tests/fixtures/server-result.json" $n $c | tee "$tmp/upload.txt"
stop
accepted=$(sed -n 's/.* \([0-9]*\) answered 201.*/\1/p' "$tmp/upload.txt")
stored=$(sqlite3 "$tmp/upload.db" 'SELECT count(*) FROM results')
echo "stored: $stored results for $accepted accepted"
[ "$stored" = "$accepted" ] || { echo "MISMATCH" >&2; exit 1; }

[ "$m" -gt 0 ] || exit 0
db=${keep:-$tmp/list.db}
have=$(sqlite3 "$db" 'SELECT count(*) FROM results' 2> /dev/null || echo 0)
if [ "$have" -lt "$m" ]; then
  echo "listings: storing $((m - have)) synthetic results (minutes)..."
  "$tmp/server-load" populate "$db" $((m - have)) $have 2> /dev/null || exit 1
fi
sqlite3 "$db" 'ANALYZE'
echo "listings: $(sqlite3 "$db" 'SELECT count(*) FROM results') results"
start "$db"
q=/api/v1/results
"$tmp/server-load" list $addr 4 2000 \
  "$q?limit=50" \
  "$q?arch=x86_64&sort=gmpbench&limit=50" \
  "$q?arch=aarch64&os=FreeBSD&sort=gmpbench.base&limit=50" \
  "$q?cpu=x86:GenuineIntel:family=6:model=7:stepping=1&sort=gmpbench&limit=50" \
  "$q?gmp=6.3.0&compiler=clang&sort=gmpbench.app&limit=50"
stop
