# lib.sh: helpers for the shell tests, sourced by tests/tNNNN-*.sh.
# Each check prints one line, PASS:, FAIL: or SKIP:, for run-tests.sh.

GMPBENCH="$BUILDDIR/gmpbench"

pass () { echo "PASS: $*"; }
fail () { echo "FAIL: $*"; }
skip () { echo "SKIP: $*"; }

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds.
check () {
  desc=$1
  shift
  if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# check_fails DESCRIPTION COMMAND...: passes when COMMAND fails.
check_fails () {
  desc=$1
  shift
  if "$@"; then fail "$desc"; else pass "$desc"; fi
}

# run_status COMMAND...: runs COMMAND with stdout in out.txt and stderr in
# err.txt, and sets $status.
run_status () {
  "$@" > out.txt 2> err.txt
  status=$?
}

# json_get FILE EXPR: evaluates a Python expression on the JSON document
# in FILE (bound to d).
json_get () {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# wait_catching PID SIGNAL: waits (at most 30 s) until process PID has a
# handler for SIGNAL (a number), read from /proc/PID/status: a signal sent
# earlier, while a loaded machine is still starting the program, would
# find the default action.  Without /proc it waits one second.
wait_catching () {
  if [ ! -r "/proc/$1/status" ]; then
    sleep 1
    return 0
  fi
  waited=0
  while [ $waited -lt 300 ] && kill -0 "$1" 2> /dev/null; do
    mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null)
    [ -n "$mask" ] && [ $(( (0x$mask >> ($2 - 1)) & 1 )) -eq 1 ] && return 0
    sleep 0.1
    waited=$((waited + 1))
  done
  return 1
}

# signal_status PID SIG TENTHS: sends SIG to the background job PID, waits
# up to TENTHS tenths of a second for it to end (then kills it) and sets
# $status to its exit status.
signal_status () {
  kill -"$2" "$1"
  waited=0
  while kill -0 "$1" 2> /dev/null && [ $waited -lt "$3" ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL "$1" 2> /dev/null
  wait "$1"
  status=$?
}

# launch_server BINARY LOG PORT ARGS...: starts the gmpbench-server
# BINARY on 127.0.0.1:PORT with ARGS, its stderr appended to LOG, and waits
# (at most 5 s) until the lines it adds to LOG say it listens on that port,
# which it writes once the socket accepts connections (another test's
# server on the same port would answer requests too, and an earlier server
# of this test may have logged that port before).  Sets LAUNCHED_PID; when
# the server ends first or never says so, it is stopped and 1 returned.
launch_server () {
  binary=$1 log=$2 port=$3
  shift 3
  logged=$(cat "$log" 2> /dev/null | wc -l)
  "$binary" --listen "127.0.0.1:$port" "$@" 2>> "$log" &
  LAUNCHED_PID=$!
  for wait in $(seq 100); do
    tail -n "+$((logged + 1))" "$log" | grep -q "listening on 127.0.0.1:$port," && return 0
    kill -0 "$LAUNCHED_PID" 2> /dev/null || break
    sleep 0.05
  done
  stop_process "$LAUNCHED_PID"
  return 1
}

# stop_process [PID]: SIGTERM to the background job PID, if any, and waits
# for it to end.
stop_process () {
  [ -n "$1" ] || return 0
  kill "$1" 2> /dev/null
  wait "$1" 2> /dev/null
}

# find_chromium: sets CHROMIUM to the Chromium on the PATH
# (chromium, chromium-browser or google-chrome) and ARTIFACTS to the
# directory its screenshots are kept in ($BUILDDIR/tests/artifacts, made);
# returns 1 when there is none.
find_chromium () {
  CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
  [ -n "$CHROMIUM" ] || return 1
  ARTIFACTS="$BUILDDIR/tests/artifacts"
  mkdir -p "$ARTIFACTS"
}

# start_fake ANSWER...: the scripted responder (tests/helper-httpd.c);
# sets FAKE_PID and FAKE_URL; requests are logged in fake.log.
start_fake () {
  rm -f fake.port fake.log
  "$BUILDDIR/tests/helper-httpd" fake.port fake.log "$@" &
  FAKE_PID=$!
  for i in $(seq 100); do
    [ -s fake.port ] && break
    sleep 0.05
  done
  FAKE_URL="http://127.0.0.1:$(cat fake.port)"
}

# stop_fake: stops it.
stop_fake () {
  stop_process "$FAKE_PID"
  FAKE_PID=
}
