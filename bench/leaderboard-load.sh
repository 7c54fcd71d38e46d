#!/bin/sh
# leaderboard-load.sh: how fast are the leaderboard pages with a million
# stored results?  (Issue 7's target: p99 < 50 ms for the home page and a
# CPU page on a 2-core machine.)
#
# 1. Makes a SQLite database of M synthetic listed results (200 CPU
#    identities over 4 architectures, 4 OSes, 2 GMP versions, 2 compilers,
#    one result in 50 from a verified publisher; each with the scores of
#    gmpbench, gmpbench.base and the two RSA-2048 tests, and the nine
#    headline nodes in the scores column) in one bulk SQL
#    transaction, after the server has created the schema (storing them
#    one signed upload at a time would take the better part of an hour).
# 2. Starts gmpbench-server on it and waits for the leaderboard's first
#    in-memory snapshot (server/board/board.h; pages answer 503 "being prepared"
#    until then), times one view nobody asked for yet and one sort by a
#    node whose column is not loaded, then sends N requests over C
#    connections cycling through the home page and a CPU page, and N more
#    through a filtered and a node-sorted view and a CPU page with a
#    filter (bench/server-load.c list), and prints p50/p99.
# 3. Freshness: posts F signed one-test documents over 8 connections (as
#    bench/server-load.sh does) and meanwhile P probes of new CPU
#    identities, asking for each probe's CPU page right after its 201
#    until it shows (server-load fresh): how long after its 201 a result
#    is on the leaderboard while results keep arriving.
# 4. Waits until the snapshot is older than the server's --aggregate-ttl
#    (60 s), so that the next request starts a rebuild in the background,
#    and repeats the first N requests while it runs.
#
# With -B OTHER (another build directory, e.g. the code before a change),
# step 2 and 4 are left out and step 3 runs R times for each build,
# alternating (the other first), each on a server started afresh on the
# same database, after its first snapshot and the node-sorted view of
# step 2 (whose column every update then carries): before and after
# side by side on a machine whose load changes.
#
# usage: bench/leaderboard-load.sh [-b BUILDDIR] [-B OTHER [-r R]] [-m M] [-n N] [-c C] [-k DB] [-f F] [-p P]
#   defaults: -b . -r 2 -m 1000000 -n 2000 -c 4 -f 3000 -p 20; -k keeps
#   (and reuses) the database at DB (the uploads of step 3 stay in it).

. "$(dirname "$0")/lib.sh"
build=. other= rounds=2 m=1000000 n=2000 c=4 keep= fresh=3000 probes=20
options 'B:other r:rounds f:fresh p:probes b:build m:m n:n c:c k:keep' "$@"
server=$(built_server "$build") || exit 1
build=$(cd "$build" && pwd)
command -v sqlite3 > /dev/null || { echo "sqlite3 (the command) is needed" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
pids=
trap '[ -n "$pids" ] && kill $pids 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

. "$src/bench/server-lib.sh"

# The scores column of every result (what the CPU page parses for its
# hierarchy medians): the nine nodes a real result has.
scores='{"gmpbench": 3664.97, "gmpbench.base": 22100.97, "gmpbench.base.multiply": 36779.70, "gmpbench.base.divide": 47321.07, "gmpbench.base.gcd": 6980.22, "gmpbench.base.gcdext": 5511.55, "gmpbench.app": 607.76, "gmpbench.app.rsa": 7740.38, "gmpbench.app.pi": 47.72}'

# fill DB M: M synthetic results and their score rows, in one transaction.
fill () {
  sqlite3 "$1" << EOF
PRAGMA journal_mode=WAL;
BEGIN;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $2)
INSERT INTO results (seq, id, sha256, received, fingerprint, public_key, publisher, submitter,
  arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, unlisted, listed,
  body, signature, vendor, mhz, cores)
SELECT n, printf('%016x', n), printf('%064x', n), 1700000000 + n, printf('%064x', n % 5000),
  'cHVibGljIGtleQ==', CASE WHEN n % 50 = 0 THEN 'ACME Labs' END, 'bench',
  CASE (n % 200) % 4 WHEN 0 THEN 'x86_64' WHEN 1 THEN 'aarch64' WHEN 2 THEN 'ppc64le'
    ELSE 'riscv64' END,
  printf('x86:GenuineIntel:family=6:model=%d:stepping=1', n % 200),
  printf('Test CPU %d', n % 200),
  CASE (n / 200) % 4 WHEN 0 THEN 'Debian GNU/Linux' WHEN 1 THEN 'Fedora Linux'
    WHEN 2 THEN 'FreeBSD' ELSE 'macOS' END,
  CASE (n / 800) % 2 WHEN 0 THEN '6.3.0' ELSE '6.2.1' END,
  CASE (n / 1600) % 2 WHEN 0 THEN 'gcc' ELSE 'clang' END,
  '2026-11-30T05:00:00Z', '$scores', '', 0, 0, 1, '{"synthetic": true}', 'c2lnbmF0dXJl',
  CASE (n % 200) % 3 WHEN 0 THEN 'Intel' WHEN 1 THEN 'AMD' ELSE 'ARM' END,
  2000 + (n % 200) * 10, 4 + n % 8
FROM i;
INSERT INTO scores (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp, compiler)
  SELECT seq, 'gmpbench', 0, 1000 + (seq % 200) * 20 + abs(random() % 500),
    cpu, 1, 0, arch, os, gmp, compiler FROM results;
INSERT INTO scores (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp, compiler)
  SELECT seq, 'gmpbench.base', 1, 5000 + abs(random() % 5000),
    cpu, 1, 0, arch, os, gmp, compiler FROM results;
INSERT INTO test_scores (node, seq, score)
  SELECT 'gmpbench.app.rsa.2048', seq, 900 + abs(random() % 400) FROM results;
INSERT INTO test_scores (node, seq, score)
  SELECT 'openssl.rsa.sign.2048', seq, 1000 + abs(random() % 400) FROM results;
COMMIT;
ANALYZE;
EOF
}

