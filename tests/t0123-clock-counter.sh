# t0123-clock-counter.sh: a library that slows every clock the process
# reads (tests/slow-clock.c preloaded: clock_gettime of every clock id,
# gettimeofday, getrusage, times, clock) no longer doubles a score: the
# run measures against the CPU's counter (engine/clock_check.h) and exits
# 4, naming the test whose samples disagree, writing, uploading and
# queueing nothing.  That holds with the slowdown from the first second
# on, from the start, from the middle of the run (where the check of the
# counter's rate after the run may be the one to catch it), at 90% speed,
# for the same library also wrapping dladdr, for --threads and for --gmp;
# with the CPU-time clocks alone slowed, the run reads CPU time by its own
# system calls and reports what the processor gave;
# an honest run exits 0 with the check's record in run.counter, which a
# real gmpbench-server accepts.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

slow="$BUILDDIR/tests/libslowclock.so"
slow_dladdr="$BUILDDIR/tests/libslowclock-dladdr.so"
[ -f "$slow" ] && [ -f "$slow_dladdr" ] ||
  { skip "clock counter tests ($slow not built)"; exit 0; }
# The sanitizer runtime must come first; it tolerates the preload this way.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
quick="--quick --only gmpbench.base.multiply.*"
tiny="--only gmpbench.base.multiply.512 --time-per-test 0.1"
message="the system clock disagrees with the CPU's counter"
trap 'stop_server' EXIT

# The honest run counts its calls of clock_gettime through the library,
# which slows nothing at the rate 1.
SLOW_CLOCK_RATE=1 SLOW_CLOCK_COUNT_FILE=reads.txt LD_PRELOAD=$slow \
  run_status "$GMPBENCH" run -q $quick -o honest.json
check "an honest run exits 0 and writes its result" sh -c "[ $status -eq 0 ] && [ -s honest.json ]"
source=$(json_get honest.json "d['run']['counter']['source']")
check "its run.counter names the counter ($source) or says why there is none" \
  sh -c "[ '$source' != None ] || [ -n \"\$(json_get honest.json \"d['run']['counter']['skipped']\")\" ]"
check "the honest result verifies, run.counter and all" "$GMPBENCH" verify honest.json
if [ "$source" = None ]; then
  skip "slowed clocks ($(json_get honest.json "d['run']['counter']['skipped']"))"
  exit 0
fi
check "its rates before and after agree within 2%" [ "$(json_get honest.json "
abs(d['run']['counter']['rate_mhz_after'] / d['run']['counter']['rate_mhz_before'] - 1) <= 0.02")" = True ]
check "and every test's clock lies within the counter's bounds, give or take 1%" \
  [ "$(json_get honest.json "d['run']['counter']['tests'] == len(d['results'])
and -0.01 <= d['run']['counter']['deviation_min'] <= d['run']['counter']['deviation_max'] <= 0.01")" = True ]

# run.counter is checked as closed, typed object, by gmpbench verify as
# by the server (model/doc_schema.c): a re-signed document with a member
# added to it, or a rate that is not a number, is refused, naming it.
edited () {
  python3 -c "import json, sys
d = json.load(open('honest.json'))
$1
json.dump(d, open('edited.unsigned', 'w'))" && "$BUILDDIR/tests/helper-sign" edited.unsigned edited.json
}
edited "d['run']['counter']['tampered'] = 1"
run_status "$GMPBENCH" verify edited.json
check "a re-signed result with an unknown member in run.counter is refused, named" \
  sh -c "[ $status -ne 0 ] && grep -q 'run.counter.tampered' out.txt err.txt"
edited "d['run']['counter']['rate_mhz_after'] = 'fast'"
run_status "$GMPBENCH" verify edited.json
check "and so is one whose rate is not a number" \
  sh -c "[ $status -ne 0 ] && grep -q 'run.counter.rate_mhz_after' out.txt err.txt"

