#!/bin/sh
# run-tests.sh: the test runner behind `make check`.
#
# Runs every unit test program (the CHECK_PROGRAMS of the sources.mk
# fragments, found as executables tests/unit-* in the build directory) and
# every numbered script tests/tNNNN-*.sh of the source directory, or only
# those named on the command line.  Each test prints one line per check:
#   PASS: what was checked
#   FAIL: what was checked, and why
#   SKIP: what was not checked (why)
# A test that exits non-zero without printing a FAIL line counts as one
# failure.  Output of each test is kept in tests/out/NAME.log; failing logs
# are shown.  The last line is "N passed, N failed, N skipped".
#
# Environment given to every test: SRCDIR and BUILDDIR (absolute paths),
# BUILD_SERVER, HAVE_POSTGRESQL, HAVE_GCRYPT, HAVE_NETTLE, and TEST_TMP, a fresh scratch
# directory removed afterwards.  HOME and the XDG directories point into
# TEST_TMP, so no test reads or writes the user's keys, config or spool.

: "${SRCDIR:?}" "${BUILDDIR:?}"
export SRCDIR BUILDDIR BUILD_SERVER HAVE_POSTGRESQL HAVE_GCRYPT HAVE_NETTLE

out="$BUILDDIR/tests/out"
mkdir -p "$out"
passed=0 failed=0 skipped=0
failed_names=

if [ $# -gt 0 ]; then
  tests="$*"
else
  tests=$(
    for p in "$BUILDDIR"/tests/unit-*; do
      [ -x "$p" ] && [ -f "$p" ] && echo "$p"
    done
    ls "$SRCDIR"/tests/t[0-9]*.sh 2>/dev/null
  )
fi

for t in $tests; do
  case "$t" in
    /*) path=$t ;;
    *.sh) path="$SRCDIR/tests/$t" ;;
    *) path="$BUILDDIR/tests/$t" ;;
  esac
  name=$(basename "$t")
  log="$out/$name.log"
  TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gmpbench-test.XXXXXX")
  HOME="$TEST_TMP/home" XDG_CONFIG_HOME="$TEST_TMP/home/.config"
  XDG_DATA_HOME="$TEST_TMP/home/.local/share"
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
  export TEST_TMP HOME XDG_CONFIG_HOME XDG_DATA_HOME
  start=$(date +%s)
  case "$path" in
    *.sh) (cd "$TEST_TMP" && sh "$path") > "$log" 2>&1 ;;
    *) (cd "$TEST_TMP" && "$path") > "$log" 2>&1 ;;
  esac
  rc=$?
  rm -rf "$TEST_TMP"
  p=$(grep -c '^PASS:' "$log")
  f=$(grep -c '^FAIL:' "$log")
  s=$(grep -c '^SKIP:' "$log")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL: $name exited with status $rc" >> "$log"
    f=1
  fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  secs=$(( $(date +%s) - start ))
  if [ "$f" -gt 0 ]; then
    echo "FAIL $name ($p passed, $f failed, ${secs}s)"
    grep -v '^PASS:' "$log" | tail -n 40 | sed 's/^/    /'
    failed_names="$failed_names $name"
  else
    echo "ok   $name ($p passed, $s skipped, ${secs}s)"
  fi
done

[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
