# t0510-verify.sh: signed results checked offline, by `gmpbench verify` and
# by the openssl command line exactly as docs/signing.md shows; an edited
# file fails both and `gmpbench submit` refuses to send it.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/submit-lib.sh"

make_result r.json
check "a tiny run is signed: r.json and r.json.sig" [ -s r.json ] && [ -s r.json.sig ]
run_status "$GMPBENCH" verify r.json
check "gmpbench verify accepts the signed result" \
  sh -c "[ $status -eq 0 ] && grep -q '^r.json: good signature by [0-9a-f]\{64\}' out.txt"

if command -v openssl > /dev/null; then
  # docs/signing.md, "Checking a result with openssl", verbatim.
  PUB=$(sed -n 's/.*"public_key":[[:space:]]*"\([^"]*\)".*/\1/p' r.json)
  { printf '\060\052\060\005\006\003\053\145\160\003\041\000'; echo "$PUB" | base64 -d; } \
    | openssl pkey -pubin -inform DER -out signer.pem
  base64 -d r.json.sig > r.json.sig.bin
  openssl pkeyutl -verify -pubin -inkey signer.pem -rawin -in r.json \
    -sigfile r.json.sig.bin > ossl.txt 2>&1
  check "openssl verifies the signature with the key inside the document" \
    grep -q 'Signature Verified Successfully' ossl.txt
else
  skip "verification with the openssl command (no openssl command)"
fi

sed 's/"threads":[[:space:]]*1/"threads": 2/' r.json > t.json
cp r.json.sig t.json.sig
check "the tampered copy differs from the original" sh -c "! cmp -s r.json t.json"
run_status "$GMPBENCH" verify t.json
check "an edited result fails gmpbench verify (exit 1, one line)" \
  sh -c "[ $status -eq 1 ] && grep -q 'BAD signature' err.txt && [ \$(wc -l < err.txt) -eq 1 ]"
run_status "$GMPBENCH" verify r.json t.json
check "verify of a good and a bad file exits 1" [ "$status" -eq 1 ]
if command -v openssl > /dev/null; then
  openssl pkeyutl -verify -pubin -inkey signer.pem -rawin -in t.json \
    -sigfile r.json.sig.bin > ossl.txt 2>&1
  check "openssl rejects the edited result too" sh -c "! grep -q 'Verified Successfully' ossl.txt"
fi
run_status "$GMPBENCH" submit --server http://127.0.0.1:9 --retries 0 t.json
check "submit refuses an edited result before sending anything" \
  sh -c "[ $status -eq 1 ] && grep -q 'BAD signature' err.txt && [ \$(ls '$SPOOL' 2>/dev/null | wc -l) -eq 0 ]"

cp r.json nosig.json
run_status "$GMPBENCH" verify nosig.json
check "a result without its .sig fails verify, naming the missing file" \
  sh -c "[ $status -eq 1 ] && grep -q 'nosig.json.sig is missing' err.txt"
run_status "$GMPBENCH" submit --dry-run --server http://127.0.0.1:9 nosig.json
check "submit signs an unsigned result that names the user's own key" \
  sh -c "[ $status -eq 0 ] && cmp -s nosig.json.sig r.json.sig"
grep -v '"public_key"' r.json > nokey.json
run_status "$GMPBENCH" verify nokey.json
check "a result naming no key is reported as unsigned" \
  sh -c "[ $status -eq 1 ] && grep -q 'names no submitter key' err.txt"
run_status "$GMPBENCH" verify
check "verify without FILE is a usage error" [ "$status" -eq 2 ]
