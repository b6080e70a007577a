"""The browser's loading screen says nothing in any language (issue #38).

Before the app's first page, Flet's web client shows its boot screen: a spinner and the English
« Working... ». flet_web 1.0.5 writes that sentence into its compiled client, as the default
``startup_message`` of the boot screen, which web mode passes hard-coded — the app cannot set it:
``B.ehE=new A.a3(B.ep9,[30,"Working..."],t.yf)`` in ``main.dart.js`` (the dart2js build), and the
same ten ASCII bytes once in ``main.dart.wasm`` (the dart2wasm build, which Chromium loads when it
has WasmGC). The loading screen comes before the app knows the device's language, so it says
nothing: :class:`BootMessage` serves both files with :data:`LITERAL` replaced by as many spaces
(:data:`BLANK`: the same length, so the wasm module stays valid), and the spinner alone says that
the app is loading.

:class:`BootMessage` is the ASGI middleware just around Flet's app. A ``GET`` or ``HEAD`` of
``/main.dart.js`` or ``/main.dart.wasm`` under the app's base path (``FLET_WEB_APP_PATH``, read as
Flet reads it: :func:`base_path`) is answered here with the installed Flet file (from
``flet_web.get_package_web_dir()``, where Flet's static files take it: the app's assets hold no
copy), the literal replaced; the bytes are read and patched once, off the event loop, at the first
request for them, and kept in memory (18 MB for flet_web 1.0.5's two files). Everything else passes
to Flet unchanged. The answer has what Flet's own answer for the file has (its content type, its
length, the ``Cross-Origin-Opener-Policy`` / ``-Embedder-Policy`` Flet's middleware adds; the page
headers come from :class:`companion.app.web.OriginGuard` outside), but for the validators: Flet's
``ETag`` and ``Last-Modified`` name the file on disk, and the served bytes are not that file. The
answer's ``ETag`` is a hash of the served bytes, and ``If-None-Match`` with it gets ``304``; there
is no ``Last-Modified`` (so a browser asks again at each load, with that ``ETag``, and a changed
file is never taken for the one it keeps) and no ``Accept-Ranges`` (a range request gets the whole
file, as HTTP allows).

When the installed file does not hold :data:`LITERAL` exactly once (an upgraded Flet), nothing is
guessed: the file is left to Flet, unchanged, and a warning is logged once.
``tests/test_boot_message.py`` fails then, so the upgrade is noticed and this is looked at again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from pathlib import Path

from companion.app.asgi import ASGIApp, Receive, Scope, Send, header

log = logging.getLogger(__name__)

LITERAL = b"Working..."  # the boot screen's message in flet_web 1.0.5's compiled clients
BLANK = b" " * len(LITERAL)
# the files of Flet's web client that hold it, and the content type Flet's static files give each
FILES = {
    "main.dart.js": b"text/javascript; charset=utf-8",
    "main.dart.wasm": b"application/wasm",
}
# what flet_web's own middleware (fastapi/app.py, CustomHeadersMiddleware) adds to every answer;
# its Access-Control-Allow-Origin is not listed: OriginGuard drops it anyway
FLET_HEADERS = (
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-embedder-policy", b"require-corp"),
)


def base_path() -> str:
    """The path Flet's app is served under: ``""`` at the root, else ``/NAME`` for the
    ``FLET_WEB_APP_PATH`` Flet's ``ft.run`` reads when it is given no name (the server gives none)."""
    name = (os.getenv("FLET_WEB_APP_PATH") or "").strip("/")
    return f"/{name}" if name else ""


def web_dir() -> Path:
    """Where Flet's static files take its web client from (``FLET_WEB_PATH``, else flet_web's own)."""
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def blanked(original: bytes) -> bytes | None:
    """``original`` with :data:`LITERAL` made :data:`BLANK`; None unless it occurs exactly once."""
    if original.count(LITERAL) != 1:
        return None
    return original.replace(LITERAL, BLANK)


class _Served:
    """One file as it is served: its bytes and their ETag (None: the file is left to Flet)."""

    def __init__(self, path: Path) -> None:
        try:
            body = blanked(path.read_bytes())
        except OSError:  # Flet answers for a file it does not have
            body = None
        if body is None:
            log.warning("%s does not hold %r exactly once: it is served as Flet has it "
                        "(companion/app/boot_message.py is to be looked at again)", path, LITERAL.decode())
        self.body = body
        self.etag = b'"' + hashlib.blake2b(body, digest_size=16).hexdigest().encode() + b'"' if body else b""


def _matches(if_none_match: str | None, etag: bytes) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weakly compared, as for a GET)."""
    if if_none_match is None:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag.decode("ascii") in tags


class BootMessage:
    """ASGI middleware: Flet's compiled web client, its boot screen's English message blanked (see
    the module's doc). ``base``: the path Flet's app is served under (:func:`base_path` by
    default); ``folder``: where Flet's web client is (:func:`web_dir` by default)."""

    def __init__(self, app: ASGIApp, base: str | None = None, folder: Path | None = None) -> None:
        self.app = app
        prefix = base_path() if base is None else base.rstrip("/")
        self.folder = folder
        self.paths = {f"{prefix}/{name}": name for name in FILES}
        self.served: dict[str, _Served] = {}  # file name -> as served, read at its first request
        self._lock = asyncio.Lock()

    async def file(self, name: str) -> _Served:
        """The file as it is served: read and patched once (off the event loop), then kept."""
        served = self.served.get(name)
        if served is None:
            async with self._lock:  # a request meanwhile waits for that one read
                served = self.served.get(name)
                if served is None:
                    path = (self.folder or web_dir()) / name
                    served = self.served[name] = await asyncio.to_thread(_Served, path)
        return served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = self.paths.get(scope.get("path", "")) if scope["type"] == "http" else None
        if name is None or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        served = await self.file(name)
        if served.body is None:
            await self.app(scope, receive, send)
            return
        if _matches(header(scope, b"if-none-match"), served.etag):
            await send({"type": "http.response.start", "status": 304,
                        "headers": [(b"etag", served.etag), *FLET_HEADERS]})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", FILES[name]),
            (b"content-length", str(len(served.body)).encode()),
            (b"etag", served.etag),
            *FLET_HEADERS,
        ]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else served.body})
