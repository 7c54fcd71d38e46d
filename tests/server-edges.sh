# server-edges.sh: HTTP at the edges, a 429 on keep-alive, and draining,
# over raw sockets (tests/http-edges.py), on every storage backend;
# sourced by t0300 (SQLite) and t0310 (PostgreSQL) after server-lib.sh.
#
# run_edges DATABASE LABEL QUERY: QUERY is a command that prints the ids
# of the results stored under one fingerprint ($1), one a line.

EDGES="$SRCDIR/tests/http-edges.py"

# The port of $URL.
url_port () {
  echo "${URL##*:}"
}

run_edges () {
  db=$1 label=$2 query=$3
  if ! start_server "$db" --address-rate 0 --key-rate 0; then
    fail "$label: the server starts"
    return
  fi
  $PY "$EDGES" edges "$(url_port)" "$label"
  stop_server
  if start_server "$db" --address-rate 0.001 --address-burst 1; then
    $PY "$EDGES" rate "$(url_port)" "$label"
    stop_server
  else
    fail "$label: the server starts with a rate limit"
  fi
  start_server "$db" --address-rate 0 --key-rate 0 || fail "$label: the server restarts"
  make_key busy > /dev/null
  make_doc busy.json busy --name "$label busy"
  sign busy.json busy > busy.json.sig
  $PY "$EDGES" idle "$(url_port)" "$SRV_PID" "$label" busy.json
  wait "$SRV_PID"
  status=$?
  check "$label: SIGTERM with an idle and a busy connection drains both and exits 0 (status $status)" \
    [ "$status" = 0 ]

  check "$label: the upload answered during the drain is stored" \
    [ "$($query "$(fingerprint busy)" | wc -l)" = 1 ]

  # Keep-alive uploads while SIGTERM arrives: what was answered 201 is
  # what was stored, no more, no less.
  make_key drainer > /dev/null
  docs=
  i=0
  while [ $i -lt 48 ]; do
    make_doc "d$i.json" drainer --name "$label drain $i"
    sign "d$i.json" drainer > "d$i.json.sig"
    docs="$docs d$i.json"
    i=$((i + 1))
  done
  # --drain longer than the clients' wait: only closing the keep-alive
  # connections ends them.
  start_server "$db" --address-rate 0 --key-rate 0 --drain 300 || fail "$label: the server restarts"
  $PY "$EDGES" drain "$(url_port)" "$SRV_PID" "$label" server.log answered.txt $docs
  wait "$SRV_PID"
  status=$?
  check "$label: SIGTERM under keep-alive uploads drains every connection and exits 0 (status $status)" \
    [ "$status" = 0 ]
  $query "$(fingerprint drainer)" | sort > stored.txt
  check "$label: every stored result was answered 201 and every result answered 201 is stored ($(wc -l < answered.txt) answered, $(wc -l < stored.txt) stored)" \
    cmp -s answered.txt stored.txt

  # The drain limit passes with an upload still arriving: exit status 3.
  start_server "$db" --address-rate 0 --key-rate 0 --drain 1 || fail "$label: the server restarts"
  $PY "$EDGES" stall "$(url_port)" "$SRV_PID" "$label"
  wait "$SRV_PID"
  status=$?
  check "$label: when the drain limit passes with a connection open, the exit status says so (status $status, wanted 3)" \
    [ "$status" = 3 ]
}
