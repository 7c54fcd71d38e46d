# t0530-faults.sh: upload faults against a scripted responder
# (tests/helper-httpd.c), each with nothing lost: 503 twice then 201
# (retried), 429 with Retry-After (honoured), a dropped connection
# (retried), a 4xx (shown, not retried, not queued), a stalled server
# (timeout, queued), and a spool that cannot be written (the result stays
# where it is and the message says so).  kill -9 during spool writes is
# tests/unit-submit-crash.c.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

trap 'stop_fake' EXIT
make_result r.json
sig=$(cat r.json.sig)
len=$(wc -c < r.json)

start_fake 503 503 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "503 twice then 201: uploaded after three attempts" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt && [ \$(wc -l < fake.log) -eq 3 ]"
check "each retry is announced with its delay" \
  sh -c "[ \$(grep -c 'retrying in' err.txt) -eq 2 ]"
check "every attempt sent the same bytes and signature" \
  sh -c "[ \$(grep -c 'POST /api/v1/results $len $sig\$' fake.log) -eq 3 ]"
stop_fake

start_fake 429:1 201
t0=$(date +%s)
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
t1=$(date +%s)
check "429 with Retry-After: 1 is retried after the delay it asks for" \
  sh -c "[ $status -eq 0 ] && grep -q 'retrying in 1.0 s' err.txt && [ $((t1 - t0)) -ge 1 ]"
stop_fake

start_fake 429:3600
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a Retry-After of an hour is not waited for: queued at once" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 1 ] && [ $(spool_count) -eq 1 ]"
rm -rf "$SPOOL"
stop_fake

start_fake close 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a connection closed without an answer is retried" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < fake.log) -eq 2 ]"
stop_fake

start_fake 422
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a 422 is not retried" [ "$(attempts)" -eq 1 ]
check "the 422's JSON error is shown in one line with its rule and field" \
  sh -c "[ $status -eq 1 ] && [ \$(wc -l < err.txt) -eq 1 ] && grep -q 'scripted failure 422 (422, rule scripted, field results\[0\].digest)' err.txt"
check "a rejected result is not queued" [ "$(spool_count)" -eq 0 ]
stop_fake

start_fake 400 201
run_status "$GMPBENCH" submit --server "$FAKE_URL" r.json
check "a 400 is not retried either" sh -c "[ $status -eq 1 ] && [ \$(wc -l < fake.log) -eq 1 ]"
stop_fake

start_fake stall
t0=$(date +%s)
run_status "$GMPBENCH" submit --server "$FAKE_URL" --timeout 1 --retries 1 r.json
t1=$(date +%s)
check "a stalled server times out on each attempt and the result is queued" \
  sh -c "[ $status -eq 75 ] && [ \$(wc -l < fake.log) -eq 2 ] && grep -q 'timed out' err.txt && [ $((t1 - t0)) -le 6 ]"
check "the queued entry holds the exact bytes" \
  sh -c "[ $(spool_count) -eq 1 ] && tail -c $len '$SPOOL'/*.spool | cmp -s - r.json"
stop_fake

start_fake 201
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "--pending --server sends the queued result to the given server and empties the queue" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < fake.log) -eq 1 ] && [ $(spool_count) -eq 0 ]"
stop_fake

start_fake 503
run_status "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 --unlisted r.json
stop_fake
start_fake 422
run_status "$GMPBENCH" submit --pending --server "$FAKE_URL"
check "an entry the server rejects is set aside as .rejected, not deleted" \
  sh -c "[ $status -eq 1 ] && [ $(spool_count) -eq 0 ] && ls '$SPOOL' | grep -q '\.rejected$'"
check "the unlisted flag travelled through the queue" grep -q 'POST /api/v1/results?unlisted=1 ' fake.log
stop_fake
rm -rf "$SPOOL"

# The spool cannot be written: its parent is a file.
mkdir -p "$TEST_TMP/ro"
: > "$TEST_TMP/ro/gmpbench"
start_fake 503
cp r.json keep.json && cp r.json.sig keep.json.sig
run_status env XDG_DATA_HOME="$TEST_TMP/ro" "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json
check "an unwritable spool: exit 1, the message says the result stays in its file" \
  sh -c "[ $status -eq 1 ] && grep -q 'not queued' err.txt && grep -q 'stays in keep.json' err.txt && cmp -s keep.json r.json"
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$TEST_TMP/rodir/gmpbench/spool"
  chmod 500 "$TEST_TMP/rodir/gmpbench/spool"
  run_status env XDG_DATA_HOME="$TEST_TMP/rodir" "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json
  check "a read-only spool directory: exit 1, the result stays in its file" \
    sh -c "[ $status -eq 1 ] && grep -q 'stays in keep.json' err.txt"
  chmod 700 "$TEST_TMP/rodir/gmpbench/spool"
else
  skip "a read-only spool directory (running as root, which may write anyway)"
fi
# A full disk: writes fail with EFBIG past a tiny file size limit.
(
  trap '' XFSZ
  ulimit -f 4
  "$GMPBENCH" submit --server "$FAKE_URL" --retries 0 keep.json > full.out 2> full.err
  echo $? > full.status
)
check "a full disk while queueing: exit 1, the result stays in its file, no partial entry" \
  sh -c "[ \$(cat full.status) -eq 1 ] && grep -q 'stays in keep.json' full.err && [ $(spool_count) -eq 0 ]"
stop_fake
