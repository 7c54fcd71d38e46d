# t0700-web-pages.sh: the public pages of gmpbench-server (issue 7,
# docs/leaderboard.md) over HTTP and in headless Chromium.
#
# Five documents, made from a real run (fixtures/server-full.json):
# an AMD x86-64 CPU twice (scores x2, with a run on both its CPUs, and
# x1.8), an Arm CPU (x1, but ten
# times OpenSSL's RSA-2048 rate, so that sorting by that test puts it
# first), a hostile Intel one whose CPU name, OS name, compiler name
# and flags and submitter name hold HTML and script, and an Intel one
# named as an AMD part (flagged brand-mismatch, so hidden by default);
# the Arm one names its machine (system.machine).  Checks: the
# leaderboard by architecture, filters, sorts and sets of columns (and
# their URLs), the export of a view's results, the CPU, node, result,
# compare, submitter and about pages, the security headers, escaping;
# then in Chromium: no console message on any page (a CSP
# violation or a running script would be one), no hostile element in the
# DOM, screenshots in $BUILDDIR/tests/artifacts/, and at 1280 and 390 px
# (tests/site-layout.py): no value beyond the window, the headline on the
# first screen, Tab through links and controls with a visible focus, text
# contrast at least 4.5:1.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

FULL="$SRCDIR/tests/fixtures/server-full.json"
AMD='x86:AuthenticAMD:family=25:model=1:stepping=1'
AMD_ARG='x86%3AAuthenticAMD%3Afamily%3D25%3Amodel%3D1%3Astepping%3D1'
ARM='arm:0x41:0xd0c:r3p1'
INTEL='x86:GenuineIntel:family=6:model=85:stepping=7'
HOSTILE_CPU='Intel <script>alert(1)</script><img src=x onerror=alert(2)> Xeon'
HOSTILE_OS='<i>Linux</i><script>alert(3)</script>'
HOSTILE_CC='<script>alert(4)</script>gcc'
HOSTILE_FLAGS='-O2 "><svg onload=alert(6)>'
HOSTILE_NAME='<img src=x onerror=alert(5)>'

make_key alice > /dev/null
make_key bob > /dev/null
make_key mallory > /dev/null
make_doc amd1.json alice --from "$FULL" --name alice --scale 2 --threads 2
make_doc amd2.json alice --from "$FULL" --name alice --scale 1.8
make_doc arm.json bob --from "$FULL" --name bob --scale-test openssl.rsa.sign.2048=10 \
  --set system.cpu.arch='"aarch64"' --set system.cpu.identity="\"$ARM\"" \
  --set system.cpu.vendor='"ARM"' --set system.cpu.name='"Neoverse-N1"' \
  --set system.os.name='"Ubuntu"' \
  --set system.machine='{"model": "Amazon EC2 m6g.xlarge", "soc": null}'
