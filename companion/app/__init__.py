"""The tablet app (Flet 1.0, web mode): home, new game, table, results, history, players, rules,
statistics. Screens only talk to the session service (companion.service) and render its state.

The server's boot (``companion run``: ``serve()``, each page's entry point ``make_main()``) is
:mod:`companion.app.server`.
"""

from __future__ import annotations

from pathlib import Path

import assets as _assets

# The assets package's own folder: right for an editable install and for an installed wheel alike.
ASSETS_DIR = Path(_assets.__file__).resolve().parent
