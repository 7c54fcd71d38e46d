# t0393-server-api-http.sh: what lets others build on the API and put a
# cache in front of the site (docs/server.md, "Caching"; docs/protocol.md):
# CORS on every GET of the API and OPTIONS preflights granting GET and
# HEAD; ETags and conditional GETs (304) on pages, listings and results;
# a year's immutable caching of a result's bytes and signature; a short
# public max-age elsewhere, while a new or retracted result is in the
# very next answer (under a new ETag); no-store for health, the
# streams, uploads and errors; the leaderboard's data under /api/v1 and
# its old address redirecting; and the dump's `after`, resumable from the
# last seq read, which also gives a result retracted since (its line moved
# to the end, once).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/api-lib.sh"
need_server

start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0
make_key alice > /dev/null
upload_doc a.json alice --base > /dev/null
A=$(field "d['id']")
upload_doc b.json alice --multiply --identity 'x86:GenuineIntel:family=6:model=85:stepping=7' \
  > /dev/null
B=$(field "d['id']")

# header NAME: the value of NAME in headers.txt (the last answer's), or "".
header () {
  sed -n "s/^$1: *//Ip" headers.txt | tr -d '\r' | tail -n 1
}
# head_of PATH [CURL OPTIONS]: the answer's status; headers in headers.txt,
# the body in resp.json.
head_of () {
  path=$1
  shift
  rm -f resp.json
  curl -sS -D headers.txt -o resp.json -w '%{http_code}' "$@" "$URL$path"
}

# ------------------------------------------------------------ CORS

for path in /api/v1/results /api/v1/cpus "/api/v1/results/$A" /api/v1/leaderboard \
  /api/v1/ /api/v1/openapi.json /api/v1/results/0123456789abcdef; do
  head_of "$path" > /dev/null
  check "GET $path: Access-Control-Allow-Origin: *" [ "$(header Access-Control-Allow-Origin)" = '*' ]
done
check "... which exposes the ETag to scripts" \
  sh -c "sed -n 's/^Access-Control-Expose-Headers: *//Ip' headers.txt | grep -q ETag"
head_of / > /dev/null
check "the pages do not carry it" [ -z "$(header Access-Control-Allow-Origin)" ]
status=$(head_of /api/v1/results -X OPTIONS -H 'Origin: https://elsewhere.example' \
  -H 'Access-Control-Request-Method: GET' -H 'Access-Control-Request-Headers: if-none-match')
check "a preflight for GET is granted: 204, any origin, GET and HEAD, If-None-Match" \
  sh -c "[ $status = 204 ] && [ '$(header Access-Control-Allow-Origin)' = '*' ] &&
    [ '$(header Access-Control-Allow-Methods)' = 'GET, HEAD' ] &&
    [ '$(header Access-Control-Allow-Headers)' = 'If-None-Match' ] &&
    [ '$(header Allow)' = 'GET, HEAD, POST, OPTIONS' ]"
status=$(head_of "/api/v1/results/$A/retract" -X OPTIONS -H 'Origin: https://elsewhere.example' \
  -H 'Access-Control-Request-Method: POST')
check "a path without GET grants nothing to other origins (204, Allow only)" \
  sh -c "[ $status = 204 ] && [ -z '$(header Access-Control-Allow-Origin)' ] &&
    [ '$(header Allow)' = 'POST, OPTIONS' ]"
status=$(head_of /api/v1/nothing -X OPTIONS)
check "OPTIONS on no route is a 404" [ "$status" = 404 ]
status=$(head_of /api/v1/cpus -X DELETE)
check "a 405 names OPTIONS among the allowed methods" \
  sh -c "[ $status = 405 ] && [ '$(header Allow)' = 'GET, HEAD, OPTIONS' ]"
status=$(head_of /api/v1/results -X POST --data-binary @a.json -H 'Content-Type: application/json' \
  -H "Gmpbench-Signature: $(sign a.json alice)")
check "an upload's answer carries no CORS grant and is not cached" \
  sh -c "[ $status = 200 ] && [ -z '$(header Access-Control-Allow-Origin)' ] &&
    [ '$(header Cache-Control)' = no-store ]"

# ------------------------------------------------------------ caching

SHORT='public, max-age=1, stale-while-revalidate=1'
IMMUTABLE='public, max-age=31536000, immutable'
for path in / /about "/cpu?cpu=x86%3AGenuineIntel%3Afamily%3D6%3Amodel%3D85%3Astepping%3D7" \
  "/results/$A" /api/v1/results /api/v1/cpus "/api/v1/results/$A" /api/v1/leaderboard \
  /api/v1/leaderboard.csv /api/v1/; do
  status=$(head_of "$path")
  etag=$(header ETag)
  check "GET $path: 200, '$SHORT' and a strong ETag" \
    sh -c "[ $status = 200 ] && [ '$(header Cache-Control)' = '$SHORT' ] &&
      echo '$etag' | grep -q '^\"[0-9a-f]\{32\}\"$'"
  size=$(wc -c < resp.json)
  status=$(head_of "$path" -H "If-None-Match: $etag")
  check "GET $path with If-None-Match: that ETag: 304, no body, the same ETag and policy" \
    sh -c "[ $status = 304 ] && [ ! -s resp.json ] && [ '$(header ETag)' = '$etag' ] &&
      [ '$(header Cache-Control)' = '$SHORT' ] && [ '$(header Content-Length)' = $size ]"
