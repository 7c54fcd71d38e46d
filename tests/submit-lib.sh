# submit-lib.sh: shared setup of the t5xx tests of signing and uploading,
# sourced after lib.sh.  Every file the client keeps goes under $TEST_TMP,
# proxies are off, and servers listen on 127.0.0.1 only.  A command that
# forgets --server talks to 127.0.0.1:9 (nothing listens there), never to
# the public server.

HOME="$TEST_TMP/home"
XDG_CONFIG_HOME="$TEST_TMP/config"
XDG_DATA_HOME="$TEST_TMP/data"
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME" "$XDG_CONFIG_HOME/gmpbench" "$XDG_DATA_HOME"
# Uploads here are scripted: consent is given in the config file, as a
# volunteer's scripts would (t0560 tests the question itself).
echo 'consent = yes' > "$XDG_CONFIG_HOME/gmpbench/config"
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
GMPBENCH_SERVER=http://127.0.0.1:9
NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
export GMPBENCH_SERVER NO_PROXY no_proxy

HELPERS="$BUILDDIR/tests"
SPOOL="$XDG_DATA_HOME/gmpbench/spool"

# make_result FILE: a tiny benchmark run, signed with the default identity
# (FILE and FILE.sig).
make_result () {
  "$GMPBENCH" run --only 'gmpbench.base.multiply.128' --time-per-test 0.05 -q \
    -o "$1.unsigned" > /dev/null && "$HELPERS/helper-sign" "$1.unsigned" "$1"
}

# upload_line_id [FILE]: the result id of the first "uploaded: URL" line of
# FILE (out.txt), as the man page documents the line: the URL ends in
# /results/ID, and " (flagged: FLAG ...)" may follow.
upload_line_id () {
  sed -n 's|^uploaded: .*/results/\([0-9a-f]*\)\( (flagged:\( [a-z-]*\)*)\)\{0,1\}$|\1|p' \
    "${1:-out.txt}" | head -n 1
}

# upload_line_flags [FILE]: that line's flags, separated by commas (empty
# when none).
upload_line_flags () {
  sed -n 's|^uploaded: .*/results/[0-9a-f]* (flagged: \(.*\))$|\1|p' "${1:-out.txt}" |
    head -n 1 | tr ' ' ','
}

# spool_count: the number of queued entries.
spool_count () {
  ls "$SPOOL" 2> /dev/null | grep -c '\.spool$'
}

# random_port: a port in 20000-39999.
random_port () {
  echo $(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000 ))
}

# start_server [PORT]: a gmpbench-server on 127.0.0.1 (a random free port
# unless PORT; launch_server) with its database in $TEST_TMP; sets
# SERVER_PID, SERVER_PORT, SERVER_URL and SERVER_LOG.  Fails when no server
# is built or it does not come up.
start_server () {
  [ "$BUILD_SERVER" = yes ] && [ -x "$BUILDDIR/gmpbench-server" ] || return 1
  for try in 1 2 3 4 5 6 7 8; do
    SERVER_PORT=${1:-$(random_port)}
    SERVER_LOG="$TEST_TMP/server.$SERVER_PORT.$try.log"
    if launch_server "$BUILDDIR/gmpbench-server" "$SERVER_LOG" "$SERVER_PORT" \
      --database "$TEST_TMP/server.db"; then
      SERVER_PID=$LAUNCHED_PID
      SERVER_URL="http://127.0.0.1:$SERVER_PORT"
      return 0
    fi
  done
  return 1
}

stop_server () {
  stop_process "$SERVER_PID"
  SERVER_PID=
}

# attempts: how many requests the scripted responder saw.
attempts () {
  if [ -f fake.log ]; then wc -l < fake.log; else echo 0; fi
}
