# t0100-cli.sh: the command line of gmpbench: help, list, errors, exit codes.
. "$SRCDIR/tests/lib.sh"

run_status "$GMPBENCH" --version
check "--version prints the version" grep -q '^gmpbench [0-9]' out.txt
run_status "$GMPBENCH" --help
check "--help lists the run command" grep -q '^  run ' out.txt
for cmd in run list sysinfo verify submit retract key status; do
  run_status "$GMPBENCH" $cmd --help
  check "gmpbench $cmd --help succeeds and prints usage" \
    sh -c "[ $status -eq 0 ] && grep -q 'usage: gmpbench $cmd' out.txt"
done

run_status "$GMPBENCH" frobnicate
check "an unknown command exits 2 with one line naming it" \
  sh -c "[ $status -eq 2 ] && grep -q \"'frobnicate' is not a command\" err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
run_status "$GMPBENCH" run --frobnicate
check "an unknown option exits 2 naming it" \
  sh -c "[ $status -eq 2 ] && grep -q \"unknown option '--frobnicate'\" err.txt"
run_status "$GMPBENCH" run --only 'gmpbench.nothing.*'
check "a pattern matching nothing exits 2 naming the pattern" \
  sh -c "[ $status -eq 2 ] && grep -q \"'gmpbench.nothing.\\*' matches no test\" err.txt"
run_status "$GMPBENCH" run --time-per-test -1
check "a negative --time-per-test exits 2" sh -c "[ $status -eq 2 ] && grep -q time-per-test err.txt"
run_status "$GMPBENCH" run --format xml
check "an unknown format exits 2" sh -c "[ $status -eq 2 ] && grep -q \"format 'xml'\" err.txt"
run_status "$GMPBENCH" run --only gmpbench.base.multiply.128 -o /nonexistent-dir/r.json
check "an unwritable output file exits 2 before running, naming the file" \
  sh -c "[ $status -eq 2 ] && grep -q \"cannot write the output file '/nonexistent-dir/r.json'\" err.txt"

run_status "$GMPBENCH" list --format json
check "list --format json has the 39 compatible tests" \
  python3 -c "import json; assert sum(1 for t in json.load(open('out.txt')) if t['compat']) == 39"
check "each listed test has name, weight and compat" \
  sh -c "python3 -c \"import json; assert all({'name','weight','compat'} <= set(t) for t in json.load(open('out.txt')))\""
check "gcd weighs 0.5 as in GMPbench" \
  sh -c "python3 -c \"import json; assert [t['weight'] for t in json.load(open('out.txt')) if t['name']=='gmpbench.base.gcd.128,128']==[0.5]\""
run_status "$GMPBENCH" list
check "list prints the tree with indented programs" grep -q '^    multiply' out.txt
run_status "$GMPBENCH" list --only gmpbench.app
check "list --only selects a subtree" \
  sh -c "grep -q '^      2048' out.txt && ! grep -q multiply out.txt"

# A small run: text, then JSON with the fields the schema names.
run_status "$GMPBENCH" run -q --only 'gmpbench.base.gcd.*' --time-per-test 0.05
check "a small run exits 0" [ "$status" -eq 0 ]
check "the text output shows the program score and leaf ops/s" \
  sh -c "grep -q '^    gcd .*score' out.txt && grep -q 'ops/s' out.txt"
run_status "$GMPBENCH" run -q --only 'gmpbench.base.gcd.*' --time-per-test 0.05 --format json -o r.json
check "-o writes the result document" test -s r.json
check "the document has format, run, results and scores" \
  python3 -c "
import json
d = json.load(open('r.json'))
assert d['format'] == 'gmpbench-result/1'
assert d['run']['time_per_test'] == 0.05 and d['run']['mode'] == 'custom'
assert len(d['results']) == 5
r = d['results'][0]
for k in ('name', 'ops_per_sec', 'samples', 'spread', 'digest'):
    assert k in r, k
assert len(r['digest']) == 64
assert 'gmpbench.base.gcd' in d['scores'] and 'gmpbench' not in d['scores']
"
check "--format json prints the same document on stdout" cmp -s out.txt r.json
check "no temporary file is left next to the output" sh -c "! ls r.json.tmp.* 2>/dev/null"

# -o to a FIFO (as to /dev/null or /dev/stdout, which a test run as root
# must not risk replacing): written through, left a FIFO, no FILE.sig.
mkfifo out.fifo
cat out.fifo > fifo.json &
reader=$!
run_status "$GMPBENCH" run -q --only gmpbench.base.gcd.128,128 --time-per-test 0.02 -o out.fifo
wait $reader
check "-o to a FIFO writes the document through it and leaves it a FIFO, with no .sig next to it" \
  sh -c "[ $status -eq 0 ] && [ -p out.fifo ] && [ ! -e out.fifo.sig ] && ! ls out.fifo.tmp.* 2>/dev/null && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' fifo.json"
# -o through a symbolic link: the file it names is replaced, the link stays.
mkdir -p linked && ln -s linked/real.json link.json
run_status "$GMPBENCH" run -q --only gmpbench.base.gcd.128,128 --time-per-test 0.02 -o link.json
check "-o through a symbolic link writes the file it names and keeps the link" \
  sh -c "[ $status -eq 0 ] && [ -L link.json ] && [ -s linked/real.json ] && [ -s link.json.sig ]"
run_status "$GMPBENCH" verify link.json
check "and the result verifies through the link" [ "$status" -eq 0 ]

# Ctrl-C: interrupted runs exit 130 and write nothing.
"$GMPBENCH" run -q --only gmpbench.app.pi --time-per-test 5 -o int.json > /dev/null 2> int.err &
pid=$!
wait_catching $pid 2
kill -INT $pid
wait $pid
status=$?
check "SIGINT stops the run with status 130" [ "$status" -eq 130 ]
check "an interrupted run writes no output file" sh -c "[ ! -e int.json ] && ! ls int.json.tmp.* 2>/dev/null"
check "and says so" grep -q 'interrupted; no result was written' int.err
