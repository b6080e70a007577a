"""The JSON Schemas of table-record/1 and table-verdict/1, generated from the models.

`python -m models.schema` rewrites the files (and the msgspec structs derived from the same models,
each game's `models/games/<game>_structs.py` and the shared `models/structs.py`; with
`COMPANION_GAMES` set, a registered package's structs too); a test fails when they are stale.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
FILES = ("table-record.schema.json", "table-verdict.schema.json")


def generated() -> dict[str, str]:
    """The shipped files' texts: the record's schema describes the app's own games (``models.games.OWN``),
    not a game registered from outside it (``COMPANION_GAMES``), whose structs are written all the same."""
    from models import record_models as record
    from models.games import OWN

    own = tuple(spec.id for spec in OWN)
    return {"table-record.schema.json": _text(record.record_json_schema(own)),
            "table-verdict.schema.json": _text(record.verdict_json_schema())}


def _text(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


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
