# t0020-configure-options.sh: configure's --with-gmp=DIR takes GMP from DIR
# (people benchmark their own GMP builds), refuses a DIR without GMP naming
# it, --disable-server configures the client alone, and --without-gcrypt
# --without-nettle builds a client without them (unoptimised, to be quick).
. "$SRCDIR/tests/lib.sh"

header=$(echo '#include <gmp.h>' | ${CC:-cc} -E -M - 2>/dev/null | tr ' ' '\n' | grep '/gmp\.h$' | head -n 1)
library=$(${CC:-cc} -print-file-name=libgmp.so)
if [ ! -f "$header" ] || [ ! -f "$library" ]; then
  skip "configure --with-gmp (cannot find the system's gmp.h and libgmp.so to stage)"
  exit 0
fi
mkdir -p gmp/include gmp/lib build
ln -s "$header" gmp/include/gmp.h
ln -s "$library" gmp/lib/libgmp.so

(cd build && "$SRCDIR/configure" --with-gmp="$TEST_TMP/gmp" --disable-server > ../conf.out 2>&1)
check "configure --with-gmp=DIR succeeds with GMP staged in DIR" [ $? -eq 0 ]
check "the Makefile links GMP from DIR with a run path" \
  grep -q "^GMP_LIBS = -L$TEST_TMP/gmp/lib -Wl,-rpath,$TEST_TMP/gmp/lib -lgmp" build/Makefile
check "the Makefile takes gmp.h from DIR" grep -q "^GMP_CFLAGS = -I$TEST_TMP/gmp/include" build/Makefile
check "--disable-server leaves the server out" grep -q '^BUILD_SERVER = no' build/Makefile

mkdir empty
(cd build && "$SRCDIR/configure" --with-gmp="$TEST_TMP/empty" > ../conf2.out 2>&1)
check "configure --with-gmp=DIR without GMP fails" [ $? -ne 0 ]
check "and names the directory it looked in" grep -q "no usable GMP in $TEST_TMP/empty" conf2.out

mkdir nolibs
(cd nolibs && "$SRCDIR/configure" --without-gcrypt --without-nettle --disable-server \
   > ../conf3.out 2>&1)
check "configure --without-gcrypt --without-nettle succeeds" [ $? -eq 0 ]
check "its summary says libgcrypt: no, Nettle: no" grep -q "libgcrypt: no, Nettle: no" conf3.out
if make -C nolibs -j2 CFLAGS=-O0 gmpbench > make3.out 2>&1; then
  pass "the client builds without libgcrypt and Nettle"
  check_fails "and lists no gcrypt or nettle test" \
    sh -c '"$1" list --only gcrypt || "$1" list --only nettle' sh nolibs/gmpbench 2> /dev/null
else
  fail "the client does not build without libgcrypt and Nettle:"
  tail -n 20 make3.out
fi
