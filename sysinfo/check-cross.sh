#!/bin/sh
# check-cross.sh: the sysinfo part of `make check-cross`.  For each Debian
# cross target whose compiler, qemu-user and multiarch GMP/OpenSSL/cJSON
# are installed, it configures and builds gmpbench out of tree under
# BUILDROOT/TRIPLET, runs the sysinfo unit tests under qemu (invoked
# explicitly: binfmt is not assumed), and on aarch64 checks what
# `gmpbench sysinfo` reports under several -cpu models: the MIDR decoded to
# the right core, SVE present exactly where the model has it, and the run
# flagged as emulated with an invalid clock.  One PASS/FAIL/SKIP line per
# check, like tests/run-tests.sh expects.
#
#   sh sysinfo/check-cross.sh SRCDIR BUILDROOT
#
# Packages (Debian): qemu-user, gcc-TRIPLET, and after
# `dpkg --add-architecture ARCH`: libgmp-dev:ARCH libssl-dev:ARCH
# libcjson-dev:ARCH libcurl4-openssl-dev:ARCH.

SRCDIR=${1:?usage: check-cross.sh SRCDIR BUILDROOT}
BUILDROOT=${2:?usage: check-cross.sh SRCDIR BUILDROOT}
export SRCDIR

# TRIPLET QEMU-NAME pairs.
TARGETS="aarch64-linux-gnu:aarch64 riscv64-linux-gnu:riscv64 \
powerpc64le-linux-gnu:ppc64le s390x-linux-gnu:s390x"

# build TRIPLET: configures and builds into $BUILDROOT/TRIPLET.
build () {
  dir="$BUILDROOT/$1"
  mkdir -p "$dir" && cd "$dir" || return 1
  PKG_CONFIG_LIBDIR="/usr/lib/$1/pkgconfig:/usr/share/pkgconfig" \
    "$SRCDIR/configure" --host="$1" --disable-server PKG_CONFIG=pkg-config \
    > configure.log 2>&1 &&
    make gmpbench tests/unit-sysinfo tests/unit-sysinfo-sysctl > make.log 2>&1
}

# expect_cpu MODEL IDENTITY SVE: gmpbench sysinfo under qemu -cpu MODEL.
expect_cpu () {
  qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu "$1" ./gmpbench sysinfo --format json \
    > "sysinfo-$1.json" 2> "sysinfo-$1.err"
  if python3 - "sysinfo-$1.json" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cpu"]
ok = (c["identity"] == sys.argv[2] and c["features"]["sve"] == (sys.argv[3] == "yes")
      and c["emulated"] is True and d["clock"]["measured"]["valid"] is False)
sys.exit(0 if ok else 1)
PY
  then echo "PASS: aarch64 -cpu $1: identity $2, SVE $3, flagged emulated"
  else echo "FAIL: aarch64 -cpu $1: expected identity $2, SVE $3, emulated (see $PWD/sysinfo-$1.json)"
  fi
}

for t in $TARGETS; do
  triplet=${t%%:*} qarch=${t##*:}
  if ! command -v "$triplet-gcc" > /dev/null || ! command -v "qemu-$qarch" > /dev/null; then
    echo "SKIP: $triplet (no $triplet-gcc or qemu-$qarch)"
    continue
  fi
  if ! build "$triplet"; then
    echo "SKIP: $triplet (configure or build failed, multiarch libraries missing? see $BUILDROOT/$triplet)"
    continue
  fi
  for prog in unit-sysinfo unit-sysinfo-sysctl; do
    "qemu-$qarch" -L "/usr/$triplet" "./tests/$prog" > "$prog.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q '^FAIL' "$prog.log"; then
      echo "PASS: $triplet: $prog under qemu-$qarch ($(grep -c '^PASS' "$prog.log") checks)"
    else
      echo "FAIL: $triplet: $prog under qemu-$qarch (see $PWD/$prog.log)"
    fi
  done
  if [ "$qarch" = aarch64 ]; then
    expect_cpu neoverse-n1 arm:0x41:0xd0c:r4p1 no
    expect_cpu a64fx arm:0x46:0x001:r1p0 yes
    expect_cpu cortex-a53 arm:0x41:0xd03:r0p4 no
    expect_cpu cortex-a72 arm:0x41:0xd08:r0p3 no
  fi
done
