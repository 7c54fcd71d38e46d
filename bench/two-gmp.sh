#!/bin/sh
# two-gmp.sh: the targets of `gmpbench run --gmp A --gmp B` (issue 19),
# measured on this machine; prints ratios, asserts nothing.
#
#  1. time: the compatible hierarchy (gmpbench.*, 39 tests) over two
#     builds side by side against one build alone (target: at most 2.2x);
#  2. noise: the same library given twice, so that every ratio would be 1
#     on a quiet machine; each node's ratio (target: within +-1.5% of 1).
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
elapsed () { python3 -c "import sys, time; print(time.time() - float(sys.argv[1]))" "$1"; }
# One build alone: a plain run for the system libgmp, else --gmp LIB once.
single=
[ "$LIB" = system ] || single="--gmp $LIB"

echo "load average before: $(load)"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$G" run -q --only gmpbench $T $single -o "$W/one.json" > /dev/null || exit 1
one=$(elapsed "$start")
echo "load average after one build: $(load)"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$G" run -q --only gmpbench $T --gmp "$LIB" --gmp "$LIB" --format json -o "$W/two.json" \
  > "$W/ratios.json" || exit 1
two=$(elapsed "$start")
echo "load average after two builds: $(load)"

python3 - "$W/ratios.json" "$one" "$two" << 'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
one, two = float(sys.argv[2]), float(sys.argv[3])
print(f"time: one build {one:.0f} s, two side by side {two:.0f} s: {two / one:.2f}x (target <= 2.2x)")
worst = 0
print("node ratios, the same library twice (target: within +-1.5% of 1):")
for line in c["lines"]:
    r = line["ratios"][0]
    if not line["node"] or r is None:
        continue
    dev = r["ratio"] - 1
    worst = max(worst, abs(dev))
    print(f"  {line['name']:40} {r['ratio']:.4f}  {100 * dev:+.2f}%  ({r['tests']} tests)")
print(f"worst node: {100 * worst:.2f}% from 1 ({'within' if worst <= 0.015 else 'outside'} +-1.5%)")
tests = [l["ratios"][0]["ratio"] for l in c["lines"] if not l["node"] and l["ratios"][0]]
devs = sorted(abs(t - 1) for t in tests)
print(f"tests: {len(tests)}, median |ratio - 1| {100 * devs[len(devs) // 2]:.2f}%, worst {100 * devs[-1]:.2f}%")
EOF
