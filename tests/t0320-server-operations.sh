# t0320-server-operations.sh: operating gmpbench-server: the command line,
# key verify and key ban, rate limits, request limits, the access log,
# draining on SIGTERM, and kill -9 in the middle of uploads leaving no
# half-stored result.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

run_status "$SERVER" --help
check "--help describes --listen and --database" \
  sh -c "[ $status = 0 ] && grep -q -- '--listen HOST:PORT' out.txt && grep -q -- '--database DB' out.txt"
run_status "$SERVER" --frobnicate
check "an unknown option exits 2" [ "$status" = 2 ]
run_status "$SERVER" --threads zero
check "a bad number exits 2 naming the option" sh -c "[ $status = 2 ] && grep -q -- --threads err.txt"
run_status "$SERVER" key verify abc --name X --database keys.db
check "key verify refuses a malformed fingerprint" sh -c "[ $status = 2 ] && grep -q fingerprint err.txt"
run_status "$SERVER" key verify "$(printf '%064d' 0)" --database keys.db
check "key verify needs --name" sh -c "[ $status = 2 ] && grep -q -- --name err.txt"
run_status "$SERVER" --listen nonsense --database x.db
check "a bad --listen address exits non-zero naming it" sh -c "[ $status != 0 ] && grep -q nonsense err.txt"
start_server "$PWD/bind.db" || fail "a server starts for the bind test"
run_status "$SERVER" --listen "127.0.0.1:${URL##*:}" --database "$PWD/bind2.db"
check "a port in use: exit 1, naming the address and the reason ($(grep -o 'cannot listen.*' err.txt))" \
  sh -c "[ $status = 1 ] && grep -q '127.0.0.1:${URL##*:}: Address already in use' err.txt"
stop_server

DB="$PWD/ops.db"
make_key vendor > /dev/null
make_key villain > /dev/null
make_key someone > /dev/null
start_server "$DB" --address-rate 0 --key-rate 0.01 --key-burst 3 || fail "the server starts"

# Vendors and bans, through the command line while the server runs.
make_doc v1.json vendor --name v1
st=$(post v1.json "$(sign v1.json vendor)")
VID=$(field "d['id']")
run_status "$SERVER" key verify "$(fingerprint vendor)" --name "Example Vendor" --database "$DB"
check "key verify succeeds" [ "$status" = 0 ]
get "/api/v1/results/$VID" > /dev/null
check "a verified key's results carry the publisher name" \
  [ "$(field "d['publisher']")" = "Example Vendor" ]
get "/api/v1/results?verified=1" > /dev/null
check "verified=1 lists the verified publisher's results only" \
  [ "$(field "[r['id'] for r in d['results']]")" = "['$VID']" ]
run_status "$SERVER" key ban "$(fingerprint villain)" --database "$DB"
make_doc x.json villain
st=$(post x.json "$(sign x.json villain)")
expect_rule "a banned key cannot upload" 403 key-banned "$st"

# Per-key rate limit: burst 3, then 429 with Retry-After.
for n in 2 3 4; do
  make_doc "v$n.json" vendor --name "v$n"
  st=$(post "v$n.json" "$(sign "v$n.json" vendor)")
done
expect_rule "the fourth upload with one key within the burst is refused" 429 rate-limit "$st"
curl -sS -D h.txt -o /dev/null -X POST --data-binary @v4.json -H 'Content-Type: application/json' \
  -H "Gmpbench-Signature: $(sign v4.json vendor)" "$URL/api/v1/results"
check "a 429 says when to retry" grep -qi '^Retry-After: [0-9]' h.txt

# Request limits and routing.
st=$(curl -sS -o resp.json -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -H "Content-Length: 5000000" -H 'Expect: 100-continue' -H "Gmpbench-Signature: x" \
  --data-binary @v1.json "$URL/api/v1/results")
expect_rule "an announced body over 1 MiB, with Expect: 100-continue, is refused before it is sent" \
  413 too-large "$st"