make_doc evil.json mallory --from "$FULL" --scale 0.5 \
  --set system.cpu.identity="\"$INTEL\"" --set system.cpu.vendor='"Intel"' \
  --set system.cpu.name="$($PY -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$HOSTILE_CPU")" \
  --set system.os.name="$($PY -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$HOSTILE_OS")" \
  --set system.build.compiler.name="$($PY -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$HOSTILE_CC")" \
  --set system.build.configure.cflags="$($PY -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$HOSTILE_FLAGS")" \
  --name "$HOSTILE_NAME"
make_doc odd.json bob --from "$FULL" --scale 0.7 \
  --set system.cpu.identity='"x86:GenuineIntel:family=6:model=143:stepping=8"' \
  --set system.cpu.vendor='"Intel"' --set system.cpu.name='"AMD Ryzen Pretender"'

make_doc machine.json bob --from "$FULL" --set system.machine='{"model": 5}'

start_server web.db --aggregate-ttl 0 || { fail "the server starts"; exit 0; }
status=$(post machine.json "$(sign machine.json bob)")
expect_status "a machine model that is not a string is refused" 422 "$status"
for pair in amd1:alice amd2:alice arm:bob evil:mallory odd:bob; do
  doc=${pair%%:*} key=${pair#*:}
  status=$(post $doc.json "$(sign $doc.json $key)")
  expect_status "$doc is accepted" 201 "$status"
  eval "ID_$doc=\$(field \"d['id']\")"
done
"$SERVER" key verify "$(fingerprint alice)" --name 'ACME <Labs>' --database web.db 2>> server.log
check "alice's key becomes a verified publisher" test $? = 0

# page PATH: the page in page.html, its headers in headers.txt; prints the status.
page () {
  curl -sS -D headers.txt -o page.html -w '%{http_code}' "$URL$1"
}

# rows FILE: the CPU identities of the leaderboard in FILE, in order.
rows () {
  $PY - "$1" << 'EOF'
import re, sys
html = open(sys.argv[1]).read()
body = html.split('<table id="leaderboard"', 1)[-1] if '<table id="leaderboard"' in html else ''
print(' '.join(re.findall(r'<code class="note">([^<]*)</code></td><td', body)))
EOF
}

status=$(page /)
expect_status "the home page answers 200" 200 "$status"
check "as HTML" grep -qi '^Content-Type: text/html; charset=utf-8' headers.txt
check "with a strict Content-Security-Policy" \
  grep -qi "^Content-Security-Policy: default-src 'none'; style-src 'self'" headers.txt
check "and no framing" grep -qi '^X-Frame-Options: DENY' headers.txt
check "tabs for both architectures" sh -c "grep -q '>x86_64 <span' page.html && grep -q '>aarch64 <span' page.html"
order=$(rows page.html)
check "by median score: AMD, then Arm, then the hostile Intel ($order)" \
  test "$order" = "$AMD $ARM $INTEL"
check "AMD's row counts 2 results" grep -q '<span class="note">x86_64</span> <code class="note">x86:AuthenticAMD:family=25:model=1:stepping=1</code></td><td class="num" data-label="n">2</td>' page.html
check "no score is divided by the core count" sh -c "! grep -q 'Score/core' page.html"
check "the base and app category medians are columns" \
  grep -q 'data-label="Base">41992</td><td class="num" data-label="App">1155</td>' page.html
check "the leaderboard is drawn as bars (median, IQR)" grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="chart bars"' page.html
check "rows have checkboxes comparing CPUs" \
  sh -c "grep -q '<form method=\"get\" action=\"/compare\">' page.html && grep -q 'name=\"cpu\" value=\"$AMD\"' page.html"
check "the sort menu lists the first two levels only" \
  sh -c "[ \$(sed -n '/<select name=\"sort\">/,/<\/select>/p' page.html | grep -c '<option') -lt 40 ] && ! grep -q 'value=\"gmpbench.base.multiply.128\"' page.html"
check "the newest uploads are listed" sh -c "grep -q 'id=\"recent\"' page.html && grep -q '/results/$ID_amd1' page.html"
check "the stylesheet's URL has a version" grep -q 'href="/style.css?v=[0-9a-f]\{16\}"' page.html
check "the GMP/OpenSSL RSA-2048 ratio is shown" grep -q 'GMP/OpenSSL RSA-2048' page.html
check "the six categories are columns too, as on gmplib.org" \
  sh -c "grep -q 'data-label=\"Multiply\">' page.html && grep -q 'data-label=\"GCDext\">' page.html && grep -q 'data-label=\"Pi\">' page.html"
check "with the clock, the GMP version and the compiler" \
  grep -q '<td class="num" data-label="Clock">2.99 GHz</td><td data-label="GMP">6.2.1</td><td data-label="Compiler">gcc</td>' page.html
check "the GMP column's header says the build kind of the tab" grep -q '>GMP <span class="note">unknown</span></th>' page.html
check "the categories' set leaves out the spread" sh -c "! grep -q 'data-label=\"IQR\"' page.html"
check "a verified publisher's row says how many of its results are theirs" \
  grep -q '<tr class="verified">.*family=25.*<span class="badge">✓ 2 verified</span>' page.html
check "and its bar is checked, with a legend" \
  sh -c "grep -q '<text class=\"checked\"' page.html && grep -q 'some results from verified publishers' page.html"
check "the view's results link the API's export with its filters" \
  grep -q 'href="/api/v1/export.csv?mode=custom&amp;build=unknown&amp;flagged=0"' page.html
size=$(wc -c < page.html)
check "the home page stays small ($size bytes)" test "$size" -lt 20000
page '/?cols=stats' > /dev/null
check "the other set: IQR, Best, Score/GHz and the RSA ratio" \
  sh -c "grep -q 'data-label=\"IQR\"' page.html && grep -q 'data-label=\"Score/GHz\"' page.html && ! grep -q 'data-label=\"Multiply\"' page.html"
check "its tab is current and its links keep it" \
  sh -c "grep -q 'class=\"current\" aria-current=\"page\" href=\"/?cols=stats\"' page.html && grep -q 'href=\"/?sort=best&amp;cols=stats\"' page.html"
page '/?sort=ghz' > /dev/null
check "sorting by a column of the other set shows that set" grep -q 'aria-sort="descending"><a href="/?sort=ghz">Score/GHz' page.html
allcore=$($PY -c "import json; print(json.load(open('amd1.json'))['threads']['scores']['gmpbench'])")
page '/?cols=stats' > /dev/null
check "the all-core score of a --threads all run is a column of its own ($allcore)" \
  $PY - "$allcore" << 'EOF2'
import re, sys
html = open('page.html').read()
amd = [r for r in re.findall(r'<tr[^>]*>.*?</tr>', html, re.S) if 'family=25:model=1' in r]
cell = re.search(r'data-label="All-core">([0-9.]+)<', amd[0]) if amd else None
sys.exit(not ('>All-core</a></th>' in html and cell
              and abs(float(cell.group(1)) / float(sys.argv[1]) - 1) < 1e-3))
EOF2
check "a CPU without such a run shows none, never a score divided by cores" \
  $PY - << 'EOF2'
import re, sys
rows = re.findall(r'<tr[^>]*>.*?</tr>', open('page.html').read(), re.S)
arm = [r for r in rows if 'Neoverse-N1' in r]
sys.exit(not arm or not re.search(r'data-label="All-core">[^0-9<]*</td>', arm[0]))
EOF2
status=$(page '/?sort=allcore.gmpbench')
check "the leaderboard sorts by it ($status)" test "$status $(rows page.html | cut -d' ' -f1)" = "200 $AMD"
status=$(get '/api/v1/results?sort=allcore.gmpbench')
check "and so does the API, the run on both CPUs first ($status)" \
  test "$status $(field "d['results'][0]['id']")" = "200 $ID_amd1"
status=$(page '/?cols=everything')
expect_status "an unknown set of columns is a 400 page" 400 "$status"

status=$(page '/?arch=aarch64')
check "the aarch64 tab lists the Arm CPU only" test "$status $(rows page.html)" = "200 $ARM"
check "and marks itself current" grep -q 'class="current" aria-current="page" href="/?arch=aarch64"' page.html
page '/?os=Ubuntu' > /dev/null
check "an OS filter narrows the list" test "$(rows page.html)" = "$ARM"
page '/?verified=1' > /dev/null
check "verified publishers only: AMD" test "$(rows page.html)" = "$AMD"
page '/?arch=x86_64&gmp=6.2.1&compiler=gcc' > /dev/null
check "arch, GMP and compiler filters combine" test "$(rows page.html)" = "$AMD"
page '/?vendor=nobody' > /dev/null
check "a filter matching nothing says so" grep -q 'id="empty"' page.html
page '/?sort=openssl.rsa.sign.2048' > /dev/null
order=$(rows page.html)
check "sorting by the node openssl.rsa.sign.2048: AMD, confirmed by its verified publisher, stays first, then the unconfirmed rows by the node ($order)" \
  test "$order" = "$AMD $ARM $INTEL"
check "with that node's median as a column" grep -q 'aria-sort="descending"><a href="/?sort=openssl.rsa.sign.2048">openssl.<wbr>rsa.<wbr>sign.<wbr>2048' page.html
page '/?sort=rsa' > /dev/null
check "sorting by the RSA ratio puts AMD first, Arm last" test "$(rows page.html | cut -d' ' -f3)" = "$ARM"
page '/?sort=gmpbench.base' > /dev/null
check "sorting by a category marks its column instead of adding one" \
  sh -c "grep -q 'aria-sort=\"descending\"><a href=\"/?sort=gmpbench.base\">Base' page.html && ! grep -q 'data-label=\"Node\"' page.html"
page '/?sort=cpu' > /dev/null
check "sorting by name" test "$(rows page.html | cut -d' ' -f1)" = "$AMD"
check "sorted views keep their filters in links" \
  sh -c "curl -s '$URL/?os=Ubuntu&sort=n' | grep -q 'href=\"/?os=Ubuntu&amp;sort=gmpbench.app.pi\"'"
page '/?sort=ext.rsa.verify' > /dev/null
sed -n '/<select name="sort">/,/<\/select>/p' page.html | grep -o '<option value="[^"]*"' | sort | uniq -d > dup.txt
check "the sort select lists every node once (twice: $(tr '\n' ' ' < dup.txt))" test ! -s dup.txt
check "and marks the sort node selected" grep -q '<option value="ext.rsa.verify" selected>' page.html
status=$(page '/?sort=no.such.node')
expect_status "an unknown sort node is a 400 page" 400 "$status"

status=$(page "/cpu?cpu=$AMD")
expect_status "the CPU page answers" 200 "$status"
check "with its distribution as inline SVG" grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="chart strip"' page.html
check "an axis label with the unit" grep -q 'GMPbench score (higher is faster)' page.html
check "verified results highlighted" sh -c "grep -q 'class=\"point verified\"' page.html && grep -q '<tr class=\"verified\">' page.html"
check "the node medians as a tree, each node linking its distribution, with its sources and results" \
  grep -Eq "<td class=\"test depth2\"><a href=\"/cpu\\?cpu=$AMD_ARG&amp;node=gmpbench.app.rsa\">gmpbench.app.rsa</a></td><td class=\"num\" data-label=\"Sources\">[12]</td><td class=\"num\" data-label=\"Results\">2</td>" page.html
check "the headline score comes first, before the distribution" $PY -c "
d = open('page.html').read()
assert d.index('id=\"headline\">Median GMPbench score <strong>6963</strong>') < d.index('<svg'), 'order'
"
check "each result says how many of this CPU's it is faster than" \
  sh -c "grep -q 'data-label=\"Faster than\">0%' page.html && grep -q 'data-label=\"Faster than\">50%' page.html"

check "results by GMP version and compiler" grep -q 'id="by-build"' page.html
status=$(page "/cpu?cpu=nope")
expect_status "an unknown CPU is a 404 page" 404 "$status"
status=$(page "/cpu?cpu=$AMD_ARG&node=gmpbench.app.rsa")
expect_status "a node's distribution has a page of its own" 200 "$status"
check "headed by the node's median over the CPU's results" \
  grep -q 'id="headline">Median score of gmpbench.app.rsa <strong>[0-9]' page.html
check "drawn as a strip plot over a box plot, labelled with the node" \
  sh -c "grep -q 'Distribution of 2 scores of gmpbench.app.rsa' page.html && grep -q '<rect class=\"box\"' page.html && grep -q 'score of gmpbench.app.rsa (higher is faster)' page.html"
check "linking back and to the leaderboard by the node" \
  sh -c "grep -q '>every node of this CPU</a>' page.html && grep -q 'href=\"/?sort=gmpbench.app.rsa\">the leaderboard by this node' page.html"
status=$(page "/cpu?cpu=$AMD_ARG&node=gmpbench.base.multiply.128%2C128")
expect_status "a test is no inner node: 400" 400 "$status"

status=$(page "/results/$ID_amd1")
expect_status "the result page answers" 200 "$status"
check "links to the raw bytes and the signature" \
  sh -c "grep -q 'href=\"/api/v1/results/$ID_amd1/raw\"' page.html && grep -q '/signature\"' page.html"
check "the publisher and fingerprint" sh -c "grep -q 'ACME &lt;Labs&gt;' page.html && grep -q '$(fingerprint alice)' page.html"
check "the whole hierarchy with spreads" sh -c "grep -q 'gmpbench.base.multiply.128' page.html && grep -q '&#177;\\|±' page.html"
check "the GMP-vs-OpenSSL table" grep -q 'id="comparisons"' page.html
check "the machine" grep -q 'AuthenticAMD' page.html
page "/results/$ID_arm" > /dev/null
check "a result names the machine it ran in, when its document does" \
  grep -q ' in <span id="machine-model">Amazon EC2 m6g.xlarge</span>' page.html
page "/cpu?cpu=$ARM" > /dev/null
check "and so does its CPU's page, its newest unflagged results agreeing" \
  grep -q '<p class="note">.*in <span id="machine-model">Amazon EC2 m6g.xlarge</span> · <code>' page.html
page "/cpu?cpu=$AMD_ARG" > /dev/null
check "a CPU whose results name no machine names none" sh -c "! grep -q 'machine-model' page.html"
status=$(page "/results/0000000000000000")
expect_status "an unknown result is a 404 page" 404 "$status"

status=$(page "/compare?id=$ID_amd1&id=$ID_arm")
expect_status "the compare page answers" 200 "$status"
check "B/A of the GMPbench score is 0.5, with both scores" \
  grep -q '<tr class="node"><td class="test depth0">gmpbench</td><td class="num" data-label="A">[0-9]*</td><td class="num" data-label="B">[0-9]*</td><td class="num" data-label="B/A">0.5</td>' page.html
check "with a ratio chart" grep -q 'B / A per node' page.html
check "and openssl.rsa.sign.2048 at 10 x 0.5 = 5" grep -q 'openssl.rsa.sign.2048</td><td class="num" data-label="A">[0-9]*</td><td class="num" data-label="B">[0-9]*</td><td class="num" data-label="B/A">5</td>' page.html
status=$(page "/compare?id=$ID_amd1&id=$ID_amd1")
check "a result against itself: every ratio 1, within the spreads" grep -q '<td class="num within" data-label="B/A">1 ~</td>' page.html
status=$(page "/compare?id=$ID_amd1")
expect_status "compare wants two results" 400 "$status"
status=$(page "/compare?cpu=$AMD&cpu=$ARM")
expect_status "two CPUs compare" 200 "$status"
check "node rows show both medians and B/A = 0.5263 (3665 / 6963)" \
  grep -q '<tr class="node"><td class="test depth0">gmpbench</td><td class="num" data-label="A">6963</td><td class="num" data-label="B">3665</td><td class="num" data-label="B/A">0.5263</td>' page.html
check "in tree order" $PY -c "
d = open('page.html').read().split('<table id=\"compare\"')[1]
assert d.index('>gmpbench<') < d.index('>gmpbench.base<') < d.index('>gmpbench.base.gcd<') < d.index('>gmpbench.app<'), 'order'
"
check "with a ratio chart" grep -q 'B / A: ratio of the medians per node' page.html
status=$(page "/compare?cpu=$AMD")
expect_status "compare wants two CPUs" 400 "$status"
status=$(page "/compare?cpu=$AMD&cpu=nope")
expect_status "an unknown CPU in a comparison is a 404" 404 "$status"

check "a CPU is named with its microarchitecture and code name from its identity" \
  sh -c "curl -s '$URL/' | grep -q '<span class=\"kind\">Zen 3, Milan</span>'"
page '/?q=zen%203' > /dev/null
check "which the search box finds too" test "$(rows page.html)" = "$AMD"
page '/?q=neoverse' > /dev/null
check "the search box finds a CPU by part of its name, any case" test "$(rows page.html)" = "$ARM"
check "and keeps the search in the sort links" grep -q 'href="/?q=neoverse&amp;sort=gmpbench.app"' page.html
curl -s "$URL/api/v1/leaderboard.csv?arch=x86_64&sort=cpu" > view.csv
check "the CSV of a view holds exactly its rows, in its order, with its columns" $PY -c "
import csv
rows = list(csv.DictReader(open('view.csv')))
assert [r['cpu'] for r in rows] == ['$AMD', '$INTEL'], rows
assert rows[0]['n'] == '2' and rows[0]['median'] == '6963.44' and rows[0]['base'] == '41991.8', rows[0]
"
check "with every column of both sets" $PY -c "
import csv
rows = list(csv.DictReader(open('view.csv')))
cols = ['verified', 'multiply', 'divide', 'gcd', 'gcdext', 'rsa', 'pi', 'per_ghz', 'rsa_2048', 'clock_ghz', 'gmp', 'compiler']
assert all(c in rows[0] for c in cols), list(rows[0])
assert rows[0]['verified'] == '2' and rows[0]['gmp'] == '6.2.1' and rows[0]['clock_ghz'] == '2.992', rows[0]
"
# The API's export of the results: the home page's filters select exactly.
export_ids () {
  curl -s "$URL/api/v1/export.csv$1" | $PY -c "
import csv, sys
print(' '.join(sorted(r['id'] for r in csv.DictReader(sys.stdin))))"
}
sorted_ids () {
  echo "$@" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'
}
check "the export filters by architecture" test "$(export_ids '?arch=aarch64')" = "$ID_arm"
check "an architecture without results exports none" test "$(export_ids '?arch=s390x')" = ""
check "by vendor" test "$(export_ids '?vendor=Intel')" = "$(sorted_ids $ID_evil $ID_odd)"
check "by verified publishers" test "$(export_ids '?verified=1')" = "$(sorted_ids $ID_amd1 $ID_amd2)"
check "by CPU, OS, GMP version, compiler, run mode and build kind together" \
  test "$(export_ids "?cpu=$ARM&os=Ubuntu&gmp=6.2.1&compiler=gcc&mode=custom&build=unknown")" = "$ID_arm"
flagged_ids=$(export_ids '?flagged=0')
check "flagged=0 leaves flagged results out" \
  sh -c "test -n '$flagged_ids' && test '$(export_ids '')' != '$flagged_ids' && ! echo '$flagged_ids' | grep -q '$ID_odd'"
check "without filters, every listed result" \
  test "$(export_ids '')" = "$(sorted_ids $ID_amd1 $ID_amd2 $ID_arm $ID_evil $ID_odd)"
status=$(curl -s -o export.err -w '%{http_code}' "$URL/api/v1/export.csv?verified=yes")
check "a bad verified= is a 400 in JSON" sh -c "test $status = 400 && grep -q '\"rule\"' export.err"
curl -s "$URL/api/v1/leaderboard?arch=aarch64" > view.json
check "and the JSON" $PY -c "
import json
d = json.load(open('view.json'))
assert [r['cpu'] for r in d['rows']] == ['$ARM'] and d['view']['arch'] == 'aarch64', d
"
status=$(page '/?format=xml')
expect_status "an unknown format is a 400 page" 400 "$status"
page '/?q=model%3D143' > /dev/null
check "a view whose only result is flagged says it hides it" \
  sh -c "grep -q '1 result would, but it is flagged as implausible and hidden: <a href=\"/?q=model%3D143&amp;flagged=1\">include flagged results</a>' page.html"
page '/?flagged=1' > /dev/null
check "shown with flagged results included, its row is marked" \
  grep -q '<tr class="flagged">.*model=143:stepping=8</a> <span class="badge flag">1 flagged</span>' page.html
check "and its bar" grep -q 'with flagged results (included by the filter)' page.html

status=$(page "/submitters/$(fingerprint alice)")
check "a verified publisher's page is titled with its name" \
  sh -c "test $status = 200 && grep -q '<h1>ACME &lt;Labs&gt;</h1>' page.html"
page "/submitters/$(fingerprint bob)" > /dev/null
check "another's with the name its newest result gives, said to be unverified" \
  sh -c "grep -q '<h1>bob</h1>' page.html && grep -q 'not verified' page.html && grep -q '$(fingerprint bob)' page.html"
page "/submitters/$(fingerprint mallory)" > /dev/null
check "a hostile name stays text in the title" grep -q '<h1>&lt;img src=x onerror=alert(5)&gt;</h1>' page.html
status=$(page /about)
check "the about page explains the score and verification" \
  sh -c "test $status = 200 && grep -q 'id=\"score\"' page.html && grep -q 'openssl pkeyutl -verify' page.html"
status=$(page /style.css)
check "the stylesheet is served as CSS" sh -c "test $status = 200 && grep -qi '^Content-Type: text/css' headers.txt"
version=$(curl -s "$URL/" | grep -o 'style.css?v=[0-9a-f]*' | head -n 1)
page "/$version" > /dev/null
check "the versioned stylesheet may be cached for a year" grep -qi '^Cache-Control: public, max-age=31536000, immutable' headers.txt
page "/style.css?v=old" > /dev/null
check "another version is revalidated" grep -qi '^Cache-Control: no-cache' headers.txt
status=$(page /no/such/page)
expect_status "anything else is a 404 page" 404 "$status"
check "the API keeps its JSON 404" sh -c "test \$(curl -s -o /dev/null -w '%{http_code}' '$URL/api/v1/nothing') = 404 && curl -s '$URL/api/v1/nothing' | grep -q '\"rule\"'"
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/")
expect_status "pages are GET only" 405 "$status"

# Escaping, over HTTP: the hostile strings are text on every page they reach.
for p in "/?flagged=1" "/cpu?cpu=$INTEL&flagged=1" "/results/$ID_evil" \
         "/submitters/$(fingerprint mallory)" "/compare?id=$ID_evil&id=$ID_amd1"; do
  curl -s "$URL$p" > hostile.html
  check "no hostile markup on $p" \
    sh -c "! grep -q '<script\\|<img\\|<i>\\|<svg onload' hostile.html && grep -q '&lt;script&gt;alert(' hostile.html"
done

# ------------------------------------------------------------ Chromium
if ! find_chromium; then
  skip "the pages in a browser (no chromium)"
  stop_server
  exit 0
fi

# Chromium takes seconds to start: every page is loaded at once, four
# browsers at a time, into dom-N.txt and console-N.txt (screenshots too).
PAGES="/
/?flagged=1
/?arch=aarch64
/?sort=openssl.rsa.sign.2048
/cpu?cpu=$AMD
/cpu?cpu=$INTEL&flagged=1
/results/$ID_evil
/compare?id=$ID_amd1&id=$ID_arm
/submitters/$(fingerprint mallory)
/about"
SHOTS="t0700-home 1280,1000 /?flagged=1
t0700-home-phone 390,1200 /
t0700-cpu 1280,1400 /cpu?cpu=$AMD
t0700-result 1280,1600 /results/$ID_amd1
t0700-hostile 1280,1000 /results/$ID_evil
t0700-compare 1280,1400 /compare?id=$ID_amd1&id=$ID_arm"
{
  n=0
  echo "$PAGES" | while read -r p; do n=$((n + 1)); echo "dom $n $p"; done
  echo "$SHOTS" | sed 's/^/shot /'
} > jobs.txt
export URL ARTIFACTS TEST_TMP CHROMIUM
xargs -P 4 -L 1 sh -c 'profile=$(mktemp -d "$TEST_TMP/chromium.XXXXXX")
  flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$profile"
  if [ "$0" = dom ]; then
    timeout 60 "$CHROMIUM" $flags --enable-logging=stderr --v=0 --dump-dom "$URL$2" > "dom-$1.txt" 2> "console-$1.txt"
  else
    timeout 60 "$CHROMIUM" $flags --screenshot="$ARTIFACTS/$1.png" --window-size="$2" "$URL$3" > /dev/null 2>&1
  fi' < jobs.txt

# dom_check N DESCRIPTION: page N rendered with no console message and with
# no element or event handler a hostile string could make.
dom_check () {
  cp "dom-$1.txt" dom.txt
  check "$2 renders in Chromium without console messages" \
    sh -c "grep -q '</html>' dom.txt && ! grep -q ':CONSOLE' console-$1.txt"
  check "$2 has no script, img or event handler in its DOM" \
    $PY "$SRCDIR/tests/dom-inert.py" dom.txt
}

dom_check 1 "the home page"
check "it lists the CPUs by architecture" sh -c "grep -q 'aarch64' dom.txt && grep -q 'Neoverse-N1' dom.txt"
dom_check 2 "the leaderboard with the hostile result"
check "where the hostile CPU name shows as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' dom.txt
dom_check 3 "the filtered leaderboard"
check "the filter narrows the list in the browser" \
  sh -c "grep -q 'Neoverse-N1' dom.txt && ! grep -q 'AMD EPYC' dom.txt"
dom_check 4 "the leaderboard sorted by a node"
check "sorted by a node in the browser, the confirmed row first and the unconfirmed marked" $PY -c "
d = open('dom.txt').read()
assert d.index('AMD EPYC') < d.index('Neoverse-N1') < d.index('unconfirmed, 1 source')
"
dom_check 5 "the CPU page"
dom_check 6 "the hostile CPU's page"
dom_check 7 "the hostile result's page"
check "its OS and compiler show as text" \
  sh -c "grep -q '&lt;i&gt;Linux&lt;/i&gt;' dom.txt && grep -q '&lt;script&gt;alert(4)&lt;/script&gt;gcc' dom.txt && grep -q 'onload=alert(6)' dom.txt"
dom_check 8 "the compare page"
check "the compare page shows ratios" grep -q 'data-label="B/A">0.5</td>' dom.txt
dom_check 9 "the hostile submitter's page"
dom_check 10 "the about page"
for shot in t0700-home t0700-home-phone t0700-cpu t0700-result t0700-hostile t0700-compare; do
  check "screenshot $shot.png is kept" sh -c "[ \$(wc -c < '$ARTIFACTS/$shot.png' 2> /dev/null || echo 0) -gt 10000 ]"
done

# Layout, keyboard and contrast at 1280 and 390 px (tests/site-layout.py,
# screenshots in $ARTIFACTS/site-*.png).
$PY "$SRCDIR/tests/site-layout.py" "$CHROMIUM" "$ARTIFACTS" "$URL" \
  "home=/" "flagged=/?flagged=1&sort=openssl.rsa.sign.2048" "home-stats=/?cols=stats" \
  "cpu=/cpu?cpu=$AMD" "cpu-node=/cpu?cpu=$AMD_ARG&node=gmpbench.base" \
  "result=/results/$ID_amd1" "hostile=/results/$ID_evil" \
  "compare-results=/compare?id=$ID_amd1&id=$ID_arm" "compare-cpus=/compare?cpu=$AMD&cpu=$ARM" \
  "submitter=/submitters/$(fingerprint mallory)" "about=/about" 2> site-layout.err
check "the layout checks ran to the end" test $? = 0

stop_server
check "the server stops cleanly" test "$stop_status" = 0
