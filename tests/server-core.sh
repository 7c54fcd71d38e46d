# server-core.sh: the integration checks every storage backend must pass,
# sourced by t0300 (SQLite) and t0310 (PostgreSQL) after server-lib.sh.
#
# run_core DATABASE LABEL: starts a server on DATABASE, uploads, rejects,
# lists, retracts, and stops it.  Keys alice and bob must exist.  Every
# upload comes from a network of its own: honest peers (t0375 is about
# sources).

EACH_SOURCE=1

core_upload () {
  make_doc r1.json alice --name "$LABEL one"
  SIG=$(sign r1.json alice)
  st=$(post r1.json "$SIG")
  expect_status "$LABEL: a document signed with openssl and uploaded with curl is accepted (201)" 201 "$st"
  ID=$(field "d['id']")
  want=$(sha256sum r1.json | cut -c1-16)
  check "$LABEL: the id is the first 16 hex digits of the body's SHA-256" [ "$ID" = "$want" ]
  st=$(post r1.json "$SIG")
  check "$LABEL: the same bytes again answer 200 with the same id" \
    [ "$st" = 200 ] && [ "$(field "d['id']")" = "$ID" ]

  st=$(post "$SRCDIR/tests/fixtures/server-signed.json" \
    "$(cat "$SRCDIR/tests/fixtures/server-signed.json.sig")")
  expect_status "$LABEL: a document written and signed by gmpbench run (with threads) is accepted" \
    201 "$st"

  st=$(get "/api/v1/results/$ID/raw")
  check "$LABEL: /raw returns the exact uploaded bytes" sh -c "[ $st = 200 ] && cmp -s resp.json r1.json"
  st=$(get "/api/v1/results/$ID/signature")
  base64 -d < resp.json > stored.sig 2> /dev/null
  openssl pkey -in alice.pem -pubout -out alice.pub 2> /dev/null
  check "$LABEL: the stored signature re-verifies with openssl" \
    openssl pkeyutl -verify -pubin -inkey alice.pub -rawin -in r1.json -sigfile stored.sig -out /dev/null
  st=$(get "/api/v1/results/$ID")
  got=$(field "d['summary']['gmp'] + ' ' + d['document']['format']")
  check "$LABEL: the parsed result has the summary and the document" \
    [ "$st $got" = "200 6.2.1 gmpbench-result/1" ]
}

core_rejections () {
  sed 's/gmpbench operands v1/gmpbench operands v2/' r1.json > flipped.json
  st=$(post flipped.json "$SIG")
  expect_rule "$LABEL: one changed byte in the body is rejected" 403 signature-invalid "$st"
  case $SIG in A*) badsig=B${SIG#A} ;; *) badsig=A${SIG#?} ;; esac
  make_doc r2.json alice --name "$LABEL two"
  st=$(post r2.json "$badsig")
  expect_rule "$LABEL: one changed byte in the signature is rejected" 403 signature-invalid "$st"
  st=$(post r2.json "not base64!")
  expect_rule "$LABEL: a malformed signature header is rejected" 400 signature-format "$st"

  make_doc wrong.json alice --name "$LABEL wrong" --digest "$(printf '%064d' 0)"
  st=$(post wrong.json "$(sign wrong.json alice)")
  if [ "$st" = 201 ]; then
    skip "$LABEL: a wrong digest is rejected (model/reference.c has no reference digests yet)"
  else
    expect_rule "$LABEL: a wrong digest is rejected" 422 digest-mismatch "$st"
    check "$LABEL: the digest error names the test" \
      [ "$(field "','.join(d['tests'])")" = gmpbench.base.multiply.128 ]
  fi
  make_doc badscore.json alice --multiply --bad-score
  st=$(post badscore.json "$(sign badscore.json alice)")
  expect_rule "$LABEL: mismatched scores are rejected" 422 score-mismatch "$st"
  check "$LABEL: the score error names the node" \
    [ "$(field "d['field']")" = scores.gmpbench.base.multiply ]

  $PY -c "
import sys; d = open('r1.json').read()
open('big.json', 'w').write(d.replace('\"system\": {', '\"system\": {\"pad\": \"' + 'x' * (1100 * 1024) + '\",', 1))"
  st=$(post big.json "$SIG")
  expect_rule "$LABEL: an oversized document is rejected" 413 too-large "$st"
  head -c 500 r1.json > truncated.json
  st=$(post truncated.json "$(sign truncated.json alice)")
  expect_rule "$LABEL: a truncated document is rejected" 400 json-syntax "$st"
  $PY -c "
d = open('r1.json', 'rb').read()
open('latin1.json', 'wb').write(d.replace(b'$LABEL one', b'caf\xe9', 1))"
  st=$(post latin1.json "$(sign latin1.json alice)")
  expect_rule "$LABEL: a document that is not UTF-8 is rejected" 400 utf8 "$st"
  make_doc deep.json alice --set "system.deep=$($PY -c "print('[' * 40 + ']' * 40)")"
  st=$(post deep.json "$(sign deep.json alice)")
  expect_rule "$LABEL: a deeply nested document is rejected" 400 too-deep "$st"
  make_doc typed.json alice --set 'run.threads="1"'
  st=$(post typed.json "$(sign typed.json alice)")
  expect_rule "$LABEL: a wrong-typed member is rejected" 422 type "$st"
  check "$LABEL: the type error names the member" [ "$(field "d['field']")" = run.threads ]
  sed 's/"samples": [0-9]*/"samples": 1e400/' r1.json > huge.json
  st=$(post huge.json "$(sign huge.json alice)")
  expect_rule "$LABEL: a huge number is rejected" 422 range "$st"
  make_doc unknown.json alice --set 'run.turbo=true'
  st=$(post unknown.json "$(sign unknown.json alice)")
  expect_rule "$LABEL: an unknown member outside system is rejected" 422 unknown-member "$st"
  make_doc test.json alice --set 'results.0.name="gmpbench.base.multiply.129"'
  st=$(post test.json "$(sign test.json alice)")
  expect_rule "$LABEL: an unknown test is rejected" 422 unknown-test "$st"
  st=$(get /healthz)
  expect_status "$LABEL: the server keeps serving after the rejections" 200 "$st"
}

