# t0360-protocol-recipe.sh: the openssl and curl recipe of docs/protocol.md
# works as written: every ```sh block after a "<!-- recipe -->" line is
# taken from the document verbatim and run, in order, with POSIX sh
# against a real gmpbench-server on 127.0.0.1: it makes a key, signs and
# uploads a document (201), re-verifies the stored result from /raw and
# /signature, and retracts it.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

DOC="$SRCDIR/docs/protocol.md"
awk '/^<!-- recipe -->$/ { want = 1; next }
     want && /^```sh$/ { inside = 1; next }
     inside && /^```$/ { inside = 0; want = 0; next }
     inside { print }' "$DOC" > recipe.sh
check "docs/protocol.md has the three recipe blocks (sign and upload, re-verify, retract)" \
  [ "$(grep -c '^<!-- recipe -->$' "$DOC")" = 3 ]
gnu=$(grep -v '^ *#' recipe.sh | grep -nE '(^|[|;(]) *(base64|sha256sum|jq|xxd)( |$)|-w0|sed -i')
check "the recipe uses no GNU-only tool (base64 -w0, sha256sum, sed -i, ...)${gnu:+: $gnu}" \
  [ -z "$gnu" ]

# A document with a submitter.public_key to replace, as the recipe wants.
$PY -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['submitter'] = {'public_key': 'replace me', 'name': 'recipe'}
open('unsigned.json', 'w').write(json.dumps(d, indent=1) + '\n')" \
  "$SRCDIR/tests/fixtures/server-result.json"

start_server "$PWD/recipe.db" --address-rate 0 --key-rate 0 || fail "the server starts"
# One line more, to learn the id the recipe got.
echo 'echo "ID=$ID"' >> recipe.sh
SERVER=$URL sh -e recipe.sh > recipe.out 2> recipe.err
status=$?
check "the recipe runs to its end under sh -e (status $status: $(tail -n 3 recipe.err | tr '\n' ' '))" \
  [ "$status" = 0 ]
ID=$(sed -n 's/^ID=//p' recipe.out)
check "the upload answered an id ($ID)" [ -n "$ID" ]
check "the bytes /raw gave the recipe are the bytes it uploaded" cmp -s raw.json result.json
check "the key the recipe put in is the one of key.pem" \
  grep -q "\"public_key\": \"$(openssl pkey -in key.pem -pubout -outform DER | tail -c 32 | base64 -w0)\"" result.json
check "the fingerprint the recipe printed is the key's" grep -qx "$(fingerprint key)" recipe.out
check "the re-verification from /raw and /signature succeeds" \
  grep -q 'Signature Verified Successfully' recipe.out
check "the retraction is answered" grep -q '"retracted":true' recipe.out
st=$(get "/api/v1/results/$ID")
expect_rule "the retracted result answers 410" 410 retracted "$st"
stop_server
