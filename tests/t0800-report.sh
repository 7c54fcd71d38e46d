# t0800-report.sh: the report formats of run and show (text, json, csv,
# markdown, html), gmpbench compare, --suite help, and the terminal
# behaviour: the tests being prepared and then a progress bar with a
# sane estimate of the time left only on a terminal (not TERM=dumb),
# plain lines per finished test otherwise and with --verbose, nothing with
# --quiet, colour only on a terminal without NO_COLOR.
. "$SRCDIR/tests/lib.sh"

SMALL="--only gmpbench.base.gcd.* --only openssl.base.gcd.* --only rng.gmp-* --time-per-test 0.03"

run_status "$GMPBENCH" run $SMALL -q -o r.json
check "a small run with comparisons and generators exits 0" [ "$status" -eq 0 ]
cp out.txt run.txt
python3 "$SRCDIR/tests/report-hostile.py" r.json hostile.json

run_status "$GMPBENCH" show r.json
check "show prints what run printed" \
  sh -c "grep -v '^result written' run.txt | sed '\$d' > run-body.txt && cmp -s run-body.txt out.txt"
check "show prints the comparison and generator tables" \
  sh -c "grep -q 'GMP and other libraries' out.txt && grep -q 'Random generators' out.txt"
run_status "$GMPBENCH" show --format json r.json
check "show --format json is the file's exact bytes" cmp -s out.txt r.json

# CSV: one table, every test and scored node, formulas defused.
run_status "$GMPBENCH" show --format csv hostile.json
check "show --format csv exits 0" [ "$status" -eq 0 ]
check "the CSV has one 13-field record per test, skipped test and scored node" \
  python3 -c "
import csv, json
rows = list(csv.reader(open('out.txt')))
d = json.load(open('hostile.json'))
assert rows[0][:3] == ['kind', 'name', 'ops_per_sec'] and len(rows[0]) == 13
assert all(len(r) == 13 for r in rows)
kinds = [r[0] for r in rows[1:]]
assert kinds.count('test') == len(d['results']), kinds
assert kinds.count('skipped') == len(d['skipped'])
assert kinds.count('node') == len(d['scores'])
t = {r[1]: r for r in rows if r[0] == 'test'}
for res in d['results']:
    assert float(t[res['name']][2]) == res['ops_per_sec']
assert any(r[8] for r in rows[1:]), 'no gmp_ratio'
assert any(r[10] for r in rows[1:]), 'no mib_per_sec'
"
check "CSV fields never start a formula and hold no control characters" \
  python3 -c "
import csv
for r in csv.reader(open('out.txt')):
    for f in r:
        assert not (f[:1] in '=+@' and f), f
        assert '\x1b' not in f
"
run_status "$GMPBENCH" run $SMALL -q --format csv
check "run --format csv prints the same table" sh -c "[ $status -eq 0 ] && head -1 out.txt | grep -q '^kind,name,ops_per_sec'"

# Markdown.
run_status "$GMPBENCH" show --format markdown hostile.json
check "show --format markdown has the tables" \
  sh -c "grep -q '^| node or test |' out.txt && grep -q '^| operation | size | library' out.txt && grep -q '^| generator | MiB/s' out.txt"
check "Markdown escapes the document's strings" \
  sh -c "! grep -q '<script>' out.txt && ! grep -q '<img' out.txt && grep -q '&lt;script&gt;' out.txt && ! grep -q \"\$(printf '\\033')\" out.txt"
check "every Markdown table row has the columns of its header" \
  python3 -c "
import re
cols = None
for line in open('out.txt'):
    if not line.startswith('|'):
        cols = None; continue
    n = len(re.findall(r'(?<!\\\\)\|', line))
    cols = cols or n
    assert n == cols, line
"

# HTML (rendering in a browser: t0810).
run_status "$GMPBENCH" show --format html hostile.json
check "show --format html writes one HTML5 document" \
  sh -c "[ $status -eq 0 ] && head -1 out.txt | grep -q '^<!DOCTYPE html>' && tail -1 out.txt | grep -q '</html>'"
check "the page loads nothing: no script, link, src, href or url()" \
  python3 -c "
from html.parser import HTMLParser
class P(HTMLParser):
    def handle_starttag(self, t, attrs):
        assert t not in ('script', 'link', 'iframe', 'img', 'object', 'embed', 'image', 'use'), t
        for k, v in attrs:
            assert k not in ('src', 'href', 'xlink:href') and not k.startswith('on'), (t, k)
            assert 'url(' not in (v or ''), (t, k)
    def handle_data(self, data):
        assert 'url(' not in data and '@import' not in data
P().feed(open('out.txt').read())
"
check "the page has the machine, charts, comparisons, generators and tests" \
  sh -c "grep -q 'id=\"machine\"' out.txt && grep -q '<svg' out.txt && grep -q 'id=\"libraries\"' out.txt && grep -q 'id=\"rng\"' out.txt && grep -q 'id=\"tests\"' out.txt"
