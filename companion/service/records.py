"""A record and the rows the store keeps for it: the envelope fields with a place of their own,
the ``setup`` column for the others, the record read back from the rows, and the check that a
record comes back whole (:func:`lost`) before anything is written."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from companion.store import Store, dumps
from models.record import RECORD_FORMAT, MalformedRecord, action_to_data, parse_record_data, record_to_data
from models.structs_base import Action, Record
from models.tables import GameSession

# Envelope fields the sessions table has a column (or the seats, or the log) for. Any other field
# a record model defines — Boursicocotte's start_animals — goes to the ``setup`` column.
ENVELOPE_COLUMNS = frozenset({"format", "game", "variant", "players", "first_player", "actions"})


def setup_fields(record: Record) -> dict[str, Any]:
    """The record's optional set-up fields beyond those with a column of their own, as JSON data
    ({} when it has none)."""
    return {k: v for k, v in _envelope_data(record).items() if k not in ENVELOPE_COLUMNS}


def _envelope_data(record: Record) -> dict[str, Any]:
    """The record as JSON data with no actions (``"actions": []``): what its envelope fields are
    read from, without dumping every action for nothing."""
    return record_to_data(record.model_copy(update={"actions": []}))


def _envelope(game: str, variant: dict[str, Any], players: Sequence[str], first_player: str,
              setup: dict[str, Any] | None = None) -> dict[str, Any]:
    """A session's record with no actions, as the store keeps it: first player explicit."""
    envelope = {"format": RECORD_FORMAT, "game": game, "variant": variant, "players": list(players),
                "first_player": first_player}
    envelope.update({k: v for k, v in (setup or {}).items() if k not in ENVELOPE_COLUMNS})
    envelope["actions"] = []
    return envelope


def refereed_actions(record: Record) -> Sequence[Action]:
    """The record's actions as models. Only a game with no referee keeps raw dicts, and the
    service never gets that far with one (:class:`scoring.referee.NoReferee` is raised first)."""
    return cast(Sequence[Action], record.actions)


@dataclass(frozen=True)
class Kept:
    """What the store writes for a record: the sessions row's arguments, the seats' names in
    order, the action log's JSON texts."""
    row: dict[str, Any]
    players: list[str]
    actions: list[str]


def kept(record: Record, assist: bool, now: datetime) -> Kept:
    row = {"game": record.game, "variant": _envelope_data(record).get("variant", {}),
           "first_player": record.starting_player, "assist": assist, "now": now, "setup": setup_fields(record)}
    return Kept(row, list(record.players), [dumps(action_to_data(a)) for a in refereed_actions(record)])


def stored_record(row: GameSession, names: Sequence[str], actions: Sequence[str]) -> Record:
    """The record a session's rows stand for: what is replayed when the game is opened.
    Raises MalformedRecord, or ValueError for JSON the store could not have written."""
    return columns_record(row.game, row.variant, row.first_player, row.setup, names, [json.loads(a) for a in actions])


def columns_record(game: str, variant: str, first_player: str, setup: str | None, names: Sequence[str],
                   actions: Sequence[Any]) -> Record:
    """:func:`stored_record` from the session row's columns (JSON texts as stored) and the
    actions' decoded JSON data: one validation of the whole record."""
    extra = json.loads(setup) if setup else None
    if extra is not None and not isinstance(extra, dict):
        raise ValueError(f"setup: {setup!r} is not a JSON object")
    envelope = _envelope(game, json.loads(variant), names, first_player, extra)
    # every part is JSON the store wrote, decoded, or text from its columns: nothing else to rule out
    return parse_record_data({**envelope, "actions": list(actions)}, decoded=True)


def lost(record: Record, kept: Kept, row: GameSession | None = None) -> list[str]:
    """The envelope fields (or "actions") that would not come back from the store as they are in
    ``record``; [] when it comes back whole. Both are compared in canonical form: first player
    explicit (the default, players[0], if the record leaves it out). ``row``: the sessions row
    :meth:`Store.session_row` made of ``kept.row`` when the caller has it already (and writes it)."""
    def canonical(parsed: Record) -> Record:
        return parsed.model_copy(update={"first_player": parsed.starting_player})

    back: Record | None
    try:
        back = canonical(stored_record(Store.session_row(**kept.row) if row is None else row, kept.players,
                                        kept.actions))
    except (MalformedRecord, ValueError):
        back = None
    want = canonical(record)
    if back == want:
        return []
    want_data = record_to_data(want)
    got = record_to_data(back) if back is not None else {}
    fields = [key for key in dict.fromkeys([*want_data, *got]) if want_data.get(key) != got.get(key)]
    return fields or list(want_data)  # unequal models with equal JSON: name everything rather than nothing
