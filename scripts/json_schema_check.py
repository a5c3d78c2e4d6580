#!/usr/bin/env python3
"""Check JSON documents against a JSON Schema, with the standard library only.

Usage: json_schema_check.py SCHEMA FILE...   (FILE "-" reads stdin)

Covers the part of draft 2020-12 that docs/*.schema.json use: type, enum,
const, properties, required, additionalProperties, items, maxItems, minimum,
maximum, allOf, if/then and local $ref ("#/$defs/NAME").  A keyword it does not know
is an error, so a schema cannot silently outgrow the checker.  Prints one
line per violation, "FILE: PATH: what", and exits 1 if there was any.
"""
import json
import sys

KNOWN = {"$schema", "$id", "title", "description", "type", "enum", "const",
         "properties", "required", "additionalProperties", "items", "maxItems",
         "minimum", "maximum", "allOf", "if", "then", "$ref", "$defs"}

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def resolve(root, ref):
    if not ref.startswith("#/"):
        raise ValueError(f"only local $ref is supported, not {ref}")
    node = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def check(root, schema, value, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"schema at {path}: unsupported keywords {sorted(unknown)}")
    if "$ref" in schema:
        check(root, resolve(root, schema["$ref"]), value, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            errors.append(f"{path}: expected {'/'.join(types)}, got {json.dumps(value)[:60]}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {json.dumps(schema['const'])}, got {json.dumps(value)[:60]}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {json.dumps(value)[:60]} is not one of {schema['enum']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above {schema['maximum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: required key {name!r} is missing")
        for name, item in value.items():
            sub = f"{path}.{name}"
            if name in props:
                check(root, props[name], item, sub, errors)
            elif schema.get("additionalProperties") is False:
                errors.append(f"{sub}: not a key the schema knows")
            elif isinstance(schema.get("additionalProperties"), dict):
                check(root, schema["additionalProperties"], item, sub, errors)
    if isinstance(value, list) and len(value) > schema.get("maxItems", len(value)):
        errors.append(f"{path}: {len(value)} items, at most {schema['maxItems']}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(root, schema["items"], item, f"{path}[{i}]", errors)
    for sub in schema.get("allOf", []):
        check(root, sub, value, path, errors)
    if "if" in schema:
        probe = []
        check(root, schema["if"], value, path, probe)
        if not probe and "then" in schema:
            check(root, schema["then"], value, path, errors)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    bad = 0
    for name in argv[2:]:
        text = sys.stdin.read() if name == "-" else open(name).read()
        try:
            doc = json.loads(text)
        except ValueError as e:
            print(f"{name}: not JSON: {e}")
            bad += 1
            continue
        errors = []
        check(schema, schema, doc, "$", errors)
        for e in errors:
            print(f"{name}: {e}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
