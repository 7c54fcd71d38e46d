#!/usr/bin/env python3
# schema-check.py: a real JSON Schema validator (the Python jsonschema
# package, draft 2020-12) over documents, for the API tests (t039x).
#
#   schema-check.py SCHEMA FILE...
#
# Prints one line per FILE, "valid FILE" or "invalid FILE: MESSAGE" (the
# first error), and exits 0; 2 when SCHEMA itself is not a valid draft
# 2020-12 schema, 3 when jsonschema is not installed.
import json, sys

try:
    import jsonschema
except ImportError:
    sys.exit(3)


def main(argv):
    with open(argv[1]) as f:
        schema = json.load(f)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        print("the schema is not valid draft 2020-12: %s" % e.message)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    for name in argv[2:]:
        try:
            with open(name, encoding="utf-8") as f:
                doc = json.load(f)
        except ValueError as e:
            print("invalid %s: not JSON (%s)" % (name, e))
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if error is None:
            print("valid %s" % name)
        else:
            where = "/".join(str(p) for p in error.absolute_path)
            print("invalid %s: %s at %s" % (name, error.message[:200], where or "the top"))
    return 0


sys.exit(main(sys.argv))
