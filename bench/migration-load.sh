#!/bin/sh
# migration-load.sh: how long does a server take to start on a database
# that still needs migration 10 (every result's GMP build kind read again
# from its stored body: system.build.gmp.build), at M results on SQLite?
#
# 1. Makes a SQLite database with the server (the latest schema), fills it
#    with M results whose body is FIXTURE (by default the real one-test
#    document tests/fixtures/server-result.json, 8 KB; whole runs are
#    20 to 160 KB), 200 CPU identities, run mode and build kind as
#    migration 9 left them, in one SQL transaction, and sets the schema
#    back to version 9 (the migrations after 9 only add what they need).
# 2. Starts gmpbench-server on it and prints how long it took to listen,
#    how long each migration took (from the log's timestamps) and, when
#    the server left the rewriting of the results to a thread of its own
#    (server/store/store_backfill.c), when that was done.
#
# usage: bench/migration-load.sh [-b BUILDDIR] [-m M] [-f FIXTURE] [-k DB]
#   defaults: -b . -m 1000000 -f tests/fixtures/server-result.json; -k
#   keeps the filled database at DB (at schema 9, copied for the run).

. "$(dirname "$0")/lib.sh"
build=. m=1000000 fixture= keep=
options 'b:build m:m f:fixture k:keep' "$@"
server=$(built_server "$build") || exit 1
build=$(cd "$build" && pwd)
fixture=$(cd "$(dirname "${fixture:-$src/tests/fixtures/server-result.json}")" && pwd)/$(basename "${fixture:-server-result.json}")
command -v sqlite3 > /dev/null || { echo "sqlite3 (the command) is needed" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

# serve DB: starts the server on DB and waits (without limit) until it
# listens; sets pid and addr.
serve () {
  port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
  "$server" --listen 127.0.0.1:$port --database "$1" 2> "$tmp/server.log" &
  pid=$!
  until grep -q 'listening on' "$tmp/server.log"; do
    kill -0 $pid 2> /dev/null || { cat "$tmp/server.log" >&2; exit 1; }
    sleep 0.05
  done
  addr=127.0.0.1:$port
}

stop () {
  kill $pid
  wait $pid
  pid=
}

# fill DB M: M results with the fixture's body at schema 9.
fill () {
  sqlite3 "$1" << EOF
PRAGMA journal_mode=WAL;
BEGIN;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $2)
INSERT INTO results (seq, id, sha256, received, fingerprint, public_key, submitter,
  arch, cpu, cpu_name, os, gmp, compiler, created, scores, flags, flagged, unlisted, listed,
  body, signature, vendor, mhz, cores, mode, build, flags_at, flag_notes)
SELECT n, printf('%016x', n), printf('%064x', n), 1700000000 + n, printf('%064x', n % 5000),
  'cHVibGljIGtleQ==', 'bench', 'x86_64',
  printf('x86:AuthenticAMD:family=25:model=%d:stepping=1', n % 200), 'AMD EPYC',
  'Debian GNU/Linux', '6.2.1', 'gcc', '2026-11-30T05:00:00Z', '{"gmpbench": 3664.97}', '', 0, 0,
  1, CAST(readfile('$fixture') AS TEXT), 'c2lnbmF0dXJl', 'AMD', 2000, 8, 'custom', 'generic',
  1700000000 + n, ''
FROM i;
DELETE FROM schema_version WHERE version > 9;
DROP TABLE IF EXISTS changes;
COMMIT;
EOF
}

db=${keep:-$tmp/filled.db}
have=$(sqlite3 "$db" 'SELECT count(*) FROM results' 2> /dev/null || echo 0)
if [ "$have" -lt "$m" ]; then
  rm -f "$db" "$db-wal" "$db-shm"
  serve "$db"       # creates the schema
  stop
  echo "storing $m results of $(wc -c < "$fixture") bytes each..."
  t0=$(date +%s)
  fill "$db" "$m" || exit 1
  sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
  echo "stored in $(($(date +%s) - t0)) s"
fi
echo "database: $(sqlite3 "$db" 'SELECT count(*) FROM results') results," \
  "schema $(sqlite3 "$db" 'SELECT max(version) FROM schema_version'), $(du -m "$db" | cut -f1) MB"
cp "$db" "$tmp/run.db"
sync
echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s.%N)
serve "$tmp/run.db"
printf 'listening after %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
# Each migration's time: from the server's start, or the migration
# before, to the log line saying it is done.
python3 -c '
import calendar, json, sys, time
prev = float(sys.argv[2])
for line in open(sys.argv[1]):
    e = json.loads(line)
    t = calendar.timegm(time.strptime(e["time"][:19], "%Y-%m-%dT%H:%M:%S")) + float(e["time"][19:-1])
    if "migrated" in e.get("message", ""):
        print("%s: %.1f s" % (e["message"], t - prev))
        prev = t' "$tmp/server.log" "$t0"
# A backfill left to the server's thread (server/store/store_backfill.c): its time.
if grep -q 'while the server runs' "$tmp/server.log"; then
  until grep -q 'read again (migration 10)"' "$tmp/server.log"; do
    kill -0 $pid 2> /dev/null || { cat "$tmp/server.log" >&2; exit 1; }
    sleep 0.5
  done
  printf 'backfill done %.0f s after the start\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
fi
stop
echo "load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
