#!/bin/sh
# server-instructions.sh: the instructions the server executes per read
# and per upload, for two or more server builds side by side; counts, not
# times, so that builds can be compared on a machine other work shares.
#
# Each SERVER (a gmpbench-server binary) is started in turn under
# `valgrind --tool=callgrind` on 127.0.0.1, with instrumentation off
# until what is measured (--instr-atstart=no), limits off and
# --aggregate-ttl 86400 (no background recomputation while counting).
#
# Reads (-k DB): DB is copied afresh for each SERVER, and the copy first
# served natively until the backfills of the migrations the build applies
# are done (the table backfill holds no row but the repack's), so that no
# backfill runs while counting.  Under callgrind, once the leaderboard's
# first snapshot is ready, each URL of bench/server-reads.sh's read list
# (the home page, the page of the CPU with the most results,
# /api/v1/results with os=Ubuntu sorted by a node and by a test,
# /api/v1/cpus and /api/v1/cpus?limit=500) is asked for once (its caches
# ready, /api/v1/cpus computed), the counting is switched on, and each URL
# is asked for 1 time and then 1 + N times over one keep-alive connection
# (curl): the difference over N is its instructions per request, the
# connection's own cost and any idle wake-ups left out.
#
# Uploads (-U): a fresh SQLite database for each SERVER, W signed copies
# of FIXTURE uploaded first with counting off (bench/server-load.c
# upload, 8 connections), the first dictionary awaited (trained at 64
# results) and the repack's position set past every result (else it
# rewrites the frames whenever no upload came for 2 s: background work
# the uploads' count would take in by chance); then 8 uploads and 8 + N
# uploads are counted: the difference over N is the instructions per
# upload.  Then the same on a native server (a fresh database, W uploads
# first): the server's CPU time (utime + stime from /proc/PID/stat, clock
# ticks) over C uploads, per upload; that is a count of the work done,
# whatever the machine's load, not a timing.
#
# Prints, for each URL (or the upload), the instructions per request of
# each SERVER and their ratio to the first SERVER's, the idle
# instructions a second of each server while counting, and, for each URL
# whose count differs from the first SERVER's by more than 2%, the
# functions (callgrind_annotate, self cost) whose count per request
# differs most, with each SERVER's.  Asserts nothing.  Under valgrind a
# server starts some 40 times slower: with 10,000 whole runs, about a
# minute for the snapshot and /api/v1/cpus.
#
# usage: bench/server-instructions.sh -k DB [-n N] [-t TOP] SERVER...
#        bench/server-instructions.sh -U [-f FIXTURE] [-b BUILDDIR] [-n N] [-w W] [-c C] [-t TOP] SERVER...
#   defaults: -n 20 reads, 200 uploads; -t 15 functions; -w 100;
#   -c 800 uploads for the CPU time (with -w, under 1024: the second
#   dictionary); -f tests/fixtures/server-result.json
#   (a one-test run, 8 KB); the load generator is built against -b
#   BUILDDIR's libraries (.).

. "$(dirname "$0")/lib.sh"
db= uploads= n= top=15 warm=100 cpu_n=800 build=. fixture=
options 'k:db U=uploads n:n t:top w:warm c:cpu_n b:build f:fixture' "$@"
shift $((OPTIND - 1))
[ $# -gt 0 ] && { [ -n "$uploads" ] || [ -f "$db" ]; } || usage
command -v valgrind > /dev/null && command -v callgrind_control > /dev/null \
  || { echo "valgrind is not installed (scripts/install-deps --test)" >&2; exit 1; }
fixture=${fixture:-$src/tests/fixtures/server-result.json}
[ -n "$uploads" ] && n=${n:-200} || n=${n:-20}
tmp=$(mktemp -d) || exit 1
pid=
set -f                          # the URLs hold "?"
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

if [ -n "$uploads" ]; then
  build=$(cd "$build" && pwd)
  . "$src/bench/server-lib.sh"
fi

# launch SERVER DB [PREFIX...]: SERVER on DB on a free loopback port,
# limits off, under PREFIX (e.g. valgrind); sets pid and addr once it
# answers /healthz (10 minutes at most).
launch () {
  server=$1 database=$2
  shift 2
  extra= dumps=0
  rm -rf "$tmp/cg" && mkdir "$tmp/cg" || exit 1
  "$server" --help | grep -q -e --source-rate && extra='--source-rate 0'
  port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 20000))
  addr=127.0.0.1:$port
  # shellcheck disable=SC2086
  "$@" "$server" --listen $addr --database "$database" --threads 4 --address-rate 0 \
    --key-rate 0 --per-ip-connections 0 --aggregate-ttl 86400 $extra 2>> "$tmp/server.log" &
  pid=$!
  for wait in $(seq 3000); do
    curl -sf "http://$addr/healthz" > /dev/null 2>&1 && return 0
    kill -0 $pid 2> /dev/null || break
    sleep 0.2
  done
  echo "$server did not start (log: $(tail -3 "$tmp/server.log"))" >&2
  exit 1
}

