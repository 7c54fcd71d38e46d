# t0125-two-gmp.sh: `gmpbench run --gmp A --gmp B` measures the tests
# against each libgmp in one run (client/gmp_side.h).  The system libgmp
# given twice: a result per build that verifies and uploads like any
# other, each naming that library with nothing interposed, and the
# ratios printed.  A bad --gmp (no such file, not a library) is an error
# naming it; the fault library (tests/wrong-gmp.c) as one build fails the
# run with status 3 and no result at all; SIGTERM ends the run and its
# workers, writing nothing.  On Linux the run and its workers all run on
# one CPU, the one the run started on or the first it may use, and each
# document says which (run.pinning) while describing the CPUs the user
# allowed.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

lib="$BUILDDIR/tests/libwronggmp.so"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
tiny="-q --quick --only gmpbench.base.multiply.512 --only gmpbench.base.gcd.512,512 --time-per-test 0.05"

if ! "$GMPBENCH" run --help | grep -q -- '--gmp LIB'; then
  skip "gmpbench run --gmp (not in this gmpbench)"
  exit 0
fi
system=$(json_get /dev/stdin "d['build']['gmp']['library']['path']" <<EOF
$("$GMPBENCH" sysinfo --format json)
EOF
)
if [ ! -f "$system" ]; then
  skip "gmpbench run --gmp (this gmpbench has GMP built in)"
  exit 0
fi

run_status "$GMPBENCH" run $tiny --gmp system --gmp "$system" -o r.json
check "the system libgmp twice ('system' and its path): exit 0, two results" \
  sh -c "[ $status -eq 0 ] && [ -s r.gmp1.json ] && [ -s r.gmp2.json ] && [ -s r.gmp2.json.sig ]"
check "the ratios are printed for every test and node" \
  sh -c "grep -q '^run 1 ' out.txt && grep -q '^gmpbench ' out.txt && grep -q '512,512' out.txt"
check "they are the paired visits' ratios, said so" grep -q 'made in pairs moments apart' out.txt
for k in 1 2; do
  check "result $k verifies offline" sh -c "'$GMPBENCH' verify r.gmp$k.json > /dev/null"
  check "result $k names the library that ran, its hash that of the file, nothing interposed" \
    [ "$(json_get r.gmp$k.json "(d['system']['build']['gmp']['library']['sha256'], d['system']['build']['gmp']['entry_points']['interposed'], len(d['results']))")" \
      = "('$(sha256sum "$system" | cut -c1-64)', False, 2)" ]
done

allowed=$(json_get /dev/stdin "d['cores']['affinity']" <<EOF
$("$GMPBENCH" sysinfo --format json)
EOF
)
if [ "$(uname -s)" = Linux ]; then
  check "each build ran pinned, both to the same CPU, one the run may use" \
    python3 -c "
import json, os
cpus = [json.load(open(f))['run']['pinning'] for f in ('r.gmp1.json', 'r.gmp2.json')]
assert cpus[0] == cpus[1] and set(cpus[0]) == {'cpu'} and cpus[0]['cpu'] in os.sched_getaffinity(0), cpus
"
  check "the documents still describe the CPUs the run was allowed ($allowed), not the one pinned to" \
    [ "$(json_get r.gmp1.json "d['system']['cores']['affinity']") $(json_get r.gmp2.json "d['system']['cores']['affinity']")" = "$allowed $allowed" ]
  last=$(python3 -c "import os; print(max(os.sched_getaffinity(0)))")
  if command -v taskset > /dev/null && [ "$allowed" -ge 2 ]; then
    run_status taskset -c "$last" "$GMPBENCH" run $tiny --gmp system --gmp system -o t.json
    check "under taskset -c $last the builds run on CPU $last, and the documents say one CPU was allowed" \
      [ "$status $(json_get t.gmp1.json "(d['run']['pinning']['cpu'], d['system']['cores']['affinity'])") $(json_get t.gmp2.json "d['run']['pinning']['cpu']")" = "0 ($last, 1) $last" ]
  else
    skip "pinning within a narrower set of CPUs (no taskset, or one CPU)"
  fi
else
  skip "pinning the builds to one CPU (Linux only)"
fi

# The same library twice, two tests: the ratios from paired visits in
# JSON (pairs counted, a spread, the node's over both tests), and the
# combined HTML page with each build's figures and the ratios.
run_status "$GMPBENCH" run $tiny --gmp system --gmp system --format json -o p.json
check "--format json: every test's ratio from its pairs of visits, with a spread; the root's over both" \
  python3 -c "
