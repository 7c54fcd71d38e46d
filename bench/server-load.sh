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
#    for the uploads, whatever the storage.  -n 0 skips this.
# 2. Listings: fills a second database with M synthetic results (one bulk
#    SQL transaction into the schema the server created, four score rows
#    each; -m 0 skips this), starts a server on it, and reports p50/p99 of
#    filtered, sorted listing pages.
#
# With -w, everything is done with whole runs (a document of
# `gmpbench run --quick` made first, or -f FIXTURE, which should then be
# one): step 1 uploads copies of it, and step 2 becomes:
# 2w. Scale: fills the database with M results shaped like whole runs
#    (bench/server-fill.c: every score node and test row, 400 CPUs over
#    four architectures, OSes, GMP versions and build kinds, quick and
#    full runs, real documents' bodies), through the server's own store,
#    so that a build storing them otherwise is measured as it stores them.
#    The indexes of the score and test rows (but their primary keys) are
#    dropped during the fill and made again after it, which turns hours of
#    inserts at random places into minutes of sorting (and leaves them as
#    compact as after a VACUUM).  Then it reports the database's size and
#    bytes per result, p50/p99 of the leaderboard's home page, the page of
#    the CPU with the most results, /api/v1/results filtered and sorted
#    by a node and by a test, /api/v1/cpus (each page asked for once
#    before, that first time reported too), the time of a full dump, and
#    U uploads of the whole run onto the filled database: with one server,
#    and on PostgreSQL with two.
# -k postgresql://... runs 2w on that PostgreSQL database, a server of
# your own, left running (the index definitions dropped during a fill are
# kept in ${TMPDIR:-/tmp}/gmpbench-fill-N.indexes, N a checksum of the
# URI, until they are made again); or
# -P DIR runs 2w on PostgreSQL instead: a private server (initdb, pg_ctl,
# as the user postgres when run as root, as tests/t0310 does) with its
# data in DIR, made when absent and kept for the next run; its own
# settings but shared_buffers=1GB; the fill commits without waiting for
# the disk (synchronous_commit off), the uploads with.
#
# Targets on a 2-core machine (issue 5): >= 1000 accepted uploads/s,
# p99 < 20 ms for a listing page with 1,000,000 results; issue 21: at
# the largest size, API listings p99 < 20 ms, pages p99 < 50 ms.
#
# usage: bench/server-load.sh [-b BUILDDIR] [-n N] [-c C] [-m M] [-k DB] [-f FIXTURE] [-w [-P DIR] [-p] [-r R] [-u U]]
#   defaults: -b . -n 5000 -c 8 -m 1000000 -r 500 -u 600
#   -f tests/fixtures/server-result.json (a one-test run); -k keeps (and
#   reuses) the listing database at DB (a file, or with -w a
#   postgresql:// URI), since filling takes minutes; -r
#   requests per page (over 4 connections); -u 0 leaves the uploads out;
#   -p lets the background repack run during the measurements of 2w.

. "$(dirname "$0")/lib.sh"
build=. n=5000 c=8 m=1000000 keep= fixture= whole= pgdir= pg_uri= requests=500 uploads=600 with_repack=
options 'p=with_repack f:fixture w=whole P:pgdir r:requests u:uploads b:build n:n c:c m:m k:keep' "$@"
server=$(built_server "$build") || exit 1
build=$(cd "$build" && pwd)
[ -z "$pgdir" ] || [ -n "$whole" ] || { echo "-P needs -w" >&2; exit 2; }
case $keep in
  postgresql://* | postgres://*)
    [ -n "$whole" ] && [ -z "$pgdir" ] || { echo "-k postgresql://... needs -w, and not -P" >&2; exit 2; }
    pg_uri=$keep ;;
esac
tmp=$(mktemp -d) || exit 1
pids= pg=
trap '[ -n "$pids" ] && kill $pids 2>/dev/null; [ -n "$pgdir" ] && [ -n "$pg" ] && pg_stop; rm -rf "$tmp"' EXIT INT TERM

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

load () {
  echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
}

# ---------------------------------------------------------------- PostgreSQL

# pg_start DIR: a private PostgreSQL with its data in DIR/data (made when
# absent), on a free loopback port; sets pg (the URI).
pg_start () {
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
  [ -n "$pgbin" ] || pgbin=$(pg_config --bindir 2> /dev/null)
  [ -x "$pgbin/initdb" ] || { echo "PostgreSQL (initdb, pg_ctl) is not installed" >&2; exit 1; }
  runas=
  mkdir -p "$1" || exit 1
  if [ "$(id -u)" = 0 ]; then
    runas="runuser -u postgres --"
    chown postgres "$1"
  fi
  if [ ! -d "$1/data" ]; then
    $runas "$pgbin/initdb" -D "$1/data" -A trust -U gmpbench -E UTF8 --no-locale \
      > "$tmp/initdb.log" 2>&1 || { cat "$tmp/initdb.log" >&2; exit 1; }
  fi
  pgport=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
  $runas "$pgbin/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
    -o "-p $pgport -k $1 -c listen_addresses=127.0.0.1 -c shared_buffers=1GB" start \
    > /dev/null || { tail "$1/server.log" >&2; exit 1; }
  pg="postgresql://gmpbench@127.0.0.1:$pgport/postgres"
}

