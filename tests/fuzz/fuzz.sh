#!/bin/sh
# fuzz.sh: build tests/fuzz/fuzz-validate.c with clang's libFuzzer,
# AddressSanitizer and UBSan in a build directory of its own, and run it
# for a bounded time on the committed seed corpus (for CI).
#
# usage: tests/fuzz/fuzz.sh [SECONDS [BUILDDIR]]
#   defaults: 60 seconds, ./fuzz-build; exits non-zero on any finding
#   (the crashing input is left in BUILDDIR as crash-*).

secs=${1:-60}
dir=${2:-fuzz-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v clang > /dev/null || { echo "fuzz.sh: clang is not installed" >&2; exit 1; }
mkdir -p "$dir/corpus" && cd "$dir" || exit 1
if [ ! -f Makefile ]; then
  "$src/configure" CC=clang CFLAGS='-g -O1 -fsanitize=fuzzer-no-link,address,undefined' \
    --without-gcrypt --without-nettle > configure.log || { cat configure.log; exit 1; }
fi
make libgbmodel.a libgbserver.a > make.log 2>&1 || { tail -20 make.log; exit 1; }
clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I"$src" "$src/tests/fuzz/fuzz-validate.c" \
  libgbserver.a libgbmodel.a -lgmp -lcrypto -lcjson -lm -lpthread -o fuzz-validate || exit 1
./fuzz-validate -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
  corpus "$src/tests/fuzz/corpus"
