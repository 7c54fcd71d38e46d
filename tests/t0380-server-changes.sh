# t0380-server-changes.sh: changes reach a running server's leaderboard
# whoever makes them, and a retraction is all or nothing.  On SQLite and
# on PostgreSQL (a private one, as t0310 starts it), with --aggregate-ttl
# an hour, so that nothing below is the work of a periodic rebuild:
# - a retraction whose judgement of its category fails (a fault injected
#   as a trigger refusing any change of flags) answers 503 and changes
#   nothing: the result stays listed, the flags stay; without the fault
#   it retracts and re-judges;
# - `gmpbench-server key verify` and `key ban`, separate processes, reach
#   the leaderboard of the running server;
# - on PostgreSQL, with two servers on the database, an upload to one and
#   its retraction reach the other's leaderboard.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server
# Every upload from a network of its own: honest peers (t0375 is about sources).
EACH_SOURCE=1
command -v sqlite3 > /dev/null || { skip "changes (the sqlite3 command is needed)"; exit 0; }

make_key mallory > /dev/null
make_key bob > /dev/null
make_key dave > /dev/null

# retract ID KEY: prints the status.
retract () {
  printf 'gmpbench-retract:%s' "$1" > retract.msg
  curl -sS -o resp.json -w '%{http_code}' -X POST \
    -H "Gmpbench-Signature: $(sign retract.msg "$2")" "$URL/api/v1/results/$1/retract"
}

# sql DATABASE STATEMENT: runs STATEMENT on a SQLite file or a
# postgresql:// URI.
sql () {
  case $1 in
    postgresql://*) "$PGBIN/psql" -X -A -t -q -d "$1" -c "$2" ;;
    *) sqlite3 "$1" "$2" ;;
  esac
}

# retraction DATABASE LABEL: a category of an early outlier and five
# peers; the retraction of a peer lifts the outlier's flag, unless the
# fault makes that fail, when nothing may change.
retraction () {
  db=$1 label=$2
  cpu='x86:AuthenticAMD:family=25:model=17:stepping=0'
  upload_doc early mallory --identity "$cpu" --base --scale 1.2 > /dev/null
  early=$(field "d['id']")
  peers=
  for scale in 1 1.01 0.99 1.02 0.98; do
    upload_doc "peer$scale" bob --identity "$cpu" --base --scale $scale > /dev/null
    peers="$peers $(field "d['id']")"
  done
  set -- $peers
  check "$label: the early result is an outlier among five peers" [ "$(flags_of "$early")" = outlier ]
  case $db in
    postgresql://*)
      sql "$db" "CREATE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS
        \$\$BEGIN RAISE EXCEPTION 'injected fault'; END\$\$;
        CREATE TRIGGER fault BEFORE UPDATE OF flags ON results FOR EACH ROW EXECUTE FUNCTION fault();" ;;
    *)
      sql "$db" "CREATE TRIGGER fault BEFORE UPDATE OF flags ON results
        BEGIN SELECT RAISE(ABORT, 'injected fault'); END;" ;;
  esac
  st=$(retract "$1" bob)
  expect_status "$label: a retraction whose judgement cannot be stored answers 503" 503 "$st"
  st=$(get "/api/v1/results/$1")
  expect_status "$label: ... and the result is not retracted" 200 "$st"
  get "/api/v1/results?cpu=$cpu" > /dev/null
  check "$label: ... it is still listed" [ "$(field "'$1' in [r['id'] for r in d['results']]")" = True ]
  check "$label: ... and the flags are as they were" [ "$(flags_of "$early")" = outlier ]
  case $db in
    postgresql://*) sql "$db" "DROP TRIGGER fault ON results; DROP FUNCTION fault();" ;;
    *) sql "$db" "DROP TRIGGER fault;" ;;
  esac
  st=$(retract "$1" bob)
  expect_status "$label: without the fault the retraction is done" 200 "$st"
  st=$(get "/api/v1/results/$1")
  expect_status "$label: ... the result answers 410" 410 "$st"
  check "$label: ... and its category is judged again (the early result's flag falls)" \
    [ -z "$(flags_of "$early")" ]
}

# keys DATABASE LABEL BASE: a result of dave's, verified and then banned
# by the key commands while the server at BASE runs.
keys () {
  db=$1 label=$2 base=$3
  upload_doc daves dave --identity 'x86:AuthenticAMD:family=25:model=116:stepping=1' > /dev/null
  check "$label: the leaderboard shows a new result" shows_soon "$base/api/v1/leaderboard" model=116
  check "$label: ... not among verified publishers'" \
    hides_soon "$base/api/v1/leaderboard?verified=1" model=116
  "$SERVER" key verify "$(fingerprint dave)" --name 'Dave Labs' --database "$db" > /dev/null 2>> server.log
  check "$label: key verify, another process, reaches the running server's leaderboard" \
    shows_soon "$base/api/v1/leaderboard?verified=1" model=116
  "$SERVER" key ban "$(fingerprint dave)" --database "$db" > /dev/null 2>> server.log
  check "$label: key ban, another process, takes the result off the running server's leaderboard" \
    hides_soon "$base/api/v1/leaderboard" model=116
}

start_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 3600 --trust-proxy \
  || { fail "sqlite: the server starts"; exit 1; }
curl -s "$URL/" > /dev/null
retraction "$PWD/results.db" sqlite
keys "$PWD/results.db" sqlite "$URL"
stop_server

if ! start_pg; then
  skip "PostgreSQL (built --without-postgresql, initdb/pg_ctl not found, or PostgreSQL did not start)"
  stop_pg
  exit 0
fi
trap stop_pg EXIT
start_server "$PG_URI" --key-rate 0 --aggregate-ttl 3600 --trust-proxy \
  || { fail "postgresql: the first server starts"; exit 1; }
URL1=$URL PID1=$SRV_PID
start_server "$PG_URI" --key-rate 0 --aggregate-ttl 3600 --trust-proxy \
  || { fail "postgresql: the second server starts"; exit 1; }
URL2=$URL PID2=$SRV_PID
curl -s "$URL1/" > /dev/null
curl -s "$URL2/" > /dev/null

URL=$URL1
retraction "$PG_URI" postgresql
upload_doc other mallory --identity 'x86:AuthenticAMD:family=26:model=68:stepping=0' > /dev/null
other=$(field "d['id']")
check "postgresql: an upload to one server reaches the other's leaderboard" \
  shows_soon "$URL2/api/v1/leaderboard" model=68
retract "$other" mallory > /dev/null
check "postgresql: ... and so does its retraction" hides_soon "$URL2/api/v1/leaderboard" model=68
keys "$PG_URI" postgresql "$URL2"
stop_server "$PID1"
stop_server "$PID2"
