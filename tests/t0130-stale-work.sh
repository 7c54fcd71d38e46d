# t0130-stale-work.sh: a GMP that skips its work or caches it, with right
# answers (tests/stale-gmp.c preloaded, every time also wrapping dladdr to
# say that its functions are the real libgmp's), makes the run fail with
# exit status 3 naming the test, and writes nothing: an mpz_mul that does
# nothing when called again with the same numbers (a stale output), and
# caches of mpz_mul and of mpz_powm keyed by their operands' values
# (engine/fresh.h: the rounds on fresh operands).  An interposer that only
# passes the calls on, and hides from dladdr, is still recorded as
# interposed (sysinfo/entry_maps.c: /proc/self/maps and the executable's
# GOT slots), and so is a library that rewrites the executable's PLT slot
# (tests/got-patch-gmp.c); a real gmpbench-server on 127.0.0.1 flags the
# upload `interposed'; an honest run exits 0 and is not flagged so.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

lib="$BUILDDIR/tests/libstalegmp.so"
[ -f "$lib" ] || { skip "stale-work tests ($lib not built)"; exit 0; }
# The sanitizer runtime must come first; it tolerates the preload this way.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# A --quick run of TEST under the library cheating as MODE (STALE_GMP),
# hidden from dladdr; KILL bounds a run that would otherwise never end.
cheat_run () {
  mode=$1 test=$2 out=$3
  rm -f "$out"
  STALE_GMP=$mode STALE_GMP_HIDE=1 LD_PRELOAD=$lib timeout -s KILL 300 \
    "$GMPBENCH" run -q --quick --only "$test" -o "$out" > out.txt 2> err.txt
  status=$?
}

caught () {
  mode=$1 test=$2
  cheat_run "$mode" "$test" w.json
  check "a $mode library fails $test with status 3" [ "$status" -eq 3 ]
  check "the message names $test, says why and that there is no score" \
    sh -c "grep -q '$test' err.txt && grep -Eq 'stale or cached|fresh operands' err.txt \
           && grep -q 'no score' err.txt"
  check "no result file is written under a $mode library" [ ! -e w.json ]
}

# The stale output: the destination keeps the previous product.  The
# 8192-bit square skips a 2 us product; 512 by 512 bits one of 30 ns.
caught stale gmpbench.base.multiply.8192
caught stale gmpbench.base.multiply.512,512
# Products remembered by value: a hash and a copy of 8192 bits instead of
# the square, and of 131072 bits.
caught cache-mul gmpbench.base.multiply.8192
caught cache-mul gmpbench.base.multiply.131072
# mpz_powm remembered: RSA signing cycles through 1024 messages, which a
# --quick run signs about twice over; a modular power repeats one.
caught cache-powm gmpbench.app.rsa.512
caught cache-powm ext.powm.512

# The same tests with the real GMP: nothing to catch, and no interposer.
rm -f h.json
"$GMPBENCH" run -q --quick --only gmpbench.base.multiply.8192 \
  --only gmpbench.base.multiply.512,512 --only gmpbench.base.multiply.131072 \
  --only gmpbench.app.rsa.512 --only ext.powm.512 -o h.json > out.txt 2> err.txt
check "an honest run of those tests exits 0 ($(head -c 300 err.txt))" [ $? -eq 0 ]
gmp_member () {
  json_get "$1" "d['system']['build']['gmp']['entry_points']$2"
}
check "and says nothing is interposed" [ "$(gmp_member h.json "['interposed']")" = False ]

# An interposer that does no harm and lies to dladdr: the mappings show it.
cheat_run pass gmpbench.base.multiply.8192 p.json
check "an honest interposer hidden from dladdr exits 0" [ "$status" -eq 0 ]
check "the document says the timed functions are interposed" \
  [ "$(gmp_member p.json "['interposed']")" = True ]
mapped="any(x.startswith('__gmpz_mul: ') and 'libstalegmp.so (/proc/self/maps' in x for x in d['system']['build']['gmp']['entry_points']['foreign'])"
check "and names __gmpz_mul's file from /proc/self/maps" [ "$(json_get p.json "$mapped")" = True ]
by_dladdr="any(x.endswith('libstalegmp.so') for x in d['system']['build']['gmp']['entry_points']['foreign'])"
check "where dladdr, lied to, named no file of it" [ "$(json_get p.json "$by_dladdr")" = False ]

# A library that rewrites the executable's PLT slot of mpz_mul and binds
# no symbol of its own: dladdr and the address of mpz_mul name libgmp, the
# slot the calls jump through does not.
patch="$BUILDDIR/tests/libgotpatchgmp.so"
case $(uname -m) in
  x86_64 | aarch64)
    rm -f g.json
    LD_PRELOAD=$patch "$GMPBENCH" run -q --only gmpbench.base.multiply.8192 \
      --time-per-test 0.02 -o g.json > out.txt 2> err.txt
    check "a run whose PLT slot of mpz_mul was rewritten exits 0" [ $? -eq 0 ]
    slot="any(x.startswith('__gmpz_mul: ') and x.endswith('libgotpatchgmp.so (/proc/self/maps, a GOT slot of the executable)') for x in d['system']['build']['gmp']['entry_points']['foreign'])"
    interposed=$(gmp_member g.json "['interposed']")
    named=$(json_get g.json "$slot")
    check "and is recorded interposed, the slot named" \
      sh -c "[ '$interposed' = True ] && [ '$named' = True ]" ;;
  *) skip "a rewritten PLT slot (the slots are read on x86-64 and aarch64)" ;;
esac

if ! start_server; then
  skip "the server's flag on interposed uploads (no server built, or it did not start)"
  exit 0
fi
trap 'stop_server' EXIT
run_status "$GMPBENCH" submit --server "$SERVER_URL" p.json
check "the server flags the interposed upload 'interposed' ($(upload_line_flags))" \
  sh -c "[ $status -eq 0 ] && echo ',$(upload_line_flags),' | grep -q ',interposed,'"
run_status "$GMPBENCH" submit --server "$SERVER_URL" h.json
check "and not the honest one ($(upload_line_flags))" \
  sh -c "[ $status -eq 0 ] && [ -n '$(upload_line_id)' ] \
         && ! echo ',$(upload_line_flags),' | grep -q ',interposed,'"