import json, sys
assert sys.argv[1] == '0', sys.argv
lines = {l['name']: l['ratios'][0] for l in json.load(open('out.txt'))['lines']}
tests = [r for n, r in lines.items() if n.count('.') == 3]
assert len(tests) == 2 and all(r['pairs'] >= 3 and r['spread'] > 0 for r in tests), tests
root = lines['gmpbench']
assert root['tests'] == 2 and root['pairs'] == sum(r['pairs'] for r in tests), root
assert abs(root['spread'] - (sum(r['spread'] ** 2 for r in tests)) ** 0.5 / 2) < 1e-9, root
" "$status"
samples=$(json_get p.gmp1.json "d['results'][0]['samples']")
pairs=$(python3 -c "
import json
print([l for l in json.load(open('out.txt'))['lines'] if l['name'] == '$(json_get p.gmp1.json "d['results'][0]['name']")'][0]['ratios'][0]['pairs'])")
check "a test's pairs are its visits: no more than its samples" \
  sh -c "[ $pairs -ge 3 ] && [ $pairs -le $samples ]"
run_status "$GMPBENCH" run $tiny --gmp system --gmp system --format html
check "--format html with two builds: one page, each build's scores and the ratios with their spread" \
  sh -c "[ $status -eq 0 ] && head -1 out.txt | grep -q '^<!DOCTYPE html>' && tail -1 out.txt | grep -q '</html>' \
         && grep -q '<h1>GMPbench: GMP builds side by side</h1>' out.txt \
         && [ \$(grep -c '<tr><td>\\(base\\|run 1\\)</td>' out.txt) -eq 2 ] \
         && grep -q '<th>ratio run 1 / base</th>' out.txt \
         && grep -Eq 'pairs of visits\">[01]\\.[0-9]{4} ±[0-9.]+%' out.txt"
check "the page parses with balanced elements and loads nothing" \
  python3 -c "
from html.parser import HTMLParser
class P(HTMLParser):
    stack = []
    def handle_starttag(self, t, attrs):
        assert t not in ('script', 'link', 'iframe', 'img', 'object', 'embed'), t
        assert not any(k in ('src', 'href') or k.startswith('on') for k, v in attrs), (t, attrs)
        if t != 'meta': self.stack.append(t)
    def handle_endtag(self, t):
        assert self.stack and self.stack[-1] == t, (t, self.stack[-5:])
        self.stack.pop()
p = P(); p.feed(open('out.txt').read()); p.close()
assert p.stack == [], p.stack
"
python3 "$SRCDIR/tests/report-hostile.py" p.gmp1.json hostile.json
run_status "$GMPBENCH" compare --format html hostile.json p.gmp2.json
check "compare --format html: the runs' page, unpaired ratios said so, hostile strings escaped" \
  sh -c "[ $status -eq 0 ] && grep -q '<h1>GMPbench comparison</h1>' out.txt \
         && grep -q 'the two runs. spreads together' out.txt \
         && grep -q '&lt;script&gt;' out.txt && ! grep -q '<script' out.txt"

if start_server; then
  run_status "$GMPBENCH" submit --server "$SERVER_URL" r.gmp1.json r.gmp2.json
  check "both results upload" sh -c "[ $status -eq 0 ] && [ \$(grep -c '^uploaded: ' out.txt) -eq 2 ]"
  stop_server
else
  skip "uploading the results (no gmpbench-server built, or it did not start)"
fi

run_status "$GMPBENCH" run $tiny --gmp system --gmp "$TEST_TMP/no-such-libgmp.so.10" -o bad.json
check "a --gmp that does not exist: usage error naming it, nothing run" \
  sh -c "[ $status -eq 2 ] && grep -q \"gmpbench run: --gmp '$TEST_TMP/no-such-libgmp.so.10': No such file\" err.txt && [ ! -e bad.gmp1.json ]"
echo "not a library" > notalib.so
run_status "$GMPBENCH" run $tiny --gmp system --gmp notalib.so -o bad.json
check "a --gmp that is no library: status 1, the message says it was not loaded, nothing written" \
  sh -c "[ $status -eq 1 ] && grep -q 'notalib.so: the library was not loaded' err.txt && ! ls bad.* 2> /dev/null"
run_status "$GMPBENCH" run $tiny --gmp system --threads 2 --gmp system
check "--threads with --gmp is a usage error" \
  sh -c "[ $status -eq 2 ] && grep -q 'cannot be combined with --gmp' err.txt"

if [ -f "$lib" ]; then
  export WRONG_GMP=mpz_mul
  run_status "$GMPBENCH" run $tiny --gmp system --gmp "$lib" -o w.json
  unset WRONG_GMP
  check "the fault library as the second build: status 3, a wrong result named, no score" \
    sh -c "[ $status -eq 3 ] && grep -q 'gmpbench.base.[a-z]*.512[,0-9]* computed a wrong result' err.txt \
           && grep -q 'no result was written for any library' err.txt"
  check "and no result of either build is written" sh -c "! ls w.* 2> /dev/null"
  run_status "$GMPBENCH" run $tiny --gmp system --gmp "$lib" -o h.json
  check "the fault library, harmless (WRONG_GMP unset), is still refused: not a libgmp" \
    sh -c "[ $status -eq 1 ] && grep -q 'the libgmp that ran .* is not this file' err.txt && ! ls h.* 2> /dev/null"
else
  skip "the fault library as a build ($lib not built)"
fi

# SIGTERM while the builds are measured: 143, nothing written, no worker
# left running.
"$GMPBENCH" run -q --only 'gmpbench.base.multiply.*' --gmp system --gmp system \
  -o "$TEST_TMP/term.json" > /dev/null 2> sigterm.log &
pid=$!
wait_catching $pid 15
sleep 2
if [ "$(uname -s)" = Linux ]; then
  cpus=$(for p in $pid $(pgrep -P $pid); do sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p/status; done)
  check "while it measures, the run and its two workers are pinned to one CPU, the same: $(echo $cpus)" \
    sh -c "[ \$(echo '$cpus' | wc -l) -eq 3 ] && [ \$(echo '$cpus' | sort -u | wc -l) -eq 1 ] \
           && echo '$cpus' | grep -qx '[0-9]*'"
fi
signal_status $pid TERM 50
sleep 0.5
check "SIGTERM ends a --gmp run with status 143, writing nothing" \
  sh -c "[ $status -eq 143 ] && ! ls '$TEST_TMP'/term.* 2> /dev/null"
check "and no worker is left running" \
  sh -c "! ps -eo args | grep -v grep | grep -q -- '$TEST_TMP/term.json'"
