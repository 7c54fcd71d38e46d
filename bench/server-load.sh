#!/bin/sh
# server-load.sh: how fast is gmpbench-server?
#
# 1. Uploads: builds bench/server-load.c against the build directory's
#    libraries, starts a server on a fresh SQLite database, posts N distinct
#    signed documents over C connections, and reports accepted/s and the
#    p50/p99 latency; then checks that the database holds exactly as many
#    results as were accepted.  Before, it times what the server does
#    with each such document before storing it (validation and signature
#    check, one thread): the rate of that alone on every core is a ceiling
#    for the uploads, whatever the storage.
# 2. Listings: fills a second database with M synthetic results (one bulk
#    SQL transaction into the schema the server created; -m 0 skips this),
#    starts a server on it, and reports p50/p99 of filtered, sorted
#    listing pages.
#
# Targets on a 2-core machine (issue 5): >= 1000 accepted uploads/s,
# p99 < 20 ms for a listing page with 1,000,000 results.
#
# usage: bench/server-load.sh [-b BUILDDIR] [-n N] [-c C] [-m M] [-k DB] [-f FIXTURE | -w]
#   defaults: -b . -n 5000 -c 8 -m 1000000 -f tests/fixtures/server-result.json
#   (a one-test run); -w uploads copies of a whole run made first by
#   BUILDDIR/gmpbench run --quick (about 200 tests and 65 score nodes,
#   160 KB: what a volunteer sends); -k keeps (and reuses) the listing
#   database at DB, since filling a million results takes minutes.

build=. n=5000 c=8 m=1000000 keep= fixture= whole=
while getopts b:n:c:m:k:f:w opt; do
  case $opt in
    f) fixture=$OPTARG ;;
    w) whole=yes ;;
    b) build=$OPTARG ;;
    n) n=$OPTARG ;;
    c) c=$OPTARG ;;
    m) m=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
  esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
