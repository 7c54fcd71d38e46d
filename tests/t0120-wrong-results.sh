# t0120-wrong-results.sh: a GMP that computes wrong answers (tests/wrong-gmp.c
# preloaded) makes the run fail with exit status 3 naming the test; it
# never yields a score or a result file.  That holds for a library wrong
# every time, wrong now and then (WRONG_GMP_RATE), skipping work or
# returning garbage (WRONG_GMP_MODE); a library that makes a setup loop
# endless ends the run with a message naming the library call, and one
# that never returns still lets SIGINT and SIGTERM end the run.
. "$SRCDIR/tests/lib.sh"

lib="$BUILDDIR/tests/libwronggmp.so"
[ -f "$lib" ] || { skip "wrong-results tests ($lib not built)"; exit 0; }
# The sanitizer runtime must come first; it tolerates the preload this way.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# A run of TEST under the fault library spoiling FN, with the RATE and MODE
# of the environment; KILL bounds a run that would otherwise never end.
faulty_run () {
  fn=$1 test=$2
  rm -f w.json
  WRONG_GMP=$fn LD_PRELOAD=$lib timeout -s KILL 300 \
    "$GMPBENCH" run -q --only "$test" --time-per-test 0.02 -o w.json > out.txt 2> err.txt
  status=$?
}

wrong_run () {
  fn=$1 test=$2
  how="${WRONG_GMP_MODE:-off-by-one} $fn${WRONG_GMP_RATE:+ (1 call in $WRONG_GMP_RATE)}"
  faulty_run "$fn" "$test"
  check "a $how fails $test with status 3" [ "$status" -eq 3 ]
  check "the message names $test and says there is no score" \
    sh -c "grep -q '$test computed a wrong result' err.txt && grep -q 'no score' err.txt"
  check "no result file is written with a $how" [ ! -e w.json ]
}

