# t0394-server-nginx.sh: contrib/nginx/gmpbench.conf in a real nginx (its
# addresses, ports and paths replaced by this test's, as an unprivileged
# configuration on 127.0.0.1) with a throw-away CA's certificate, in
# front of a real server run with --trusted-proxy 127.0.0.1:
# `gmpbench submit --cacert` uploads through it; the rate limit per
# address counts the client nginx forwards (curl bound to 127.0.0.2 and
# 127.0.0.3), not nginx's own address; an X-Forwarded-For that a client
# forges is not believed, through nginx or sent to the server directly
# from a peer it does not trust; nginx passes an upload's body on as it
# arrives (never to a temporary file); and nginx's body limit is the
# server's.
# Skipped when nginx is not installed.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ]; then
  skip "nginx in front of the server (nginx is not installed: scripts/install-deps)"
  exit 0
fi
# Each client address may make 5 requests (the rate refills one every
# 100 s): the sixth is refused 429.
start_server "$PWD/results.db" --trusted-proxy 127.0.0.1 --per-ip-connections 0 \
  --address-rate 0.01 --address-burst 5 || { fail "the server starts"; exit 1; }
NGINX_PID=
# nginx (its master, which takes its workers along) and the server are
# stopped when the test ends.
trap 'stop_server; [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2> /dev/null && wait "$NGINX_PID"; :' EXIT
SERVER_PORT=${URL##*:}

ec="-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
openssl req -x509 $ec -keyout ca.key -out ca.pem -days 2 -subj /CN=gmpbench-test-ca \
  > openssl.log 2>&1
openssl req -new $ec -keyout srv.key -out srv.csr -subj /CN=127.0.0.1 >> openssl.log 2>&1
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > srv.cnf
openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile srv.cnf -out srv.pem >> openssl.log 2>&1

# The site as shipped, on this test's ports, certificate and cache.
TLS_PORT=$(random_port)
PLAIN_PORT=$(random_port)
mkdir -p ng/cache ng/tmp
sed -e "s|listen 443 ssl http2;|listen 127.0.0.1:$TLS_PORT ssl http2;|" \
    -e "s|listen 80;|listen 127.0.0.1:$PLAIN_PORT;|" \
    -e '/^ *listen \[::\]:/d' \
    -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$SERVER_PORT;|" \
    -e "s|/etc/letsencrypt/live/results.gmpbench.example/fullchain.pem|$PWD/srv.pem|" \
    -e "s|/etc/letsencrypt/live/results.gmpbench.example/privkey.pem|$PWD/srv.key|" \
    -e "s|/var/cache/nginx/gmpbench|$PWD/ng/cache|" \
    "$SRCDIR/contrib/nginx/gmpbench.conf" > ng/site.conf
check "every address, port and path of the site is replaced by the test's" \
  sh -c "! grep -v '^ *#' ng/site.conf | grep -n -e ' 443' -e ' 80;' -e 8080 -e /etc/ -e /var/ -e '\[::\]'"
user=
[ "$(id -u)" = 0 ] && user="user root;"
cat > ng/nginx.conf <<EOC
$user
daemon off;
worker_processes 1;
pid $PWD/ng/nginx.pid;
error_log $PWD/ng/error.log info;
events { worker_connections 64; }
http {
    access_log $PWD/ng/access.log;
    client_body_temp_path $PWD/ng/tmp/body;
    proxy_temp_path $PWD/ng/tmp/proxy;
    fastcgi_temp_path $PWD/ng/tmp/fastcgi;
    uwsgi_temp_path $PWD/ng/tmp/uwsgi;
    scgi_temp_path $PWD/ng/tmp/scgi;
    include $PWD/ng/site.conf;
}
EOC
"$NGINX" -p "$PWD/ng" -c "$PWD/ng/nginx.conf" -e "$PWD/ng/error.log" 2>> ng/stderr.log &
NGINX_PID=$!
# Ready when the plain port redirects (nginx answers that itself, so the
# wait spends none of 127.0.0.1's requests at the server).
for i in $(seq 100); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PLAIN_PORT/") && [ "$code" = 301 ] && break
  sleep 0.05
done
check "nginx runs the site (plain HTTP redirects to https: $code; $(tail -n 2 ng/stderr.log ng/error.log | tr '\n' ' ' | head -c 300))" \
  [ "$code" = 301 ]
SITE="https://127.0.0.1:$TLS_PORT"

# ------------------------------------------------------------ an upload

make_result r.json
run_status "$GMPBENCH" submit --server "$SITE" --cacert ca.pem r.json
check "gmpbench submit --cacert uploads through nginx over TLS ($(head -c 300 err.txt))" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: $SITE/results/' out.txt"
check "... and the server stored it, from the address nginx forwarded (127.0.0.1)" \
  grep -q '"remote":"127.0.0.1","method":"POST","path":"/api/v1/results","status":201' server.log
# Stored whole first, a body went to the server in 8 KiB writes without
# TCP_NODELAY, its last piece waiting for the server's delayed ACK
# (docs/server.md, "Deploying"); passed on as it arrives, it is not.
check "... its body passed on as it arrived, never buffered to a temporary file by nginx" \
  sh -c "! grep -i 'buffered to a temporary file' ng/error.log"

# ------------------------------------------------------------ rate limits

# hit FROM [CURL OPTIONS] [URL]: a request of the server's (an empty POST,
# answered 415 and never cached) from the address FROM through nginx;
# prints the status.
hit () {
  from=$1
  shift
  curl -sS -o /dev/null -w '%{http_code}' --cacert ca.pem --interface "$from" -X POST -d '' \
    "$@" "$SITE/api/v1/results"
}
codes=
for i in 1 2 3 4 5 6; do
  codes="$codes $(hit 127.0.0.2)"
done
check "127.0.0.2 through nginx: five requests, then 429 ($codes)" \
  [ "$codes" = " 415 415 415 415 415 429" ]
check "... and the server logged them from 127.0.0.2, the address nginx forwarded" \
  [ "$(grep -c '"remote":"127.0.0.2","method":"POST"' server.log)" = 6 ]
code=$(hit 127.0.0.3)
check "127.0.0.3 through the same nginx has a limit of its own ($code)" [ "$code" = 415 ]
check "127.0.0.2 forging X-Forwarded-For: 203.0.113.5 through nginx is still 127.0.0.2" \
  [ "$(hit 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.5')" = 429 ]

# ------------------------------------------------------------ untrusted peers

# direct FROM XFF: the same request sent to the server itself from FROM,
# claiming to be forwarded for XFF; prints the status.
direct () {
  curl -sS -o /dev/null -w '%{http_code}' --interface "$1" -X POST -d '' \
    -H "X-Forwarded-For: $2" "$URL/api/v1/results"
}
check "a forged X-Forwarded-For (203.0.113.5) from 127.0.0.2, not a trusted proxy, is ignored: 429" \
  [ "$(direct 127.0.0.2 203.0.113.5)" = 429 ]
check "... and logged as 127.0.0.2, never as 203.0.113.5" \
  sh -c "! grep -q '\"remote\":\"203.0.113.5\"' server.log"
check "127.0.0.4 claiming to be the exhausted 127.0.0.2 is counted as itself: 415" \
  [ "$(direct 127.0.0.4 127.0.0.2)" = 415 ]

# ------------------------------------------------------------ the body limit

head -c 1048576 /dev/zero | tr '\0' ' ' > mib.txt
printf ' ' | cat mib.txt - > over.txt
big () {
  curl -sS -o /dev/null -w '%{http_code}' --cacert ca.pem --interface 127.0.0.5 -X POST \
    -H 'Content-Type: application/json' --data-binary "@$1" "$SITE/api/v1/results"
}
check "nginx passes a body of 1 MiB, the server's limit, to the server (not 413)" \
  [ "$(big mib.txt)" != 413 ]
check "... and refuses one byte more with 413" [ "$(big over.txt)" = 413 ]