st=$(curl -sS -o resp.json -w '%{http_code}' -X POST --data-binary @v1.json \
  -H 'Content-Type: text/plain' -H "Gmpbench-Signature: x" "$URL/api/v1/results")
expect_rule "a body that is not application/json is refused" 415 media-type "$st"
st=$(curl -sS -o resp.json -w '%{http_code}' -X DELETE "$URL/api/v1/results")
expect_rule "a wrong method answers 405" 405 method "$st"
st=$(get /api/v2/results)
expect_rule "an unknown path answers 404 in JSON" 404 not-found "$st"
st=$(get "/api/v1/results?limit=100000")
expect_rule "an out-of-range limit answers 400 naming it" 400 query "$st"
st=$(curl -sS -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 70000 /dev/zero | tr '\0' a)" "$URL/healthz")
check "an oversized header block is refused (status $st)" [ "$st" -ge 400 ]

check "every log line is one JSON object" \
  $PY -c "import json,sys; [json.loads(l) for l in open('server.log')]"
check "the access log records the method, path, status and rule" \
  grep -q '"method":"POST","path":"/api/v1/results","status":403,.*"rule":"key-banned"' server.log

# Draining: a request in flight when SIGTERM arrives still completes.
head -c 300000 /dev/zero | tr '\0' ' ' > slow.json
make_doc slow-doc.json someone
cat slow-doc.json >> slow.json
curl -sS -D slow.headers -o slow.out -w '%{http_code}' --limit-rate 200k -X POST --data-binary @slow.json \
  -H 'Content-Type: application/json' -H "Gmpbench-Signature: $(sign slow.json someone)" \
  -H 'Expect: 100-continue' "$URL/api/v1/results" > slow.status &
slow=$!
# In flight means begun by the server: it has answered 100 Continue (a
# bounded wait, whatever the machine's speed).
n=0
while ! grep -q '^HTTP/1.1 100' slow.headers 2> /dev/null && [ $n -lt 200 ]; do
  sleep 0.05
  n=$((n + 1))
done
stop_server
wait $slow
check "SIGTERM lets a request in flight finish (status $(cat slow.status)) and exits 0" \
  [ "$stop_status $(cat slow.status)" = "0 201" ]
check "the answer of a request in flight at SIGTERM says Connection: close" \
  grep -qi '^Connection: close' slow.headers

# kill -9 in the middle of concurrent uploads: every stored result is whole.
start_server "$DB" --address-rate 0 --key-rate 0 || fail "the server restarts on the same database"
make_key many > /dev/null
i=0
while [ $i -lt 24 ]; do
  make_doc "k$i.json" many --multiply --scale "1.0$i"
  sign "k$i.json" many > "k$i.sig"
  i=$((i + 1))
done
for k in 0 1 2 3; do
  (j=$k; while [ $j -lt 24 ]; do
     curl -sS -o /dev/null -X POST --data-binary "@k$j.json" -H 'Content-Type: application/json' \
       -H "Gmpbench-Signature: $(cat "k$j.sig")" "$URL/api/v1/results" 2> /dev/null
     j=$((j + 4)); done) &
done
sleep 0.3
kill -9 "$SRV_PID"
wait
start_server "$DB" --address-rate 0 --key-rate 0 || fail "the server restarts after kill -9"
half=$(sqlite3 "$DB" "SELECT count(*) FROM results r WHERE r.fingerprint = '$(fingerprint many)'
  AND (SELECT count(*) FROM ranks s WHERE s.seq = r.seq)
    + (SELECT count(*) FROM tests t WHERE t.seq = r.seq) != 16")
whole=$(sqlite3 "$DB" "SELECT count(*) FROM results WHERE fingerprint = '$(fingerprint many)'")
check "after kill -9 no result is half-stored ($whole whole, $half partial)" [ "$half" = 0 ]
stop_server
