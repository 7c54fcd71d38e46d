# t0720-site-volunteer.sh: the site as a new volunteer meets it (issue 34,
# items 4, 5 and 8; docs/protocol.md "Standing", docs/leaderboard.md).
#
# A server at its default --aggregate-ttl, every upload from a network of
# its own (--trust-proxy), results of a real run of every test
# (fixtures/server-full.json) scaled:
#   - the 201 answer's standing: nothing to compare with for the first
#     result of an architecture, no CPU part for a CPU's first result,
#     then the CPU row's sources, results, median and percentile, and the
#     architecture's, ties never counted as "faster than", a flagged
#     result compared with the unflagged ones and not one of them, a
#     source's second result counted by its source's median;
#   - the CPU page's "Faster than" over six results with three equal
#     scores (0, 17, 17, 17, 67, 83%), all within the judge's outlier
#     cutoff of each other (16% faster than their median);
#   - a fresh machine's first result on the home page (its row and its
#     recent upload) in the first page asked for after the upload's 201;
#   - a flagged result on the home page's recent uploads and its CPU's
#     page, marked, its reason in a few words and a link to its page,
#     which says what to do about it; the CPU page says how many flagged
#     results its figures leave out;
#   - tab counts that follow the filters, an empty view that links the
#     tabs with matches, compare with none checked, the favicon, the skip
#     links, "1 result";
#   - in headless Chromium at 1280 and 390 px (tests/site-layout.py): the
#     pages a volunteer sees no wider than the window, no text under 11 px.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

FULL="$SRCDIR/tests/fixtures/server-full.json"
make_key vol > /dev/null
start_test_server "$PWD/results.db" --key-rate 0 --trust-proxy
EACH_SOURCE=1

X='x86:AuthenticAMD:family=25:model=97:stepping=2'
Y='x86:AuthenticAMD:family=25:model=33:stepping=0'
W='x86:AuthenticAMD:family=23:model=49:stepping=0'
ODD='x86:GenuineIntel:family=6:model=143:stepping=8'

# upload NAME IDENTITY SCALE [server-doc.py options]: a result of
# IDENTITY, its ops/s and scores times SCALE, its answer in NAME.resp;
# prints the status.
upload () {
  name=$1 identity=$2 scale=$3
  shift 3
  make_doc "$name.json" vol --from "$FULL" --name "$name" --identity "$identity" --scale "$scale" \
    --set 'system.cpu.name="AMD Ryzen 9 7950X 16-Core Processor"' "$@" &&
    post "$name.json" "$(sign "$name.json" vol)"
  cp resp.json "$name.resp"
}

# standing NAME: NAME's standing as "cpu SOURCES RESULTS MEDIAN/SCORE
# PERCENTILE | arch NAME MODE RESULTS PERCENTILE", a part absent as "-".
standing () {
  $PY - "$1" << 'EOF'
import json, sys
name = sys.argv[1]
st = json.load(open(name + '.resp'))['standing']
score = json.load(open(name + '.json'))['scores']['gmpbench']
c, a = st.get('cpu'), st.get('arch')
print(('cpu %d %d %.3f %g' % (c['sources'], c['results'], c['median'] / score, c['percentile'])
       if c else 'cpu -') + ' | ' +
      ('arch %s %s %d %g' % (a['name'], a['mode'], a['results'], a['percentile']) if a else 'arch -'))
EOF
}

# expect_standing DESCRIPTION NAME STATUS WANT
expect_standing () {
  got=$(standing "$2")
  if [ "$3" = 201 ] && [ "$got" = "$4" ]; then pass "$1"; else fail "$1 (status $3: $got, wanted $4)"; fi
}

# ------------------------------------------------------------ standing
status=$(upload y1 "$Y" 0.5)
check "the first result of an architecture stands nowhere yet: standing is {} ($status)" \
  sh -c "[ $status = 201 ] && [ \"\$($PY -c 'import json; print(json.load(open(\"y1.resp\"))[\"standing\"])')\" = '{}' ]"
status=$(upload x1 "$X" 1)
expect_standing "a CPU's first result has no CPU part, and beats the other CPU's half as fast" x1 \
  "$status" "cpu - | arch x86_64 custom 2 50"
status=$(upload x2 "$X" 1.1)
expect_standing "two sources: the row's median between them, faster than the other" x2 \
  "$status" "cpu 2 2 0.955 50 | arch x86_64 custom 3 66.7"
status=$(upload x3 "$X" 1.1)
expect_standing "an equal score is not faster than: a tie counts as not below" x3 \
  "$status" "cpu 3 3 1.000 33.3 | arch x86_64 custom 4 50"
