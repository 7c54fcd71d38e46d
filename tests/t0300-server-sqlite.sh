# t0300-server-sqlite.sh: gmpbench-server end to end on SQLite: uploads
# signed with openssl and curl as docs/protocol.md shows, every rejection
# rule, listings, retraction, unlisted results (server-core.sh); HTTP at
# the edges and draining over raw sockets (server-edges.sh).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/server-core.sh"
. "$SRCDIR/tests/server-edges.sh"
need_server

make_key alice > /dev/null
make_key bob > /dev/null
run_core "$PWD/results.db" sqlite

stored_ids () {
  sqlite3 "$PWD/results.db" "SELECT id FROM results WHERE fingerprint = '$1'"
}
run_edges "$PWD/results.db" sqlite stored_ids