# slowed_run WHAT LIB AFTER ARGS...: a run with LIB preloaded, the clocks
# slowed AFTER seconds from its start, must exit 4 naming a test of the
# selection (or the run, when MAY_NAME_RUN is set), and write nothing.
slowed_run () {
  what=$1 lib=$2 after=$3
  shift 3
  rm -rf slow.json slow.json.sig slow.json.tmp.* slow.gmp*.json
  SLOW_CLOCK_AFTER=$after LD_PRELOAD=$lib timeout -s KILL 300 \
    "$GMPBENCH" run -q "$@" -o slow.json > out.txt 2> err.txt
  status=$?
  check "$what: exit 4" [ "$status" -eq 4 ]
  names="${MAY_NAME_RUN:+the run\\|}gmpbench\\.base\\.multiply\\."
  check "$what: the message names the test${MAY_NAME_RUN:+ or the run}" \
    grep -q "$message: \\($names\\)" err.txt
  check "$what: no result file is written" \
    sh -c "! ls slow.json slow.json.sig slow.json.tmp.* slow.gmp*.json 2> /dev/null"
}

slowed_run "clocks at half speed after the first second" "$slow" 1 $quick
slowed_run "the same library also wrapping dladdr" "$slow_dladdr" 1 $quick
slowed_run "clocks at half speed from the start" "$slow" 0 $quick
# From the middle of the run's clock readings (which seconds would not
# find on a loaded machine: the samples may be over by then).
mid=$(( $(cat reads.txt) / 2 ))
SLOW_CLOCK_AFTER_READS=$mid MAY_NAME_RUN=1 \
  slowed_run "clocks at half speed after $mid clock readings, half of an honest run's" "$slow" 0 \
  $quick
SLOW_CLOCK_RATE=0.9 slowed_run "clocks at 90% speed" "$slow" 0 $tiny
slowed_run "clocks at half speed, --threads 2" "$slow" 0 $tiny --threads 2
slowed_run "clocks at half speed, --gmp system" "$slow" 0 $tiny --gmp system
check "... where the worker's message reaches the user" grep -q "ended with status 4" err.txt

# The CPU-time clocks alone at 1% of their pace from the start, every
# wall clock at its own: the counter has nothing to catch, but the
# harness reads the thread's and the process's CPU time by system calls
# of its own (engine/syscall_clock.h), so the CPU time the run reports,
# and the GMPbench-compatible score computed from it, stay what the
# processor gave.  Read through the C library they would be 1% of the
# wall time (a score 100 times too high); a busy machine leaves far more.
SLOW_CLOCK_CPU_ONLY=1 SLOW_CLOCK_RATE=0.01 SLOW_CLOCK_AFTER=0 LD_PRELOAD=$slow \
  run_status "$GMPBENCH" run -q $quick -o cpu-slowed.json
given=$(json_get cpu-slowed.json "sum(r['cpu_seconds'] for r in d['results'])
>= 0.05 * sum(r['wall_seconds'] for r in d['results'])")
check "CPU clocks alone at 1% of their pace: the run reports the CPU time it was given" \
  sh -c "[ $status -eq 0 ] && [ '$given' = True ]"

# Nothing is uploaded or queued: with a real server, and with none.
if start_server; then
  slowed_run "clocks at half speed, --submit" "$slow" 0 $tiny --submit --server "$SERVER_URL"
  listed=$(curl -s "$SERVER_URL/api/v1/results" | python3 -c 'import json, sys
print(len(json.load(sys.stdin)["results"]))' 2> /dev/null)
  check "the server received nothing" [ "$listed" = 0 ]
  run_status "$GMPBENCH" run -q $tiny -o up.json --submit --server "$SERVER_URL"
  check "an honest run --submit to the same server is uploaded, run.counter and all" \
    sh -c "[ $status -eq 0 ] && grep -q '^uploaded: .*/results/' out.txt"
  stop_server
else
  skip "run --submit with a slowed clock (no gmpbench-server built, or it did not start)"
fi
slowed_run "clocks at half speed, --submit with the server down" "$slow" 0 $tiny \
  --submit --server http://127.0.0.1:9 --retries 0
check "nothing is queued" [ "$(spool_count)" -eq 0 ]
