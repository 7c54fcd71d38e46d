# server-lib.sh: what the server benchmarks share, sourced by
# server-load.sh, server-reads.sh and leaderboard-load.sh after they set
# src, build, server, tmp and pid: it builds the load generator (bench/server-load.c) into
# $tmp/server-load and the database filler (bench/server-fill.c) into
# $tmp/server-fill, and defines start DB and stop for a server under test.

# Every library the build found (NAME_LIBS = ... in its Makefile).
libs=$(sed -n 's/^[A-Z]*_LIBS = \([^$]*\)$/\1/p' "$build/Makefile" | tr '\n' ' ')
for prog in server-load server-fill; do
  ${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -I"$build" -I"$src" "$src/bench/$prog.c" \
    "$src/bench/bench-doc.c" "$build/libgbserver.a" "$build/libgbmodel.a" $libs -lm -lpthread \
    -o "$tmp/$prog" || exit 1
done

# start DB [LOG]: a server on a free loopback port, limits off,
# $SERVER_THREADS worker threads (4), logging to $tmp/LOG (server.log);
# sets pid and addr, and adds pid to pids (several may run).
start () {
  # Every upload comes from 127.0.0.1, one source: its limit off too, for
  # a build that has one.
  source_rate=
  "$server" --help | grep -q -e --source-rate && source_rate='--source-rate 0'
  for try in 1 2 3 4 5; do
    port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
    # shellcheck disable=SC2086
    "$server" --listen 127.0.0.1:$port --database "$1" --threads ${SERVER_THREADS:-4} \
      --address-rate 0 --key-rate 0 --per-ip-connections 0 $source_rate \
      2> "$tmp/${2:-server.log}" &
    pid=$!
    for wait in 1 2 3 4 5 6 7 8 9 10; do
      curl -sf "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && {
        addr=127.0.0.1:$port
        pids="$pids $pid"
        return 0
      }
      sleep 0.2
    done
    kill $pid 2> /dev/null
    wait $pid 2> /dev/null
  done
  echo "the server did not start" >&2
  exit 1
}

# stop: stops every server started.
stop () {
  kill $pids
  wait $pids
  pid= pids=
}
