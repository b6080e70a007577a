"""Game screens: the part of the table screen that belongs to one game.

Adding a game to the app = adding ONE module here, named by the game's spec (``GameSpec.screen``). The module
ends with its ``SCREEN``, the hooks of the contract :class:`GameScreen` (checked by mypy), the optional
ones defaulted by :class:`GameScreenBase`::

    class Screen(GameScreenBase):
        build = staticmethod(build)           # required
        table_log = staticmethod(table_log)   # optional hooks and constants: only what the game adds

    SCREEN: GameScreen = Screen()

where ``build(state: TableState, ctx: TableContext) -> ft.Control``:

``state`` is read-only (``state.last``: the engine's sentences for the latest entry): the engine (``state.engine``, whose documented public attributes are the
screen's only source of game facts), what is expected next (``state.expected``), the players, the
variant, the assist setting and the outcome once finished. ``ctx`` gives the screen its language
(``ctx.t``, ``ctx.say``), a draft dict that survives re-renders (``ctx.draft``: e.g. the money
cards tapped before a bid is confirmed; it is cleared whenever an entry is accepted),
``ctx.refresh()`` to re-render after changing the draft, and ``ctx.submit(action_dict)`` which
sends a table-record action through the session service: accepted → the screen is rebuilt from
the new state; refused → the table frame shows the rule id and the rule's text; nothing is saved.
When ``ctx.readonly`` is true (a finished game replayed step by step) the screen shows the state
and offers no input.

Optionally ``build_side(state, ctx) -> ft.Control``: the table frame then
shows it at the top of its side column (beside the screen on a landscape tablet, below it in
portrait), above undo and the log, and sets ``ctx.side_panel`` so that ``build`` leaves out what
the side already shows (e.g. the players' open bids). Where there is no side column (a past game
replayed) ``ctx.side_panel`` is false and ``build`` shows everything.

Optionally ``prompt(state, ctx) -> str | None``: the sentence at the top of the table when the
screen's draft knows more than the engine's expectation (Boursicocotte: whom the player challenges,
over which animal); None keeps the engine's. Optionally ``chapters(state, entries)``: the jumps a
past game's replay offers (see companion.app.chapters).

Parts of a screen are kept between renders with ``ctx.keep(slot, inputs, build)`` (see
companion.app.memo): a tap then builds only the parts whose inputs changed.

The "why?" needs nothing from the screen: every sentence an engine reports is a
``scoring.base.Event`` naming the rule ids behind it, and the frame (``scoring.base.rules_of``)
offers a "why?" on each log entry whose events name a rule, and the results a "why?" per player,
with the rules' ids, titles and texts — the same for every game.

The same builders serve a correction: the frame passes the state as it was before the entry
being corrected, ``submit`` then previews the correction, and ``ctx.ident(name)`` prefixes the
test identifiers so both never clash.

Size: ``ctx.compact`` is true on a phone-sized screen (under 600 wide: smaller cards, fewer lines),
``ctx.width`` the width the game's part gets when the frame knows it (None without a page). A module
may set ``LANDSCAPE_SHARE`` (twelfths of a wide landscape screen, default 8) when it needs more room
beside the side column (Stupide Vautour's fifteen hand cards in a row). ``state.last`` holds the
engine's sentences for the latest entry (High Society shows an auction's result from them).

Screens hold no rules logic: whatever is legal or not is the engine's business (a screen may
grey out what the engine's public state says is impossible only when ``state.assist`` is on).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, TypeVar

import flet as ft

from companion.app.chapters import Chapters
from companion.app.memo import C, Memo, NoMemo
from models.games import SPECS
from models.i18n import Msg

if TYPE_CHECKING:
    from companion.service import SessionState
    from scoring.base import Engine, Expectation, Outcome

# The engine a screen reads: each game's screen takes ``TableState[ItsEngine]`` and so reads its
# engine's own attributes with their types; the frame, which knows no game, passes ``TableState``.
E = TypeVar("E", bound="Engine", covariant=True)

# game id -> module with build(state, ctx), as each game's spec names it
SCREENS: Mapping[str, str] = {spec.id: spec.screen for spec in SPECS}


@dataclass(frozen=True)
class TableState(Generic[E]):
    """What a game screen may read. Built from the service's SessionState, or from a replay of the
    record up to some entry (corrections, past games)."""

    game: str
    variant: Mapping[str, Any]
    players: tuple[str, ...]
    first_player: str
    assist: bool
    engine: E
    expected: Expectation
    outcome: Outcome | None = None
    entries: int = 0       # how many entries the state is built from
    last: tuple[Any, ...] = ()  # the engine's sentences for the latest entry (a round just settled…)


# The draft key of the line a greyed choice's tap says (TableContext.why_not / said_why).
WHY = "greyed-why"
# The draft key of what an accepted entry leaves in the emptied draft (TableContext.submit_keeping).
CARRY = "carry-over"


@dataclass
class TableContext:
    lang: str
    submit: Callable[[dict[str, Any]], None]
    refresh: Callable[[], None]
    draft: dict[str, Any] = field(default_factory=dict)
    readonly: bool = False
    id_prefix: str = ""
    side_panel: bool = False
    # Takes the frame's refusal banner away: a screen calls it when it covers a private entry again,
    # since a refusal may quote that player's hidden money (e.g. Boursicocotte's BC-CAN-PAY).
    dismiss: Callable[[], None] | None = None
    # A phone-sized screen: the game screen uses its compact form (smaller cards, fewer lines).
    compact: bool = False
    # The width the game's part of the screen gets (logical pixels), when the frame knows it: a screen
    # may lay out a row of many tap targets by it. None: unknown (built without a page).
    width: float | None = None
    # The parts kept between renders (companion.app.memo); a screen built once builds every part.
    memo: Memo = field(default_factory=NoMemo)
    # The table as it was before an entry being corrected, which later entries may follow: what
    # those entries covered at the table since (cards played over) is not for the shared screen.
    correcting: bool = False

    def keep(self, slot: str, inputs: Any, build: Callable[[], C]) -> C:
        """``build()``, or the same control as last render when ``inputs`` are equal (see
        companion.app.memo: its handlers may read only what ``inputs`` name, or what stays the
        same object: the draft, ``submit``, ``refresh``)."""
        return self.memo.keep(self.id_prefix + slot, inputs, build)

    def last(self, slot: str) -> ft.Control | None:
        """The part last kept in ``slot`` whatever its inputs (see Memo.last), for a part hidden."""
        return self.memo.last(self.id_prefix + slot)

    def t(self, key: str, **params: Any) -> str:
        return Msg(key, params).render(self.lang)

    def say(self, message: Msg) -> str:
        return message.render(self.lang)

    def ident(self, name: str) -> str:
        """A test identifier, prefixed in a correction so both editors never clash."""
        return f"{self.id_prefix}{name}"

    def toggler(self, picked: list[Any], item: Any) -> Callable[[Any], None]:
        """A tap handler that adds ``item`` to the draft list ``picked``, or takes it out again."""
        def handler(_: Any) -> None:
            if item in picked:
                picked.remove(item)
            else:
                picked.append(item)
            self.refresh()
        return handler

    def submit_keeping(self, action: dict[str, Any], keep: Mapping[str, Any]) -> None:
        """:attr:`submit` ``action``; accepted, the draft is emptied as after every entry and then
        given ``keep`` (e.g. a player's private view that stays open for their next entry); refused,
        the draft is as it was."""
        self.draft[CARRY] = dict(keep)
        try:
            self.submit(action)
        finally:
            self.draft.pop(CARRY, None)

    def why_not(self, line: str) -> Callable[[Any], None]:
        """The tap handler of a greyed choice (a card that cannot be chosen now): it enters nothing
        and says ``line``, why not, in one line where the screen shows :meth:`said_why`."""
        def handler(_: Any) -> None:
            self.draft[WHY] = line
            self.refresh()
        return handler

    def said_why(self) -> str | None:
        """The line the tap on a greyed choice just said, once: it is taken out of the draft, so
        the next render (the next tap, an entry) no longer shows it. A screen reads it once a build."""
        line = self.draft.pop(WHY, None)
        return line if isinstance(line, str) else None

    def clearer(self, picked: list[Any] | dict[Any, Any]) -> Callable[[Any], None]:
        """A tap handler that empties the draft collection ``picked``."""
        def handler(_: Any) -> None:
            picked.clear()
            self.refresh()
        return handler


class GameScreen(Protocol):
    """What the table frame, the past game's replay and the set-up read of a game's screen: every
    hook, declared once and checked by mypy against each game's ``SCREEN`` (its module's last
    lines). A game states only what it adds; :class:`GameScreenBase` gives the rest."""

    # twelfths of a wide landscape screen the game's part takes beside the side column
    LANDSCAPE_SHARE: int
    # the action types entered in a player's private view (a later one's refusal is not quoted)
    PRIVATE_ENTRIES: tuple[str, ...]

    @property
    def side(self) -> bool:
        """Whether :meth:`build_side` shows a part of its own (``ctx.side_panel`` for ``build``)."""
        ...

    def build(self, state: TableState, ctx: TableContext) -> ft.Control:
        """The game's part of the table (required)."""
        ...

    def build_side(self, state: TableState, ctx: TableContext) -> ft.Control | None:
        """The top of the frame's side column (None: nothing of the game's there)."""
        ...

    def prompt(self, state: TableState, ctx: TableContext) -> str | None:
        """The table's sentence when the draft knows more than the engine's prompt (None: the engine's)."""
        ...

    def table_log(self, state: TableState, entries: Sequence[Any]) -> Sequence[tuple[Msg, ...]]:
        """What the shared log may say of each of ``entries`` (table-fair)."""
        ...

    def chapters(self, state: TableState, entries: Sequence[Any]) -> Chapters:
        """The jumps a past game's replay offers (companion.app.chapters)."""
        ...

    def build_setup(self, app: Any, draft: Any) -> tuple[str, ft.Control, str] | None:
        """The game's own section of the set-up: (heading, body, ident), or None."""
        ...

    def correction_draft(self, state: TableState, action: Mapping[str, Any]) -> dict[str, Any]:
        """The draft a correction of ``action`` opens with (``state``: the table before it), so the
        table changes what was wrong and keeps the rest ({}: entered again from nothing)."""
        ...


