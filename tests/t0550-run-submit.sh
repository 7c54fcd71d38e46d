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
tiny="--only gmpbench.base.multiply.128 --time-per-test 0.05 -q"
trap 'stop_fake; stop_server' EXIT

# verify_saved FILE: FILE and FILE.sig exist and verify.
verify_saved () {
  [ -s "$1" ] && [ -s "$1.sig" ] && "$GMPBENCH" verify "$1" > /dev/null
}

# Without -o nothing else holds the result: a rejected one is saved here.
mkdir rejected && cd rejected
start_fake 422
run_status "$GMPBENCH" run $tiny --submit --server "$FAKE_URL"
saved=$(ls gmpbench-result-*.json 2> /dev/null)
check "run --submit without -o, rejected (422): exit 1, saved in the current directory" \
  sh -c "[ $status -eq 1 ] && [ -n '$saved' ] && grep -q 'rejected the result: .*saved as $saved' err.txt"
check "the saved result is signed and verifies" verify_saved "$saved"
check "the first run made the key (mode 0600) and said so" \
  sh -c "ls -l '$XDG_CONFIG_HOME/gmpbench/key.pem' | grep -q '^-rw-------' && grep -q 'signing key' err.txt"
check "a rejected result is not queued" [ "$(spool_count)" -eq 0 ]
stop_fake
cd ..

# Server down, spool unwritable (a file where its directory should be),
# current directory gone: the result goes to $TMPDIR.
mkdir -p "$TEST_TMP/ro" tmpdir gone
: > "$TEST_TMP/ro/gmpbench"
run_status sh -c "cd gone && rmdir ../gone && XDG_DATA_HOME='$TEST_TMP/ro' TMPDIR='$TEST_TMP/tmpdir' \
  exec '$GMPBENCH' run $tiny --submit --server http://127.0.0.1:9 --retries 0"
saved=$(ls tmpdir/gmpbench-result-*.json 2> /dev/null)
check "no spool, no current directory: the result is saved in \$TMPDIR and the message says so" \
  sh -c "[ $status -eq 1 ] && [ -n '$saved' ] && grep -q \"saved as $TEST_TMP/$saved\" err.txt"
check "the result saved in \$TMPDIR verifies" verify_saved "$saved"

# Nowhere to write at all: the result is printed on stderr, whole.
mkdir gone
run_status sh -c "cd gone && rmdir ../gone && XDG_DATA_HOME='$TEST_TMP/ro' TMPDIR='$TEST_TMP/none' \
  exec '$GMPBENCH' run $tiny --submit --server http://127.0.0.1:9 --retries 0"
sed -n '/^-----BEGIN GMPBENCH RESULT-----$/,/^-----END GMPBENCH RESULT-----$/p' err.txt \
  | sed '1d;$d' > lost.json
sed -n '/^-----END GMPBENCH RESULT-----$/{n;p;}' err.txt > lost.json.sig
check "nothing writable: exit 1, the message says the result follows on stderr" \
  sh -c "[ $status -eq 1 ] && grep -q 'the result follows on stderr' err.txt"
check "the result cut out of stderr is whole and verifies" verify_saved lost.json

# The options run --submit shares with submit.
run_status "$GMPBENCH" run $tiny --submit --dry-run --server http://192.0.2.1:1 --unlisted
check "run --submit --dry-run prints the request with the headers libcurl adds, sends nothing" \
  sh -c "[ $status -eq 0 ] && grep -q '^POST http://192.0.2.1:1/api/v1/results?unlisted=1\$' out.txt \
         && grep -q '^Host: 192.0.2.1:1\$' out.txt && grep -q '^User-Agent: gmpbench/' out.txt \
         && [ $(spool_count) -eq 0 ]"
start_fake 503
run_status "$GMPBENCH" run $tiny --submit --server "$FAKE_URL" --retries 0 --timeout 5
check "run --submit --retries 0: one attempt, then queued" \
  sh -c "[ $status -eq 75 ] && [ $(attempts) -eq 1 ] && [ $(spool_count) -eq 1 ]"
stop_fake
rm -rf "$SPOOL"
run_status "$GMPBENCH" run $tiny -o early.json --submit --server ftp://192.0.2.1
check "a server URL --submit cannot use is refused before the run (exit 2)" \
  sh -c "[ $status -eq 2 ] && grep -q 'not an http:// or https:// URL; nothing was run' err.txt \
         && [ ! -e early.json ]"
run_status "$GMPBENCH" run $tiny --retries 1
check "--retries without --submit is a usage error" \
  sh -c "[ $status -eq 2 ] && grep -q -- '--retries is an option of --submit' err.txt"

if ! start_server; then
  skip "gmpbench run --submit (no gmpbench-server built, or it did not start)"
  exit 0
fi

run_status "$GMPBENCH" run $tiny -o r.json --submit --server "$SERVER_URL"
check "run --submit on a fresh machine: signed, written, uploaded" \
  sh -c "[ $status -eq 0 ] && [ -s r.json.sig ] && grep -q '^uploaded: .*/results/' out.txt"
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
