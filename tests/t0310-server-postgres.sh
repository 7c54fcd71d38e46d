# t0310-server-postgres.sh: gmpbench-server on a real PostgreSQL that this
# test starts itself (initdb and pg_ctl in a temporary directory): the
# same integration checks as on SQLite, then two server processes sharing
# the database under concurrent uploads, each document sent to both:
# every accepted result must be stored exactly once; then HTTP at the
# edges and draining over raw sockets (server-edges.sh).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/server-core.sh"
. "$SRCDIR/tests/server-edges.sh"
need_server

if ! start_pg; then
  skip "PostgreSQL tests (built --without-postgresql, initdb/pg_ctl not found, or PostgreSQL did not start)"
  stop_pg
  exit 0
fi
trap stop_pg EXIT

make_key alice > /dev/null
make_key bob > /dev/null
run_core "$PG_URI" postgresql

# Two servers, one database.
N=30
make_key carol > /dev/null
signed_docs carol concurrent
start_server "$PG_URI" --address-rate 0 --key-rate 0 || fail "the first server starts"
URL1=$URL PID1=$SRV_PID
start_server "$PG_URI" --address-rate 0 --key-rate 0 || fail "the second server starts"
URL2=$URL PID2=$SRV_PID

# Four clients per server, every document sent once to each server.
upload_twice "$URL1" "$URL2" 4
created=$(cat codes.* | grep -c '^201$')
again=$(cat codes.* | grep -c '^200$')
check "two servers, concurrent uploads: each document created once, answered 200 once ($created/$again of $N)" \
  [ "$created $again" = "$N $N" ]
stored=$(PGPASSWORD= "$PGBIN/psql" -X -A -t -d "$PG_URI" \
  -c "SELECT count(*) || ' ' || count(DISTINCT sha256) FROM results WHERE fingerprint = '$(fingerprint carol)'")
check "two servers, concurrent uploads: the database holds each document exactly once ($stored)" \
  [ "$stored" = "$N $N" ]
stop_server "$PID1"
stop_server "$PID2"

stored_ids () {
  "$PGBIN/psql" -X -A -t -d "$PG_URI" -c "SELECT id FROM results WHERE fingerprint = '$1'"
}
run_edges "$PG_URI" postgresql stored_ids