halt () {
  kill $pid
  wait $pid 2> /dev/null
  pid=
}

# settle SERVER DB: SERVER natively on DB until the migrations' backfills
# (but the repack, which the fills leave done) are over.
settle () {
  launch "$1" "$2"
  while [ "$(sqlite3 "$2" "SELECT count(*) FROM backfill WHERE name <> 'repack'" 2> /dev/null || echo 0)" != 0 ]; do
    sleep 1
  done
  halt
}

# count LABEL COMMAND...: runs COMMAND with the counters zeroed, then
# dumps them; sets dump to the file.  LABEL must not begin with a digit
# (callgrind_control would take it for a process id).
count () {
  label=$1
  shift
  callgrind_control -z $pid > /dev/null 2>&1
  "$@" > /dev/null || { echo "$label: failed" >&2; exit 1; }
  callgrind_control -d "$label" $pid > /dev/null 2>&1
  dumps=$((dumps + 1))
  dump=$tmp/cg/out.$dumps
  [ -f "$dump" ] || { echo "$label: callgrind wrote no $dump" >&2; exit 1; }
}

# total FILE: the instructions a dump counted.
total () {
  sed -n 's/^summary: //p' "$1"
}

# functions FILE: "instructions<TAB>function (object)" for every function
# of a dump, by self cost.
functions () {
  callgrind_annotate --inclusive=no --auto=no --threshold=100 "$1" 2> /dev/null \
    | awk '/^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
        ir = $1; gsub(/,/, "", ir)
        sub(/^ *[0-9,]+ \( *[0-9.]+%\) +/, "")
        gsub(/ \([0-9,]+x\)/, "")     # call counts, when annotate prints them
        obj = $NF; gsub(/^\[|\]$/, "", obj); sub(/.*\//, "", obj)
        fn = $0; sub(/ \[[^]]*\]$/, "", fn); sub(/^[^:]*:/, "", fn)
        sum[fn " (" obj ")"] += ir
      }
      END { for (f in sum) printf "%s\t%s\n", sum[f], f }'
}

# per_request A B N OUT: the instructions per request of dump B's N
# requests beyond dump A's, in total (printed) and by function (OUT).
per_request () {
  echo "$(( ($(total "$2") - $(total "$1")) / $3 ))"
  functions "$1" > "$tmp/a.fn"
  functions "$2" > "$tmp/b.fn"
  awk -F '\t' -v n="$3" 'FNR == NR { a[$2] = $1; next } { b[$2] = $1 }
    END { for (f in b) printf "%.0f\t%s\n", (b[f] - a[f]) / n, f
          for (f in a) if (!(f in b)) printf "%.0f\t%s\n", -a[f] / n, f }' \
    "$tmp/a.fn" "$tmp/b.fn" > "$4"
}

# idle: the instructions of a second with nothing asked, printed.
idle () {
  count idle sleep 1
  total "$dump"
}

# gets K URL: K requests of URL over one connection.
gets () {
  k=$1 url=$2
  set --
  for i in $(seq "$k"); do set -- "$@" "http://$addr$url"; done
  curl -sf "$@"
}

reads () {
  s=$1 server=$2
  cp "$db" "$tmp/db" && rm -f "$tmp/db-wal" "$tmp/db-shm" || exit 1
  settle "$server" "$tmp/db"
  launch "$server" "$tmp/db" valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$tmp/cg/out"
  while [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/")" = 503 ]; do sleep 0.5; done
  u=0
  for url in $urls; do gets 1 "$url" > /dev/null; done
  callgrind_control -i on $pid > /dev/null 2>&1
  idle > "$tmp/idle.$s"
  for url in $urls; do
    u=$((u + 1))
    count "one $url" gets 1 "$url"
    one=$dump
    count "more $url" gets $((n + 1)) "$url"
    per_request "$one" "$dump" "$n" "$tmp/fn.$s.$u" > "$tmp/ir.$s.$u"
  done
  halt
  rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
}

# post K C: K uploads of FIXTURE over C connections; fails unless every
# one got 201.
post () {
  "$tmp/server-load" upload "$addr" "$fixture" "$1" "$2" | grep -q "requests, $1 answered 201, "
}

# still: once the first dictionary is trained (at 64 results), the
# repack's position set past any result, and then the server idle (its
# CPU time grown by at most 2 ticks in a second: a repack batch begun
# before is done), so that the store's background work (training, and
# the repack of frames at its level once no upload came for 2 s) stays
# out of the counts; 10 minutes at most for each.
still () {
  for wait in $(seq 1200); do
    [ "$(sqlite3 "$tmp/db" 'SELECT count(*) FROM dicts' 2> /dev/null || echo 1)" != 0 ] && break
    sleep 0.5
  done
  sqlite3 "$tmp/db" "UPDATE backfill SET next = 1000000000000 WHERE name = 'repack'" \
    2> /dev/null || true
  for wait in $(seq 600); do
    ticks=$(cpu_ticks)
    sleep 1
    [ $(($(cpu_ticks) - ticks)) -le 2 ] && break
  done
}

