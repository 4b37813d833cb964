#!/usr/bin/env python3
"""Validates `--json` outputs against docs/schemas/ with the `jsonschema` package (a peer of the
small validator in experiments/tests/json_schemas.rs), and checks that every schema is itself a
valid draft 2020-12 schema.

    scripts/json_schemas_check.py OUTPUT.json [OUTPUT.json ...]

Each OUTPUT is one command's `--json` output; its schema is picked by its `command` field
(`compare folds` -> docs/schemas/compare-folds.schema.json). Exits 1 listing every error, 0 when
all validate. Needs `pip install jsonschema`; experiments/tests/json_schemas.rs runs it when
python3 can import jsonschema and says it is skipped otherwise.
"""

import json
import sys
from pathlib import Path

import jsonschema

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"


def main(paths):
    errors = []
    for schema_path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(schema_path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
    for path in paths:
        output = json.loads(Path(path).read_text())
        name = output["command"].replace(" ", "-", 1)
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
        for error in validator.iter_errors(output):
            errors.append(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
    print("\n".join(errors) if errors else f"{len(paths)} outputs valid")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
