#!/bin/sh
# gap-causes.sh: where do gmpbench's timing gaps against GMPbench 0.2 come
# from?  (issue 36: divide by small divisors read 3-9% slower than the
# official program, rsa.512 9-20% faster, while both execute the same
# instructions per operation within 1%, bench/fidelity-counts.sh.)
#
# Each EXPERIMENT measures a few variants of the same tests, interleaved:
# PAIRS rounds (at least 5), each round every variant of a test once, in
# an order rotated from round to round so that each variant takes each
# place; everything on one CPU (taskset -c, -c as in fidelity.sh).  The
# official programs are built as runbench builds them (lib.sh's
# official_build, their cputime from getrusage's user time).  Prints per
# test and variant the median ops/s, the median of the round-by-round
# ratios to the first variant (the official program as runbench builds
# it) with their range, and that program's own spread over the rounds
# ((max - min) / median): a difference smaller than that spread is not
# measured.
#
#   link     static against shared libgmp, for theirs and ours: the official
#            program linked -static (runbench's) and with the shared
#            libgmp; gmpbench as built (shared) and bench/gmpbench-static-gmp
#            (make bench/gmpbench-static-gmp: the same objects, libgmp.a
#            linked in).
#   process  what else runs in our process during a sample: gmpbench -q
#            (nothing drawn; no thread but the main one, which is all a run
#            without --threads has, and only SIGINT and SIGTERM handlers,
#            client/interrupt.c) against the progress line drawn on a
#            terminal (script(1) gives it a pseudo-terminal).
#   align    code and data placement: the official program built with
#            -falign-functions=64 -falign-loops=64, and both programs run
#            with 1000, 2000 and 3000 bytes more environment, which moves
#            the stack's start (and every stack address) by that much.
#   timer    the estimator: bench/timers (make bench/timers) times the
#            test's loop in one process both as the harness does (samples
#            of 10 ms, thread CPU time less its kernel time) and as GMPbench
#            does (one loop, getrusage user milliseconds), PAIRS rounds of
#            10 s each way; the official program is not run.
#
# usage: bench/gap-causes.sh [-n PAIRS] [-b BUILDDIR] [-t TESTS] [-c CPU]
#                            [-o FILE] EXPERIMENT OFFICIAL_DIR
#   -n PAIRS    rounds (default 5)
#   -b BUILDDIR where gmpbench and the bench programs are built (default .)
#   -t TESTS    the tests' names, separated by spaces (default: divide
#               8192,32, 8192,64 and 8192,128, rsa.512)
#   -c CPU      the CPU every program runs on (default: first), or none
#   -o FILE     also keep every measurement, one line each, in FILE

. "$(dirname "$0")/lib.sh"
pairs=5 build=. cpu=first keep=''
tests='gmpbench.base.divide.8192,32 gmpbench.base.divide.8192,64 gmpbench.base.divide.8192,128 gmpbench.app.rsa.512'
options 'n:pairs b:build t:tests c:cpu o:keep' "$@"
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
experiment=$1 official=$2
case $pairs in
  ''|*[!0-9]*|[0-4]) echo "-n $pairs: at least 5 pairs" >&2; exit 2 ;;
esac
gb=$(executable "$build/gmpbench" -b) || exit 1
pin=$(pin_prefix "$cpu") || exit 1
for f in runbench divide.c rsa.c multiply.c; do
  [ -f "$official/$f" ] || { echo "$official: no $f here; give the directory of an unpacked GMPbench 0.2" >&2; exit 1; }
done

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config"

# The variants: one line each, LABEL KIND ARGUMENT (measure's).
case $experiment in
  link)
    static_gb=$(executable "$build/bench/gmpbench-static-gmp" -b) \
      || { echo "make bench/gmpbench-static-gmp first" >&2; exit 1; }
    official_build "$official" "$tmp/static" || exit 1
    LIBS=-lgmp official_build "$official" "$tmp/shared" || exit 1
    cat > "$tmp/variants" << EOF
official-static theirs $tmp/static
official-shared theirs $tmp/shared
gmpbench-shared ours $gb
gmpbench-static ours $static_gb
EOF
    ;;
  process)
    command -v script > /dev/null || { echo "script (util-linux) is not installed" >&2; exit 1; }
    official_build "$official" "$tmp/static" || exit 1
    cat > "$tmp/variants" << EOF