check "charts have axis labels with units" \
  sh -c "grep -q 'operand size (bits)' out.txt && grep -q 'operations per second (ops/s)' out.txt && grep -q 'MiB/s' out.txt"
check "the hostile strings are escaped" \
  sh -c "grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' out.txt && grep -q '&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;h1&gt;OS' out.txt && grep -q 'lib&lt;i&gt;x&lt;/i&gt;' out.txt && ! grep -q \"\$(printf '\\033')\" out.txt"
check "the page parses with balanced elements" \
  python3 -c "
from html.parser import HTMLParser
void = {'meta', 'br'}
class P(HTMLParser):
    stack = []
    def handle_starttag(self, t, a):
        if t not in void: self.stack.append(t)
    def handle_startendtag(self, t, a): pass
    def handle_endtag(self, t):
        assert self.stack and self.stack[-1] == t, (t, self.stack[-5:])
        self.stack.pop()
p = P(); p.feed(open('out.txt').read()); p.close()
assert p.stack == [], p.stack
"
check "the page says which command made it" grep -q '<footer>Made by <code>gmpbench show --format html</code>' out.txt
run_status "$GMPBENCH" run $SMALL -q --format html
check "run --format html says run made it" \
  sh -c "[ $status -eq 0 ] && grep -q '<footer>Made by <code>gmpbench run --format html</code>' out.txt"
run_status "$GMPBENCH" show -o page.html --format html r.json
check "show -o writes the page to a file" sh -c "[ $status -eq 0 ] && [ ! -s out.txt ] && grep -q '</html>' page.html"

# Errors.
run_status "$GMPBENCH" show missing.json
check "show of a missing file exits 1 naming it" sh -c "[ $status -eq 1 ] && grep -q \"cannot read 'missing.json'\" err.txt"
echo '{"format": "something-else"}' > other.json
run_status "$GMPBENCH" show other.json
check "show of another JSON document exits 1" sh -c "[ $status -eq 1 ] && grep -q 'not a gmpbench result' err.txt"
run_status "$GMPBENCH" show --format pdf r.json
check "an unknown format exits 2" sh -c "[ $status -eq 2 ] && grep -q \"format 'pdf'\" err.txt"
run_status "$GMPBENCH" compare r.json
check "compare needs two files" [ "$status" -eq 2 ]

# compare: a run against itself is 1 everywhere, within the spreads.
run_status "$GMPBENCH" compare --format json r.json r.json
check "compare of a run with itself gives ratio 1 for every test and node" \
  python3 -c "
import json
d = json.load(open('out.txt'))
assert d['base'] == 'r.json' and d['runs'] == ['r.json']
for l in d['lines']:
    r = l['ratios'][0]
    assert r is None or (abs(r['ratio'] - 1) < 1e-12 and r['within_spread']), l
assert any(l['node'] and l['ratios'][0] and l['ratios'][0]['tests'] == 5 for l in d['lines'])
"
python3 -c "
import json
d = json.load(open('r.json'))
for r in d['results']:
    if r['name'] == 'gmpbench.base.gcd.128,128':
        r['ops_per_sec'] *= 2; r['spread'] = 0.01
    else:
        r['spread'] = 0.01
json.dump(d, open('faster.json', 'w'))
"
run_status "$GMPBENCH" compare r.json faster.json
check "compare shows a doubled test as 2.000 ± the spreads, not within them" \
  sh -c "[ $status -eq 0 ] && grep -Eq '^      128,128 .* 2\\.000 ± *[0-9.]+% +\$' out.txt"
check "compare shows the node's geometric mean over its 5 tests" \
  sh -c "grep -Eq '^    gcd .* 1\\.149 .*\\(5\\)' out.txt"
run_status "$GMPBENCH" compare --format csv r.json faster.json
check "compare --format csv has a record per line and run" \
  sh -c "head -1 out.txt | grep -q '^kind,name,run,ratio,within_spread,tests' && grep -q '^test,\"gmpbench.base.gcd.128,128\",faster.json,2,false,1' out.txt"
check "compare of runs alike prints no note" [ ! -s err.txt ]
python3 -c "
import json
d = json.load(open('r.json'))
d['run']['mode'] = 'full'; d['run']['time_per_test'] = 2
d['system']['cpu']['identity'] = 'x86:GenuineIntel:family=6:model=143:stepping=8'
d['system']['cpu']['name'] = 'Another CPU'
d['results'].append(dict(d['results'][0], name='zz.only.here'))
json.dump(d, open('elsewhere.json', 'w'))
"
run_status "$GMPBENCH" compare --format csv r.json elsewhere.json
check "compare notes tests only in OTHER, another mode or budget and another CPU on stderr" \
  sh -c "[ $status -eq 0 ] && grep -q 'elsewhere.json measured tests the base lacks, left out: zz.only.here' err.txt && grep -q 'elsewhere.json was measured differently from the base (full, 2 s per test against' err.txt && grep -q 'elsewhere.json ran on another CPU than the base (Another CPU against' err.txt && ! grep -q 'note' out.txt"
