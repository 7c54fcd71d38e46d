# t0391-server-api-docs.sh: docs/openapi.json, the API's own description
# (OpenAPI 3.1), against the routing tables and a real server.  Every row
# of server/api/api_routes.c and server/web/web_routes.c is described and
# nothing else is (so a new route cannot go undescribed: a table with a
# row more fails the check); the server serves the document byte for
# byte; /api/v1/ lists exactly the API's operations; every schema in it is
# valid JSON Schema 2020-12, and the answers of a server holding results
# (each JSON endpoint, errors, the dump's lines) fit the schemas it gives
# them, checked by a real validator (the Python jsonschema package).
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
. "$SRCDIR/tests/api-lib.sh"
need_server
need_jsonschema "the API's description against the server"

OPENAPI="$SRCDIR/docs/openapi.json"
CHECK="$SRCDIR/tests/openapi-check.py"
TABLES="$SRCDIR/server/api/api_routes.c $SRCDIR/server/web/web_routes.c"

# shellcheck disable=SC2086
run_status "$SCHEMA_PY" "$CHECK" routes "$OPENAPI" "$SRCDIR/model/protocol.h" $TABLES
check "every route of both tables is described, and only those ($(tail -n 1 out.txt))" \
  [ "$status" -eq 0 ]
[ "$status" -eq 0 ] || cat out.txt
sed 's|  { "GET", PREFIX "dump", api_dump },|&\n  { "GET", PREFIX "secret", api_dump },|' \
  "$SRCDIR/server/api/api_routes.c" > more_routes.c
run_status "$SCHEMA_PY" "$CHECK" routes "$OPENAPI" "$SRCDIR/model/protocol.h" more_routes.c \
  "$SRCDIR/server/web/web_routes.c"
check "a route added to a table and not described fails the check, named" \
  sh -c "[ $status -eq 1 ] && grep -q '^undescribed: GET /api/v1/secret' out.txt"

$SCHEMA_PY - "$OPENAPI" > openapi-shape.txt <<'PYEOF'
import json, sys, jsonschema
spec = json.load(open(sys.argv[1]))
problems = []
if not spec.get("openapi", "").startswith("3.1."):
    problems.append("openapi is not 3.1.x")
for name, schema in spec["components"]["schemas"].items():
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        problems.append("schema %s: %s" % (name, e.message))
for path, item in spec["paths"].items():
    for method, op in item.items():
        if not op.get("summary") or not op.get("responses"):
            problems.append("%s %s has no summary or no responses" % (method, path))
        for p in op.get("parameters", []):
            if "{" in path and p.get("in") == "path" and "{%s}" % p["name"] not in path:
                problems.append("%s %s: path parameter %s not in the path" % (method, path, p["name"]))
print("\n".join(problems) or "ok")
PYEOF
check "the document is OpenAPI 3.1, each operation summarised and answered, its schemas valid" \
  [ "$(cat openapi-shape.txt)" = ok ]

start_test_server "$PWD/results.db" --key-rate 0 --aggregate-ttl 0
get /api/v1/openapi.json > /dev/null
check "the server serves docs/openapi.json byte for byte" cmp -s resp.json "$OPENAPI"
check "... as application/json" grep -qi '^Content-Type: application/json' headers.txt

# /api/v1/ names the API's operations: those of the document under /api/
# and /healthz, each once, with its summary.
get /api/v1/ > /dev/null
$SCHEMA_PY - "$OPENAPI" resp.json > index.txt <<'PYEOF'
import json, sys
spec, index = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = sorted((m.upper(), p, op["summary"]) for p, item in spec["paths"].items()
              for m, op in item.items() if p.startswith("/api/") or p == "/healthz")
got = sorted((e["method"], e["path"], e["summary"]) for e in index["endpoints"])
print("ok" if want == got and index["openapi"] == "/api/v1/openapi.json" else
      "index %s\nwanted %s" % (got, want))
PYEOF
check "/api/v1/ lists every operation of the API, from the document" [ "$(cat index.txt)" = ok ]

# ------------------------------------------------------------ answers fit

# fits DESCRIPTION METHOD PATH STATUS [ndjson]: resp.json fits the schema
# of that answer.
fits () {
  run_status "$SCHEMA_PY" "$CHECK" answer "$OPENAPI" "$SRCDIR/docs/result.schema.json" \
    "$2" "$3" "$4" resp.json $5
  check "$1 fits its schema ($(cat out.txt))" [ "$status" -eq 0 ]
}

make_key alice > /dev/null
code=$(upload_doc a.json alice --base)
fits "an upload's 201" POST /api/v1/results 201
id=$(field "d['id']")
upload_doc b.json alice --multiply --threads 2 > /dev/null
code=$(post a.json "$(sign a.json alice)")
fits "an upload's 200 (the same bytes again)" POST /api/v1/results 200
code=$(post a.json "not base64")
fits "an upload's 400" POST /api/v1/results 400
make_doc c.json alice --base --bad-score
code=$(post c.json "$(sign c.json alice)")
fits "an upload's 422" POST /api/v1/results 422

get /healthz > /dev/null && fits "/healthz" GET /healthz 200
get /api/v1/ > /dev/null && fits "/api/v1/" GET /api/v1/ 200
get /api/v1/results > /dev/null && fits "a listing" GET /api/v1/results 200
get "/api/v1/results?limit=1" > /dev/null && fits "a page with a cursor" GET /api/v1/results 200
get "/api/v1/results?limit=0" > /dev/null && fits "a bad limit's 400" GET /api/v1/results 400
get "/api/v1/results/$id" > /dev/null && fits "a result (its document by the result schema)" \
  GET "/api/v1/results/{id}" 200
get /api/v1/results/0123456789abcdef > /dev/null && fits "an unknown result's 404" \
  GET "/api/v1/results/{id}" 404
get "/api/v1/results/$id/raw" > /dev/null && fits "a result's raw bytes" \
  GET "/api/v1/results/{id}/raw" 200
get /api/v1/cpus > /dev/null && fits "/api/v1/cpus" GET /api/v1/cpus 200
for view in "" "?sort=gmpbench.base.multiply&flagged=1" "?q=epyc&sort=cpu"; do
  get "/api/v1/leaderboard$view" > /dev/null
  fits "the leaderboard$view" GET /api/v1/leaderboard 200
done
get /api/v1/dump > /dev/null && fits "the dump's lines" GET /api/v1/dump 200 ndjson
printf 'gmpbench-retract:%s' "$id" > retract.msg
openssl pkeyutl -sign -inkey alice.pem -rawin -in retract.msg -out retract.sig
curl -sS -o resp.json -X POST -H "Gmpbench-Signature: $(openssl base64 -A < retract.sig)" \
  "$URL/api/v1/results/$id/retract"
fits "a retraction" POST "/api/v1/results/{id}/retract" 200
get /api/v1/dump > /dev/null && fits "the dump's lines with a tombstone" GET /api/v1/dump 200 ndjson
get "/api/v1/results/$id" > /dev/null && fits "a retracted result's 410" \
  GET "/api/v1/results/{id}" 410