# A setup loop the library makes endless ends, naming TEST and CALL.
bounded_run () {
  fn=$1 test=$2 call=$3
  faulty_run "$fn" "$test"
  check "a ${WRONG_GMP_MODE:-off-by-one} $fn ends $test's setup with status 3 (not a hang)" \
    [ "$status" -eq 3 ]
  check "the message names $test and $call" \
    sh -c "grep -q '$test: stopped: $call misbehaved' err.txt && grep -q 'no score' err.txt"
  check "no result file is written" [ ! -e w.json ]
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

# Wrong now and then: every repetition is checked (engine/verify.c), so
# one wrong call in 1000 (or in 100 for the slower RSA) is caught.  The
# fault library spoils the N-th, 2N-th... call, so the test does not rest
# on chance.
WRONG_GMP_RATE=1000 wrong_run mpz_mul gmpbench.base.multiply.512,512
WRONG_GMP_RATE=1000 wrong_run mpz_mul gmpbench.base.multiply.8192
WRONG_GMP_RATE=1000 WRONG_GMP_MODE=garbage wrong_run mpz_mul gmpbench.base.multiply.512
WRONG_GMP_RATE=1000 wrong_run mpz_gcd gmpbench.base.gcd.512,512
WRONG_GMP_RATE=100 wrong_run mpz_powm gmpbench.app.rsa.512
WRONG_GMP_RATE=100 WRONG_GMP_MODE=garbage wrong_run mpz_powm gmpbench.app.rsa.512
WRONG_GMP_MODE=skip wrong_run mpz_mul gmpbench.base.multiply.8192

# Wrong answers the checks cannot see are caught by the digest, which
# covers the work (the gcd's witness, the cofactors) and which the run
# compares with the reference (model/reference.c).  A GMP that draws other
# operands than GMPbench's: the gcd of gcd.131072's stays 1, and its digest
# was that of the gcd 1 alone.  An extended gcd whose cofactors satisfy
# G = S*A + T*B but are not the ones GMP documents.  A gcd of 1 where the
# gcd is not 1 stays a case for the check.
reference_run () {
  wrong_run "$@"
  check "... and says its digest differs from the reference" \
    grep -q "$2 computed a wrong result: its digest .* differs from the reference digest" err.txt
}
reference_run mpz_urandomb gmpbench.base.gcd.131072,131072
reference_run mpz_urandomb openssl.base.gcd.512,512
WRONG_GMP_MODE=plausible reference_run mpz_gcdext gmpbench.base.gcdext.512,512
WRONG_GMP_MODE=plausible WRONG_GMP_RATE=1000 wrong_run mpz_gcdext gmpbench.base.gcdext.128,128
WRONG_GMP_MODE=plausible wrong_run mpz_gcd gmpbench.base.gcd.512,512
# Key generation: the digest covers the stream's first key, and the check
# every key's CRT values (mpz_invert's second call makes q^-1 mod p).
WRONG_GMP_RATE=2 wrong_run mpz_invert ext.rsa.keygen.1024

# Broken low-level products inside GMP: RSA key setup searches for primes
# that a wrong mpn_sqr never lets it find, and a skipped mpz_mul leaves the
# modulus 0, below which a message is to be drawn.
bounded_run mpn_sqr gmpbench.app.rsa.512 mpz_probab_prime_p
WRONG_GMP_MODE=garbage bounded_run mpn_mul_n gmpbench.app.rsa.512 mpz_probab_prime_p
WRONG_GMP_MODE=skip bounded_run mpz_mul gmpbench.app.rsa.512 'the GMP arithmetic that made a bound'

# A library call that never returns: SIGTERM and SIGINT still end the run
# (client/interrupt.c), with 143 and 130, writing nothing.  The bound here
# is generous; bench/interrupt-latency.sh measures the real delay.
for sig in TERM INT; do
  rm -f w.json
  WRONG_GMP=mpz_mul WRONG_GMP_MODE=hang LD_PRELOAD=$lib \
    "$GMPBENCH" run -q --only gmpbench.app.rsa.512 -o w.json > out.txt 2> err.txt &
  pid=$!
  case $sig in TERM) signum=15 ;; INT) signum=2 ;; esac
  wait_catching $pid $signum
  sleep 1
  signal_status $pid $sig 100
  want=$([ $sig = TERM ] && echo 143 || echo 130)
  check "SIG$sig ends a run stuck inside a GMP call, with status $want" [ "$status" -eq "$want" ]
  check "and it writes nothing" sh -c "[ ! -e w.json ] && ! ls w.json.tmp.* 2>/dev/null"
done

# Interposition is recorded: the preloaded library, harmless with
# WRONG_GMP unset, holds __gmpz_mul and the other timed functions.
gmp_member () {
  json_get "$1" "d['system']['build']['gmp']['entry_points']$2"
}
rm -f w.json
LD_PRELOAD=$lib "$GMPBENCH" run -q --only gmpbench.base.gcd.512,512 --time-per-test 0.02 -o w.json > /dev/null 2>&1
check "with WRONG_GMP unset the preloaded library is harmless" [ $? -eq 0 ]
check "the document says the timed functions are interposed" \
  [ "$(gmp_member w.json "['interposed']")" = True ]
mul_in_lib="any(x.startswith('__gmpz_mul: ') and x.endswith('libwronggmp.so') for x in d['system']['build']['gmp']['entry_points']['foreign'])"
check "and names __gmpz_mul's file, the preloaded library" [ "$(json_get w.json "$mul_in_lib")" = True ]
rm -f p.json
"$GMPBENCH" run -q --only gmpbench.base.gcd.512,512 --time-per-test 0.02 -o p.json > /dev/null 2>&1
check "without a preload nothing is interposed" \
  [ "$(gmp_member p.json "['interposed']")" = False ]
check "and no timed function resolves outside libgmp" \
  [ "$(gmp_member p.json "['foreign']")" = "[]" ]
