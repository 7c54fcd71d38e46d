# server-lib.sh: helpers for the server tests (tests/t03NN-server-*.sh),
# sourced after lib.sh: keys and signed documents made with the openssl
# command line exactly as docs/protocol.md shows, a gmpbench-server on a
# free 127.0.0.1 port, HTTP requests with curl, and a private PostgreSQL.

SERVER="$BUILDDIR/gmpbench-server"
DOCGEN="$SRCDIR/tests/server-doc.py"
# The system's python3 starts faster than wrappers (pyenv) found first.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

# need_server: skips the whole test when the server or the tools are absent.
need_server () {
  if [ "$BUILD_SERVER" = no ] || [ ! -x "$SERVER" ]; then
    skip "server tests (gmpbench-server is not built)"
    exit 0
  fi
  for tool in openssl curl python3; do
    if ! command -v $tool > /dev/null 2>&1; then
      skip "server tests ($tool is not installed)"
      exit 0
    fi
  done
}

# make_key NAME: creates NAME.pem, prints the base64 raw public key.
make_key () {
  openssl genpkey -algorithm ed25519 -out "$1.pem" 2> /dev/null &&
    openssl pkey -in "$1.pem" -pubout -outform DER | tail -c 32 | openssl base64 -A
}

# fingerprint NAME: the key's fingerprint (hex SHA-256 of the raw key).
fingerprint () {
  openssl pkey -in "$1.pem" -pubout -outform DER | tail -c 32 | openssl dgst -sha256 -r | cut -c1-64
}

# sign FILE NAME: the base64 Ed25519 signature of FILE's bytes by NAME.pem.
sign () {
  openssl pkeyutl -sign -inkey "$2.pem" -rawin -in "$1" -out "$1.sig.bin" &&
    openssl base64 -A < "$1.sig.bin"
}

# make_doc OUT KEYNAME [server-doc.py options]: a document with the key's
# public key in it.
make_doc () {
  out=$1 key=$2
  shift 2
  $PY "$DOCGEN" "$(openssl pkey -in "$key.pem" -pubout -outform DER | tail -c 32 | openssl base64 -A)" \
    "$out" "$@"
}

# copy_doc SRC OUT KEYNAME [NAME]: SRC's measurements in a document of
# KEYNAME's (its public key, submitter.name NAME or none, the results in
# reverse order and printed again), as a copier makes one to sign.
copy_doc () {
  $PY - "$1" "$2" "$(openssl pkey -in "$3.pem" -pubout -outform DER | tail -c 32 | openssl base64 -A)" \
    "${4:-}" <<'EOF'
import json, sys
src, out, key, name = sys.argv[1:5]
doc = json.load(open(src))
doc["submitter"] = {"public_key": key}
if name:
    doc["submitter"]["name"] = name
doc["results"].reverse()
with open(out, "w") as f:
    json.dump(doc, f, indent=2)
EOF
}

