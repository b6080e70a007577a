"""The page the browser loads: Flet's own index.html, with one guard so that nothing is fetched
from outside the app (a tablet at a table may have no internet at all).

Flet serves ``index.html`` from the app's assets directory when there is one there, in preference to
its own (``flet_web.fastapi.FletStaticFiles``). ``assets/index.html`` is therefore Flet's page plus
:data:`GUARD`, written by ``python -m companion.webpage``; a test checks that it is exactly that for
the Flet web client installed, so upgrading Flet cannot leave a stale page behind.

Why a guard: with ``no_cdn`` the renderer (CanvasKit) and the fallback fonts come from the app, but
Flet 1.0.5's compiled client (``main.dart.js``) also starts the Rive runtime by adding a
``<script src="https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/wasm/rive_native.js">``
to the page at every load, whatever the app uses. The app shows no Rive animation, so the guard
refuses to give any script a source on another origin: the client never asks, and it behaves as
it did offline before (the Rive runtime is simply never ready).
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.app import ASSETS_DIR

INDEX = ASSETS_DIR / "index.html"
MARK = "<!-- fletAppConfig -->"
GUARD = """<script>
    // Table Companion: every script comes from the app itself (see companion/webpage.py).
    (function () {
      var src = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
      Object.defineProperty(HTMLScriptElement.prototype, "src", {
        configurable: true,
        enumerable: src.enumerable,
        get: function () { return src.get.call(this); },
        set: function (value) {
          if (new URL(String(value), document.baseURI).origin !== window.location.origin) {
            console.info("companion: not loading " + value + " (no request leaves the app)");
            return;
          }
          src.set.call(this, value);
        }
      });
    })();
  </script>
"""


def flet_index() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir()) / "index.html"


def guarded(page: str) -> str:
    """Flet's index.html with the guard inserted before Flet's own configuration script."""
    if MARK not in page:
        raise ValueError(f"Flet's index.html has no {MARK}: look at what changed before serving it")
    return page.replace(MARK, GUARD + "  " + MARK, 1)


def write_index(target: Path = INDEX) -> Path:
    target.write_text(guarded(flet_index().read_text(encoding="utf-8")), encoding="utf-8")
    return target


if __name__ == "__main__":
    print(write_index(), file=sys.stderr)
