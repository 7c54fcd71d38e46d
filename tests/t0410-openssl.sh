#!/bin/sh
# t0410-openssl.sh: the OpenSSL comparison tests with tiny budgets.
#
# Every openssl.* test of a quick run must pass its check (each result is
# compared with GMP's, each RSA signature verified with GMP), and each
# BIGNUM test must produce exactly the digest of the GMP test it mirrors,
# which proves both saw the same operands and computed the same result.

: "${BUILDDIR:?}"
gb="$BUILDDIR/gmpbench"

if "$gb" run --suite openssl --quick --time-per-test 0.02 -q -o out.json > run.log 2>&1; then
  n=$(grep -c '"name":[[:space:]]*"openssl\.' out.json)
  if [ "$n" -ge 40 ]; then
    echo "PASS: gmpbench run --suite openssl --quick: $n tests measured and checked"
  else
    echo "FAIL: gmpbench run --suite openssl gave only $n openssl results"
  fi
else
  echo "FAIL: gmpbench run --suite openssl failed:"
  cat run.log
fi

# The GMP counterpart of each deterministic test, and both digests.
names=$("$gb" list --format json --only openssl.base --only openssl.ext --only openssl.dh \
          --only openssl.dsa.verify.1024 --only openssl.dsa.verify.2048 \
        | sed -n 's/.*"name":[[:space:]]*"\(openssl\.[^"]*\)".*/\1/p')
set --
for n in $names; do
  case $n in
    openssl.base.*) g=gmpbench.${n#openssl.} ;;
    openssl.ext.*) g=${n#openssl.} ;;
    *) g=ext.${n#openssl.} ;;
  esac
  set -- "$@" --only "$n" --only "$g"
done
if "$gb" list --digests "$@" > digests.txt 2> digests.err; then
  bad=$(awk '{ d[$2] = $1 }
             END { for (n in d) if (n ~ /^openssl\./) {
                     g = n; sub (/^openssl\./, "", g)
                     if (g ~ /^base\./) g = "gmpbench." g; else if (g !~ /^ext\./) g = "ext." g
                     if (!(g in d) || d[g] != d[n]) print n } }' digests.txt)
  if [ -z "$bad" ]; then
    echo "PASS: $(echo "$names" | wc -w) OpenSSL tests give the digests of their GMP counterparts"
  else
    echo "FAIL: digests differ from GMP's for: $bad"
  fi
else
  echo "FAIL: gmpbench list --digests failed:"
  cat digests.err
fi

# The comparison pairs: every OpenSSL RSA size has its GMP counterparts.
missing=
for what in sign verify; do
  for bits in 512 1024 2048 3072 4096 7680 15360; do
    if ! "$gb" list --only "openssl.rsa.$what.$bits" > /dev/null 2>&1; then
      missing="$missing openssl.rsa.$what.$bits"
    fi
  done
done
for t in gmpbench.app.rsa.2048 ext.rsa.sign-sec.2048 ext.rsa.verify.7680 \
         ext.rsa.sign.15360 ext.rsa.sign-sec.15360 ext.rsa.verify.15360; do
  "$gb" list --only "$t" > /dev/null 2>&1 || missing="$missing $t"
done
if [ -z "$missing" ]; then
  echo "PASS: RSA sign and verify exist at 512..15360 bits for OpenSSL and GMP"
else
  echo "FAIL: missing RSA tests:$missing"
fi

# The full-run-only comparison tests, each run once and checked (`list
# --digests`: one operation, the whole check): RSA at 7680 bits, DSA at
# 3072, key generation at 3072 and 4096.  RSA at 15360 bits is the same
# code at another size and would take over a minute here (libgcrypt's
# alone 70 s); full runs check it.
full="--only openssl.rsa.*.7680 --only openssl.dsa.*.3072 --only openssl.rsa.keygen.3072
      --only openssl.rsa.keygen.4096"
for lib in gcrypt nettle; do
  case $lib in gcrypt) have=${HAVE_GCRYPT:-no} ;; *) have=${HAVE_NETTLE:-no} ;; esac
  [ "$have" = yes ] && full="$full --only $lib.rsa.*.7680 --only $lib.rsa.keygen.3072
                              --only $lib.rsa.keygen.4096"
done
# shellcheck disable=SC2086
want=$("$gb" list --format json $full | grep -c '"name":')
# shellcheck disable=SC2086
if "$gb" list --digests $full > full.txt 2> full.err; then
  n=$(grep -c '^[0-9a-f]\{64\}  ' full.txt)
  if [ "$n" -eq "$want" ] && [ "$n" -ge 6 ]; then
    echo "PASS: $n full-run-only comparison tests (RSA 7680, DSA 3072, keygen 3072/4096) pass their checks"
  else
    echo "FAIL: $n digests for $want full-run-only tests:"
    cat full.txt
  fi
else
  echo "FAIL: a full-run-only comparison test failed its check:"
  cat full.err
fi