done
# /api/v1/cpus hashes its rows once per computation, a page its rows'
# hashes: pages of other rows, or of the same rows ended otherwise (the
# cursor), have other ETags; the same page, the same one.
etag_of () {
  head_of "$1" > /dev/null
  header ETag
}
all=$(etag_of /api/v1/cpus)
cp resp.json all.json
check "/api/v1/cpus: the same page twice, the same ETag" [ "$(etag_of /api/v1/cpus)" = "$all" ]
check "... a page of no rows, another" [ "$(etag_of '/api/v1/cpus?cpu=none')" != "$all" ]
first=$(etag_of '/api/v1/cpus?limit=1')
check "... its first row alone: another when its bytes differ (a cursor), else the same" \
  sh -c "if cmp -s resp.json all.json; then [ '$first' = '$all' ]; else [ '$first' != '$all' ]; fi"
head_of / > /dev/null
etag=$(header ETag)
status=$(head_of / -H 'If-None-Match: "0123", W/'"$etag")
check "a weak form of the ETag in a list matches too (weak comparison)" [ "$status" = 304 ]
status=$(head_of / -H 'If-None-Match: "00000000000000000000000000000000"')
check "another ETag does not: 200 with the body" sh -c "[ $status = 200 ] && [ -s resp.json ]"
status=$(head_of / -I -H "If-None-Match: $etag")
check "HEAD answers 304 to its ETag as well" [ "$status" = 304 ]
for part in raw signature; do
  status=$(head_of "/api/v1/results/$A/$part")
  etag=$(header ETag)
  check "/$part: '$IMMUTABLE', with an ETag" \
    sh -c "[ $status = 200 ] && [ '$(header Cache-Control)' = '$IMMUTABLE' ] && [ -n '$etag' ]"
  status=$(head_of "/api/v1/results/$A/$part" -H "If-None-Match: $etag")
  check "/$part: 304 to its ETag" [ "$status" = 304 ]
done
curl -sS -o raw.json "$URL/api/v1/results/$A/raw"
check "/raw is still the uploaded bytes" cmp -s raw.json a.json
for path in /healthz /api/v1/dump /api/v1/export.csv /api/v1/results/0123456789abcdef /nothing; do
  head_of "$path" > /dev/null
  check "GET $path: no-store, no ETag" \
    sh -c "[ '$(header Cache-Control)' = no-store ] && [ -z '$(header ETag)' ]"
done

# A new result and a retraction are in the very next answer after the
# server's own (a page waits for the changes journaled before it,
# docs/server.md): a cache keeping an answer for at most two seconds
# (max-age 1, stale-while-revalidate 1) is all that stands between.
head_of /api/v1/leaderboard > /dev/null
board_etag=$(header ETag)
head_of / > /dev/null
page_etag=$(header ETag)
upload_doc c.json alice --base --identity 'x86:AuthenticAMD:family=25:model=97:stepping=2' \
  > /dev/null
C=$(field "d['id']")
status=$(head_of /api/v1/leaderboard -H "If-None-Match: $board_etag")
check "the first leaderboard answer after a new result's 201 has it, under a new ETag" \
  sh -c "[ $status = 200 ] && grep -q 'model=97' resp.json && [ '$(header ETag)' != '$board_etag' ]"
check "... and the page's old ETag no longer matches (200)" [ "$status" = 200 ]
head_of / > /dev/null
page_etag=$(header ETag)
printf 'gmpbench-retract:%s' "$C" > retract.msg
openssl pkeyutl -sign -inkey alice.pem -rawin -in retract.msg -out retract.sig
curl -sS -o /dev/null -X POST -H "Gmpbench-Signature: $(openssl base64 -A < retract.sig)" \
  "$URL/api/v1/results/$C/retract"
status=$(head_of / -H "If-None-Match: $page_etag")
check "the first page after a retraction's answer is without it, under a new ETag" \
  sh -c "[ $status = 200 ] && ! grep -q '$C' resp.json"
status=$(head_of "/api/v1/results/$C/raw")
check "a retracted result's /raw is 410, not cached" \
  sh -c "[ $status = 410 ] && [ '$(header Cache-Control)' = no-store ]"

# ------------------------------------------------------------ moved

status=$(head_of '/?arch=x86_64&q=a%20b&format=json&flagged=1')
check "/?format=json redirects (301) to /api/v1/leaderboard with the other arguments" \
  sh -c "[ $status = 301 ] &&
    [ '$(header Location)' = '/api/v1/leaderboard?arch=x86_64&q=a%20b&flagged=1' ]"
status=$(head_of '/?format=csv&sort=cpu')
check "/?format=csv redirects to /api/v1/leaderboard.csv" \
  sh -c "[ $status = 301 ] && [ '$(header Location)' = '/api/v1/leaderboard.csv?sort=cpu' ]"