class GameScreenBase(ABC):
    """The defaults of :class:`GameScreen`'s optional hooks; a game's ``Screen`` subclasses it and
    sets its own (a module function as a ``staticmethod``)."""

    LANDSCAPE_SHARE: int = 8
    PRIVATE_ENTRIES: tuple[str, ...] = ()

    @property
    def side(self) -> bool:
        return type(self).build_side is not GameScreenBase.build_side

    @abstractmethod
    def build(self, state: TableState, ctx: TableContext) -> ft.Control:
        ...

    def build_side(self, state: TableState, ctx: TableContext) -> ft.Control | None:
        return None

    def prompt(self, state: TableState, ctx: TableContext) -> str | None:
        return None

    def table_log(self, state: TableState, entries: Sequence[Any]) -> Sequence[tuple[Msg, ...]]:
        return [tuple(entry.events) for entry in entries]  # the engine's sentences as they are

    def chapters(self, state: TableState, entries: Sequence[Any]) -> Chapters:
        return []

    def build_setup(self, app: Any, draft: Any) -> tuple[str, ft.Control, str] | None:
        return None

    def correction_draft(self, state: TableState, action: Mapping[str, Any]) -> dict[str, Any]:
        return {}


def screen_for(game: str) -> GameScreen | None:
    """The game's screen: the ``SCREEN`` its spec's module declares (None: no screen)."""
    target = SCREENS.get(game)
    if not target:
        return None
    screen: GameScreen = import_module(target).SCREEN
    return screen


