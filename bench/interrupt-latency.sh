#!/bin/sh
# interrupt-latency.sh: how long after SIGINT or SIGTERM does a run end,
# when the signal arrives in the middle of a test's setup, of its samples,
# or inside a GMP call that never returns?
#
# Starts `gmpbench run` N times per case, sends the signal after DELAY
# seconds and prints the time from the signal to the process's end, the
# exit status (130 for SIGINT, 143 for SIGTERM) and whether a result file
# was left.  Target: under 1 s in every case (client/interrupt.c ends the
# run 0.5 s after the signal if the runner has not ended it by then).
# The stuck case preloads tests/libwronggmp.so (make check builds it).
#
# usage: bench/interrupt-latency.sh [-n RUNS] [-g GMPBENCH] [-l LIBWRONGGMP]

. "$(dirname "$0")/lib.sh"
runs=3 gb=./gmpbench lib=tests/libwronggmp.so
options 'n:runs g:gb l:lib' "$@"
gb=$(executable "$gb" -g) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -f "$lib" ] && lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")

# One run of case NAME with --only ONLY: signal SIG after DELAY seconds;
# the rest are environment assignments.  Prints one line.
measure () {
  name=$1 sig=$2 delay=$3 only=$4
  shift 4
  rm -f "$tmp/r.json"
  env "$@" "$gb" run -q --only "$only" -o "$tmp/r.json" > /dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  sent=$(date +%s.%N)
  kill -"$sig" $pid
  wait $pid
  status=$?
  ended=$(date +%s.%N)
  left=no
  ls "$tmp"/r.json* > /dev/null 2>&1 && left=yes
  printf '%-36s SIG%-4s %6.3f s  status %3d  file left: %s\n' "$name" "$sig" \
    "$(echo "$ended - $sent" | bc)" "$status" "$left"
}

i=1
while [ $i -le "$runs" ]; do
  for sig in INT TERM; do
    measure "while the tests are set up" $sig 0.5 gmpbench
    measure "in the samples of pi, 1M digits" $sig 3 gmpbench.app.pi.1000000
    if [ -f "$lib" ]; then
      measure "inside a GMP call that never ends" $sig 1 gmpbench.app.rsa.512 \
        WRONG_GMP=mpz_mul WRONG_GMP_MODE=hang LD_PRELOAD="$lib"
    fi
  done
  i=$((i + 1))
done
