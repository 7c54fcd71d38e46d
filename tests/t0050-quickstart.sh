# t0050-quickstart.sh: scripts/install-deps asks for the client's and the
# server's packages and, only with --test, for the tests' tools; and
# scripts/quickstart, in a copy of this built tree (--no-install: nothing
# is installed), starts its own server on a free 127.0.0.1 port, runs the
# GMPbench score's tests, uploads the result there, and prints where to
# look, the command for every test and its time per step.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"

deps="$SRCDIR/scripts/install-deps"
"$deps" --packages > client.txt
"$deps" --packages --server > server.txt
"$deps" --packages --test > test.txt
has () { grep -qx "$2" "$1"; }
check "install-deps: the client's list has the compiler and the benchmarked libraries" \
  sh -c "grep -qx gcc client.txt && grep -qx libgmp-dev client.txt && grep -qx libssl-dev client.txt"
check_fails "install-deps: the client's list has no server library" has client.txt libmicrohttpd-dev
for p in libmicrohttpd-dev libsqlite3-dev libpq-dev libzstd-dev; do
  check "install-deps --server adds $p" has server.txt "$p"
done
check "install-deps --server keeps every package of the client's list" \
  sh -c "! grep -vxF -f server.txt client.txt"
for p in postgresql chromium clang qemu-user wine autoconf; do
  check_fails "install-deps --server does not ask for the tests' $p" has server.txt "$p"
  check "install-deps --test asks for $p" has test.txt "$p"
done
run_status "$deps" --bogus
check "install-deps: an unknown option exits 2 naming it" \
  sh -c "[ $status -eq 2 ] && grep -q -- \"'--bogus'\" err.txt"

run_status "$SRCDIR/scripts/quickstart" --bogus
check "quickstart: an unknown option exits 2 naming it" \
  sh -c "[ $status -eq 2 ] && grep -q -- \"'--bogus'\" err.txt"
run_status "$SRCDIR/scripts/quickstart" --help
check "quickstart --help says what it runs" \
  sh -c "[ $status -eq 0 ] && grep -q -- '--only' out.txt && grep -q -- '--no-install' out.txt"

# The run itself needs a built server, and quickstart builds in the tree
# it is in: a copy of this one, already built, so that make has nothing
# left to do.
if [ "$BUILD_SERVER" = no ] || [ ! -x "$BUILDDIR/gmpbench-server" ] \
   || [ "$(cd "$SRCDIR" && pwd -P)" != "$(cd "$BUILDDIR" && pwd -P)" ]; then
  skip "quickstart's run (it needs the server, built in the source tree)"
  exit 0
fi
mkdir tree
(cd "$SRCDIR" && tar -c --exclude=./.git --exclude=./quickstart --exclude=./tests/out .) \
  | (cd tree && tar -x) || { fail "copying the built tree"; exit 0; }
port=$(random_port)
run_status tree/scripts/quickstart --no-install --port "$port"
pid=$(cat tree/quickstart/server.pid 2> /dev/null)
check "quickstart --no-install ends with status 0" [ "$status" -eq 0 ]
check "quickstart: make had nothing to rebuild in the built copy" \
  sh -c "! grep -q '^gcc .* -c ' out.txt"
check "quickstart ran the GMPbench score's tests only" \
  [ "$(json_get tree/quickstart/result.json 'd["run"]["only"]')" = "['gmpbench']" ]
check "quickstart's result has the GMPbench score" \
  [ "$(json_get tree/quickstart/result.json '"gmpbench" in d["scores"]')" = True ]
check "quickstart uploaded it to its own server on port $port" \
  grep -q "^Your result: http://127.0.0.1:$port/results/" out.txt
check "quickstart's server serves the result it names" \
  curl -sf -o /dev/null "$(sed -n 's/^Your result: //p' out.txt)"
check "quickstart prints the command that runs every test" \
  grep -q "gmpbench run --quick --submit --yes --server http://127.0.0.1:$port" out.txt
check "quickstart prints the time of each step and the total" \
  sh -c "grep -q '^Time per step:' out.txt && grep -q '^  build ' out.txt \
    && grep -q '^  run --quick, upload ' out.txt && grep -q '^  total ' out.txt"
check "quickstart says how to stop its server" grep -q "kill $pid\$" out.txt
# The server outlives quickstart: holding quickstart's stdout, it would
# keep a pipe reading it (scripts/quickstart | tee) from ever ending.
if [ -n "$pid" ] && [ -e "/proc/$pid/fd/1" ]; then
  check "quickstart's server writes to its log, not to quickstart's stdout" \
    sh -c "readlink /proc/$pid/fd/1 | grep -q '/quickstart/server.log\$'"
else
  skip "where quickstart's server writes (no /proc/PID/fd)"
fi
[ -n "$pid" ] && kill "$pid" 2> /dev/null
