# t0345-server-stored-bodies.sh: documents are stored compressed, on
# SQLite and on PostgreSQL, and come back as the exact bytes uploaded
# (/raw and the dump); a stored document damaged in the database (another
# result's, or a cut frame) is refused with a clear error, never served,
# and the other results are served as before.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null

# upload NAME SCALE: a signed document scoring gmpbench.base.multiply.
upload () {
  make_doc "$1.json" alice --name "$1" --multiply --scale "$2" &&
    post "$1.json" "$(sign "$1.json" alice)"
}

# idof NAME: the id of NAME.json.
idof () {
  sha256sum "$1.json" | cut -c1-16
}

# dumped NAME: writes the dump's document of NAME.json (from dump.ndjson)
# to NAME.dumped.
dumped () {
  $PY - "$(idof "$1")" "$1.dumped" <<'EOF'
import json, sys
for line in open('dump.ndjson', encoding='utf-8'):
    e = json.loads(line)
    if e['id'] == sys.argv[1]:
        open(sys.argv[2], 'wb').write(e['document'].encode('utf-8'))
EOF
}

# run_checks ENGINE DB SQL...: the checks, with SQL the command that runs
# a script on DB from its standard input.
run_checks () {
  engine=$1 db=$2
  shift 2
  : > server.log
  start_server "$db" --key-rate 0 || { fail "$engine: the server starts"; return; }
  expect_status "$engine: a document is stored" 201 "$(upload a 1)"
  expect_status "$engine: another is stored" 201 "$(upload b 2)"
  size=$(wc -c < a.json)
  check "$engine: the documents are kept compressed, to less than half" \
    sh -c "echo \"SELECT count(*) FROM results WHERE body = '' AND length(packed) * 2 < $size;\" |
      $* 2> /dev/null | grep -qx ' *2'"
  for name in a b; do
    st=$(get "/api/v1/results/$(idof $name)/raw")
    check "$engine: /raw gives $name's exact bytes" sh -c "[ $st = 200 ] && cmp -s resp.json $name.json"
  done
  curl -sS -o dump.ndjson "$URL/api/v1/dump"
  dumped a
  dumped b
  check "$engine: the dump gives the exact bytes" sh -c "cmp -s a.dumped a.json && cmp -s b.dumped b.json"

  echo "UPDATE results SET packed = (SELECT packed FROM results WHERE sha256 LIKE '$(idof b)%')
    WHERE sha256 LIKE '$(idof a)%';" | "$@" > /dev/null 2>&1
  expect_rule "$engine: another result's document in its place is refused" 500 corrupt \
    "$(get "/api/v1/results/$(idof a)/raw")"
  expect_rule "$engine: ... parsed too" 500 corrupt "$(get "/api/v1/results/$(idof a)")"
  check "$engine: ... and on its page" \
    sh -c "[ \$(curl -s -o /dev/null -w '%{http_code}' $URL/results/$(idof a)) = 500 ]"
  check_fails "$engine: the dump stops before it, incomplete" \
    curl -sS -o dump.ndjson "$URL/api/v1/dump"
  check "$engine: the log says which result and why" \
    grep -q "result $(idof a) (seq [0-9]*) is not served: its stored document's SHA-256 is" \
    server.log
  echo "UPDATE results SET packed = substr(packed, 1, 40) WHERE sha256 LIKE '$(idof b)%';" |
    "$@" > /dev/null 2>&1
  expect_rule "$engine: a cut compressed document is refused" 500 corrupt \
    "$(get "/api/v1/results/$(idof b)/raw")"
  check "$engine: the log says it does not decompress" \
    grep -q "result $(idof b) (seq [0-9]*) is not served: its compressed document does not decompress" \
    server.log
  expect_status "$engine: uploads go on" 201 "$(upload c 3)"
  st=$(get "/api/v1/results/$(idof c)/raw")
  check "$engine: and are served" sh -c "[ $st = 200 ] && cmp -s resp.json c.json"
  stop_server
}

on_both_engines run_checks "the PostgreSQL checks"
