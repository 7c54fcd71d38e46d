#!/bin/sh
# t0420-rng.sh: the random generators with tiny budgets.  The software
# generators must be measured and pass their sanity check; each hardware
# instruction must be measured where the CPU has it and otherwise skipped
# with a reason, never failed.

: "${BUILDDIR:?}"
gb="$BUILDDIR/gmpbench"

if ! "$gb" run --suite rng --quick --time-per-test 0.02 -q -o out.json > run.log 2>&1; then
  echo "FAIL: gmpbench run --suite rng failed:"
  cat run.log
  exit 1
fi
echo "PASS: gmpbench run --suite rng: every generator's output passed its sanity check"

# Whether the document lists TEST under results or skipped.
listed () {
  grep -q "\"name\":[[:space:]]*\"$1\"" out.json
}
skipped_reason () {
  sed -n "/\"skipped\"/,\$p" out.json | grep -A1 "\"name\":[[:space:]]*\"$1\"" \
    | sed -n 's/.*"reason":[[:space:]]*"\(..*\)".*/\1/p'
}

for g in gmp-mt gmp-lc openssl os; do
  if listed "rng.$g" && [ -z "$(skipped_reason "rng.$g")" ]; then
    echo "PASS: rng.$g measured"
  else
    echo "FAIL: rng.$g has no result"
  fi
done
for g in rdrand rdseed rndr; do
  reason=$(skipped_reason "rng.$g")
  if [ -n "$reason" ]; then
    echo "PASS: rng.$g skipped with a reason: $reason"
    echo "SKIP: rng.$g throughput ($reason)"
  elif listed "rng.$g"; then
    echo "PASS: rng.$g measured"
  else
    echo "FAIL: rng.$g is neither measured nor skipped"
  fi
done

# --threads with a skipped test (rng.rndr on x86, rng.rdrand on Arm): the
# all-core run skips it too, and the threads section lists only measured
# tests (it used to crash on the skipped entry).
if "$gb" run --suite rng --threads 2 --time-per-test 0.02 -q -o thr.json > thr.log 2>&1; then
  echo "PASS: gmpbench run --suite rng --threads 2 exits 0"
else
  echo "FAIL: gmpbench run --suite rng --threads 2 failed:"
  cat thr.log
  exit 1
fi
problems=$(python3 - thr.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
skipped = {s["name"] for s in d.get("skipped", [])}
results = d.get("threads", {}).get("results", [])
if not results:
    print("the threads section has no results")
for r in results:
    if r["name"] in skipped:
        print("threads lists %s, which was skipped" % r["name"])
    if not r.get("ops_per_sec", 0) > 0:
        print("threads has no rate for %s" % r["name"])
PY
)
if [ -z "$problems" ]; then
  echo "PASS: --threads: the threads section has results and none for a skipped test"
else
  echo "FAIL: --threads: $problems"
fi
