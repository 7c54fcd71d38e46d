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
# With -p, each of the N times is two runs, one as the user runs it and
# one pinned to a CPU (taskset -c; the first this script may use), who
# goes first alternating, and both series are summed up: does pinning a
# single build's run make its scores repeat better (issue 36)?
#
# usage: bench/repeatability.sh [-n RUNS] [-g GMPBENCH] [-p] [-- RUN-OPTIONS...]

. "$(dirname "$0")/lib.sh"
runs=3 gb=./gmpbench pinned=''
options 'n:runs g:gb p=pinned' "$@"
shift $((OPTIND - 1))
gb=$(executable "$gb" -g) || exit 1
series=plain
if [ -n "$pinned" ]; then
  pin=$(pin_prefix first) || exit 1
  series="plain pinned"
  echo "pinned runs: $pin"
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config"

# one SERIES I [RUN-OPTIONS...]: run I of SERIES (plain, or pinned with
# $pin).
one () {
  name=$1$2 prefix=
  [ "$1" = pinned ] && prefix=$pin
  shift 2
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  XDG_CONFIG_HOME="$tmp/config" $prefix "$gb" run --only gmpbench -q --format json \
    -o "$tmp/$name.json" "$@" > /dev/null || exit 1
  end=$(date +%s.%N)
  echo "$start $end" > "$tmp/$name.time"
}

i=1
while [ $i -le "$runs" ]; do
  if [ $((i % 2)) -eq 1 ]; then order=$series; else order=$(echo "$series" | awk '{ for (k = NF; k > 0; k--) printf "%s ", $k }'); fi
  for s in $order; do
    one "$s" $i "$@"
  done
  i=$((i + 1))
done

python3 - "$tmp" "$runs" $series <<'EOP'
import json, statistics, sys
tmp, runs, series = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for name in series:
    scores, worst = [], (0, "")
    print(f"{name} runs:")
    for i in range(1, runs + 1):
        d = json.load(open(f"{tmp}/{name}{i}.json"))
        start, end = map(float, open(f"{tmp}/{name}{i}.time").read().split())
        s = d["scores"]["gmpbench"]
        scores.append(s)
        top = max(d["results"], key=lambda r: r["spread"])
        if top["spread"] > worst[0]:
            worst = (top["spread"], top["name"])
        noisy = sum(1 for r in d["results"] if "noisy" in r["flags"])
        print(f"  run {i}: GMPbench {s:10.2f}   base {d['scores']['gmpbench.base']:10.2f}"
              f"   app {d['scores']['gmpbench.app']:9.2f}   {end - start:6.1f} s   noisy tests: {noisy}")
    med = statistics.median(scores)
    dev = max(abs(s - med) / med for s in scores)
    print(f"  scores within {100 * dev:.2f}% of their median {med:.2f} (target 1.5%)")
    print(f"  largest per-test spread: {100 * worst[0]:.2f}% ({worst[1]}) (target 2%)")
EOP