# random_port: a port of 127.0.0.1 that nothing listens on now: the kernel
# picks it for a socket bound to port 0, which is then closed.  (A port
# drawn at random collided now and then with another test's server when
# test suites ran side by side; the failed start left its error in
# server.log.)
random_port () {
  $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server DATABASE [OPTIONS]: starts $SERVER on a free port
# (launch_server), logging to server.log; sets SRV_PID and URL.  Fails
# after 10 tries.  Every test uploads from 127.0.0.1, one source: the limit
# per source is off unless OPTIONS set it (a build before sources has
# none).
start_server () {
  db=$1
  shift
  source_rate=
  "$SERVER" --help | grep -q -e --source-rate && source_rate='--source-rate 0'
  for try in 1 2 3 4 5 6 7 8 9 10; do
    port=$(random_port)
    URL="http://127.0.0.1:$port"
    # shellcheck disable=SC2086
    if launch_server "$SERVER" server.log "$port" --database "$db" --threads 4 $source_rate "$@"; then
      SRV_PID=$LAUNCHED_PID
      return 0
    fi
  done
  return 1
}

# start_test_server DATABASE [OPTIONS]: start_server for the whole test:
# the test fails and ends if the server does not start, and the server is
# stopped when the test ends.
start_test_server () {
  start_server "$@" || { fail "the server starts"; exit 1; }
  trap 'stop_server' EXIT
}

# stop_server [PID]: SIGTERM, then waits; sets $stop_status.
stop_server () {
  pid=${1:-$SRV_PID}
  kill -TERM "$pid" 2> /dev/null
  wait "$pid"
  stop_status=$?
}

# post FILE SIGNATURE [QUERY]: uploads; body in resp.json, prints the
# status code.  With FROM set, the upload says it was forwarded for the
# address FROM (a server under --trust-proxy takes it as the client's);
# with EACH_SOURCE set, every upload comes from a network of its own
# (next_source), as honest peers do.
post () {
  [ -z "$EACH_SOURCE" ] || next_source
  curl -sS -o resp.json -w '%{http_code}' -X POST --data-binary "@$1" \
    -H 'Content-Type: application/json' -H "Gmpbench-Signature: $2" \
    ${FROM:+-H "X-Forwarded-For: $FROM"} "$URL/api/v1/results$3"
}

# next_source: sets FROM to an address of a network no upload came from
# yet, in the IPv6 documentation range (2001:db8::/32): a source of its
# own for a server under --trust-proxy.  Counted in a file, so that calls
# in command substitutions count too.
next_source () {
  used=$(cat sources.used 2> /dev/null || echo 0)
  used=$((used + 1))
  echo "$used" > sources.used
  FROM=$(printf '2001:db8:%x::1' "$used")
}

# signed_docs KEY NAME [server-doc.py options]: the documents cJ.json
# for J below $N, named "NAME J", signed by KEY (signatures in cJ.sig),
# for upload_all and upload_twice.
signed_docs () {
  signer=$1 prefix=$2
  shift 2
  i=0
  while [ $i -lt $N ]; do
    make_doc "c$i.json" "$signer" --name "$prefix $i" "$@"
    sign "c$i.json" "$signer" > "c$i.sig"
    i=$((i + 1))
  done
}

# upload_all URL FIRST STEP: uploads the signed documents cFIRST.json,
# cFIRST+STEP.json, ... below c$N.json (signatures in cJ.sig) to URL,
# printing each status code on a line.
upload_all () {
  j=$2
  while [ $j -lt $N ]; do
    curl -sS -o /dev/null -w '%{http_code}\n' -X POST --data-binary "@c$j.json" \
      -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(cat "c$j.sig")" \
      "$1/api/v1/results"
    j=$((j + $3))
  done
}

# upload_twice URL_A URL_B CLIENTS: every document cJ.json (J below $N)
# sent twice at once, to URL_A and to URL_B (the same server, or two on
# one database), by CLIENTS pairs of clients, pair K sending cK, cK+CLIENTS,
# ... (upload_all); the status codes in codes.aK and codes.bK.
upload_twice () {
  clients=
  k=0
  while [ $k -lt "$3" ]; do
    upload_all "$1" $k "$3" > "codes.a$k" &
    clients="$clients $!"
    upload_all "$2" $k "$3" > "codes.b$k" &
    clients="$clients $!"
    k=$((k + 1))
  done
  for p in $clients; do
    wait "$p"
  done
}

# get PATH: body in resp.json (headers in headers.txt), prints the status.
get () {
  curl -sS -D headers.txt -o resp.json -w '%{http_code}' "$URL$1"
}

# field EXPR [FILE]: a Python expression over the last answer, or FILE
# (bound to d).
field () {
  $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "${2:-resp.json}"
}

# upload_doc NAME KEY [server-doc.py options]: NAME.json, a document
# named NAME signed by KEY, uploaded to $URL (post); prints the status
# (the answer in resp.json).
upload_doc () {
  name=$1 key=$2
  shift 2
  make_doc "$name.json" "$key" --name "$name" "$@" && post "$name.json" "$(sign "$name.json" "$key")"
}

# flags_of ID: the flags of the result ID, comma-separated.
flags_of () {
  get "/api/v1/results/$1" > /dev/null
  field "','.join(d['flags'])"
}

# shows_soon URL TEXT: whether the page at URL has TEXT within 30
# seconds (for what an announcement, not a periodic rebuild, must bring);
# hides_soon URL TEXT: whether it lacks TEXT within 30 seconds.
shows_soon () {
  page_has_soon 1 "$@"
}
hides_soon () {
  page_has_soon 0 "$@"
}

# page_has_soon WANT URL TEXT: whether, within 30 seconds, the page at URL
# has TEXT (WANT 1) or lacks it (WANT 0).
page_has_soon () {
  for try in $(seq 300); do
    if curl -s "$2" | grep -q "$3"; then has=1; else has=0; fi
    [ "$has" = "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# expect_status DESCRIPTION WANT GOT
expect_status () {
  if [ "$3" = "$2" ]; then pass "$1"; else fail "$1 (status $3, wanted $2: $(head -c 300 resp.json))"; fi
}

# expect_rule DESCRIPTION STATUS RULE GOT: status and the error's rule.
expect_rule () {
  rule=$(field "d.get('rule')" 2> /dev/null)
  if [ "$4" = "$2" ] && [ "$rule" = "$3" ]; then
    pass "$1"
  else
    fail "$1 (status $4 rule $rule, wanted $2 $3: $(head -c 300 resp.json))"
  fi
}

# start_pg: a private PostgreSQL in a temporary directory (as the user
# postgres when running as root: initdb refuses root), on a free loopback
# port; sets PG_URI.  Returns 1 when PostgreSQL is not installed, or the
# server was built without it (./configure --without-postgresql).
start_pg () {
  [ "${HAVE_POSTGRESQL:-yes}" = yes ] || return 1
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
  [ -n "$PGBIN" ] || PGBIN=$(pg_config --bindir 2> /dev/null)
  [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] || return 1
  PGTMP=$(mktemp -d /tmp/gmpbench-pg.XXXXXX)
  RUNAS=
  if [ "$(id -u)" = 0 ]; then
    id postgres > /dev/null 2>&1 || return 1
    chown postgres "$PGTMP"
    RUNAS="runuser -u postgres --"
  fi
  $RUNAS "$PGBIN/initdb" -D "$PGTMP/data" -A trust -U gmpbench -E UTF8 --no-locale \
    > "$PGTMP/initdb.log" 2>&1 || { cat "$PGTMP/initdb.log"; return 1; }
  for try in 1 2 3 4 5; do
    PGPORT_TEST=$(random_port)
    if $RUNAS "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/server.log" -w -t 20 \
         -o "-p $PGPORT_TEST -k $PGTMP -c listen_addresses=127.0.0.1 -c fsync=off" \
         start > /dev/null 2>&1; then
      PG_URI="postgresql://gmpbench@127.0.0.1:$PGPORT_TEST/postgres"
      return 0
    fi
  done
  cat "$PGTMP/server.log"
  return 1
}

stop_pg () {
  [ -n "$PGTMP" ] || return 0
  $RUNAS "$PGBIN/pg_ctl" -D "$PGTMP/data" -m fast -w stop > /dev/null 2>&1
  rm -rf "$PGTMP"
}

# on_both_engines FN WHAT: FN ENGINE DB SQL... on a SQLite database
# (results.db), then on a private PostgreSQL, SQL being the command that
# runs SQL read from its standard input on that database; WHAT names the
# PostgreSQL part in the skip when PostgreSQL is not there.
on_both_engines () {
  "$1" sqlite "$PWD/results.db" sqlite3 "$PWD/results.db"
  if start_pg; then
    trap stop_pg EXIT
    "$1" postgresql "$PG_URI" $RUNAS "$PGBIN/psql" -X -q -t -v ON_ERROR_STOP=1 "$PG_URI"
  else
    skip "$2 (built --without-postgresql, PostgreSQL not installed, or it did not start)"
  fi
}
