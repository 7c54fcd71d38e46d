# t0570-standing.sh: where my result stands.  After `uploaded: URL` the
# client prints one line from the 201's `standing` (a scripted server,
# tests/helper-httpd.c, answers with one), nothing when the answer has
# none (older servers) or when the result was already there (200); and
# `gmpbench compare --server URL RESULT.json` compares a result with its
# CPU row's medians on a real gmpbench-server on 127.0.0.1.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1

trap stop_fake EXIT

# A result with a GMPbench score: the full fixture as a quick run, signed.
make_key alice > /dev/null
make_doc mine.json alice --from "$SRCDIR/tests/fixtures/server-full.json" --scale 1.1 \
  --set 'run.mode="quick"' --name mine
sign mine.json alice > mine.json.sig
score=$(field "round(d['scores']['gmpbench'])" mine.json)
median=$(python3 -c "print($score / 1.02)")
cat > standing.json <<EOJ
{"id": "0123456789abcdef", "url": "/results/0123456789abcdef", "flags": [],
 "standing": {"cpu": {"sources": 9, "results": 14, "median": $median, "percentile": 60},
              "arch": {"name": "x86_64", "mode": "quick", "results": 120, "percentile": 63}}}
EOJ
start_fake 201=standing.json
run_status "$GMPBENCH" submit --yes --server "$FAKE_URL" mine.json
check "after uploaded: URL, one line says where the result stands" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < out.txt) -eq 2 ] && head -n 1 out.txt | grep -q '^uploaded: ' \
    && tail -n 1 out.txt | grep -qx '$score: 2% above the median of 14 results (9 sources) of this CPU; faster than 63% of 120 x86_64 quick runs'"
stop_fake

start_fake 201
run_status "$GMPBENCH" submit --yes --server "$FAKE_URL" mine.json
check "an answer without standing (an older server): the uploaded line alone" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < out.txt) -eq 1 ] && grep -q '^uploaded: ' out.txt"
stop_fake

sed 's/"flags"/"already": true, "flags"/' standing.json > again.json
start_fake 200=again.json
run_status "$GMPBENCH" submit --yes --server "$FAKE_URL" mine.json
check "already uploaded (200): no standing line" \
  sh -c "[ $status -eq 0 ] && [ \$(wc -l < out.txt) -eq 1 ] && grep -q '^already uploaded: ' out.txt"
stop_fake

# compare --server: four results of one CPU, quick runs, on a real server.
start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0
for x in 0.9 1.0 1.05 1.2; do
  make_doc "peer$x.json" alice --from "$SRCDIR/tests/fixtures/server-full.json" --scale "$x" \
    --set 'run.mode="quick"' --name "peer$x"
  post "peer$x.json" "$(sign "peer$x.json" alice)" > /dev/null
done
get '/api/v1/cpus' > /dev/null
median=$(field "d['cpus'][0]['scores']['gmpbench']['median']")
ratio=$(python3 -c "print('%.3f' % ($(field "d['scores']['gmpbench']" mine.json) / $median))")
run_status "$GMPBENCH" compare --server "$URL" mine.json
check "compare --server: a line per headline node with the score, the row's median and the ratio ($ratio)" \
  sh -c "[ $status -eq 0 ] && grep -Eq '^gmpbench +[0-9.]+ +[0-9.]+ +4 +$ratio\$' out.txt \
    && grep -q '^  gmpbench.base ' out.txt && grep -q '^  gmpbench.app ' out.txt"
run_status "$GMPBENCH" compare --server "$URL" --format json mine.json
check "compare --server --format json: the row and the ratios" \
  sh -c "[ $status -eq 0 ] && python3 -c 'import json, sys; d = json.load(open(\"out.txt\")); \
    assert d[\"row\"][\"mode\"] == \"quick\" and d[\"row\"][\"n\"] == 4; \
    assert \"%.3f\" % d[\"nodes\"][0][\"ratio\"] == \"$ratio\"'"
make_doc full.json alice --from "$SRCDIR/tests/fixtures/server-full.json" --name full
run_status "$GMPBENCH" compare --server "$URL" full.json
check "a result whose CPU row is not on the server: exit 1, the message names mode and build" \
  sh -c "[ $status -eq 1 ] && grep -q 'no unflagged results of this CPU in custom mode' err.txt"
run_status "$GMPBENCH" compare --server "$URL" mine.json full.json
check "compare --server takes one result (exit 2)" [ $status -eq 2 ]
run_status "$GMPBENCH" compare --server http://127.0.0.1:9 --timeout 5 mine.json
check "a server that cannot be reached: exit 1, the URL named" \
  sh -c "[ $status -eq 1 ] && grep -q 'cannot read http://127.0.0.1:9/api/v1/cpus' err.txt"