core_listings () {
  for scale in 1 3 2; do
    make_doc "m$scale.json" bob --multiply --scale $scale
    st=$(post "m$scale.json" "$(sign "m$scale.json" bob)")
    [ "$st" = 201 ] || fail "$LABEL: upload of multiply document x$scale (status $st)"
  done
  scores="[r['summary']['scores']['gmpbench.base.multiply'] for r in d['results']]"
  get "/api/v1/results?sort=gmpbench.base.multiply&limit=2" > /dev/null
  cp resp.json page1.json
  cursor=$(field "d['next_cursor']")
  get "/api/v1/results?sort=gmpbench.base.multiply&limit=2&cursor=$cursor" > /dev/null
  order=$($PY -c "
import json
p1 = [r['summary']['scores']['gmpbench.base.multiply'] for r in json.load(open('page1.json'))['results']]
p2 = [r['summary']['scores']['gmpbench.base.multiply'] for r in json.load(open('resp.json'))['results']]
all = p1 + p2
print('ok' if len(p1) == 2 and len(p2) == 1 and all == sorted(all, reverse=True) else all)")
  check "$LABEL: sorted by a node and paginated with the cursor, highest first ($order)" \
    [ "$order" = ok ]
  get "/api/v1/results?sort=gmpbench.base.multiply&arch=x86_64&os=Debian%20GNU/Linux&limit=3" > /dev/null
  filtered=$(field "[r['id'] for r in d['results']]")
  get "/api/v1/results?sort=gmpbench.base.multiply&limit=3" > /dev/null
  check "$LABEL: a filtered sorted listing (starting from the filter) has the same order" \
    [ "$filtered" = "$(field "[r['id'] for r in d['results']]")" ]
  cpu=$(field "d['results'][0]['summary']['cpu']")
  get "/api/v1/results?sort=gmpbench.base.multiply&cpu=$cpu&limit=3" > /dev/null
  check "$LABEL: one CPU's sorted listing (along the CPU's score index) has the same order" \
    [ "$filtered" = "$(field "[r['id'] for r in d['results']]")" ]
  test=gmpbench.base.multiply.8192
  get "/api/v1/results?sort=$test&limit=2" > /dev/null
  by_test=$(field "[r['id'] for r in d['results']]")
  cursor=$(field "d['next_cursor']")
  get "/api/v1/results?sort=$test&limit=2&cursor=$cursor" > /dev/null
  by_test="$by_test $(field "[r['id'] for r in d['results']]")"
  check "$LABEL: sorted by a test (test_scores) and paginated, the same order" \
    [ "$by_test" = "$($PY -c "import sys; l = eval(sys.argv[1]); print(l[:2], l[2:])" "$filtered")" ]
  get "/api/v1/results?sort=$test&arch=x86_64&os=Debian%20GNU/Linux&limit=3" > /dev/null
  check "$LABEL: sorted by a test, filtered (starting from the filter), the same order" \
    [ "$filtered" = "$(field "[r['id'] for r in d['results']]")" ]
  st=$(get "/api/v1/results?arch=nowhere")
  check "$LABEL: a filter that matches nothing gives an empty page" \
    [ "$(field "len(d['results'])")" = 0 ]
  st=$(get "/api/v1/results?sort=gmpbench.nothing")
  expect_rule "$LABEL: sorting by an unknown node is a 400" 400 query "$st"

  make_doc u.json alice --name "$LABEL unlisted"
  st=$(post u.json "$(sign u.json alice)" '?unlisted=1')
  UID_=$(field "d['id']")
  get "/api/v1/results?limit=500" > /dev/null
  listed=$(field "'$UID_' in [r['id'] for r in d['results']]")
  st=$(get "/api/v1/results/$UID_")
  check "$LABEL: an unlisted result is reachable by its permalink only" \
    sh -c "[ $st = 200 ] && [ $listed = False ]"

  for scale in 1 1.01 0.99 1.02 0.98 1.005; do
    make_doc "b$scale.json" bob --base --scale $scale
    post "b$scale.json" "$(sign "b$scale.json" bob)" > /dev/null
  done
  make_doc outlier.json bob --base --scale 3
  st=$(post outlier.json "$(sign outlier.json bob)")
  got=$(field "'outlier' in d['flags']")
  check "$LABEL: a score far from its CPU's median is stored but flagged" \
    [ "$st $got" = "201 True" ]
  OUTLIER=$(field "d['id']")
  st=$(get "/api/v1/results/$OUTLIER")
  check "$LABEL: the result's JSON has why it is flagged and when that was decided" \
    [ "$(field "([n.split(':')[0] for n in d['flag_notes']] == d['flags'], len(d['flags_decided']))")" \
      = "(True, 20)" ]
  make_doc quick.json bob --base --set 'run.mode="quick"' --set 'system.build.gmp.build="fat"'
  post quick.json "$(sign quick.json bob)" > /dev/null
  QUICK=$(field "d['id']")
  st=$(get /api/v1/cpus)
  check "$LABEL: /cpus aggregates the unflagged results of the CPU" \
    [ "$(field "d['cpus'][0]['scores']['gmpbench.base']['n']")" = 6 ]
  check "$LABEL: /cpus keeps run modes and build kinds apart, and says which each row is" \
    [ "$(field "sorted((c['mode'], c['build'], c['scores']['gmpbench.base']['n']) for c in d['cpus'])")" \
      = "[('custom', 'unknown', 6), ('quick', 'fat', 1)]" ]
  cp resp.json cpus.json
  check "$LABEL: /cpus answers its rows sorted by CPU, run mode and build kind, on one page" \
    [ "$(field "([(c['cpu'], c['mode'], c['build']) for c in d['cpus']] == sorted((c['cpu'], c['mode'], c['build']) for c in d['cpus']), d['next_cursor'])" cpus.json)" = "(True, None)" ]
  st=$(get "/api/v1/cpus?limit=1")
  pages=1
  : > paged.txt
  while [ "$st" = 200 ]; do
    field "'\n'.join(json.dumps(c, sort_keys=True) for c in d['cpus'])" >> paged.txt
    cursor=$(field "d['next_cursor'] or ''")
    [ -n "$cursor" ] || break
    pages=$((pages + 1))
    st=$(get "/api/v1/cpus?limit=1&cursor=$cursor")
  done
  check "$LABEL: /cpus pages of one row, cursor after cursor, give every row once" \
    [ "$st $pages $(field "'\n'.join(json.dumps(c, sort_keys=True) for c in d['cpus'])" cpus.json | cksum)" \
      = "200 $(field "len(d['cpus'])" cpus.json) $(cksum < paged.txt)" ]
  CPU=$(field "d['cpus'][0]['cpu']" cpus.json)
  ARCH=$(field "d['cpus'][0]['arch']" cpus.json)
  st=$(get "/api/v1/cpus?mode=quick&build=fat&cpu=$CPU&arch=$ARCH")
  check "$LABEL: /cpus filters by CPU, architecture, run mode and build kind" \
    [ "$st $(field "[(c['cpu'], c['arch'], c['mode'], c['build']) for c in d['cpus']]")" \
      = "200 [('$CPU', '$ARCH', 'quick', 'fat')]" ]
  st=$(get "/api/v1/cpus?limit=501")
  expect_rule "$LABEL: /cpus takes at most 500 rows a page" 400 query "$st"
  st=$(get "/api/v1/cpus?cursor=6e6f")
  expect_rule "$LABEL: /cpus refuses a cursor it did not give" 400 query "$st"
  st=$(get "/api/v1/results?build=fat&mode=quick")
  check "$LABEL: listings filter by run mode and build kind, each result saying its own" \
    [ "$(field "[(r['id'], r['summary']['mode'], r['summary']['build']) for r in d['results']]")" \
      = "[('$QUICK', 'quick', 'fat')]" ]
  get "/api/v1/results?limit=500" > /dev/null
  listed=$(field "len(d['results'])")
  st=$(get /api/v1/export.csv)
  check "$LABEL: the CSV export has a header and one line per listed result" \
    [ "$(wc -l < resp.json)" = $((listed + 1)) ]
}

core_retraction () {
  printf 'gmpbench-retract:%s' "$ID" > retract.msg
  st=$(curl -sS -o resp.json -w '%{http_code}' -X POST \
    -H "Gmpbench-Signature: $(sign retract.msg bob)" "$URL/api/v1/results/$ID/retract")
  expect_rule "$LABEL: another key cannot retract a result" 403 signature-invalid "$st"
  st=$(curl -sS -o resp.json -w '%{http_code}' -X POST \
    -H "Gmpbench-Signature: $(sign retract.msg alice)" "$URL/api/v1/results/$ID/retract")
  check "$LABEL: the result's key retracts it" [ "$st $(field "d['retracted']")" = "200 True" ]
  st=$(get "/api/v1/results/$ID")
  expect_rule "$LABEL: a retracted result answers 410" 410 retracted "$st"
  get "/api/v1/results?limit=500" > /dev/null
  check "$LABEL: a retracted result leaves the listing" \
    [ "$(field "'$ID' in [r['id'] for r in d['results']]")" = False ]
  curl -sS -o dump.ndjson "$URL/api/v1/dump"
  check "$LABEL: the dump keeps a tombstone for it" \
    grep -q "\"id\":\"$ID\",\"retracted\":true" dump.ndjson
  check "$LABEL: the dump leaves unlisted results out" sh -c "! grep -q '$UID_' dump.ndjson"
  $PY -c "
import json, sys
for line in open('dump.ndjson'):
    e = json.loads(line)
    if 'document' in e:
        open('dumped.json', 'w', encoding='utf-8', newline='').write(e['document'])
        open('dumped.sig', 'w').write(e['signature'])
        break"
  base64 -d < dumped.sig > dumped.sig.bin
  # The signer's key from the document itself (docs/signing.md): a DER
  # prefix for Ed25519 public keys, then the 32 raw bytes.
  { printf '\060\052\060\005\006\003\053\145\160\003\041\000'
    field "d['submitter']['public_key']" dumped.json | base64 -d; } \
    | openssl pkey -pubin -inform DER -out dumped.pub 2> /dev/null
  check "$LABEL: a dumped document re-verifies from its dump line alone" \
    openssl pkeyutl -verify -pubin -inkey dumped.pub -rawin -in dumped.json \
      -sigfile dumped.sig.bin -out /dev/null
}

# With --aggregate-ttl 0, /api/v1/cpus has the results just uploaded
# (t0370 checks the rows kept between requests).
run_core () {
  LABEL=$2
  if ! start_server "$1" --address-rate 0 --key-rate 0 --aggregate-ttl 0 --trust-proxy; then
    fail "$LABEL: the server starts"
    return
  fi
  core_upload
  core_rejections
  core_listings
  core_retraction
  stop_server
  check "$LABEL: SIGTERM stops the server cleanly" [ "$stop_status" = 0 ]
}
