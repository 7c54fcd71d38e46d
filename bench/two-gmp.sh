#!/bin/sh
# two-gmp.sh: the targets of `gmpbench run --gmp A --gmp B` (issue 19),
# measured on this machine; prints ratios, asserts nothing.
#
#  1. time: the compatible hierarchy (gmpbench.*, 39 tests) over two
#     builds side by side against one build alone (target: at most 2.2x),
#     in wall time and in CPU time (of gmpbench and its workers: what the
#     wall time would be on an otherwise idle machine, and unlike it not
#     moved by other load starting or ending between the two runs);
#  2. noise: the same library given twice, so that every ratio would be 1
#     on a quiet machine; each node's ratio from the paired visits (the
#     run's report, client/pairs.h) with its spread, and beside it the
#     ratio of the two builds' own scores (gmpbench compare of the two
#     results) (target: every node within +-1.5% of 1).
#
#   sh bench/two-gmp.sh [BUILDDIR [LIB [TIME_PER_TEST]]]
#
# LIB defaults to 'system' (the libgmp gmpbench was linked with),
# TIME_PER_TEST to gmpbench's default.  The load average is printed
# before and after: on a shared machine the figures move with it.

B=${1:-.}
LIB=${2:-system}
T=${3:+--time-per-test $3}
G="$B/gmpbench"
[ -x "$G" ] || { echo "two-gmp.sh: no gmpbench in $B" >&2; exit 1; }
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
# shellcheck disable=SC2086
timed "$W/two.time" "$G" run -q --only gmpbench $T --gmp "$LIB" --gmp "$LIB" --format json \
  -o "$W/two.json" > "$W/paired.json" || exit 1
echo "load average after two builds: $(load)"
"$G" compare --format json "$W/two.gmp1.json" "$W/two.gmp2.json" > "$W/scores.json" || exit 1

python3 - "$W/paired.json" "$W/scores.json" "$W/one.time" "$W/two.time" << 'EOF'
import json, sys
paired, scores = (json.load(open(f))["lines"] for f in sys.argv[1:3])
one, two = ([float(x) for x in open(f).read().split()] for f in sys.argv[3:5])
for i, kind in enumerate(("wall", "CPU")):
    print(f"time, {kind}: one build {one[i]:.0f} s, two side by side {two[i]:.0f} s: "
          f"{two[i] / one[i]:.2f}x (target <= 2.2x)")
print("node ratios, the same library twice (target: within +-1.5% of 1):")
print(f"  {'node':32} {'paired':>8} {'off by':>7} {'spread':>7} {'pairs':>6}   {'scores':>8} {'off by':>7}")
worst = {"paired": 0, "scores": 0}
for p, s in zip(paired, scores):
    rp, rs = p["ratios"][0], s["ratios"][0]
    if not p["node"] or rp is None:
        continue
    worst["paired"] = max(worst["paired"], abs(rp["ratio"] - 1))
    worst["scores"] = max(worst["scores"], abs(rs["ratio"] - 1))
    print(f"  {p['name']:32} {rp['ratio']:8.4f} {100 * (rp['ratio'] - 1):+6.2f}% {100 * rp['spread']:6.2f}% "
          f"{rp['pairs']:6}   {rs['ratio']:8.4f} {100 * (rs['ratio'] - 1):+6.2f}%")
for k, w in worst.items():
    print(f"worst node, {k}: {100 * w:.2f}% from 1 ({'within' if w <= 0.015 else 'outside'} +-1.5%)")
for name, lines in (("paired", paired), ("scores", scores)):
    devs = sorted(abs(l["ratios"][0]["ratio"] - 1) for l in lines if not l["node"] and l["ratios"][0])
    print(f"tests, {name}: {len(devs)}, median |ratio - 1| {100 * devs[len(devs) // 2]:.2f}%, "
          f"worst {100 * devs[-1]:.2f}%")
EOF