# cpu_ticks: the server's utime + stime so far, in clock ticks.
cpu_ticks () {
  awk '{ print $14 + $15 }' "/proc/$pid/stat"
}

upload_counts () {
  s=$1 server=$2
  rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
  launch "$server" "$tmp/db" valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$tmp/cg/out"
  post "$warm" 8 || { echo "$server: the warm-up uploads failed" >&2; exit 1; }
  still
  callgrind_control -i on $pid > /dev/null 2>&1
  idle > "$tmp/idle.$s"
  count "uploads: 8" post 8 8
  one=$dump
  count "uploads: 8 + $n" post $((n + 8)) 8
  per_request "$one" "$dump" "$n" "$tmp/fn.$s.1" > "$tmp/ir.$s.1"
  halt
  rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
  launch "$server" "$tmp/db"
  post "$warm" 8 || exit 1
  still
  before=$(cpu_ticks)
  post "$cpu_n" 8 || exit 1
  after=$(cpu_ticks)
  echo "$(( (after - before) * 1000000 / $(getconf CLK_TCK) / cpu_n ))" > "$tmp/cpu.$s"
  halt
  rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
}

# label SERVER: the commit of the work tree SERVER was built in, or its
# directory's name.
label () {
  git -C "$(dirname "$1")" rev-parse --short HEAD 2> /dev/null || basename "$(dirname "$1")"
}

s=0
for server in "$@"; do
  [ -x "$server" ] || { echo "$server: not executable" >&2; exit 1; }
  s=$((s + 1))
  if [ -n "$uploads" ]; then
    urls=upload
    upload_counts $s "$server"
  else
    cpu=$(sqlite3 "$db" 'SELECT cpu FROM results GROUP BY cpu ORDER BY count(*) DESC LIMIT 1')
    q=/api/v1/results
    urls="/ /cpu?cpu=$cpu $q?os=Ubuntu&sort=gmpbench.base.multiply&limit=50
      $q?os=Ubuntu&sort=gmpbench.base.multiply.8192&limit=50 /api/v1/cpus /api/v1/cpus?limit=500"
    reads $s "$server"
  fi
done

# The table: a row per URL, a column per server.
servers=$s
what=request
[ -n "$uploads" ] && what=upload
printf '%s\n' "instructions per $what (N = $n), ratio to the first server:"
printf '%-60s' ""
for server in "$@"; do printf ' %22s' "$(label "$server")"; done
echo
u=0
for url in $urls; do
  [ -n "$uploads" ] && url="POST /api/v1/results ($(basename "$fixture"))"
  u=$((u + 1))
  printf '%-60s' "$url"
  first=$(cat "$tmp/ir.1.$u")
  differs=
  for s in $(seq "$servers"); do
    ir=$(cat "$tmp/ir.$s.$u")
    printf ' %13s (%5.3f)' "$ir" "$(echo "$ir / $first" | bc -l)"
    [ "$(echo "$ir > $first * 1.02 || $ir < $first * 0.98" | bc)" = 1 ] && differs=yes
  done
  echo
  [ -n "$differs" ] && echo "$u $url" >> "$tmp/differ"
done
printf '%-60s' "idle instructions a second while counting"
for s in $(seq "$servers"); do printf ' %22s' "$(cat "$tmp/idle.$s")"; done
echo
if [ -n "$uploads" ]; then
  printf '%-60s' "server CPU time per upload, native (us, N = $cpu_n)"
  for s in $(seq "$servers"); do printf ' %22s' "$(cat "$tmp/cpu.$s")"; done
  echo
fi

# The breakdown: for each URL that differs, the functions whose count
# per request differs most from the first server's.
[ -f "$tmp/differ" ] || exit 0
while read -r u url; do
  echo
  echo "$url: instructions per $what by function (self), the $top that differ most"
  for s in $(seq "$servers"); do
    sed "s/^/$s\t/" "$tmp/fn.$s.$u"
  done | awk -F '\t' -v servers="$servers" -v top="$top" '
    { ir[$3, $1] = $2; name[$3] = 1 }
    END {
      for (f in name) {
        d = 0
        for (s = 2; s <= servers; s++) {
          x = ir[f, s] - ir[f, 1]; if (x < 0) x = -x; if (x > d) d = x
        }
        line = ""
        for (s = 1; s <= servers; s++) line = line sprintf(" %12.0f", ir[f, s])
        printf "%d\t%s  %s\n", d, line, f
      }
    }' | sort -rn | head -n "$top" | cut -f2-
done < "$tmp/differ"
