#!/usr/bin/env python3
"""Validates NDJSON output against MotionBatch's JSON Schemas (docs/schemas/).

    scripts/validate-json.py SCHEMA_NAME FILE.ndjson   # e.g. replay FILE: docs/schemas/replay.schema.json

FILE is one JSON object (indented or not) or NDJSON, one object per line; each must validate (the schemas' cross-references between
files of docs/schemas/ are resolved locally). Exit 0 when all do, 1 with the first errors, 77 when
the Python package jsonschema is not installed (the tests skip then). A test oracle and tool, never
used by MotionBatch at run time.
"""
import json, pathlib, sys
try:
    import jsonschema
    from referencing import Registry, Resource
except ImportError:
    print("jsonschema is not installed (pip install jsonschema, or apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(77)

root = pathlib.Path(__file__).resolve().parent.parent / "docs" / "schemas"
resources = []
for path in sorted(root.glob("*.schema.json")):
    contents = json.loads(path.read_text())
    resources.append((contents["$id"], Resource.from_contents(contents)))
registry = Registry().with_resources(resources)
schema = json.loads((root / f"{sys.argv[1]}.schema.json").read_text())
validator = jsonschema.Draft202012Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())
jsonschema.Draft202012Validator.check_schema(schema)
failures = 0
text = pathlib.Path(sys.argv[2]).read_text()
try:
    lines = [json.dumps(json.loads(text))]  # one (possibly indented) object
except json.JSONDecodeError:
    lines = text.splitlines()  # NDJSON: one object per line
if not lines:
    print("no lines to validate", file=sys.stderr)
    sys.exit(1)
for number, line in enumerate(lines, 1):
    try:
        value = json.loads(line)
    except json.JSONDecodeError as e:
        print(f"line {number}: not one JSON object per line: {e}", file=sys.stderr)
        failures += 1
        continue
    for error in validator.iter_errors(value):
        print(f"line {number}: {'/'.join(map(str, error.absolute_path))}: {error.message}", file=sys.stderr)
        failures += 1
        if failures > 20:
            sys.exit(1)
print(f"{len(lines)} lines valid" if failures == 0 else f"{failures} errors", file=sys.stderr)
sys.exit(1 if failures else 0)
