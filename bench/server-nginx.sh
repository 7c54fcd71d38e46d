#!/bin/sh
# server-nginx.sh: the home page through nginx, with the cache of
# contrib/nginx/gmpbench.conf, against the server alone, while whole runs
# are uploaded U times a second (docs/server.md, "Deploying").
#
# One server runs on DB (a database bench/server-load.sh -w filled) and
# one nginx in front of it, with contrib's site as shipped but for its
# ports and paths, and a plain-HTTP listener added beside its TLS one
# (the load generator, bench/server-load.c, speaks plain HTTP: what is
# measured is nginx's proxying and cache, not TLS).  In each of N rounds,
# alternating, the server alone and then nginx are each measured for S
# seconds: uploads of the busiest CPU at U a second (paced, one
# connection, through what is measured), and meanwhile R requests for
# the home page over C connections (bench/server-load.c list): requests
# per second, p50 and p99.  The cache status nginx gives the home page
# (X-Cache-Status: HIT only when the server marks the page cacheable) is
# printed first.  DB grows by 2 x N x U x S results.
#
# usage: bench/server-nginx.sh -k DB -f FIXTURE [-b BUILDDIR] [-n N] [-r R] [-c C] [-U U] [-S S]
#   defaults: -b . -n 3 -r 2000 -c 4 -U 2 -S 30

. "$(dirname "$0")/lib.sh"
build=. db= fixture= rounds=3 requests=2000 c=4 up=2 seconds=30
options 'b:build k:db f:fixture n:rounds r:requests c:c U:up S:seconds' "$@"
shift $((OPTIND - 1))
[ -n "$db" ] && [ -f "$db" ] && [ -f "$fixture" ] && [ $# -eq 0 ] || usage
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "nginx is not installed" >&2; exit 1; }
build=$(cd "$build" && pwd)
server=$(built_server "$build") || exit 1
tmp=$(mktemp -d) || exit 1
pids=
trap '[ -n "$pids" ] && kill $pids 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

. "$src/bench/server-lib.sh"

free_port () {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# nginx_start: nginx in front of the server at $addr; sets front and
# adds its pid to pids.
nginx_start () {
  tls=$(free_port) plain=$(free_port) redirect=$(free_port)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
    -subj /CN=127.0.0.1 -keyout "$tmp/srv.key" -out "$tmp/srv.pem" > /dev/null 2>&1
  mkdir -p "$tmp/ng/cache" "$tmp/ng/tmp"
  sed -e "s|listen 443 ssl http2;|listen 127.0.0.1:$tls ssl http2; listen 127.0.0.1:$plain;|" \
      -e "s|listen 80;|listen 127.0.0.1:$redirect;|" -e '/^ *listen \[::\]:/d' \
      -e "s|server 127.0.0.1:8080;|server $addr;|" \
      -e "s|/etc/letsencrypt/live/results.gmpbench.example/fullchain.pem|$tmp/srv.pem|" \
      -e "s|/etc/letsencrypt/live/results.gmpbench.example/privkey.pem|$tmp/srv.key|" \
      -e "s|/var/cache/nginx/gmpbench|$tmp/ng/cache|" \
      "$src/contrib/nginx/gmpbench.conf" > "$tmp/ng/site.conf"
  user=
  [ "$(id -u)" = 0 ] && user="user root;"
  cat > "$tmp/ng/nginx.conf" <<EOC
$user
daemon off;
worker_processes auto;
pid $tmp/ng/nginx.pid;
error_log $tmp/ng/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $tmp/ng/tmp/body;
    proxy_temp_path $tmp/ng/tmp/proxy;
    fastcgi_temp_path $tmp/ng/tmp/fastcgi;
    uwsgi_temp_path $tmp/ng/tmp/uwsgi;
    scgi_temp_path $tmp/ng/tmp/scgi;
    include $tmp/ng/site.conf;
}
EOC
  "$nginx" -p "$tmp/ng" -c "$tmp/ng/nginx.conf" -e "$tmp/ng/error.log" &
  pids="$pids $!"
  front=127.0.0.1:$plain
  for wait in $(seq 50); do
    curl -s -o /dev/null "http://$front/healthz" && return 0
    sleep 0.1
  done
  echo "nginx did not start: $(tail -n 3 "$tmp/ng/error.log")" >&2
  exit 1
}

# measure NAME TARGET: the uploads and the home page through TARGET.
measure () {
  "$tmp/server-load" steady "$2" "$fixture" "$cpu" "$up" 1 "$seconds" /healthz \
    > "$tmp/steady.txt" &
  steady=$!
  sleep 1
  echo "$1: $("$tmp/server-load" list "$2" "$c" "$requests" / | grep -v '^list:')," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
  wait $steady
  sed -n "s/^upload:/$1: uploads:/p" "$tmp/steady.txt"
}

cpu=$(sqlite3 "$db" 'SELECT cpu FROM results GROUP BY cpu ORDER BY count(*) DESC LIMIT 1')
start "$db"
while [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/")" = 503 ]; do sleep 0.05; done
nginx_start
for i in 1 2; do
  echo "home page through nginx, request $i: X-Cache-Status" \
    "$(curl -s -o /dev/null -D - "http://$front/" | sed -n 's/^X-Cache-Status: *//Ip' | tr -d '\r')"
done
round=1
while [ $round -le "$rounds" ]; do
  measure "round $round, server alone" "$addr"
  measure "round $round, through nginx" "$front"
  round=$((round + 1))
done
