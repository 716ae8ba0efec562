"""Validate scenario files against the schema `gpucap schema` printed (tests/e2e/schema.sh).

usage: schema_check.py SCHEMA.json good|bad FILE...
good: every file must validate; bad: every file must be rejected. Prints one line per file that does not
behave, and exits 1 if any. YAML is read as an editor's language server reads it, with the YAML 1.2 core
schema (unquoted times stay strings, 1e3 is a number, yes/no are strings), not PyYAML's YAML 1.1 default.
"""
import json
import re
import sys

import jsonschema
import yaml


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with the YAML 1.2 core schema's implicit types in place of YAML 1.1's."""


CoreLoader.yaml_implicit_resolvers = {}
CORE = [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
]
for tag, pattern, first in CORE:
    CoreLoader.add_implicit_resolver(tag, re.compile(pattern), list(first) + ([""] if tag.endswith("null") else []))


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith(("0o", "0x")):
        return int(text, 0)
    return int(text, 10)


def construct_float(loader, node):
    text = loader.construct_scalar(node).lower().replace("inf", "inf").replace(".nan", "nan")
    return float(text.replace(".inf", "inf"))


CoreLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", construct_float)


def main():
    schema_path, mode, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in files:
        with open(path) as f:
            doc = yaml.load(f, Loader=CoreLoader)
        errors = list(validator.iter_errors(doc))
        if mode == "good" and errors:
            e = errors[0]
            print(f"{path}: rejected by the schema at {'.'.join(map(str, e.absolute_path)) or '(top)'}: "
                  f"{e.message[:300]}")
            bad += 1
        elif mode == "bad" and not errors:
            print(f"{path}: accepted by the schema, expected a rejection")
            bad += 1
    print(f"{len(files) - bad} of {len(files)} {mode} files as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
