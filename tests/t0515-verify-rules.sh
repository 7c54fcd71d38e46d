# t0515-verify-rules.sh: `gmpbench verify` applies the server's rules
# offline (model/validate.h) after the signature, and names the rule a file
# breaks; --signature-only checks the signature alone, as verify did
# before.  The documents are correctly signed, so only the rules can
# refuse them.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"

for tool in openssl python3; do
  if ! command -v $tool > /dev/null 2>&1; then
    skip "verify's rules ($tool is not installed)"
    exit 0
  fi
done
make_key alice > /dev/null

# signed OUT [server-doc.py options]: a document by alice and its OUT.sig.
signed () {
  out=$1
  shift
  make_doc "$out" alice "$@" && { sign "$out" alice; echo; } > "$out.sig"
}

signed good.json --base
run_status "$GMPBENCH" verify good.json
check "a document the server would accept verifies" \
  sh -c "[ $status -eq 0 ] && grep -q '^good.json: good signature by [0-9a-f]\{64\}' out.txt"

# refused NAME RULE FIELD [server-doc.py options]: NAME.json, signed, fails
# verify naming RULE at FIELD, and passes with --signature-only.
refused () {
  name=$1 rule=$2 field=$3
  shift 3
  signed "$name.json" "$@"
  run_status "$GMPBENCH" verify "$name.json"
  check "$name: verify exits 1 naming the rule $rule at $field" \
    sh -c "[ $status -eq 1 ] && [ \$(wc -l < err.txt) -eq 1 ] &&
      grep -q '^gmpbench verify: $name.json: breaks the rule $rule at $field: ' err.txt"
  run_status "$GMPBENCH" verify --signature-only "$name.json"
  check "$name: verify --signature-only accepts its good signature" \
    sh -c "[ $status -eq 0 ] && grep -q '^$name.json: good signature by ' out.txt"
}

refused digest digest-mismatch 'results\[0\].digest' --digest "$(printf '%064d' 0)"
"$GMPBENCH" verify digest.json 2> err.txt
check "the digest error names the test" grep -q '(gmpbench\.base\.[a-z]*\.[0-9,]*)$' err.txt
refused score score-mismatch 'scores\.gmpbench\.base\.multiply' --base --bad-score
refused unknown unknown-test 'results\[0\].name' --set 'results.0.name="gmpbench.no.such.test"'
refused type type run.threads --set 'run.threads="one"'
refused registry registry-mismatch registry --set 'registry="0123456789abcdef"'

cp good.json edited.json
cp good.json.sig edited.json.sig
sed -i 's/"threads":[[:space:]]*1/"threads": 2/' edited.json
run_status "$GMPBENCH" verify edited.json
check "an edited file still fails on its signature first" \
  sh -c "[ $status -eq 1 ] && grep -q 'BAD signature' err.txt && ! grep -q 'breaks the rule' err.txt"