curl -sSL -o followed.json "$URL/?format=json&sort=cpu"
curl -sS -o direct.json "$URL/api/v1/leaderboard?sort=cpu"
check "followed, it answers what the new address does" cmp -s followed.json direct.json
rows=$($PY -c "
import json; d = json.load(open('direct.json')); print(' '.join(r['cpu'] for r in d['rows']) if d['view']['sort'] == 'cpu' else '')")
check "... the rows of the view ($rows)" [ -n "$rows" ]
curl -sS -o board.csv "$URL/api/v1/leaderboard.csv?sort=cpu"
check "/api/v1/leaderboard.csv: the same rows as CSV" [ "$($PY -c "
import csv; print(' '.join(r['cpu'] for r in csv.DictReader(open('board.csv'))))")" = "$rows" ]
status=$(head_of '/?format=xml')
check "an unknown format is still a 400 page" \
  sh -c "[ $status = 400 ] && grep -qi '<html' resp.json"
status=$(head_of '/api/v1/leaderboard?sort=no.such.node')
check "the data's errors are JSON (400, rule query)" \
  sh -c "[ $status = 400 ] && [ \"\$($PY -c 'import json; print(json.load(open(\"resp.json\"))[\"rule\"])')\" = query ]"
get / > /dev/null
check "the page links its data at the API's addresses" \
  sh -c "grep -q 'href=\"/api/v1/leaderboard.csv[?\"]' resp.json &&
    grep -q 'href=\"/api/v1/leaderboard[?\"]' resp.json"

# ------------------------------------------------------------ the dump's after

seqs () {
  curl -sS "$URL/api/v1/dump$1" | $PY -c "
import json, sys
print(' '.join('%d%s' % (d['seq'], 'x' if d.get('retracted') else '') for d in map(json.loads, sys.stdin)))"
}
all=$(seqs '')
first=$(echo "$all" | cut -d' ' -f1)
check "the full dump: every result in seq order, the retracted one a tombstone ($all)" \
  sh -c "[ \$(echo '$all' | wc -w) -eq 3 ] && echo '$all' | grep -q 'x$'"
check "after=FIRST: the results after it" [ "$(seqs "?after=$first")" = "$(echo "$all" | cut -d' ' -f2-)" ]
check "after=0: all of them" [ "$(seqs '?after=0')" = "$all" ]
last=$(echo "$all" | tr ' ' '\n' | tail -n 1 | tr -d x)
check "after the last seq: nothing" [ -z "$(seqs "?after=$last")" ]
upload_doc d.json alice --multiply --identity 'x86:AuthenticAMD:family=25:model=33:stepping=0' \
  > /dev/null
D=$(field "d['id']")
curl -sS "$URL/api/v1/dump?after=$last" > more.ndjson
check "a mirror resuming from the last seq it read gets the new result alone" \
  $PY -c "
import json; lines = [json.loads(l) for l in open('more.ndjson')]
assert [d['id'] for d in lines] == ['$D'] and lines[0]['seq'] > $last, lines"
last=$($PY -c "import json; print(json.loads(open('more.ndjson').readline())['seq'])")
printf 'gmpbench-retract:%s' "$B" > retract.msg
openssl pkeyutl -sign -inkey alice.pem -rawin -in retract.msg -out retract.sig
curl -sS -o /dev/null -X POST -H "Gmpbench-Signature: $(openssl base64 -A < retract.sig)" \
  "$URL/api/v1/results/$B/retract"
curl -sS "$URL/api/v1/dump?after=$last" > moved.ndjson
check "a result retracted after a mirror read it comes again after the mirror's place, a tombstone" \
  $PY -c "
import json; lines = [json.loads(l) for l in open('moved.ndjson')]
assert len(lines) == 1 and lines[0]['id'] == '$B' and lines[0]['retracted'] is True \
  and lines[0]['seq'] > $last and set(lines[0]) == {'seq', 'id', 'retracted'}, lines"
curl -sS "$URL/api/v1/dump" > all.ndjson
check "the whole dump has every result once, the retracted ones at their new places" \
  $PY -c "
import json; lines = [json.loads(l) for l in open('all.ndjson')]
ids = [d['id'] for d in lines]; seqs = [d['seq'] for d in lines]
assert ids == ['$A', '$C', '$D', '$B'] and seqs == sorted(set(seqs)), lines"
moved=$($PY -c "import json; print(json.loads(open('moved.ndjson').readline())['seq'])")
curl -sS -o /dev/null -X POST -H "Gmpbench-Signature: $(openssl base64 -A < retract.sig)" \
  "$URL/api/v1/results/$B/retract"
check "retracting it again does not move it again" \
  sh -c "[ -z \"\$(curl -sS '$URL/api/v1/dump?after=$moved')\" ]"
for bad in x -1 1.5 '' 1234567890123456789; do
  status=$(head_of "/api/v1/dump?after=$bad")
  check "after=$bad: 400, rule query, field after" \
    sh -c "[ $status = 400 ] && grep -q '\"field\":\"after\"' resp.json"
done
