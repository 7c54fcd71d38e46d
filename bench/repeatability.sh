#!/bin/sh
# repeatability.sh: how repeatable is the GMPbench score here, and how long
# does a full run take?
#
# Runs the compatible hierarchy (`gmpbench run --only gmpbench`) N times
# back to back and prints each run's score and wall time, the spread of the
# scores around their median, and the largest per-test spread any run
# reported.  Targets on the 2-core development machine, idle: a run under
# 3 minutes, the scores within 1.5% of their median, every test's spread
# under 2%.  Compare the official GMPbench: about 7 minutes, 3.8% apart.
#
# usage: bench/repeatability.sh [-n RUNS] [-g GMPBENCH] [-- RUN-OPTIONS...]

. "$(dirname "$0")/lib.sh"
runs=3 gb=./gmpbench
options 'n:runs g:gb' "$@"
shift $((OPTIND - 1))
gb=$(executable "$gb" -g) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config"

i=1
while [ $i -le "$runs" ]; do
  start=$(date +%s.%N)
  XDG_CONFIG_HOME="$tmp/config" "$gb" run --only gmpbench -q --format json \
    -o "$tmp/run$i.json" "$@" > /dev/null || exit 1
  end=$(date +%s.%N)
  echo "$start $end" > "$tmp/time$i"
  i=$((i + 1))
done

python3 - "$tmp" "$runs" <<'EOP'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
scores, worst = [], (0, "")
for i in range(1, runs + 1):
    d = json.load(open(f"{tmp}/run{i}.json"))
    start, end = map(float, open(f"{tmp}/time{i}").read().split())
    s = d["scores"]["gmpbench"]
    scores.append(s)
    top = max(d["results"], key=lambda r: r["spread"])
    if top["spread"] > worst[0]:
        worst = (top["spread"], top["name"])
    noisy = sum(1 for r in d["results"] if "noisy" in r["flags"])
    print(f"run {i}: GMPbench {s:10.2f}   base {d['scores']['gmpbench.base']:10.2f}"
          f"   app {d['scores']['gmpbench.app']:9.2f}   {end - start:6.1f} s   noisy tests: {noisy}")
med = statistics.median(scores)
dev = max(abs(s - med) / med for s in scores)
print(f"scores within {100 * dev:.2f}% of their median {med:.2f} (target 1.5%)")
print(f"largest per-test spread: {100 * worst[0]:.2f}% ({worst[1]}) (target 2%)")
EOP