# pg_use URI: the PostgreSQL database at URI, a server of the user's own;
# sets pg and pgbin (for psql).
pg_use () {
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
  [ -n "$pgbin" ] || pgbin=$(pg_config --bindir 2> /dev/null)
  [ -x "$pgbin/psql" ] || pgbin=$(dirname "$(command -v psql)")
  [ -x "$pgbin/psql" ] || { echo "psql is not installed (Debian: postgresql-client)" >&2; exit 1; }
  "$pgbin/psql" -X -q -d "$1" -c 'SELECT 1' > /dev/null || { echo "$1: cannot connect" >&2; exit 1; }
  pg=$1
}

pg_stop () {
  $runas "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop > /dev/null
  pg=
}

# sql QUERY: runs QUERY on the listing database, prints the rows.
sql () {
  if [ -n "$pg" ]; then
    "$pgbin/psql" -X -A -t -q -d "$pg" -c "$1"
  else
    sqlite3 "$db" "$1"
  fi
}

# ---------------------------------------------------------------- 2w

# indexes_off: drops the indexes of the score and test rows (ranks and
# tests; scores and test_scores of builds before migrations 13 and 14)
# but their primary keys, keeping their definitions in $db.indexes (a fill
# interrupted leaves them there for the next run); indexes_on makes
# them again.
indexes_off () {
  [ -s "$db.indexes" ] && return 0
  if [ -n "$pg" ]; then
    sql "SELECT indexdef || ';' FROM pg_indexes WHERE tablename IN ('ranks', 'tests', 'scores', 'test_scores')
         AND indexname NOT LIKE '%_pkey'" > "$db.indexes"
    names=$(sql "SELECT indexname FROM pg_indexes WHERE tablename IN ('ranks', 'tests', 'scores', 'test_scores')
                 AND indexname NOT LIKE '%_pkey'")
  else
    sql "SELECT sql || ';' FROM sqlite_master WHERE type = 'index'
         AND tbl_name IN ('ranks', 'tests', 'scores', 'test_scores') AND sql IS NOT NULL" > "$db.indexes"
    names=$(sql "SELECT name FROM sqlite_master WHERE type = 'index'
                 AND tbl_name IN ('ranks', 'tests', 'scores', 'test_scores') AND sql IS NOT NULL")
  fi
  for name in $names; do
    sql "DROP INDEX $name" || exit 1
  done
}

indexes_on () {
  if [ -n "$pg" ]; then
    { echo "SET maintenance_work_mem = '1GB';"; cat "$db.indexes"; echo "ANALYZE;"; } |
      "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -d "$pg" || exit 1
  else
    { echo "PRAGMA cache_size = -1000000;"; cat "$db.indexes"; echo "ANALYZE;"
      echo "PRAGMA wal_checkpoint(TRUNCATE);"; } | nice -n 10 sqlite3 "$db" > /dev/null || exit 1
  fi
  rm -f "$db.indexes"
}

# scale: fills the listing database up to M whole runs, then measures it.
scale () {
  if [ -n "$pg" ]; then
    db=$pgdir/gmpbench
    [ -n "$pgdir" ] || db=${TMPDIR:-/tmp}/gmpbench-fill-$(printf %s "$pg" | cksum | cut -d' ' -f1)
    case $pg in *\?*) fill_target="$pg&" ;; *) fill_target="$pg?" ;; esac
    fill_target="${fill_target}options=-csynchronous_commit%3Doff"
    target=$pg
  else
    db=${keep:-$tmp/list.db}
    fill_target=$db
    target=$db
  fi
  have=$(sql 'SELECT count(*) FROM results' 2> /dev/null || echo 0)
  if [ "${have:-0}" -lt "$m" ]; then
    echo "scale: storing $((m - have)) whole runs (bench/server-fill.c)..."
    load
    if [ "${have:-0}" = 0 ]; then       # the schema, and the first result
      "$tmp/server-fill" "$fill_target" "$fixture" 1 1 1 > /dev/null 2> "$tmp/fill.log" ||
        { tail "$tmp/fill.log" >&2; exit 1; }
      have=1
    fi
    t0=$(date +%s)
    indexes_off
    # from a little before the count: an interrupted fill leaves holes
    # among its last numbers (at most one per thread), refilled here
    first=$((have > 64 ? have - 63 : 1))
    nice -n 10 "$tmp/server-fill" "$fill_target" "$fixture" $first "$m" 4 \
      2> "$tmp/fill.log" || { tail "$tmp/fill.log" >&2; exit 1; }
    t1=$(date +%s)
    indexes_on
    echo "scale: filled in $((t1 - t0)) s, indexes made in $(($(date +%s) - t1)) s"
    load
  fi
  count=$(sql 'SELECT count(*) FROM results')
  if [ -n "$pg" ]; then
    sql 'VACUUM ANALYZE' > /dev/null
    bytes=$(sql 'SELECT pg_database_size(current_database())')
    echo "where the bytes go (tables with their indexes and TOAST):"
    sql "SELECT relname || ': ' || pg_total_relation_size(oid) FROM pg_class
         WHERE relname IN ('results', 'ranks', 'tests', 'names', 'scores', 'test_scores')" | sed 's/^/  /'
  else
    sql 'DELETE FROM changes' > /dev/null 2>&1     # what the fill announced
    sql 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
    bytes=$(($(sql 'PRAGMA page_count') * $(sql 'PRAGMA page_size')))
    echo "where the bytes go (the largest tables and indexes):"
    sql "SELECT name || ': ' || sum(pgsize) FROM dbstat GROUP BY name
         ORDER BY sum(pgsize) DESC LIMIT 8" | sed 's/^/  /'
  fi
  echo "scale: $count results, $bytes bytes, $((bytes / count)) bytes per result"

  # The fill stores at the uploads' level; a server would now start the
  # background repack of every frame (about 41 ms of one core each: 11
  # hours at a million), which a site that grew by uploads finished long
  # ago.  Its position is set past the last result, so that the figures
  # below are a site's at rest; -p leaves it to run during them.
  [ -n "$with_repack" ] ||
    sql "UPDATE backfill SET next = (SELECT max(seq) FROM results) WHERE name = 'repack'" > /dev/null
  cpu=$(sql 'SELECT cpu FROM results GROUP BY cpu ORDER BY count(*) DESC LIMIT 1')
  ncpu=$(sql "SELECT count(*) FROM results WHERE cpu = '$cpu'")
  q=/api/v1/results
  start "$target"
  snapshot
  echo "the CPU with the most results has $ncpu"
  for page in "/" "/cpu?cpu=$cpu" "$q?os=Ubuntu&sort=gmpbench.base.multiply&limit=50" \
      "$q?os=Ubuntu&sort=gmpbench.base.multiply.8192&limit=50" "/api/v1/cpus"; do
    echo "$page, first request: $(curl -s -o /dev/null -w '%{http_code} in %{time_total} s' \
      "http://$addr$page")"
    load
    "$tmp/server-load" list $addr 4 "$requests" "$page" | grep -v '^list:'
  done
  load
  t0=$(date +%s.%N)
  lines=$(curl -sf "http://$addr/api/v1/dump" | wc -l)
  echo "dump: $lines lines in $(echo "$(date +%s.%N) - $t0" | bc) s"
  if [ "$uploads" -gt 0 ]; then
    load
    "$tmp/server-load" upload $addr "$fixture" "$uploads" "$c" | sed 's/^/one server: /'
  fi
  if [ -n "$pg" ] && [ "$uploads" -gt 0 ]; then
    one=$addr
    start "$target" server2.log
    snapshot
    load
    "$tmp/server-load" upload "$one,$addr" "$fixture" "$uploads" "$c" | sed 's/^/two servers: /'
  fi
  stop
  load
}

