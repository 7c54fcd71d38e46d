#!/bin/sh
# t0440-pubkey.sh: libgcrypt's MPI tests against GMP's, RSA key generation
# in every library, and the public-key table, with tiny budgets.
#
# gcrypt.ext.X must give exactly the digest of GMP's ext.X (same operands,
# same result).  The other libraries' key generation draws from their own
# generators or follows their own algorithm, so their keygen digest covers
# only what every correct generator shares (size, e, a passed sign+verify
# round trip): it must be the same for each of them.  GMP's covers the key
# its fixed operand stream makes first, so it is its own.  Every digest is
# the same from one run to the next.  A quick run prints the public-key table and marks
# its rows in the JSON comparisons.

: "${BUILDDIR:?}"
gb="$BUILDDIR/gmpbench"

keygens="--only ext.rsa.keygen.1024 --only openssl.rsa.keygen.1024"
[ "${HAVE_GCRYPT:-no}" = yes ] && keygens="$keygens --only gcrypt.rsa.keygen.1024"
[ "${HAVE_NETTLE:-no}" = yes ] && keygens="$keygens --only nettle.rsa.keygen.1024"

# Whether two `list --digests` runs (digests1.txt, digests2.txt) agree,
# the other libraries' tests share one digest, and GMP's (ext.) differs.
same_digests () {  # WHAT
  gmp=$(awk '$2 ~ /^ext\./ { print $1 }' digests1.txt)
  others=$(awk '$2 !~ /^ext\./ { print $1 }' digests1.txt | sort -u)
  if ! cmp -s digests1.txt digests2.txt; then
    echo "FAIL: $1: the digests change from one run to the next"
  elif [ "$(echo "$others" | wc -l)" -ne 1 ] || [ -z "$gmp" ] || [ "$gmp" = "$others" ]; then
    echo "FAIL: $1: the other libraries' digests differ, or GMP's is theirs:"
    cat digests1.txt
  else
    echo "PASS: $1: $(($(wc -l < digests1.txt) - 1)) other libraries, one deterministic" \
      "digest; GMP's, over its key, another"
  fi
}

# shellcheck disable=SC2086
if "$gb" list --digests $keygens > digests1.txt 2> keygen.err \
   && "$gb" list --digests $keygens > digests2.txt 2>> keygen.err; then
  same_digests "RSA key generation at 1024 bits, each key checked by sign+verify"
else
  echo "FAIL: gmpbench list --digests of the key generation tests failed:"
  cat keygen.err
fi

if [ "${HAVE_GCRYPT:-no}" = yes ]; then
  set --
  for op in mulm powm; do
    for bits in 512 1024 2048 4096 8192; do
      set -- "$@" --only "gcrypt.ext.$op.$bits" --only "ext.$op.$bits"
    done
  done
  if "$gb" list --digests "$@" > mpi.txt 2> mpi.err; then
    bad=$(awk '{ d[$2] = $1 }
               END { n = 0
                     for (t in d) if (t ~ /^gcrypt\./) {
                       n++; g = t; sub (/^gcrypt\./, "", g)
                       if (!(g in d) || d[g] != d[t]) print t }
                     if (n != 10) print "(only " n " gcrypt.ext tests)" }' mpi.txt)
    if [ -z "$bad" ]; then
      echo "PASS: gcry_mpi_mulm and gcry_mpi_powm give the digests of GMP's ext.mulm and ext.powm"
    else
      echo "FAIL: libgcrypt's digests differ from GMP's for: $bad"
    fi
  else
    echo "FAIL: gmpbench list --digests of gcrypt.ext failed:"
    cat mpi.err
  fi
else
  echo "SKIP: gcrypt.ext tests (configure did not find libgcrypt)"
fi

# shellcheck disable=SC2086
if "$gb" run $keygens --only ext.rsa.sign-sec.1024 --only openssl.rsa.sign.1024 \
     --only ext.rsa.verify.1024 --only openssl.rsa.verify.1024 \
     --quick --time-per-test 0.02 -o pk.json > pk.txt 2> pk.err; then
  if grep -q "^Public-key operations" pk.txt \
     && grep -q "^  RSA 1024 bit     GMP " pk.txt && grep -q "^  *OpenSSL  " pk.txt; then
    echo "PASS: the text output has the public-key table, GMP and OpenSSL at 1024 bits"
  else
    echo "FAIL: no public-key table in the text output:"
    cat pk.txt
  fi
  if grep -q '"pubkey":[[:space:]]*"generate"' pk.json \
     && grep -q '"pubkey":[[:space:]]*"private"' pk.json \
     && grep -q '"pubkey":[[:space:]]*"public"' pk.json; then
    echo "PASS: the JSON comparisons mark the generate, private and public rows"
  else
    echo "FAIL: the JSON comparisons lack the public-key columns"
  fi
else
  echo "FAIL: gmpbench run of the public-key tests failed:"
  cat pk.err
fi
