# t0030-configure-sites.sh: what a deployment chooses at configure time.
# --with-default-server=URL bakes a results server into the client (there
# is none otherwise), and `gmpbench status` says it came from the build;
# a value that is not an http(s) URL stops configure.  --without-postgresql
# builds a SQLite-only gmpbench-server without libpq, which refuses a
# postgresql:// database with a message saying so, and the PostgreSQL
# tests skip.  (Built unoptimised, to be quick.)
. "$SRCDIR/tests/lib.sh"

(cd "$TEST_TMP" && mkdir bad && cd bad && "$SRCDIR/configure" --with-default-server=ftp://x \
   --disable-server > ../bad.out 2>&1)
check "configure --with-default-server=ftp://x fails, naming the value" \
  sh -c "[ $? -ne 0 ] && grep -q \"needs an http:// or https:// URL, not 'ftp://x'\" bad.out"
(cd "$TEST_TMP" && mkdir bad2 && cd bad2 && "$SRCDIR/configure" --with-default-server \
   --disable-server > ../bad2.out 2>&1)
check "configure --with-default-server without a URL fails" \
  sh -c "[ $? -ne 0 ] && grep -q 'needs an http:// or https:// URL' bad2.out"

server=yes
[ "$BUILD_SERVER" = yes ] || server=no
mkdir site
(cd site && "$SRCDIR/configure" --with-default-server=https://bench.example.org/ \
   --without-postgresql $([ $server = yes ] || echo --disable-server) > ../conf.out 2>&1)
check "configure --with-default-server=URL --without-postgresql succeeds" [ $? -eq 0 ]
check "its summary names the default server and no PostgreSQL" \
  sh -c "grep -q 'default server:  https://bench.example.org\$' conf.out \
    && { [ $server = no ] || grep -q 'PostgreSQL: no' conf.out; }"
targets=gmpbench
[ $server = no ] || targets="gmpbench gmpbench-server"
if ! make -C site -j2 CFLAGS=-O0 $targets > make.out 2>&1; then
  fail "the client and server do not build so:"
  tail -n 20 make.out
  exit 1
fi
pass "the client and server build"

run_status env -u GMPBENCH_SERVER site/gmpbench status
check "status names the build's default server and where it came from" \
  grep -q '^server  *https://bench.example.org (from the build.s default (./configure --with-default-server))' \
    out.txt
run_status env GMPBENCH_SERVER=http://127.0.0.1:9 site/gmpbench status
check "GMPBENCH_SERVER still beats the build's default" \
  grep -q '^server  *http://127.0.0.1:9 (from the environment variable' out.txt

if [ $server = yes ]; then
  check_fails "the SQLite-only server has no PostgreSQL driver compiled in" \
    sh -c "nm site/gmpbench-server | grep -q store_pg_driver"
  if command -v ldd > /dev/null; then
    check_fails "nor is it linked against libpq" sh -c "ldd site/gmpbench-server | grep -q libpq"
  fi
  run_status site/gmpbench-server --listen 127.0.0.1:9 --database postgresql://nobody@127.0.0.1/x
  check "it refuses a postgresql:// database, saying it was built without PostgreSQL" \
    sh -c "[ $status -ne 0 ] && grep -q 'built without PostgreSQL (./configure --without-postgresql)' err.txt"
  check "the PostgreSQL tests skip for such a build" \
    sh -c "HAVE_POSTGRESQL=no; . '$SRCDIR/tests/lib.sh'; . '$SRCDIR/tests/server-lib.sh'; ! start_pg"
else
  skip "the SQLite-only server (configured --disable-server)"
fi
