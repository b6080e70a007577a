"""A finished game as BG Stats' push-a-play JSON, and the link that carries it
(``https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>``): what a phone with BG
Stats opens, from a QR code or a button, to log the play. Pure: the game's figures in, JSON out.

- ``sourcePlayId`` is the game's stable id (``<store id>/<session id>`` where it was first kept,
  the ``origin`` of a game copied to a club's database): a second push of the same game is
  recognised as the same play, from the tablet or from the club;
- ``sourcePlayerId`` is the player's name without case or accents' composition
  (:func:`models.names.name_key`), what matches a tablet's profile with a club's;
- ``playDate`` is the start, local time; ``durationMin`` the minutes played (0: an imported game);
- every boolean is always present (BG Stats' Android app fails on a missing one); ``bggId`` only
  where the game's spec knows the id for sure (High Society: 220), as a JSON number;
- every game here ranks the higher score first (``scoring.base.rank_by``): ``highestWins`` is true
  and ``noPoints`` false;
- a player the game cast out (High Society's poorest, the CSV's ``out``) has no field of its own:
  push-a-play's players have none for it (name, score, winner, rank, startPlayer, newPlayer, role,
  color, team, seatOrder…); the out player's ``rank`` (after every player still in) and
  ``winner`` (false) say it, and the score is kept as counted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any, Sequence
from urllib.parse import quote

from models.games import SPEC_OF
from models.names import name_key

SOURCE_NAME = "Table Companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


@dataclass(frozen=True)
class PlayedSeat:
    name: str  # the profile's name (as the history shows it)
    score: int | float
    place: int
    winner: bool
    started: bool  # the first player


@dataclass(frozen=True)
class PlayedGame:
    stable_id: str
    game: str
    game_name: str
    started_at: datetime  # aware
    duration_s: float
    table: str | None
    seats: Sequence[PlayedSeat]


def play(game: PlayedGame, tz: tzinfo | None = None) -> dict[str, Any]:
    """The push-a-play JSON object of a finished game; ``tz``: the local time zone of
    ``playDate`` (None: this machine's)."""
    start = game.started_at.astimezone(tz)
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game.stable_id,
        "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": int(round(game.duration_s / 60)),
    }
    if game.table:
        out["location"] = game.table
    described: dict[str, Any] = {"name": game.game_name, "sourceGameId": game.game}
    bgg_id = SPEC_OF[game.game].bgg_id if game.game in SPEC_OF else None  # known for sure, or left out
    if bgg_id is not None:
        described["bggId"] = bgg_id
    out["game"] = {**described, "highestWins": True, "noPoints": False}
    out["players"] = [{"name": s.name, "sourcePlayerId": name_key(s.name), "score": s.score, "winner": bool(s.winner),
                       "startPlayer": bool(s.started), "rank": int(s.place)} for s in game.seats]
    return out


def link(data: dict[str, Any]) -> str:
    """The push-a-play link of a JSON object (compact JSON, every character URL-encoded)."""
    return CREATE_PLAY + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