# snapshot: waits until the server at addr has its leaderboard's first
# snapshot (pages answer 503 until then), and says how long that took.
snapshot () {
  t0=$(date +%s.%N)
  while [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/")" = 503 ]; do sleep 0.1; done
  echo "the leaderboard's first snapshot ready after $(echo "$(date +%s.%N) - $t0" | bc) s"
}

# ---------------------------------------------------------------- main

if [ -n "$whole" ] && [ -z "$fixture" ]; then
  echo "making a whole-run document (gmpbench run --quick --time-per-test 0.01)..."
  mkdir "$tmp/config"
  XDG_CONFIG_HOME=$tmp/config "$build/gmpbench" run --quick --time-per-test 0.01 --quiet \
    -o "$tmp/whole-run.json" > /dev/null || exit 1
  fixture=$tmp/whole-run.json
fi
fixture=${fixture:-$src/tests/fixtures/server-result.json}

if [ "$n" -gt 0 ]; then
  echo "uploads: $n documents ($(basename "$fixture"), $(wc -c < "$fixture") bytes) over $c connections"
  "$tmp/server-load" validate "$fixture" 200
  start "$tmp/upload.db"
  "$tmp/server-load" upload $addr "$fixture" $n $c | tee "$tmp/upload.txt"
  stop
  accepted=$(sed -n 's/.* \([0-9]*\) answered 201.*/\1/p' "$tmp/upload.txt")
  stored=$(sqlite3 "$tmp/upload.db" 'SELECT count(*) FROM results')
  echo "stored: $stored results for $accepted accepted"
  [ "$stored" = "$accepted" ] || { echo "MISMATCH" >&2; exit 1; }
  rm -f "$tmp/upload.db"*
fi

[ "$m" -gt 0 ] || exit 0
if [ -n "$whole" ]; then
  [ -z "$pgdir" ] || pg_start "$pgdir"
  [ -z "$pg_uri" ] || pg_use "$pg_uri"
  scale
  exit 0
fi
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
# The leaderboard's in-memory snapshot (server/board/board.h) is built in the
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
