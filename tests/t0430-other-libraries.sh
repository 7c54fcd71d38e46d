#!/bin/sh
# t0430-other-libraries.sh: the optional comparisons (Nettle, libgcrypt)
# with tiny budgets when configure built them, and their absence handled
# cleanly when it did not: no tests listed, and --suite NAME refused as a
# usage error rather than run empty.

: "${BUILDDIR:?}"
gb="$BUILDDIR/gmpbench"

check_library () {  # NAME HAVE
  name=$1 have=$2
  if [ "$have" = yes ]; then
    if "$gb" run --suite "$name" --quick --time-per-test 0.02 -q -o "$name.json" > "$name.log" 2>&1; then
      n=$(grep -c "\"name\":[[:space:]]*\"$name\\." "$name.json")
      echo "PASS: gmpbench run --suite $name: $n tests measured, every signature checked with GMP"
    else
      echo "FAIL: gmpbench run --suite $name failed:"
      cat "$name.log"
    fi
  else
    echo "SKIP: $name tests (configure did not find $name)"
    if "$gb" list --only "$name" > /dev/null 2>&1; then
      echo "FAIL: $name tests are listed although $name was not built"
    else
      echo "PASS: no $name tests without $name"
    fi
    "$gb" run --suite "$name" -q > /dev/null 2>&1
    rc=$?
    if [ "$rc" -eq 2 ]; then
      echo "PASS: --suite $name is a usage error without $name"
    else
      echo "FAIL: --suite $name without $name exited with $rc, not 2"
    fi
  fi
}

check_library nettle "${HAVE_NETTLE:-no}"
check_library gcrypt "${HAVE_GCRYPT:-no}"
