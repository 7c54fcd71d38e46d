# server-lib.sh: what the server benchmarks share, sourced by
# server-load.sh and leaderboard-load.sh after they set src, build, server,
# tmp and pid: it builds the load generator (bench/server-load.c) into
# $tmp/server-load and defines start DB and stop for a server under test.

libs=$(sed -n 's/^\(MHD\|SQLITE\|PQ\|GMP\|CRYPTO\|CURL\|CJSON\|GCRYPT\|NETTLE\)_LIBS = //p' "$build/Makefile" | tr '\n' ' ')
${CC:-cc} -std=gnu11 -O2 -I"$build" -I"$src" "$src/bench/server-load.c" \
  "$build/libgbserver.a" "$build/libgbmodel.a" $libs -lm -lpthread \
  -o "$tmp/server-load" || exit 1

# start DB: a server on a free loopback port, limits off, $SERVER_THREADS
# worker threads (4); sets pid, addr.
start () {
  for try in 1 2 3 4 5; do
    port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
    "$server" --listen 127.0.0.1:$port --database "$1" --threads ${SERVER_THREADS:-4} \
      --address-rate 0 --key-rate 0 --per-ip-connections 0 2> "$tmp/server.log" &
    pid=$!
    for wait in 1 2 3 4 5 6 7 8 9 10; do
      curl -sf "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && { addr=127.0.0.1:$port; return 0; }
      sleep 0.2
    done
    kill $pid 2> /dev/null
    wait $pid 2> /dev/null
  done
  echo "the server did not start" >&2
  exit 1
}

stop () {
  kill $pid
  wait $pid
  pid=
}
