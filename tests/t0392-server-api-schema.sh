# t0392-server-api-schema.sh: docs/result.schema.json, the result
# document's JSON Schema (draft 2020-12), against the server's own
# validator (model/validate.c) over a corpus of documents: the fixtures,
# the fuzzer's seeds and documents made by server-doc.py.  A real
# validator (the Python jsonschema package) and the server agree that
# every valid document is valid; every invalid one is refused by the
# server with the rule expected; and the schema refuses exactly those
# whose fault it can express, and accepts the others (the rules
# docs/result-format.md lists as beyond a schema).  The server serves the
# schema at /api/v1/schema/result.json, byte for byte.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/api-lib.sh"
need_server
need_jsonschema "the result schema against the server's validator"

SCHEMA="$SRCDIR/docs/result.schema.json"
schema_says () {
  "$SCHEMA_PY" "$SRCDIR/tests/schema-check.py" "$SCHEMA" "$1" | cut -d' ' -f1
}

start_test_server "$PWD/results.db" --key-rate 0 --address-rate 0
make_key alice > /dev/null

get /api/v1/schema/result.json > /dev/null
check "the server serves docs/result.schema.json byte for byte" cmp -s resp.json "$SCHEMA"
run_status "$SCHEMA_PY" "$SRCDIR/tests/schema-check.py" "$SCHEMA"
check "it is a valid draft 2020-12 schema" [ "$status" -eq 0 ]

# ------------------------------------------------------------ valid documents

# valid NAME: NAME.json passes the schema; the server's verdict is the
# caller's check.
valid_by_schema () {
  verdict=$("$SCHEMA_PY" "$SRCDIR/tests/schema-check.py" "$SCHEMA" "$1")
  check "$1: the schema accepts it" [ "${verdict%% *}" = valid ]
  [ "${verdict%% *}" = valid ] || echo "  $verdict"
}

# Uploaded: made by server-doc.py, each a real run's shape.
n=0
for options in "" "--base" "--multiply" "--tree openssl.rsa" "--base --threads 4" \
  "--scale 1.5" "--from $SRCDIR/tests/fixtures/server-full.json" \
  "--base --set system.cpu.hypervisor=\"KVM\"" "--name Alice --multiply --spread 0.05"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  code=$(upload_doc "good$n.json" alice $options)
  check "good$n.json ($options): the server stores it (201)" [ "$code" = 201 ]
  [ "$code" = 201 ] || head -c 300 resp.json
  valid_by_schema "good$n.json"
done
# The fixture signed by a key of its own, as it is.
cp "$SRCDIR/tests/fixtures/server-signed.json" signed.json
code=$(post signed.json "$(cat "$SRCDIR/tests/fixtures/server-signed.json.sig")")
check "fixtures/server-signed.json: the server stores it (201)" [ "$code" = 201 ]
valid_by_schema signed.json
# The fuzzer's valid seeds, re-keyed and checked by `gmpbench verify`
# (the same validator; uploads would be copies of one another's
# measurements).
for seed in valid compact; do
  copy_doc "$SRCDIR/tests/fuzz/corpus/$seed.json" "seed-$seed.json" alice
  { sign "seed-$seed.json" alice; echo; } > "seed-$seed.json.sig"
  run_status "$GMPBENCH" verify "seed-$seed.json"
  check "fuzz seed $seed.json: gmpbench verify accepts it" [ "$status" -eq 0 ]
  valid_by_schema "seed-$seed.json"
done

# ------------------------------------------------------------ invalid documents

# refused NAME STATUS RULE SCHEMA [server-doc.py options]: NAME.json is
# refused by the server with STATUS and RULE; the schema says SCHEMA
# ("invalid": it can express the fault; "valid": it cannot).
refused () {
  name=$1 want_status=$2 rule=$3 want_schema=$4
  shift 4
  code=$(upload_doc "$name.json" alice "$@")
  expect_rule "$name: the server refuses it ($want_status $rule)" "$want_status" "$rule" "$code"
  check "$name: the schema says $want_schema" [ "$(schema_says "$name.json")" = "$want_schema" ]
}

