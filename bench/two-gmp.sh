#!/bin/sh
# two-gmp.sh: the targets of `gmpbench run --gmp A --gmp B` (issues 19
# and 36), measured on this machine; prints ratios, asserts nothing.
#
#  1. time: the compatible hierarchy (gmpbench.*, 39 tests) over two
#     builds side by side against one build alone (target: at most 2.2x),
#     in wall time and in CPU time (of gmpbench and its workers: what the
#     wall time would be on an otherwise idle machine, and unlike it not
#     moved by other load starting or ending between the two runs);
#  2. noise: the same library given twice, RUNS runs in a row, so that
#     every ratio would be 1 on a quiet machine; per run, each node's
#     ratio from the paired visits (the run's report, client/pairs.h) with
#     its spread, and beside it the ratio of the two builds' own scores
#     (gmpbench compare of the two results), and the CPU the run and its
#     workers were pinned to (run.pinning of the documents); last, each
#     node's worst paired ratio over the runs (target, issue 36: every
#     node within 1% of 1 in every run, on a 2-vCPU VM).
#
#   sh bench/two-gmp.sh [BUILDDIR [LIB [TIME_PER_TEST [RUNS]]]]
#
# LIB defaults to 'system' (the libgmp gmpbench was linked with),
# TIME_PER_TEST to gmpbench's default, RUNS to 3.  The load average is
# printed before and after each run: on a shared machine the figures
# move with it.

B=${1:-.}
LIB=${2:-system}
T=${3:+--time-per-test $3}
RUNS=${4:-3}
G="$B/gmpbench"
[ -x "$G" ] || { echo "two-gmp.sh: no gmpbench in $B" >&2; exit 1; }
case $RUNS in
  ''|*[!0-9]*|0) echo "two-gmp.sh: RUNS must be a positive whole number, not '$RUNS'" >&2; exit 2 ;;
esac
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
XDG_CONFIG_HOME="$W/config"
mkdir "$XDG_CONFIG_HOME" || exit 1
export XDG_CONFIG_HOME

load () { cut -d' ' -f1-3 /proc/loadavg 2> /dev/null; }
# Runs a command, its output to where the caller sends it, and writes
# "WALL CPU" (seconds; CPU: user + system of it and its children) to FILE.
timed () {  # FILE COMMAND...
  python3 - "$@" << 'EOP'
import resource, subprocess, sys, time
start = time.time()
status = subprocess.call(sys.argv[2:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{time.time() - start} {u.ru_utime + u.ru_stime}\n")
sys.exit(status)
EOP
}
# One build alone: a plain run for the system libgmp, else --gmp LIB once.
single=
[ "$LIB" = system ] || single="--gmp $LIB"

echo "load average before: $(load)"
# shellcheck disable=SC2086
timed "$W/one.time" "$G" run -q --only gmpbench $T $single -o "$W/one.json" > /dev/null || exit 1
echo "load average after one build: $(load)"
run=1
while [ $run -le "$RUNS" ]; do
  # shellcheck disable=SC2086
  timed "$W/two$run.time" "$G" run -q --only gmpbench $T --gmp "$LIB" --gmp "$LIB" --format json \
    -o "$W/two$run.json" > "$W/paired$run.json" || exit 1
  echo "load average after two builds, run $run: $(load)"
  "$G" compare --format json "$W/two$run.gmp1.json" "$W/two$run.gmp2.json" > "$W/scores$run.json" || exit 1
  run=$((run + 1))
done

python3 - "$W" "$RUNS" << 'EOF'
import json, sys
w, runs = sys.argv[1], int(sys.argv[2])
one = [float(x) for x in open(f"{w}/one.time").read().split()]
two = [float(x) for x in open(f"{w}/two1.time").read().split()]
for i, kind in enumerate(("wall", "CPU")):
    print(f"time, {kind}: one build {one[i]:.0f} s, two side by side {two[i]:.0f} s (run 1): "
          f"{two[i] / one[i]:.2f}x (target <= 2.2x)")
worst_by_node = {}
for run in range(1, runs + 1):
    paired = json.load(open(f"{w}/paired{run}.json"))["lines"]
    scores = json.load(open(f"{w}/scores{run}.json"))["lines"]
    pins = [json.load(open(f"{w}/two{run}.gmp{k}.json"))["run"].get("pinning") for k in (1, 2)]
    print(f"run {run}: the same library twice; pinned: {pins[0]} and {pins[1]}")
    print(f"  {'node':32} {'paired':>8} {'off by':>7} {'spread':>7} {'pairs':>6}   {'scores':>8} {'off by':>7}")
    worst = {"paired": 0, "scores": 0}
    for p, s in zip(paired, scores):
        rp, rs = p["ratios"][0], s["ratios"][0]
        if not p["node"] or rp is None:
            continue
        off = abs(rp["ratio"] - 1)
        worst["paired"] = max(worst["paired"], off)
        worst["scores"] = max(worst["scores"], abs(rs["ratio"] - 1))
        worst_by_node[p["name"]] = max(worst_by_node.get(p["name"], 0), off)
        print(f"  {p['name']:32} {rp['ratio']:8.4f} {100 * (rp['ratio'] - 1):+6.2f}% {100 * rp['spread']:6.2f}% "
              f"{rp['pairs']:6}   {rs['ratio']:8.4f} {100 * (rs['ratio'] - 1):+6.2f}%")
    for k, v in worst.items():
        print(f"  worst node, {k}: {100 * v:.2f}% from 1 ({'within' if v <= 0.01 else 'outside'} +-1%)")
    for name, lines in (("paired", paired), ("scores", scores)):
        devs = sorted(abs(l["ratios"][0]["ratio"] - 1) for l in lines if not l["node"] and l["ratios"][0])
        print(f"  tests, {name}: {len(devs)}, median |ratio - 1| {100 * devs[len(devs) // 2]:.2f}%, "
              f"worst {100 * devs[-1]:.2f}%")
print(f"each node's worst paired ratio over the {runs} runs (target: within +-1% in every run):")
for name, v in worst_by_node.items():
    print(f"  {name:32} {100 * v:5.2f}%  {'within' if v <= 0.01 else 'OUTSIDE'}")
inside = sum(1 for v in worst_by_node.values() if v <= 0.01)
print(f"nodes within +-1% in all {runs} runs: {inside} of {len(worst_by_node)}")