status=$(upload x4 "$X" 1.2)
expect_standing "the fastest of four" x4 "$status" "cpu 4 4 0.917 75 | arch x86_64 custom 5 80"
status=$(upload x5 "$X" 1.1)
expect_standing "a third equal score" x5 "$status" "cpu 5 5 1.000 20 | arch x86_64 custom 6 33.3"
status=$(upload x6 "$X" 1.24)
expect_standing "the fastest of six" x6 "$status" "cpu 6 6 0.887 83.3 | arch x86_64 custom 7 85.7"
status=$(upload odd "$ODD" 1 --set 'system.cpu.vendor="Intel"' \
  --set 'system.cpu.name="AMD Ryzen Pretender"')
check "a result flagged brand-mismatch is stored ($status)" \
  sh -c "[ $status = 201 ] && grep -q '\"flags\":\\[\"brand-mismatch\"\\]' odd.resp"
expect_standing "and compared with the unflagged results, not one of them" odd \
  "$status" "cpu - | arch x86_64 custom 7 14.3"
ID_odd=$(field "d['id']" odd.resp)
status=$(post x6.json "$(sign x6.json vol)")
check "the same bytes again: 200, without standing ($status)" \
  sh -c "[ $status = 200 ] && ! grep -q standing resp.json"

# ------------------------------------------------------------ faster than
curl -sS -o cpu.html "$URL/cpu?cpu=$X"
check "the CPU page: faster than strictly slower results, ties not counted (0, 17 thrice, 67, 83%)" \
  $PY - << 'EOF'
import re, sys
html = open('cpu.html').read()
pairs = re.findall(r'data-label="Score">([0-9]+)</td><td class="num" data-label="Faster than">([^<]*)<', html)
got = sorted((int(s), p) for s, p in pairs)
want = ['0%', '17%', '17%', '17%', '67%', '83%']
if [p for s, p in got] != want:
    sys.exit('got %s' % got)
EOF

# A second result from x1's network (the second upload's): its source is
# one value of the row, the median of its two results.
EACH_SOURCE= FROM=2001:db8:2::1
status=$(upload x7 "$X" 1)
EACH_SOURCE=1
expect_standing "a source's second result: the row counts 6 sources, 7 results, by source" x7 \
  "$status" "cpu 6 7 1.100 0 | arch x86_64 custom 8 12.5"

# ------------------------------------------------------------ a fresh machine
make_doc w1.json vol --from "$FULL" --name w1 --identity "$W" --scale 1.5 \
  --set 'system.cpu.name="AMD EPYC 7R32"'
sig=$(sign w1.json vol)
seen=$($PY - "$URL" w1.json "$sig" << 'EOF'
import json, sys, urllib.request
url, doc, sig = sys.argv[1:4]
req = urllib.request.Request(url + '/api/v1/results', data=open(doc, 'rb').read(),
    method='POST', headers={'Content-Type': 'application/json', 'Gmpbench-Signature': sig,
                            'X-Forwarded-For': '2001:db8:ffff::1'})
rid = json.load(urllib.request.urlopen(req))['id']
home = urllib.request.urlopen(url + '/').read().decode()
row = 'family=23:model=49:stepping=0' in home.split('id="recent"')[0]
recent = ('/results/' + rid) in home.split('id="recent"')[-1]
print('row' if row else 'no-row', 'recent' if recent else 'no-recent')
EOF
)
check "a new machine's first result is on the first home page after its 201: its row and its recent upload ($seen)" \
  [ "$seen" = "row recent" ]

# ------------------------------------------------------------ flagged, never lost
curl -sS -o home.html "$URL/"
check "the home page's recent uploads list the flagged result, marked, its reason in a few words" \
  $PY - "$ID_odd" << 'EOF'
import sys
html = open('home.html').read().split('id="recent"')[1]
item = [li for li in html.split('<li>') if '/results/' + sys.argv[1] in li]
assert item, 'not listed'
assert '<span class="badge flag">flagged</span>' in item[0], item[0]
assert 'its CPU name names another maker' in item[0], item[0]
assert 'href="/results/%s#flagged">why, and what you can do</a>' % sys.argv[1] in item[0], item[0]
EOF
curl -sS -o odd.html "$URL/cpu?cpu=$ODD"
check "its CPU's page lists it, marked, and says one flagged result is left out of its figures" \
  sh -c "grep -q '1 flagged result of this CPU is left out of these figures' odd.html \
    && grep -q 'include flagged results</a>' odd.html \
    && grep -q 'value=\"$ID_odd\"' odd.html && grep -q '0 matching results, 0 with a GMPbench score' odd.html"
