# t0350-server-group-commit.sh: concurrent uploads to one server on
# SQLite, which commits the uploads that arrive together in one
# transaction: every document sent twice at once is created once and
# answered 200 the other time, in whatever transaction each lands, and the
# database holds each exactly once; a server killed with SIGKILL in the
# middle of such uploads leaves only whole results, each of them answered
# 201 or stored before the kill.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server
command -v sqlite3 > /dev/null || { skip "group commit (the sqlite3 command is needed)"; exit 0; }

N=40
make_key carol > /dev/null
signed_docs carol grouped --multiply

# Sixteen clients, each document sent by two of them at once.
start_server "$PWD/results.db" --threads 8 --address-rate 0 --key-rate 0 \
  || { fail "the server starts"; exit 1; }
upload_twice "$URL" "$URL" 8
stop_server
created=$(cat codes.* | grep -c '^201$')
again=$(cat codes.* | grep -c '^200$')
check "concurrent uploads: each document created once, answered 200 once ($created/$again of $N)" \
  [ "$created $again" = "$N $N" ]
stored=$(sqlite3 results.db "SELECT count(*) || ' ' || count(DISTINCT sha256) FROM results")
scores=$(sqlite3 results.db "SELECT count(DISTINCT seq) FROM ranks")
check "the database holds each document exactly once, with its scores ($stored, $scores)" \
  [ "$stored $scores" = "$N $N $N" ]
start_server "$PWD/results.db" && stop_server
stats=$(sqlite3 results.db "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'ranks'")
check "a server started on stored results gives SQLite's planner statistics of them ($stats indexes)" \
  [ "${stats:-0}" -gt 0 ]

# SIGKILL while uploads are in flight, into a fresh database.
start_server "$PWD/killed.db" --threads 8 --address-rate 0 --key-rate 0 \
  || { fail "the server starts again"; exit 1; }
clients=
for k in 0 1 2 3 4 5 6 7; do
  upload_all "$URL" $k 8 > "killed.$k" 2> /dev/null &
  clients="$clients $!"
done
sleep 0.3
kill -KILL "$SRV_PID"
wait "$SRV_PID" 2> /dev/null
for p in $clients; do
  wait "$p"
done
answered=$(cat killed.* | grep -c '^201$')
per=$(sqlite3 results.db "SELECT count(*) / count(DISTINCT seq) FROM ranks")
whole=$(sqlite3 killed.db "SELECT count(*) FROM results r WHERE (SELECT count(*) FROM ranks s
  WHERE s.seq = r.seq) = $per")
stored=$(sqlite3 killed.db "SELECT count(*) FROM results")
check "after SIGKILL every stored result is whole, and every 201 is stored ($stored stored, $whole whole, $answered answered 201)" \
  [ "$stored" = "$whole" ] && [ "$stored" -ge "$answered" ]
