#!/usr/bin/env python3
# openapi-check.py: docs/openapi.json against the server, for
# tests/t0391-server-api-docs.sh.
#
#   openapi-check.py routes OPENAPI PROTOCOL_H ROUTES_C...
#       every row of the routing tables (the `routes[]` arrays of the
#       ROUTES_C files, their macros read from those files and from
#       PROTOCOL_H) is an operation of OPENAPI, and every operation is a
#       row; prints each difference on a line and exits 1 when there is one.
#   openapi-check.py answer OPENAPI SCHEMA METHOD PATH STATUS FILE [ndjson]
#       FILE (each of its lines with ndjson) fits the schema OPENAPI gives
#       the answer STATUS of METHOD on PATH (a path of OPENAPI, "{id}"
#       and all), "#/components/..." read in OPENAPI and the result
#       schema's address in SCHEMA (docs/result.schema.json); prints
#       "valid" or "invalid: WHY" and exits 0 or 1.
import json, re, sys

RESULT_SCHEMA_PATH = "/api/v1/schema/result.json"


def macros(*files):
    """NAME -> string of every #define NAME "..." in FILES."""
    table = {}
    for name in files:
        with open(name) as f:
            for m in re.finditer(r'^#define\s+(\w+)\s+((?:"[^"]*"\s*)+)$', f.read(), re.M):
                table[m.group(1)] = "".join(re.findall(r'"([^"]*)"', m.group(2)))
    return table


def routes(name, table):
    """(METHOD, PATTERN) of each row of the routes[] array in NAME."""
    with open(name) as f:
        text = f.read()
    block = re.search(r'struct route routes\[\]\s*=\s*\{(.*?)\n\};', text, re.S).group(1)
    rows = []
    for m in re.finditer(r'\{\s*"(\w+)",\s*([^,]+?),\s*\w+\s*\}', block):
        parts = re.findall(r'"([^"]*)"|(\w+)', m.group(2))
        pattern = "".join(lit if lit else table[macro] for lit, macro in parts)
        rows.append((m.group(1), pattern))
    return rows


def check_routes(openapi, protocol_h, sources):
    with open(openapi) as f:
        spec = json.load(f)
    described = set()
    for path, item in spec["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "delete", "patch", "options", "head"):
                described.add((method.upper(), re.sub(r"\{[^}]+\}", "*", path)))
    routed = {}
    for source in sources:
        table = macros(source, protocol_h)
        for row in routes(source, table):
            routed[row] = source
    problems = 0
    for method, pattern in sorted(set(routed) - described):
        print("undescribed: %s %s (%s) is not in %s" % (method, pattern, routed[(method, pattern)],
                                                      openapi))
        problems += 1
    for method, pattern in sorted(described - set(routed)):
        print("not routed: %s %s is in %s but in no routing table" % (method, pattern, openapi))
        problems += 1
    print("%d routes, %d operations, %d differences" % (len(routed), len(described), problems))
    return 1 if problems else 0


def check_answer(openapi, schema_file, method, path, status, body, ndjson):
    import jsonschema
    with open(openapi) as f:
        spec = json.load(f)
    with open(schema_file) as f:
        result_schema = json.load(f)
    base = "http://server.invalid/api/v1/openapi.json"
    resolver = jsonschema.RefResolver(base, spec)
    resolver.store["http://server.invalid" + RESULT_SCHEMA_PATH] = result_schema
    answer = spec["paths"][path][method.lower()]["responses"][status]
    if "$ref" in answer:
        answer = resolver.resolve(answer["$ref"])[1]
    media = answer["content"]
    kind = "application/x-ndjson" if ndjson else "application/json"
    schema = media[kind].get("itemSchema" if ndjson else "schema")
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    with open(body, encoding="utf-8") as f:
        docs = [json.loads(line) for line in f if line.strip()] if ndjson else [json.load(f)]
    for doc in docs:
        error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "the top"
            print("invalid: %s at %s" % (error.message[:300], where))
            return 1
    print("valid (%d)" % len(docs))
    return 0


def main(argv):
    if argv[1] == "routes":
        return check_routes(argv[2], argv[3], argv[4:])
    if argv[1] == "answer":
        return check_answer(*argv[2:8], ndjson=len(argv) > 8 and argv[8] == "ndjson")
    sys.exit("openapi-check.py: routes or answer")


sys.exit(main(sys.argv))
