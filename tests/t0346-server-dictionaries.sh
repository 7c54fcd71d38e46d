# t0346-server-dictionaries.sh: once 64 results are stored the server
# trains a zstd dictionary from them (table dicts), compresses new
# documents with it and rewrites the older ones onto it in the
# background; every document still comes back as the exact bytes
# uploaded (/raw, the dump), after a restart too, and on PostgreSQL from
# a second server on the same database.  A document whose
# dictionary is missing or damaged in the database is refused
# (500, corrupt) and nothing else breaks.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null
N=66
i=1
while [ $i -le $N ]; do
  make_doc "d$i.json" alice --from "$SRCDIR/tests/fixtures/server-full.json" --name "run$i" \
    --scale "1.$i" && sign "d$i.json" alice > "d$i.sig"
  i=$((i + 1))
done

# up I [URL]: uploads dI.json, prints the status.
up () {
  curl -sS -o resp.json -w '%{http_code}' -X POST --data-binary "@d$1.json" \
    -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(cat "d$1.sig")" \
    "${2:-$URL}/api/v1/results"
}

idof () {
  sha256sum "d$1.json" | cut -c1-16
}

# all_exact [URL]: whether /raw of every document stored gives its bytes,
# and the dump all of them.
all_exact () {
  j=1
  while [ $j -le $stored ]; do
    curl -sS -o raw.json "${1:-$URL}/api/v1/results/$(idof $j)/raw" && cmp -s raw.json "d$j.json" ||
      { echo "doc $j differs: $(head -c 300 raw.json)" >&2; return 1; }
    j=$((j + 1))
  done
  curl -sS -o dump.ndjson "${1:-$URL}/api/v1/dump" && $PY - $stored <<'PYEOF'
import hashlib, json, sys
docs = {}
for line in open('dump.ndjson', encoding='utf-8'):
    e = json.loads(line)
    docs[e['id']] = e['document'].encode('utf-8')
for j in range(1, int(sys.argv[1]) + 1):
    raw = open('d%d.json' % j, 'rb').read()
    if docs.get(hashlib.sha256(raw).hexdigest()[:16]) != raw:
        sys.exit(1)
PYEOF
}

# sql_value SQL...: the first value the query on its standard input gives.
sql_value () {
  "$@" 2> /dev/null | head -1 | tr -d ' '
}

# wait_for WHAT SQL...: waits up to 60 s for the query WHAT to give 1.
wait_for () {
  what=$1
  shift
  for t in $(seq 1 120); do
    [ "$(echo "$what" | sql_value "$@")" = 1 ] && return 0
    sleep 0.5
  done
  return 1
}

# restart_after SQL CMD...: the server stopped, SQL run on $db by CMD
# (run_checks' SQL command), the log emptied, the server started again.
restart_after () {
  sql=$1
  shift
  stop_server
  echo "$sql" | "$@" > /dev/null 2>&1
  : > server.log
  start_server "$db" --key-rate 0 --address-rate 0
}

run_checks () {
  engine=$1 db=$2
  shift 2
  : > server.log
  if [ "$engine" = postgresql ]; then
    start_server "$db" --key-rate 0 --address-rate 0 && URL2=$URL PID2=$SRV_PID
  fi
  start_server "$db" --key-rate 0 --address-rate 0 || { fail "$engine: the server starts"; return; }
  stored=0 ok=1
  while [ $stored -lt 64 ]; do
    stored=$((stored + 1))
    [ "$(up $stored)" = 201 ] || ok=0
  done
  check "$engine: 64 documents are stored" [ $ok = 1 ]
  first=$(echo "SELECT length(packed) FROM results WHERE seq = 1;" | sql_value "$@")
  check "$engine: a dictionary is trained from them" \
    wait_for "SELECT count(*) FROM dicts;" "$@"
  check "$engine: ... and the older documents rewritten onto it" \
    wait_for "SELECT count(*) FROM backfill WHERE name = 'repack' AND next = 64;" "$@"
  now=$(echo "SELECT length(packed) FROM results WHERE seq = 1;" | sql_value "$@")
  check "$engine: ... smaller than before ($first bytes, now $now)" [ "$now" -lt "$first" ]
  stored=65
  expect_status "$engine: a document is stored after it" 201 "$(up 65)"
  new=$(echo "SELECT length(packed) FROM results WHERE seq = 65;" | sql_value "$@")
  # On PostgreSQL the server uploaded to may not have read the
  # dictionary the other one trained yet.
  [ "$engine" = postgresql ] ||
    check "$engine: ... compressed with it ($new bytes)" [ "$new" -lt "$first" ]
  check "$engine: ... then repacked" \
    wait_for "SELECT count(*) FROM backfill WHERE name = 'repack' AND next = 65;" "$@"
  dense=$(echo "SELECT length(packed) FROM results WHERE seq = 65;" | sql_value "$@")
  check "$engine: ... denser than an upload ($new bytes, now $dense)" [ "$dense" -lt "$new" ]
  check "$engine: /raw and the dump give every document's exact bytes" all_exact
  if [ "$engine" = postgresql ]; then
    check "$engine: a second server on the database serves them too" all_exact "$URL2"
    stop_server $PID2
  fi
  check "$engine: the log says a dictionary was trained" grep -q "dictionary [0-9]* (.*) trained on" \
    server.log
  stop_server
  start_server "$db" --key-rate 0 --address-rate 0 || { fail "$engine: the server starts again"; return; }
  check "$engine: ... and after a restart" all_exact

  restart_after "UPDATE dicts SET id = id + 1;" "$@" ||
    { fail "$engine: the server starts again"; return; }
  expect_rule "$engine: a document naming a dictionary not stored is refused" 500 corrupt \
    "$(get "/api/v1/results/$(idof 65)/raw")"
  check "$engine: the log says which result and why" \
    grep -q "result $(idof 65) (seq [0-9]*) is not served: its compressed document names dictionary" \
    server.log
  check "$engine: ... and that the stored dictionary is not one" \
    grep -q "dictionary [0-9]* cannot be read: dictionary [0-9]* is not a zstd dictionary of that id" \
    server.log
  expect_status "$engine: listings go on" 200 "$(get "/api/v1/results")"
  stored=$((stored + 1))
  make_doc "d$stored.json" alice --from "$SRCDIR/tests/fixtures/server-full.json" --name late &&
    sign "d$stored.json" alice > "d$stored.sig"
  expect_status "$engine: uploads go on" 201 "$(up $stored)"
  curl -sS -o raw.json "$URL/api/v1/results/$(idof $stored)/raw"
  check "$engine: ... and are served" cmp -s raw.json "d$stored.json"
  sleep 3
  check "$engine: the dictionary that is not one is logged once, not each second ($(grep -c "dictionary [0-9]* cannot be read" server.log) times)" \
    [ "$(grep -c "dictionary [0-9]* cannot be read" server.log)" = 1 ]

  restart_after "UPDATE dicts SET id = id - 1; UPDATE dicts SET content = substr(content, 1, 2000);" \
    "$@" || { fail "$engine: the server starts again"; return; }
  expect_rule "$engine: a document whose dictionary is damaged is refused" 500 corrupt \
    "$(get "/api/v1/results/$(idof 65)/raw")"
  check_fails "$engine: the dump stops before it, incomplete" \
    curl -sS -o dump.ndjson "$URL/api/v1/dump"
  expect_status "$engine: the server goes on" 200 "$(get "/api/v1/cpus")"
  stop_server
}

on_both_engines run_checks "the PostgreSQL checks"
