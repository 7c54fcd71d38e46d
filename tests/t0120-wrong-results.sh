# t0120-wrong-results.sh: a GMP that computes wrong answers (tests/wrong-gmp.c
# preloaded) makes the run fail with exit status 3 naming the test; it
# never yields a score or a result file.
. "$SRCDIR/tests/lib.sh"

lib="$BUILDDIR/tests/libwronggmp.so"
[ -f "$lib" ] || { skip "wrong-results tests ($lib not built)"; exit 0; }
# The sanitizer runtime must come first; it tolerates the preload this way.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

wrong_run () {
  fn=$1 test=$2
  rm -f w.json
  WRONG_GMP=$fn LD_PRELOAD=$lib "$GMPBENCH" run -q --only "$test" --time-per-test 0.02 -o w.json > out.txt 2> err.txt
  status=$?
  check "a wrong $fn fails $test with status 3" [ "$status" -eq 3 ]
  check "the message names $test and says there is no score" \
    sh -c "grep -q '$test computed a wrong result' err.txt && grep -q 'no score' err.txt"
  check "no result file is written when $fn is wrong" [ ! -e w.json ]
}

wrong_run mpz_mul gmpbench.base.multiply.512,512
wrong_run mpz_mul gmpbench.base.multiply.8192
wrong_run mpz_tdiv_q gmpbench.base.divide.8192,64
wrong_run mpz_gcd gmpbench.base.gcd.512,512
wrong_run mpz_gcdext gmpbench.base.gcdext.512,512
wrong_run mpz_powm gmpbench.app.rsa.512
wrong_run mpz_mul gmpbench.app.pi.10000
wrong_run mpz_powm_sec ext.rsa.sign-sec.512
wrong_run mpz_powm ext.rsa.verify.512
wrong_run mpz_sqrt ext.sqrt.8192
wrong_run mpz_invert ext.invert.512
wrong_run mpz_fac_ui ext.fac.10000
wrong_run mpz_probab_prime_p ext.prime.random.512

LD_PRELOAD=$lib "$GMPBENCH" run -q --only gmpbench.base.gcd.512,512 --time-per-test 0.02 > /dev/null 2>&1
check "with WRONG_GMP unset the preloaded library is harmless" [ $? -eq 0 ]