run_status "$GMPBENCH" compare --format markdown r.json faster.json hostile.json
check "compare --format markdown has a column per run" grep -q '^| node or test | faster.json | hostile.json |' out.txt

# --suite help.
run_status "$GMPBENCH" run --suite help
check "run --suite help lists the suites" \
  sh -c "[ $status -eq 0 ] && grep -q '^base ' out.txt && grep -q '^openssl ' out.txt && grep -q '^rng ' out.txt"
run_status "$GMPBENCH" run --suite nosuch
check "an unknown suite exits 2 pointing at --suite help" \
  sh -c "[ $status -eq 2 ] && grep -q \"'gmpbench run --suite help' lists them\" err.txt"

# Terminal behaviour.
ESC=$(printf '\033')
run_status "$GMPBENCH" run --only 'gmpbench.base.gcd.*' --time-per-test 0.03
check "not a terminal: a plain line per finished test on stderr, no colour or escape codes" \
  sh -c "[ \$(grep -c '^\\[[1-5]/5\\] gmpbench.base.gcd.*  [0-9.e+]* ops/s  ±[0-9.]*%' err.txt) -eq 5 ] && ! grep -q '$ESC' err.txt && ! grep -q '$ESC' out.txt"
run_status "$GMPBENCH" run -q --only 'gmpbench.base.gcd.128,128' --time-per-test 0.03
check "--quiet: nothing on stderr" sh -c "[ $status -eq 0 ] && [ ! -s err.txt ]"
if command -v script > /dev/null; then
  # The estimates of the time left are checked against what they are
  # computed from (the budget per test, the samples the run measured),
  # never against the wall clock: how long a run takes depends on the
  # machine and on whatever else it is doing.
  PI="--only 'gmpbench.base.gcd.*' --only gmpbench.app.pi.1000000 --time-per-test 0.05"
  TERM=xterm script -qec "$GMPBENCH run $PI -o pi.json" /dev/null > tty.txt 2>&1
  check "on a terminal: the tests are prepared, then a progress bar with the time left, and colour" \
    sh -c "grep -q 'preparing 1/6 gmpbench.base.gcd' tty.txt && grep -q '\\[.*\\] [0-6]/6 .*left' tty.txt && grep -q '${ESC}\\[1m' tty.txt"
  check "the first estimate of the time left is within 3x of the timed seconds the run's tests took (whole seconds)" \
    python3 -c "
import json, re
m = re.search(r'(\\d+):(\\d\\d) left', open('tty.txt', errors='replace').read())
left = int(m.group(1)) * 60 + int(m.group(2))
timed = sum(t['wall_seconds'] for t in json.load(open('pi.json'))['results'])
assert timed / 3 - 0.5 <= left <= timed * 3 + 0.5, (left, timed)
"
  # Two tests of 1 s each, then their all-core copies: the first estimate
  # is about 2 s for the single-thread phase and 2 s for the all-core one
  # (a sample of these products takes microseconds, so it is the budget
  # that counts on any machine); without the all-core phase it would be 2.
  TERM=xterm script -qec "$GMPBENCH run --threads 2 --only 'gmpbench.base.multiply.8192*' --time-per-test 1 > /dev/null" /dev/null > tty.txt 2>&1
  check "--threads: the first estimate of the time left counts the all-core phase too (3-5 s for two tests of 1 s, 2 s without it)" \
    python3 -c "
import re
m = re.search(r'(\\d+):(\\d\\d) left', open('tty.txt', errors='replace').read())
left = int(m.group(1)) * 60 + int(m.group(2))
assert 3 <= left <= 5, left
"
  TERM=xterm script -qec "$GMPBENCH run --verbose --only 'gmpbench.base.gcd.*' --time-per-test 0.03 > /dev/null" /dev/null > tty.txt 2>&1
  check "--verbose on a terminal: the bar and a line per finished test" \
    sh -c "grep -q 'left' tty.txt && [ \$(grep -c '\\[[1-5]/5\\] gmpbench.base.gcd.* ops/s' tty.txt) -eq 5 ]"
  TERM=dumb script -qec "$GMPBENCH run --only 'gmpbench.base.gcd.*' --time-per-test 0.03 > /dev/null" /dev/null > tty.txt 2>&1
  check "TERM=dumb: plain lines instead of the bar" \
    sh -c "! grep -q '${ESC}\\[K' tty.txt && [ \$(grep -c '^\\[[1-5]/5\\] gmpbench.base.gcd.* ops/s' tty.txt) -eq 5 ]"
  NO_COLOR=1 script -qec "$GMPBENCH show r.json" /dev/null > tty.txt 2>&1
  check "NO_COLOR turns colour off on a terminal" sh -c "! grep -q '${ESC}\\[[0-9]*m' tty.txt"
  script -qec "$GMPBENCH run -q --only 'gmpbench.base.gcd.128,128' --time-per-test 0.03 > /dev/null" /dev/null > tty.txt 2>&1
  check "--quiet draws no progress bar" sh -c "! grep -q 'left' tty.txt"
else
  skip "progress bar and colour on a terminal (no script(1))"
fi