official-static theirs $tmp/static
gmpbench-quiet ours $gb
gmpbench-progress ours_tty $gb
EOF
    ;;
  align)
    official_build "$official" "$tmp/static" || exit 1
    CFLAGS="${CFLAGS:--O3 -fomit-frame-pointer} -falign-functions=64 -falign-loops=64" \
      official_build "$official" "$tmp/aligned" || exit 1
    {
      echo "official-static theirs $tmp/static"
      echo "official-aligned64 theirs $tmp/aligned"
      for pad in 1000 2000 3000; do echo "official-env+$pad theirs_env $pad:$tmp/static"; done
      echo "gmpbench ours $gb"
      for pad in 1000 2000 3000; do echo "gmpbench-env+$pad ours_env $pad:$gb"; done
    } > "$tmp/variants"
    ;;
  timer)
    timers=$(executable "$build/bench/timers" -b) || { echo "make bench/timers first" >&2; exit 1; }
    echo "every program runs ${pin:-unpinned (-c none)}"
    for t in $tests; do
      # shellcheck disable=SC2086
      $pin "$timers" "$t" 10 "$pairs" || exit 1
    done
    exit 0
    ;;
  *) echo "$experiment: no such experiment (link, process, align or timer)" >&2; exit 2 ;;
esac
echo "every program runs ${pin:-unpinned (-c none)}; $pairs rounds; load average: $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null)"

# padding N: N bytes of environment, as one variable's value.
padding () {
  printf '%*s' "$1" '' | tr ' ' x
}

# ours GMPBENCH TEST [PREFIX...]: the test's ops/s (the scores' figure).
ours () {
  o_gb=$1 o_test=$2
  shift 2
  # shellcheck disable=SC2086
  XDG_CONFIG_HOME="$tmp/config" "$@" $pin "$o_gb" run --only "$o_test" -q --format json \
    -o "$tmp/ours.json" > /dev/null 2> "$tmp/ours.err" || { cat "$tmp/ours.err" >&2; return 1; }
  python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['results'][0]['ops_per_sec'])" "$tmp/ours.json"
}

# ours_tty GMPBENCH TEST: the same with the progress line drawn on a
# pseudo-terminal (no -q).
ours_tty () {
  XDG_CONFIG_HOME="$tmp/config" script -qefc \
    "$pin '$1' run --only '$2' --format json -o '$tmp/ours.json'" /dev/null > "$tmp/ours.err" 2>&1 \
    || { cat "$tmp/ours.err" >&2; return 1; }
  python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['results'][0]['ops_per_sec'])" "$tmp/ours.json"
}

# theirs DIR TEST [PREFIX...]: the official program's RESULT.
theirs () {
  t_dir=$1 t_prog=$(echo "$2" | cut -d. -f3) t_args=$(echo "$2" | cut -d. -f4 | tr , ' ')
  shift 2
  # shellcheck disable=SC2086
  (cd "$t_dir" && "$@" $pin ./"$t_prog" $t_args) | sed -n 's/^RESULT: \([0-9.]*\).*/\1/p'
}

# measure KIND ARGUMENT TEST: one measurement's ops/s.
measure () {
  case $1 in
    ours) ours "$2" "$3" ;;
    ours_tty) ours_tty "$2" "$3" ;;
    ours_env) ours "${2#*:}" "$3" env GB_PADDING="$(padding "${2%%:*}")" ;;
    theirs) theirs "$2" "$3" ;;
    theirs_env) theirs "${2#*:}" "$3" env GB_PADDING="$(padding "${2%%:*}")" ;;
  esac
}

nvariants=$(wc -l < "$tmp/variants")
: > "$tmp/results"
round=1
while [ $round -le "$pairs" ]; do
  for t in $tests; do
    # This round's order: the variants rotated by the round's number.
    shift_by=$(( (round - 1) % nvariants ))
    { tail -n +$((shift_by + 1)) "$tmp/variants"; head -n "$shift_by" "$tmp/variants"; } > "$tmp/order"
    while read -r label kind arg; do
      v=$(measure "$kind" "$arg" "$t" < /dev/null) || exit 1
      [ -n "$v" ] || { echo "$label $t: no figure" >&2; exit 1; }
      echo "$round $t $label $v" | tee -a "$tmp/results" >&2
    done < "$tmp/order"
  done
  round=$((round + 1))
done
[ -n "$keep" ] && cp "$tmp/results" "$keep"

python3 - "$tmp/results" "$tmp/variants" << 'EOP'
import statistics, sys
from collections import defaultdict
variants = [l.split()[0] for l in open(sys.argv[2])]
ref = variants[0]
by = defaultdict(dict)          # (test, variant) -> {round: ops/s}
tests = []
for line in open(sys.argv[1]):
    rnd, test, label, v = line.split()
    by[(test, label)][int(rnd)] = float(v)
    if test not in tests:
        tests.append(test)
for test in tests:
    r = by[(test, ref)]
    spread = (max(r.values()) - min(r.values())) / statistics.median(r.values())
    print(f"{test}: {ref}'s own spread over {len(r)} rounds {100 * spread:.1f}%")
    print(f"  {'variant':22} {'median ops/s':>14} {'ratio to ' + ref:>26} {'range':>18}")
    for label in variants:
        m = by[(test, label)]
        ratios = [m[n] / r[n] for n in m if n in r]
        print(f"  {label:22} {statistics.median(m.values()):14.6g} {statistics.median(ratios):26.4f} "
              f"{min(ratios):8.4f} to {max(ratios):.4f}")
EOP
