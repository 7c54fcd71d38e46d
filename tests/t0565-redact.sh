# t0565-redact.sh: `gmpbench run --redact machine,kernel` leaves the board
# or system model and the kernel's build string out of the signed result
# (the kernel's version stays), says so in the document (`redacted`, and
# each member's source), and a real gmpbench-server on 127.0.0.1 accepts
# it, as does docs/result.schema.json; a document naming an unknown
# redaction is refused (422) by both.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/api-lib.sh"
need_server

tiny="--only gmpbench.base.multiply.128 --time-per-test 0.05 -q"
start_test_server "$PWD/results.db" --key-rate 0

run_status "$GMPBENCH" run $tiny -o plain.json
run_status "$GMPBENCH" run $tiny -o red.json --redact machine,kernel --submit --yes --server "$URL"
check "run --redact machine,kernel --submit: uploaded (exit 0)" \
  sh -c "[ $status -eq 0 ] && grep -q '^uploaded: ' out.txt"
id=$(sha256sum red.json | cut -c1-16)
get "/api/v1/results/$id/raw" > /dev/null
check "the server keeps the redacted document as sent" cmp -s resp.json red.json
release=$(field "d['system']['os']['kernel']" plain.json)
version=$(field "d['system']['os']['kernel']" red.json)
check "the kernel keeps its version ($release: $version)" \
  sh -c "[ -n '$version' ] && [ '$version' != None ] && case '$release' in '$version'*) true ;; *) false ;; esac \
    && echo '$version' | grep -Eqx '[0-9][0-9.]*'"
model=$(field "d['system']['machine']['model']" red.json)
source=$(field "d['system']['machine']['sources']['model']" red.json)
check "the model is null, and its source says it was left out ($source)" \
  sh -c "[ '$model' = None ] && echo '$source' | grep -q 'redact machine'"
check "the document records the redaction" \
  [ "$(field "','.join(d['redacted'])" red.json)" = machine,kernel ]
check "a run without --redact has no redacted member" \
  [ "$(field "'redacted' in d" plain.json)" = False ]
run_status "$GMPBENCH" verify red.json
check "gmpbench verify accepts the redacted result" [ $status -eq 0 ]

make_key alice > /dev/null
make_doc odd.json alice --set 'redacted=["machine", "dmi"]'
code=$(post odd.json "$(sign odd.json alice)")
where=$(field "d.get('field')")
check "a document naming an unknown redaction is refused (422, field $where)" \
  sh -c "[ '$code' = 422 ] && [ '$where' = 'redacted[1]' ]"
make_doc twice.json alice --set 'redacted=["kernel", "kernel"]' --name twice
code=$(post twice.json "$(sign twice.json alice)")
check "a redaction named twice is refused (422)" [ "$code" = 422 ]
if [ -n "$SCHEMA_PY" ]; then
  verdict=$("$SCHEMA_PY" "$SRCDIR/tests/schema-check.py" "$SRCDIR/docs/result.schema.json" red.json)
  check "docs/result.schema.json accepts the redacted document ($verdict)" [ "${verdict%% *}" = valid ]
  verdict=$("$SCHEMA_PY" "$SRCDIR/tests/schema-check.py" "$SRCDIR/docs/result.schema.json" odd.json)
  check "and refuses an unknown redaction" [ "${verdict%% *}" != valid ]
else
  skip "redacted against docs/result.schema.json (the Python jsonschema package is not installed)"
fi
run_status "$GMPBENCH" run --redact kernel,
check "--redact with an empty word is a usage error naming it" \
  sh -c "[ $status -eq 2 ] && grep -q 'ends with a comma' err.txt"
