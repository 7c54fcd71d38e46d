# t0520-upload.sh: uploads against a real gmpbench-server on 127.0.0.1: the
# round trip (stored bytes equal the local file), a repeated upload, a
# dry run, a 4xx that is shown and not retried, a server that is down
# (queued, uploaded by --pending once it is up), and a retraction.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

if ! start_server; then
  skip "uploads to gmpbench-server (no server built, or it did not start)"
  exit 0
fi
trap 'stop_server' EXIT
posts () { grep -c '"method":"POST"' "$SERVER_LOG"; }

make_result r.json
run_status "$GMPBENCH" submit --server "$SERVER_URL" r.json
id=$(upload_line_id)
check "submit uploads a signed result and prints its permalink" \
  sh -c "[ $status -eq 0 ] && [ -n '$id' ]"
check "the id is the first 16 hex digits of the SHA-256 of the file" \
  [ "$id" = "$(sha256sum r.json | cut -c1-16)" ]
if command -v curl > /dev/null; then
  # This host's own run: whatever its CPU, the line says the flags the
  # server gave it, none if none.
  curl -s "$SERVER_URL/api/v1/results/$id" > stored.json
  check "the upload line's flags are the server's (here: '$(upload_line_flags)')" \
    [ "$(upload_line_flags)" = "$(json_get stored.json "','.join(d['flags'])")" ]
  curl -s "$SERVER_URL/api/v1/results/$id/raw" > fetched.json
  check "the stored raw bytes equal the local file" cmp -s fetched.json r.json
  curl -s "$SERVER_URL/api/v1/results/$id/signature" > fetched.sig
  check "the stored signature is the local .sig" \
    sh -c "[ \"\$(cat fetched.sig)\" = \"\$(cat r.json.sig)\" ]"
else
  skip "fetching the stored result back (no curl command)"
fi
run_status "$GMPBENCH" submit --server "$SERVER_URL" r.json
check "uploading the same bytes again answers 'already uploaded'" \
  sh -c "[ $status -eq 0 ] && grep -q '^already uploaded: .*/results/$id' out.txt"

run_status "$GMPBENCH" submit --dry-run --server "$SERVER_URL" --unlisted r.json
n=$(wc -c < r.json)
check "--dry-run prints the request line, the signature header and the exact body" \
  sh -c "[ $status -eq 0 ] && head -1 out.txt | grep -q '^POST $SERVER_URL/api/v1/results?unlisted=1$' \
         && grep -q \"^Gmpbench-Signature: \$(cat r.json.sig)\$\" out.txt \
         && tail -c $n out.txt | cmp -s - r.json"
check "--dry-run shows the headers libcurl adds: Host, User-Agent, Accept" \
  sh -c "sed -n '2,4p' out.txt | tr '\n' '|' \
         | grep -q '^Host: 127.0.0.1:$SERVER_PORT|User-Agent: gmpbench/[^|]*|Accept: \*/\*|\$'"

# A well-signed document the server must refuse: a test it does not know.
sed 's/"gmpbench.base.multiply.128"/"gmpbench.base.no-such-test"/' r.json.unsigned > wrong.unsigned
"$HELPERS/helper-sign" wrong.unsigned wrong.json
before=$(posts)
run_status "$GMPBENCH" submit --server "$SERVER_URL" wrong.json
check "a 422 is shown in one line with its rule, exit 1" \
  sh -c "[ $status -eq 1 ] && grep -q 'rule unknown-test' err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
check "a 422 is not retried (one POST)" [ "$(( $(posts) - before ))" -eq 1 ]
check "a rejected result is not queued" [ "$(spool_count)" -eq 0 ]

if command -v curl > /dev/null; then
  sed 's/"threads":[[:space:]]*1/"threads": 2/' r.json > t.json
  code=$(curl -s -o reply.json -w '%{http_code}' -X POST --data-binary @t.json \
    -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(cat r.json.sig)" \
    "$SERVER_URL/api/v1/results")
  check "the server rejects an edited result sent with the old signature (403)" [ "$code" = 403 ]
else
  skip "the server's answer to an edited result (no curl command)"
fi

# The server goes away: the result is queued, then uploaded by --pending.
make_result r2.json
stop_server
start=$(date +%s)
run_status "$GMPBENCH" submit --server "$SERVER_URL" --retries 1 r2.json
check "with the server down the result is queued (exit 75) and the message says so" \
  sh -c "[ $status -eq 75 ] && grep -q 'queued as' err.txt && grep -q 'submit --pending' err.txt"
check "one entry is queued" [ "$(spool_count)" -eq 1 ]
run_status "$GMPBENCH" status
check "status lists the queued result and its server" grep -q "bytes for $SERVER_URL" out.txt
run_status "$GMPBENCH" submit --pending --retries 0
check "--pending with the server still down keeps the entry (exit 75)" \
  sh -c "[ $status -eq 75 ] && [ \$(ls '$SPOOL' | grep -c '\.spool$') -eq 1 ]"
if start_server "$SERVER_PORT"; then
  run_status "$GMPBENCH" submit --pending
  id2=$(sha256sum r2.json | cut -c1-16)
  check "--pending uploads the queued result once the server is back" \
    sh -c "[ $status -eq 0 ] && grep -q '^uploaded: .*/results/$id2' out.txt"
  check "the uploaded entry left the spool" [ "$(spool_count)" -eq 0 ]
  if command -v curl > /dev/null; then
    curl -s "$SERVER_URL/api/v1/results/$id2/raw" > fetched2.json
    check "the bytes uploaded from the spool equal the original file" cmp -s fetched2.json r2.json
  else
    skip "fetching the result uploaded from the spool (no curl command)"
  fi
  run_status "$GMPBENCH" submit --pending
  check "--pending with nothing queued says so" \
    sh -c "[ $status -eq 0 ] && grep -q 'nothing is queued' err.txt"

  run_status "$GMPBENCH" retract --server "$SERVER_URL" "$id"
  check "retract withdraws the result" sh -c "[ $status -eq 0 ] && grep -q '^retracted $id' out.txt"
  if command -v curl > /dev/null; then
    code=$(curl -s -o /dev/null -w '%{http_code}' "$SERVER_URL/api/v1/results/$id")
    check "a retracted result answers 410 Gone" [ "$code" = 410 ]
  else
    skip "the permalink of a retracted result (no curl command)"
  fi
  "$GMPBENCH" key export other.pem > /dev/null 2>&1
  (
    XDG_CONFIG_HOME="$TEST_TMP/other"
    mkdir -p "$XDG_CONFIG_HOME"
    export XDG_CONFIG_HOME
    "$GMPBENCH" key > /dev/null 2>&1
    "$GMPBENCH" retract --server "$SERVER_URL" "$id2" > other.out 2> other.err
    echo $? > other.status
  )
  check "another key cannot retract the result (exit 1, reason shown)" \
    sh -c "[ \$(cat other.status) -eq 1 ] && grep -q 'refused the retraction' other.err"
else
  skip "--pending after the server comes back (could not restart the server on port $SERVER_PORT)"
fi
run_status "$GMPBENCH" retract --server "$SERVER_URL" not-an-id
check "retract of a malformed id fails without a request" \
  sh -c "[ $status -eq 1 ] && grep -q 'is not a result id' err.txt"
