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
