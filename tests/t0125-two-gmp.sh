# t0125-two-gmp.sh: `gmpbench run --gmp A --gmp B` measures the tests
# against each libgmp in one run (client/gmp_side.h).  The system libgmp
# given twice: a result per build that verifies and uploads like any
# other, each naming that library with nothing interposed, and the
# ratios printed.  A bad --gmp (no such file, not a library) is an error
# naming it; the fault library (tests/wrong-gmp.c) as one build fails the
# run with status 3 and no result at all; SIGTERM ends the run and its
# workers, writing nothing.
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
for k in 1 2; do
  check "result $k verifies offline" sh -c "'$GMPBENCH' verify r.gmp$k.json > /dev/null"
  check "result $k names the library that ran, its hash that of the file, nothing interposed" \
    [ "$(json_get r.gmp$k.json "(d['system']['build']['gmp']['library']['sha256'], d['system']['build']['gmp']['entry_points']['interposed'], len(d['results']))")" \
      = "('$(sha256sum "$system" | cut -c1-64)', False, 2)" ]
done

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
signal_status $pid TERM 50
sleep 0.5
check "SIGTERM ends a --gmp run with status 143, writing nothing" \
  sh -c "[ $status -eq 143 ] && ! ls '$TEST_TMP'/term.* 2> /dev/null"
check "and no worker is left running" \
  sh -c "! ps -eo args | grep -v grep | grep -q -- '$TEST_TMP/term.json'"