db=${keep:-$tmp/board.db}
have=$(sqlite3 "$db" 'SELECT count(*) FROM results' 2> /dev/null || echo 0)
if [ "$have" -lt "$m" ]; then
  rm -f "$db" "$db-wal" "$db-shm"
  start "$db"       # creates the schema
  stop
  echo "storing $m synthetic results..."
  t0=$(date +%s)
  fill "$db" "$m" || exit 1
  echo "stored in $(($(date +%s) - t0)) s"
fi
echo "database: $(sqlite3 "$db" 'SELECT count(*) FROM results') results"

# first_snapshot: waits for the server's first snapshot; sets ready.
first_snapshot () {
  t0=$(date +%s.%N)
  while [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/")" = 503 ]; do :; done
  ready=$(date +%s.%N)
  printf 'first snapshot ready after %.2f s\n' "$(echo "$ready - $t0" | bc)"
}

if [ -n "$other" ]; then
  other=$(cd "$other" && pwd)
  for round in $(seq "$rounds"); do
    for dir in "$other" "$build"; do
      echo "round $round, $dir ($(cut -d' ' -f1 /proc/loadavg) load):"
      server=$dir/gmpbench-server
      start "$db"
      first_snapshot
      curl -s -o /dev/null "http://$addr/?sort=gmpbench.base"
      "$tmp/server-load" fresh $addr "$src/tests/fixtures/server-result.json" $fresh 8 $probes
      stop
    done
  done
  exit 0
fi

echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
start "$db"
cpu='x86:GenuineIntel:family=6:model=7:stepping=1'
first_snapshot
echo "a view not asked for before: $(curl -s -o /dev/null -w '%{time_total}' \
  "http://$addr/?os=Fedora%20Linux&compiler=clang") s"
echo "sorting by a node not loaded before: $(curl -s -o /dev/null -w '%{time_total}' \
  "http://$addr/?sort=gmpbench.base") s"
"$tmp/server-load" list $addr $c $n "/" "/cpu?cpu=$cpu"
"$tmp/server-load" list $addr $c $n \
  "/?arch=aarch64&os=FreeBSD" "/?sort=gmpbench.base" "/?verified=1&sort=rsa" \
  "/cpu?cpu=x86:GenuineIntel:family=6:model=42:stepping=1&gmp=6.3.0"
echo "freshness, $fresh uploads over 8 connections and $probes probes meanwhile:"
"$tmp/server-load" fresh $addr "$src/tests/fixtures/server-result.json" $fresh 8 $probes
sleep "$(echo "$ready + 61 - $(date +%s.%N)" | bc | sed 's/^-.*/0/')"
echo "while the snapshot is rebuilt:"
"$tmp/server-load" list $addr $c $n "/" "/cpu?cpu=$cpu"
# (the server logs builds that take a second or more)
for wait in $(seq 240); do
  [ "$(grep -c 'leaderboard snapshot of' "$tmp/server.log")" != 1 ] && break
  sleep 0.5
done
grep -o 'leaderboard snapshot of [^"]*' "$tmp/server.log"
stop
echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
