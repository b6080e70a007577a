"""The JSON Schemas of table-record/1 and table-verdict/1, generated from the models.

`python -m models.schema` rewrites the files (and the msgspec structs derived from the same models,
`models/structs.py`); a test fails when they are stale.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
FILES = {
    "table-record.schema.json": "record_json_schema",
    "table-verdict.schema.json": "verdict_json_schema",
}


def generated() -> dict[str, str]:
    from models import record

    return {name: json.dumps(getattr(record, fn)(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
            for name, fn in FILES.items()}


STRUCTS = HERE.parent / "structs.py"


def write() -> list[Path]:
    from models.schema.structs import source

    STRUCTS.write_text(source(), encoding="utf-8")
    paths = [STRUCTS]
    for name, text in generated().items():
        path = HERE / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
