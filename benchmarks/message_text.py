"""Flet's debug text of every message, measured on each game's entries (no browser).

flet_web 1.0.5 builds ``f"send_message: {message}"`` for a debug log line on every message it sends
(``FletApp.send_message``), whatever the log level: the repr of every control the patch adds, field
by field. This prints, per game, what one entry costs the server in process (the table's submit
and the patch Flet computes: ``Session`` on a recording connection, as
tests/test_table_entry_patch.py does), what that text costs on top, and the msgpack encoding beside
it, with Flet's own ``Message.__str__`` and with the app's (companion/app/flet_messages.py: the text
only when the transport log is on for DEBUG).

    python benchmarks/message_text.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _setup  # noqa: F401  (puts the repository on sys.path)
import msgpack
from flet.controls.context import _context_page
from flet.messaging.protocol import Message

from companion.app import flet_messages
from tests.support.table_entry import ENCODE, GAMES, Recording, entries, open_table


class Timed(Recording):
    """A recording connection that times the debug text and the encoding of each message."""

    def __init__(self) -> None:
        super().__init__()
        self.text_s = 0.0
        self.text_chars = 0
        self.pack_s = 0.0

    def send_message(self, message: Any) -> None:
        t0 = time.perf_counter()
        said = f"send_message: {message}"  # the line of flet_web's FletApp.send_message
        t1 = time.perf_counter()
        msgpack.packb([message.action, message.body], default=ENCODE)
        t2 = time.perf_counter()
        self.text_s += t1 - t0
        self.text_chars += len(said)
        self.pack_s += t2 - t1
        self.sent += 1


def run(game: str, work: Path, patched: bool) -> tuple[float, float, float, int, int]:
    """ms per entry: (the entry's submit and patch, the debug text, msgpack), chars per entry, entries.
    ``patched``: with the app's ``Message.__str__`` (else Flet's own, put back after the app's page
    installed the app's)."""
    import tests.support.table_entry as harness

    players, start, actions = entries(game)
    harness.Recording = Timed  # open_table makes its page on this connection
    try:
        service, app, sid, session = open_table(work, game, players, **start)
    finally:
        harness.Recording = Recording
    if not patched:
        Message.__str__ = flet_messages.FLET_STR  # type: ignore[method-assign]
    connection = session.connection
    import companion.app.screens.table as table_screen
    from companion.app.games import TableContext

    contexts: list[TableContext] = []

    class Seen(TableContext):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            contexts.append(self)

    table_screen.TableContext = Seen  # type: ignore[misc]
    try:
        app.render()
        connection.text_s = connection.pack_s = 0.0
        connection.text_chars = 0
        started = time.perf_counter()
        for action in actions:
            contexts[-1].submit(action)
        total = time.perf_counter() - started
    finally:
        table_screen.TableContext = TableContext  # type: ignore[misc]
    n = len(actions)
    return total * 1000 / n, connection.text_s * 1000 / n, connection.pack_s * 1000 / n, connection.text_chars // n, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each game's entries (default 3; the best is kept)")
    args = parser.parse_args(argv)
    print(f"Flet's debug text per entry, in process; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for label, patched in (("Flet's Message.__str__", False), ("the app's (flet_messages)", True)):
        print(f"-- {label}")
        for game in GAMES:
            best = None
            for r in range(args.rounds):
                token = _context_page.set(None)  # each table on a page of its own (see the test's fixture)
                try:
                    with tempfile.TemporaryDirectory() as tmp:
                        figures = run(game, Path(tmp), patched)
                finally:
                    _context_page.reset(token)
                if best is None or figures[0] < best[0]:
                    best = figures
            assert best is not None
            total, text, pack, chars, n = best
            print(f"  {game:<18} entry {total:6.2f} ms  debug text {text:5.2f} ms ({100 * text / total:4.1f}%, "
                  f"{chars:>7,} chars)  msgpack {pack:5.2f} ms  (n={n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
