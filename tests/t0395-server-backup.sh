# t0395-server-backup.sh: `gmpbench-server backup DEST --database DB`
# copies a live SQLite database while uploads go on: the copy passes
# PRAGMA integrity_check and holds every result answered 201 before the
# backup began; the restore of docs/server.md ("Backups": stop the
# server, put the copy in place of the database and remove its -wal and
# -shm, start) serves those results; and what the command refuses
# (PostgreSQL, a destination it cannot write, a missing database) it
# refuses with a message and a non-zero exit, leaving no partial file.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server
command -v sqlite3 > /dev/null || { skip "backups (the sqlite3 command is needed)"; exit 0; }

N=32
make_key dora > /dev/null
signed_docs dora "backed up" --multiply

# send FIRST STEP: uploads cFIRST.json, cFIRST+STEP.json, ... below
# c$N.json, printing "STATUS ID" for each once its answer is read.
send () {
  j=$1
  while [ $j -lt $N ]; do
    code=$(curl -sS -o "resp.$1.json" -w '%{http_code}' -X POST --data-binary "@c$j.json" \
      -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(cat "c$j.sig")" \
      "$URL/api/v1/results")
    echo "$code $(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "resp.$1.json")"
    j=$((j + $2))
  done
}

start_test_server "$PWD/results.db" --address-rate 0 --key-rate 0
send 0 8 > sent.first
clients=
for k in 1 2 3 4 5 6 7; do
  send $k 8 > "sent.$k" &
  clients="$clients $!"
done
# The backup begins once the clients have had a few uploads answered.
for wait in $(seq 200); do
  [ "$(cat sent.[1-7] | grep -c '^201 ')" -ge 7 ] && break
  sleep 0.05
done
# Every line written now is an upload answered before the backup began.
cat sent.first sent.[1-7] | grep '^201 ' | cut -d' ' -f2 | sort > before.ids
run_status "$SERVER" backup "$PWD/copy.db" --database "$PWD/results.db"
for p in $clients; do
  wait "$p"
done
check "backup exits 0 while uploads go on, and says what it copied ($(cat out.txt err.txt | head -c 300))" \
  sh -c "[ $status -eq 0 ] && grep -q '^$PWD/copy.db: [0-9]* results, schema [0-9]*, ' out.txt"
check "the copy passes PRAGMA integrity_check" [ "$(sqlite3 copy.db 'PRAGMA integrity_check')" = ok ]
check "the copy is one file (rollback journal, not WAL)" \
  sh -c "[ \"\$(sqlite3 copy.db 'PRAGMA journal_mode')\" = delete ] && [ ! -e copy.db-wal ]"
sqlite3 copy.db 'SELECT id FROM results' | sort > copy.ids
missing=$(comm -23 before.ids copy.ids | wc -l)
check "the copy holds all $(wc -l < before.ids) results answered 201 before the backup began ($missing missing)" \
  sh -c "[ $(wc -l < before.ids) -gt 8 ] && [ $missing -eq 0 ]"
total=$(cat sent.first sent.[1-7] | grep -c '^201 ')
copied=$(wc -l < copy.ids)
check "every upload was stored ($total of $N), the copy a moment of them ($copied)" \
  sh -c "[ $total -eq $N ] && [ $copied -le $N ]"
check "the command says how many results the copy holds" \
  grep -q "^$PWD/copy.db: $copied results," out.txt

# The restore, as docs/server.md says.
stop_server
rm -f results.db results.db-wal results.db-shm
cp copy.db results.db
start_server "$PWD/results.db" --address-rate 0 || { fail "the server starts on the copy"; exit 1; }
served=0
for id in $(head -n 5 copy.ids); do
  [ "$(get "/api/v1/results/$id")" = 200 ] && [ "$(field "d['id']")" = "$id" ] && served=$((served + 1))
done
get "/api/v1/results?limit=100" > /dev/null
listed=$(field "len(d['results'])")
check "restored: the server serves the copy's results ($served of 5 asked; $listed listed of $copied)" \
  sh -c "[ $served -eq 5 ] && [ $listed -eq $copied ]"

# PostgreSQL's dump and restore, as docs/server.md shows them.
if start_pg; then
  trap 'stop_server; stop_pg' EXIT
  stop_server
  start_server "$PG_URI" --address-rate 0 --key-rate 0 || { fail "the server starts on PostgreSQL"; exit 1; }
  N=5
  send 0 1 > sent.pg
  stop_server
  "$PGBIN/pg_dump" --format=custom --file=pg.dump "$PG_URI" 2> pg.err
  "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT_TEST" -U gmpbench -E UTF8 restored 2>> pg.err
  "$PGBIN/pg_restore" --no-owner --role=gmpbench \
    --dbname="postgresql://gmpbench@127.0.0.1:$PGPORT_TEST/restored" pg.dump 2>> pg.err
  start_server "postgresql://gmpbench@127.0.0.1:$PGPORT_TEST/restored" ||
    { fail "the server starts on the restored PostgreSQL database"; exit 1; }
  served=0
  for id in $(grep '^201 ' sent.pg | cut -d' ' -f2); do
    [ "$(get "/api/v1/results/$id")" = 200 ] && served=$((served + 1))
  done
  check "PostgreSQL: pg_dump, pg_restore into a new database, and the server serves the $served results ($(head -c 200 pg.err))" \
    [ "$served" = 5 ]
else
  skip "PostgreSQL's dump and restore (PostgreSQL not installed or did not start)"
fi

# Refusals.
run_status "$SERVER" backup "$PWD/pg.db" --database postgresql://gmpbench@127.0.0.1:9/gmpbench
check "PostgreSQL is refused, pointing to pg_dump (exit 2)" \
  sh -c "[ $status -eq 2 ] && grep -q pg_dump err.txt && [ ! -e pg.db ]"
run_status "$SERVER" backup "$PWD/no/such/dir/copy.db" --database "$PWD/results.db"
check "an unwritable destination is an error naming it (exit 1)" \
  sh -c "[ $status -eq 1 ] && grep -q 'no/such/dir/copy.db' err.txt"
run_status "$SERVER" backup "$PWD/none.copy" --database "$PWD/missing.db"
check "a missing database is an error naming it, and nothing is left behind" \
  sh -c "[ $status -eq 1 ] && grep -q 'missing.db' err.txt && [ ! -e none.copy ] && [ ! -e none.copy.partial ] && [ ! -e missing.db ]"
sqlite3 notours.db 'CREATE TABLE t (x)'
run_status "$SERVER" backup "$PWD/notours.copy" --database "$PWD/notours.db"
check "a SQLite file that is not a gmpbench database is refused, nothing left behind" \
  sh -c "[ $status -eq 1 ] && grep -q 'not a gmpbench database' err.txt && [ ! -e notours.copy ] && [ ! -e notours.copy.partial ]"
run_status "$SERVER" backup
check "backup without DEST is a usage error (exit 2)" [ $status -eq 2 ]
