# t0550-run-submit.sh: the whole mission in one command: `gmpbench run
# --submit` on a fresh machine makes the key, signs the result, writes
# FILE and FILE.sig, and uploads it; with the server down the result is
# queued and `submit --pending` delivers it later.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

if ! "$GMPBENCH" run --help | grep -q -- '--submit'; then
  skip "gmpbench run --submit (this gmpbench run does not sign and upload yet)"
  exit 0
fi
if ! start_server; then
  skip "gmpbench run --submit (no gmpbench-server built, or it did not start)"
  exit 0
fi
trap 'stop_server' EXIT
tiny="--only gmpbench.base.multiply.128 --time-per-test 0.05 -q"

run_status "$GMPBENCH" run $tiny -o r.json --submit --server "$SERVER_URL"
check "run --submit on a fresh machine: signed, written, uploaded" \
  sh -c "[ $status -eq 0 ] && [ -s r.json.sig ] && grep -q '^uploaded: .*/results/' out.txt"
check "the first run made the key (mode 0600) and said so" \
  sh -c "ls -l '$XDG_CONFIG_HOME/gmpbench/key.pem' | grep -q '^-rw-------' && grep -q 'signing key' err.txt"
run_status "$GMPBENCH" verify r.json
check "the run's result verifies offline" [ "$status" -eq 0 ]
if command -v curl > /dev/null; then
  id=$(sha256sum r.json | cut -c1-16)
  curl -s "$SERVER_URL/api/v1/results/$id/raw" > fetched.json
  check "the server holds the run's exact bytes" cmp -s fetched.json r.json
fi

stop_server
run_status "$GMPBENCH" run $tiny -o r2.json --submit --server "$SERVER_URL"
check "run --submit with the server down: the result is written and queued (exit 75)" \
  sh -c "[ $status -eq 75 ] && [ -s r2.json ] && [ $(spool_count) -eq 1 ]"
if start_server "$SERVER_PORT"; then
  run_status "$GMPBENCH" submit --pending
  check "submit --pending delivers the queued run" \
    sh -c "[ $status -eq 0 ] && [ $(spool_count) -eq 0 ]"
fi
rm -rf "$SPOOL"
mkdir -p "$TEST_TMP/ro"
: > "$TEST_TMP/ro/gmpbench"
stop_server
run_status env XDG_DATA_HOME="$TEST_TMP/ro" "$GMPBENCH" run $tiny -o r3.json --submit \
  --server "$SERVER_URL"
check "server down and spool unwritable: exit 1, the message names the result file" \
  sh -c "[ $status -eq 1 ] && grep -q 'stays in r3.json' err.txt && \"$GMPBENCH\" verify r3.json > /dev/null"
