"""The JSON Schemas of table-record/1 and table-verdict/1, generated from the models.

`python -m models.schema` rewrites the files (and the msgspec structs derived from the same models,
each game's `models/games/<game>_structs.py` and the shared `models/structs.py`); a test fails when
they are stale.
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


ROOT = HERE.parent.parent


def write() -> list[Path]:
    from models.schema.structs import sources

    paths = []
    for where, text in sources().items():
        path = ROOT / where
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    for name, text in generated().items():
        path = HERE / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