# What the schema says too.
refused type 422 type invalid --set 'run.threads="one"'
refused range-threads 422 range invalid --set run.threads=0
refused range-spread 422 range invalid --set results.0.spread=11
refused positive 422 range invalid --set results.0.ops_per_sec=0
refused integer 422 type invalid --set results.0.samples=2.5
refused missing 422 missing invalid --drop scores
refused missing-nested 422 missing invalid --set 'system.cores={"physical": 1, "usable": 1}'
refused unknown-member 422 unknown-member invalid --set run.colour=1
refused unknown-in-result 422 unknown-member invalid --set results.0.colour=1
refused null 422 type invalid --set system.cpu.arch=null
refused format-name 422 format invalid --set 'format="gmpbench-result/2"'
refused created 422 format invalid --set 'created="2026-13-30T05:00:00Z"'
refused mode 422 format invalid --set 'run.mode="slow"'
refused flag 422 format invalid --set 'results.0.flags=["fast"]'
refused digest-form 422 format invalid --digest "$(printf '%064d' 0 | tr 0 A)"
refused registry-form 422 format invalid --set 'registry="0123456789ABCDEF"'
refused key-form 422 public-key invalid \
  --set 'submitter.public_key="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB="'
refused name-length 422 range invalid --name "$(printf '%0101d' 0)"
refused emulated 422 type invalid --set 'system.cpu.emulated="no"'
refused results-empty 422 range invalid --set 'results=[]'
# What it cannot: the meaning of the values, across members and against
# the registry, the reference digests and physics.
refused score 422 score-mismatch valid --base --bad-score
refused score-missing 422 score-missing valid --base --set 'scores={"gmpbench.base.multiply.128": 1}'
refused digest 422 digest-mismatch valid --digest "$(printf '%064d' 0)"
refused unknown-test 422 unknown-test valid --set 'results.0.name="gmpbench.no.such.test"'
refused registry 422 registry-mismatch valid --set 'registry="0123456789abcdef"'
refused inconsistent 422 inconsistent-test valid --set results.0.seconds_per_op=1
refused impossible 422 impossible valid --scale 1e9
refused clock 422 clock-beyond-family valid --set system.clock.max_mhz=90000
refused too-deep 400 too-deep valid \
  --set 'system.deep=[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]'
# Two results of one test.
make_doc twice.json alice --multiply
$PY - twice.json <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"].append(dict(d["results"][0]))
json.dump(d, open(sys.argv[1], "w"), indent=1)
PYEOF
code=$(post twice.json "$(sign twice.json alice)")
expect_rule "twice: the server refuses a test listed twice" 422 duplicate-test "$code"
check "twice: the schema cannot say so" [ "$(schema_says twice.json)" = valid ]
# A member twice in one object: JSON parsers keep one, a schema sees one.
make_doc dup.json alice
sed 's/^ "created": \(.*\)$/ "created": \1\n "created": \1/' dup.json > dup2.json
code=$(post dup2.json "$(sign dup2.json alice)")
expect_rule "dup: the server refuses a member given twice" 422 duplicate-member "$code"
check "dup: the schema cannot say so" [ "$(schema_says dup2.json)" = valid ]
# The fuzzer's seed whose scores name a node the run does not complete.
copy_doc "$SRCDIR/tests/fuzz/corpus/scores.json" seed-scores.json alice
{ sign seed-scores.json alice; echo; } > seed-scores.json.sig
run_status "$GMPBENCH" verify seed-scores.json
check "fuzz seed scores.json: gmpbench verify refuses it (score-unexpected)" \
  sh -c "[ $status -eq 1 ] && grep -q 'score-unexpected' err.txt"
check "fuzz seed scores.json: the schema cannot say so" [ "$(schema_says seed-scores.json)" = valid ]
# The signature, last: a document the schema and every rule accept.
make_doc badsig.json alice --name other
code=$(post badsig.json "$(sign good1.json alice)")
expect_rule "a signature over other bytes: refused (403)" 403 signature-invalid "$code"
check "the schema cannot say so" [ "$(schema_says badsig.json)" = valid ]
