# t0300-server-sqlite.sh: gmpbench-server end to end on SQLite: uploads
# signed with openssl and curl as docs/protocol.md shows, every rejection
# rule, listings, retraction, unlisted results (server-core.sh).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/server-core.sh"
need_server

make_key alice > /dev/null
make_key bob > /dev/null
run_core "$PWD/results.db" sqlite