curl -sS -o result.html "$URL/results/$ID_odd"
check "its page says what the flag means and what the volunteer can do" \
  sh -c "grep -q 'id=\"flagged\"' result.html && grep -q 'names another maker than its identity or vendor' result.html \
    && grep -q '<strong>What you can do:</strong> The name comes from the operating system' result.html"

# ------------------------------------------------------------ tabs and filters
make_doc dist.json vol --from "$FULL" --name dist --identity "$Y" --scale 0.6 \
  --set 'system.cpu.name="AMD Ryzen 5 3600"' --set 'system.build.gmp.build="distribution"' \
  --set 'system.os.name="Arch Linux"'
status=$(post dist.json "$(sign dist.json vol)")
check "a distribution build's result on Arch Linux is stored ($status)" test "$status" = 201
curl -sS -o arch.html "$URL/?os=Arch%20Linux"
check "a filter matching nothing in the shown tab links the tab that has matches" \
  grep -q 'id="empty">No results match these filters. These filters match results under other tabs: <a href="/?os=Arch%20Linux&amp;build=distribution">distribution GMP builds</a> (1).' arch.html
check "and the tabs count what the filters match: distribution 1, unknown 0" \
  sh -c "grep -q 'href=\"/?os=Arch%20Linux&amp;build=distribution\">distribution <span class=\"note\">1</span>' arch.html \
    && grep -q 'href=\"/?os=Arch%20Linux&amp;build=unknown\">unknown <span class=\"note\">0</span>' arch.html"
curl -sS -o all.html "$URL/"
check "unfiltered, the unknown builds' tab counts the 9 unflagged results of custom runs" \
  grep -q 'href="/?build=unknown">unknown <span class="note">9</span>' all.html
curl -sS -o search.html "$URL/?q=7R32"
check "the search narrows the counts too: x86_64 counts the one result it finds" \
  grep -q 'href="/?q=7R32&amp;arch=x86_64">x86_64 <span class="note">1</span>' search.html

# ------------------------------------------------------------ edges
check "the leaderboard's compare form says it compares CPUs" \
  grep -q '<input type="hidden" name="compare" value="cpus">' all.html
status=$(curl -sS -o none.html -w '%{http_code}' "$URL/compare?compare=cpus&mode=custom&build=unknown")
check "compare with no CPU checked explains what to check, not ?id= ($status)" \
  sh -c "[ $status = 400 ] && grep -q 'No CPU was checked.' none.html && grep -q 'Compare column of the leaderboard' none.html \
    && grep -q 'href=\"/?mode=custom&amp;build=unknown\">Back to the leaderboard' none.html && ! grep -q '?id=' none.html"
status=$(curl -sS -o none.html -w '%{http_code}' "$URL/compare?id=$ID_odd")
check "and with one result checked ($status)" \
  sh -c "[ $status = 400 ] && grep -q 'Only one result was checked.' none.html"
for icon in favicon.svg favicon.ico; do
  status=$(curl -sS -D icon.hdr -o icon.svg -w '%{http_code}' "$URL/$icon")
  check "/$icon is an SVG icon ($status)" \
    sh -c "[ $status = 200 ] && grep -qi '^Content-Type: image/svg+xml' icon.hdr && grep -q '^<svg xmlns' icon.svg"
done
check "every page links the icon and has a skip link to its content" \
  sh -c "grep -q '<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">' result.html \
    && grep -q '<a class=\"skip\" href=\"#main\">Skip to the content</a>' result.html && grep -q '<main id=\"main\">' result.html"
check "the leaderboard also skips to its table" grep -q '<a class="skip" href="#leaderboard">Skip to the table</a>' all.html
curl -sS -o w.html "$URL/cpu?cpu=$W"
check "one result is \"1 result\": no page says \"1 results\" or \"1 CPUs\"" \
  sh -c "grep -q '1 matching result,' w.html && grep -q '1 result from 1 source: each point' w.html \
    && ! grep -q '\\b1 results\\|\\b1 CPUs\\|\\b1 scores' w.html odd.html all.html search.html arch.html"

# ------------------------------------------------------------ Chromium
if ! find_chromium; then
  skip "the volunteer's pages in a browser (no chromium)"
  exit 0
fi
$PY "$SRCDIR/tests/site-layout.py" "$CHROMIUM" "$ARTIFACTS" "$URL" \
  "vol-home=/" "vol-cpu=/cpu?cpu=$X" "vol-node=/cpu?cpu=$X&node=gmpbench.base" \
  "vol-flagged-cpu=/cpu?cpu=$ODD" "vol-flagged=/results/$ID_odd" "vol-empty=/?os=Arch%20Linux" \
  "vol-compare=/compare?cpu=$X&cpu=$Y" "vol-about=/about" 2> site-layout.err
check "the layout checks ran to the end" test $? = 0
