# t0020-configure-options.sh: configure's --with-gmp=DIR takes GMP from DIR
# (people benchmark their own GMP builds), refuses a DIR without GMP naming
# it, and --disable-server configures the client alone.
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