def playable_games() -> tuple[str, ...]:
    """Games the app can offer: a registered engine AND a table screen."""
    from scoring.registry import refereed_games

    return tuple(game for game in refereed_games() if game in SCREENS)


def variant_dict(variant: Any) -> dict[str, Any]:
    if variant is None:
        return {}
    if isinstance(variant, Mapping):
        return dict(variant)
    dump = getattr(variant, "model_dump", None)
    return dict(dump(exclude_none=True)) if dump else {}


def _state(session: SessionState, engine: Engine, expected: Expectation, outcome: Outcome | None,
           entries: int, last: tuple[Msg, ...] = ()) -> TableState:
    return TableState(
        game=session.game,
        variant=variant_dict(session.variant),
        players=tuple(session.players),
        first_player=session.first_player,
        assist=bool(session.assist),
        engine=engine,
        expected=expected,
        outcome=outcome,
        entries=entries,
        last=last,
    )


def state_from_session(session: SessionState) -> TableState:
    log = session.log
    last = tuple(log[-1].events) if log else ()
    return _state(session, session.engine, session.expected, session.outcome, len(log), last)


def state_at(session: SessionState, upto: int) -> TableState:
    """The table as it was before entry ``upto`` (0-based): a replay of the first ``upto``
    entries of the session's record."""
    from scoring.referee import replay

    done = replay(session.record, upto=upto)
    engine = done.engine
    return _state(session, engine, engine.expected(), engine.outcome(), done.applied)
