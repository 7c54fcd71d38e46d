# t540-tls.sh: uploads over TLS, the server behind a local TLS terminator
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
PROXY_PID=
trap 'stop_server; [ -n "$PROXY_PID" ] && kill "$PROXY_PID" 2> /dev/null; :' EXIT

ec="-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
openssl req -x509 $ec -keyout ca.key -out ca.pem -days 2 -subj /CN=gmpbench-test-ca \
  > openssl.log 2>&1
openssl req -new $ec -keyout srv.key -out srv.csr -subj /CN=127.0.0.1 >> openssl.log 2>&1
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > ext.cnf
openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile ext.cnf -out srv.pem >> openssl.log 2>&1
check "a CA and a server certificate for 127.0.0.1 are made" [ -s srv.pem ]

rm -f tls.port
"$HELPERS/helper-tlsproxy" srv.pem srv.key "$SERVER_PORT" tls.port 2> proxy.log &
PROXY_PID=$!
for i in $(seq 100); do
  [ -s tls.port ] && break
  sleep 0.05
done
URL="https://127.0.0.1:$(cat tls.port)"

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