fixture=${fixture:-$src/tests/fixtures/server-result.json}
build=$(cd "$build" && pwd)
server=$build/gmpbench-server
[ -x "$server" ] || { echo "$server: not built (make gmpbench-server)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

. "$src/bench/server-lib.sh"

# fill DB FIRST LAST: the synthetic results FIRST..LAST and their four
# score rows each, in one SQL transaction, with the columns store_insert
# writes: four architectures, four systems, two GMP versions, two
# compilers (one in 16 results has a given architecture and system) and
# 200 CPUs, in a spread-out order (a multiplicative hash of the number).
# Storing them one upload at a time through the server takes an hour.
fill () {
  sqlite3 "$1" > /dev/null << EOF
PRAGMA journal_mode=WAL;
PRAGMA cache_size=-2000000;
PRAGMA temp_store=MEMORY;
BEGIN;
CREATE TEMP TABLE syn AS
  WITH RECURSIVE i(n) AS (SELECT $2 UNION ALL SELECT n + 1 FROM i WHERE n < $3)
  SELECT n, (n * 2654435761) % 4294967296 AS r FROM i;
INSERT INTO results (seq, id, sha256, received, fingerprint, public_key, publisher, submitter,
  arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, unlisted, listed,
  body, signature, vendor, mhz, cores)
SELECT n, printf('%016x', n), printf('%064x', n), 1700000000 + n, printf('%064x', 0),
  'cHVibGljIGtleQ==', NULL, NULL,
  CASE r % 4 WHEN 0 THEN 'x86_64' WHEN 1 THEN 'aarch64' WHEN 2 THEN 'ppc64le' ELSE 'riscv64' END,
  printf('x86:GenuineIntel:family=6:model=%d:stepping=1', r % 200),
  printf('Test CPU %d', r % 200),
  CASE (r / 4) % 4 WHEN 0 THEN 'Debian GNU/Linux' WHEN 1 THEN 'Fedora Linux'
    WHEN 2 THEN 'FreeBSD' ELSE 'macOS' END,
  CASE (r / 16) % 2 WHEN 1 THEN '6.3.0' ELSE '6.2.1' END,
  CASE (r / 32) % 2 WHEN 1 THEN 'gcc' ELSE 'clang' END,
  '2026-11-30T05:00:00Z', '{}', '', 0, 0, 1, printf('{"synthetic": %d}', n), 'c2lnbmF0dXJl',
  'GenuineIntel', NULL, NULL
FROM syn;
INSERT INTO scores (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp, compiler)
SELECT s.n, k.node, k.depth, 1000.0 * (1 + (s.r >> k.shift) % 977) / k.div, r.cpu, 1, 0,
  r.arch, r.os, r.gmp, r.compiler
FROM syn s JOIN results r ON r.seq = s.n
  CROSS JOIN (SELECT 'gmpbench' AS node, 0 AS depth, 0 AS shift, 1 AS div
              UNION ALL SELECT 'gmpbench.base', 1, 3, 2 UNION ALL SELECT 'gmpbench.app', 1, 6, 3
              UNION ALL SELECT 'gmpbench.base.multiply', 2, 9, 4) k;
COMMIT;
EOF
}

if [ -n "$whole" ]; then
  echo "making a whole-run document (gmpbench run --quick --time-per-test 0.01)..."
  mkdir "$tmp/config"
  XDG_CONFIG_HOME=$tmp/config "$build/gmpbench" run --quick --time-per-test 0.01 --quiet \
    -o "$tmp/whole-run.json" > /dev/null || exit 1
  fixture=$tmp/whole-run.json
fi
echo "uploads: $n documents ($(basename "$fixture"), $(wc -c < "$fixture") bytes) over $c connections"
if grep -q '"submitter"' "$fixture"; then    # the load generator adds its own
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("submitter")
print(json.dumps(d, indent=1))' "$fixture" > "$tmp/fixture.json" || exit 1
  fixture=$tmp/fixture.json
fi
"$tmp/server-load" validate "$fixture" 200
start "$tmp/upload.db"
"$tmp/server-load" upload $addr "$fixture" $n $c | tee "$tmp/upload.txt"
stop
accepted=$(sed -n 's/.* \([0-9]*\) answered 201.*/\1/p' "$tmp/upload.txt")
stored=$(sqlite3 "$tmp/upload.db" 'SELECT count(*) FROM results')
echo "stored: $stored results for $accepted accepted"
[ "$stored" = "$accepted" ] || { echo "MISMATCH" >&2; exit 1; }

[ "$m" -gt 0 ] || exit 0
db=${keep:-$tmp/list.db}
have=$(sqlite3 "$db" 'SELECT count(*) FROM results' 2> /dev/null || echo 0)
if [ "$have" -lt "$m" ]; then
  echo "listings: storing $((m - have)) synthetic results..."
  start "$db"       # creates or migrates the schema
  stop
  fill "$db" $((have + 1)) "$m" || exit 1
fi
sqlite3 "$db" 'ANALYZE'
echo "listings: $(sqlite3 "$db" 'SELECT count(*) FROM results') results"
start "$db"
# The leaderboard's in-memory snapshot (server/board.h) is built in the
# background after the start, a few seconds of one core at a million
# results: the listings are measured once it is there.
for wait in $(seq 600); do
  grep -q 'leaderboard snapshot of' "$tmp/server.log" && break
  sleep 0.2
done
q=/api/v1/results
"$tmp/server-load" list $addr 4 5000 \
  "$q?limit=50" \
  "$q?arch=x86_64&sort=gmpbench&limit=50" \
  "$q?arch=aarch64&os=FreeBSD&sort=gmpbench.base&limit=50" \
  "$q?cpu=x86:GenuineIntel:family=6:model=7:stepping=1&sort=gmpbench&limit=50" \
  "$q?gmp=6.3.0&compiler=clang&sort=gmpbench.app&limit=50"
stop
