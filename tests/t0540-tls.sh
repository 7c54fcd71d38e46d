# t0540-tls.sh: uploads over TLS, the server behind a local TLS terminator
# (tests/helper-tlsproxy.c) with a certificate from a throw-away CA:
# accepted with --cacert, refused without it (nothing sent, result kept).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

if ! command -v openssl > /dev/null; then
  skip "TLS uploads (no openssl command to make a CA)"
  exit 0
fi
if ! start_server; then
  skip "TLS uploads (no gmpbench-server built, or it did not start)"
  exit 0
fi
PROXY_PIDS=
trap 'stop_server; [ -n "$PROXY_PIDS" ] && kill $PROXY_PIDS 2> /dev/null; :' EXIT

# start_proxy CERT KEY: a TLS terminator in front of the server; sets URL.
start_proxy () {
  rm -f tls.port
  "$HELPERS/helper-tlsproxy" "$1" "$2" "$SERVER_PORT" tls.port 2>> proxy.log &
  PROXY_PIDS="$PROXY_PIDS $!"
  for i in $(seq 100); do
    [ -s tls.port ] && break
    sleep 0.05
  done
  URL="https://127.0.0.1:$(cat tls.port)"
}

ec="-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
openssl req -x509 $ec -keyout ca.key -out ca.pem -days 2 -subj /CN=gmpbench-test-ca \
  > openssl.log 2>&1
# server_cert NAME IP: a certificate for IP signed by the CA.
server_cert () {
  openssl req -new $ec -keyout "$1.key" -out "$1.csr" -subj "/CN=$2" >> openssl.log 2>&1
  printf 'subjectAltName=IP:%s\nbasicConstraints=CA:FALSE\n' "$2" > "$1.cnf"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    -extfile "$1.cnf" -out "$1.pem" >> openssl.log 2>&1
}
server_cert srv 127.0.0.1
server_cert other 127.0.0.2
check "a CA and server certificates for 127.0.0.1 and 127.0.0.2 are made" \
  [ -s srv.pem ] && [ -s other.pem ]

start_proxy srv.pem srv.key

make_result r.json
run_status "$GMPBENCH" submit --server "$URL" --retries 0 r.json
check "without --cacert the private CA is not trusted: not uploaded, kept" \
  sh -c "[ $status -eq 75 ] && grep -qi 'certificate' err.txt && [ $(spool_count) -eq 1 ]"
check "a certificate failure is not retried" sh -c "! grep -q 'retrying' err.txt"
rm -rf "$SPOOL"
run_status "$GMPBENCH" submit --server "$URL" --cacert ca.pem r.json
check "with --cacert the upload over TLS succeeds" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: https://127.0.0.1:' out.txt"
run_status "$GMPBENCH" submit --server "$URL" --cacert srv.key --retries 0 r.json
check "an unusable --cacert file is an error, the result is kept" \
  sh -c "[ $status -eq 75 ] && [ $(spool_count) -eq 1 ]"
rm -rf "$SPOOL"

start_proxy other.pem other.key
run_status "$GMPBENCH" submit --server "$URL" --cacert ca.pem --retries 0 r.json
check "a trusted certificate for another address is refused (host verification)" \
  sh -c "[ $status -eq 75 ] && grep -qi 'certificate\|subject\|match' err.txt && [ $(spool_count) -eq 1 ]"
