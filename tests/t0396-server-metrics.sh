# t0396-server-metrics.sh: /metrics on --metrics-listen, read by a real
# Prometheus parser (Python's prometheus_client): it is served there
# only, in the text exposition format, every family typed and described;
# an accepted upload moves the accepted count, the requests by route and
# status, the latency histogram, the flags by kind and the results
# stored; a refused upload moves the refusals under its rule; and the
# gauges of the database and the leaderboard's snapshot are there.
# Skipped when prometheus_client is not installed.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server
if ! $PY -c 'import prometheus_client' 2> /dev/null; then
  skip "/metrics (Python's prometheus_client is not installed: scripts/install-deps)"
  exit 0
fi

for try in 1 2 3 4 5; do
  MPORT=$(random_port)
  start_server "$PWD/results.db" --metrics-listen "127.0.0.1:$MPORT" --key-rate 0 && break
done
[ -n "$SRV_PID" ] || { fail "the server starts with --metrics-listen"; exit 1; }
trap 'stop_server' EXIT
check "the log says where the metrics are" grep -q "metrics on 127.0.0.1:$MPORT/metrics" server.log

# scrape NAME: /metrics into NAME.txt, parsed into NAME.json by
# prometheus_client: {"family name": type, "sample name{labels}": value},
# the labels name=value sorted by name, joined by commas ({} for none);
# the parser's complaint on standard error, and a failure, when it
# refuses the text or a family has no # HELP.
scrape () {
  curl -sS -D "$1.headers" -o "$1.txt" "http://127.0.0.1:$MPORT/metrics" &&
    $PY - "$1.txt" "$1.json" <<'EOF_PY'
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = {}
for family in text_string_to_metric_families(open(sys.argv[1]).read()):
    if not family.documentation:
        sys.exit("no HELP for " + family.name)
    out[family.name] = family.type
    for s in family.samples:
        labels = ",".join('%s=%s' % kv for kv in sorted(s.labels.items()))
        out["%s{%s}" % (s.name, labels)] = s.value
json.dump(out, open(sys.argv[2], "w"), indent=1)
EOF_PY
}

# value NAME KEY: a sample's value in NAME.json (0 when absent).
value () {
  $PY -c "import json,sys; print(int(json.load(open(sys.argv[1])).get(sys.argv[2], 0)))" \
    "$1.json" "$2"
}

scrape before
check "/metrics is served in the text format and prometheus_client parses it, every family described" \
  sh -c "[ -s before.json ] && grep -qi '^Content-Type: text/plain; version=0.0.4' before.headers"
check "... with the counters and gauges docs/server.md lists" \
  $PY -c "
import json, sys
d = json.load(open('before.json'))
want = {'gmpbench_http_requests': 'counter', 'gmpbench_http_request_duration_seconds': 'histogram',
        'gmpbench_uploads_accepted': 'counter', 'gmpbench_uploads_refused': 'counter',
        'gmpbench_upload_flags': 'counter', 'gmpbench_results_stored': 'gauge',
        'gmpbench_database_size_bytes': 'gauge', 'gmpbench_snapshot_age_seconds': 'gauge',
        'gmpbench_database_up': 'gauge', 'gmpbench_snapshot_ready': 'gauge'}
missing = [n for n in want if d.get(n) != want[n]]
print('missing or mistyped:', missing)
sys.exit(1 if missing else 0)"
check "the public address does not serve /metrics" [ "$(get /metrics)" = 404 ]

# An accepted upload, flagged brand-mismatch.
make_key alice > /dev/null
make_doc up.json alice --name up --identity 'x86:AuthenticAMD:family=25:model=33:stepping=0' \
  --base --set 'system.cpu.name="Intel Xeon Platinum"'
code=$(post up.json "$(sign up.json alice)")
check "an upload is accepted, flagged brand-mismatch ($code $(field "d.get('flags')"))" \
  sh -c "[ $code = 201 ] && [ '$(field "','.join(d['flags'])")' = brand-mismatch ]"
# A refused one: signed by another key than the one it names.
make_key mallory > /dev/null
code=$(post up.json "$(sign up.json mallory)")
check "an upload with a signature of another key is refused ($code)" [ "$code" = 403 ]
scrape after

upload='method=POST,route=/api/v1/results'
moved () {
  echo $(( $(value after "$1") - $(value before "$1") ))
}
check "uploads accepted: +1" [ "$(moved gmpbench_uploads_accepted_total{})" = 1 ]
check "uploads refused under the rule signature-invalid: +1" \
  [ "$(moved 'gmpbench_uploads_refused_total{rule=signature-invalid}')" = 1 ]
check "flags of accepted uploads, brand-mismatch: +1" \
  [ "$(moved 'gmpbench_upload_flags_total{flag=brand-mismatch}')" = 1 ]
check "requests of POST /api/v1/results by status: 201 +1, 403 +1" \
  [ "$(moved "gmpbench_http_requests_total{$upload,status=201}") $(moved "gmpbench_http_requests_total{$upload,status=403}")" = "1 1" ]
check "the latency histogram of POST /api/v1/results counts both, in its +Inf bucket too" \
  [ "$(moved "gmpbench_http_request_duration_seconds_count{$upload}") $(moved "gmpbench_http_request_duration_seconds_bucket{le=+Inf,$upload}")" = "2 2" ]
check "the request for the public /metrics is counted as routed nowhere, 404" \
  [ "$(value after 'gmpbench_http_requests_total{method=none,route=none,status=404}')" -ge 1 ]
check "results stored: 1; the database's size is given" \
  sh -c "[ $(value after gmpbench_results_stored{}) = 1 ] && [ $(value after gmpbench_database_size_bytes{}) -gt 0 ]"
get / > /dev/null
scrape page
check "the leaderboard's snapshot, once a page asked for it, holds the result, its age given" \
  sh -c "[ $(value page gmpbench_snapshot_results{}) = 1 ] && $PY -c \"import json,sys; d=json.load(open('page.json')); sys.exit(not d['gmpbench_snapshot_age_seconds{}'] >= 0)\""
check "scraping is not counted among the requests" \
  sh -c "! grep -q 'route=\"/metrics\"' page.txt"

run_status "$SERVER" --listen 127.0.0.1:0 --metrics-listen nowhere --database "$PWD/other.db"
check "a --metrics-listen that is no address: exit 1, named ($(grep gmpbench-server: err.txt | head -c 200))" \
  sh -c "[ $status = 1 ] && grep -q 'nowhere' err.txt"

# The store's gauges on PostgreSQL.
stop_server
if start_pg; then
  trap 'stop_server; stop_pg' EXIT
  SRV_PID=
  for try in 1 2 3 4 5; do
    MPORT=$(random_port)
    start_server "$PG_URI" --metrics-listen "127.0.0.1:$MPORT" && break
  done
  [ -n "$SRV_PID" ] || { fail "the server starts on PostgreSQL with --metrics-listen"; exit 1; }
  post up.json "$(sign up.json alice)" > /dev/null
  scrape pg
  check "PostgreSQL: the database answers, holds the result, and gives its size" \
    sh -c "[ $(value pg gmpbench_database_up{}) = 1 ] && [ $(value pg gmpbench_results_stored{}) = 1 ] && [ $(value pg gmpbench_database_size_bytes{}) -gt 1000000 ]"
else
  skip "/metrics on PostgreSQL (PostgreSQL not installed or did not start)"
fi
