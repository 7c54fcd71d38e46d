# api-lib.sh: what the tests of the API's own description and caching
# (tests/t039N-server-api-*.sh) share, sourced after lib.sh and
# server-lib.sh: a Python with the jsonschema package, and signed uploads
# by one key.

# SCHEMA_PY: a python3 that has jsonschema (the system's first, which
# starts faster, else the one on PATH); empty when none has.
SCHEMA_PY=
for py in /usr/bin/python3 python3; do
  if command -v "$py" > /dev/null 2>&1 && "$py" -c 'import jsonschema' 2> /dev/null; then
    SCHEMA_PY=$py
    break
  fi
done

# need_jsonschema WHAT: skips the rest of the test, naming WHAT, when no
# python3 has jsonschema (scripts/install-deps installs python3-jsonschema).
need_jsonschema () {
  if [ -z "$SCHEMA_PY" ]; then
    skip "$1 (the Python jsonschema package is not installed)"
    exit 0
  fi
}

# upload_doc OUT KEY [server-doc.py options]: a document by KEY (made
# with make_key) into OUT, signed and uploaded; prints the status, the
# answer in resp.json.
upload_doc () {
  out=$1 key=$2
  shift 2
  make_doc "$out" "$key" "$@" && post "$out" "$(sign "$out" "$key")"
}
