"""The loading screen before the app's first page says nothing in English (issue #38): Flet's
compiled web client is served with its boot screen's « Working... » blanked
(companion/app/boot_message.py), through the app the server assembles (server.web_app).

A Flet upgrade that moves or changes the literal fails here
(test_the_installed_flet_client_holds_the_literal_once): the middleware then serves Flet's file
unchanged, and is to be looked at again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.app import boot_message
from companion.app.boot_message import BLANK, FILES, LITERAL, BootMessage, web_dir
from companion.app.server import web_app
from companion.app.web import PAGE_HEADERS


def _main(page: Any) -> None:  # no page is opened: only files are asked for
    raise AssertionError("no page is opened in these tests")


def _get(app: Any, *paths: str, **headers: str) -> list[httpx.Response]:
    """Each path asked of ``app`` in turn (``HEAD /x``: the method first)."""
    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8550") as client:
            answers = []
            for path in paths:
                method, _, path = path.rpartition(" ")
                answers.append(await client.request(method or "GET", path, headers=headers))
            return answers

    return asyncio.run(ask())


@pytest.fixture(scope="module")
def app() -> Iterator[Any]:
    """The ASGI app ``companion run`` serves (origin check, socket guard, session takeover, the
    boot message's middleware, Flet), as the server assembles it."""
    yield web_app(_main, 8550, [])


@pytest.fixture(scope="module")
def flet_own() -> dict[str, httpx.Response]:
    """Flet's own answers for its client's files (its app alone, no middleware of the app's)."""
    import flet as ft

    flet_app = ft.run(_main, no_cdn=True, view=ft.AppView.WEB_BROWSER, export_asgi_app=True)
    return dict(zip(FILES, _get(flet_app, *(f"/{name}" for name in FILES))))


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_installed_flet_client_holds_the_literal_once(name):
    """The middleware replaces exactly one occurrence and guesses nothing else: a Flet whose client
    holds the literal elsewhere, twice or not at all fails here (look at boot_message.py again)."""
    assert (web_dir() / name).read_bytes().count(LITERAL) == 1


def test_the_literal_is_flets_boot_message():
    """In main.dart.js the literal is the boot screen's startup_message, as flet_web 1.0.5 has it."""
    js = (web_dir() / "main.dart.js").read_bytes()
    assert b'[30,"Working..."]' in js and b"startup_message" in js
    assert len(BLANK) == len(LITERAL) and not BLANK.strip()


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_served_client_says_nothing_and_keeps_its_length(app, flet_own, name):
    original = (web_dir() / name).read_bytes()
    answer, = _get(app, f"/{name}")
    assert answer.status_code == 200
    body = answer.content
    assert LITERAL not in body  # ("WorkingPrecision", a word of another list, stays)
    assert len(body) == len(original) == int(answer.headers["content-length"])
    at = original.index(LITERAL)  # nothing else changed
    assert body[:at] == original[:at] and body[at + len(LITERAL):] == original[at + len(LITERAL):]
    assert body[at:at + len(LITERAL)] == BLANK
    flet = flet_own[name]  # Flet's own answer: the same type and isolation headers, other validators
    for header in ("content-type", "cross-origin-opener-policy", "cross-origin-embedder-policy"):
        assert answer.headers[header] == flet.headers[header], header
    assert flet.headers["content-length"] == answer.headers["content-length"]
    assert answer.headers["etag"] and answer.headers["etag"] != flet.headers["etag"]
    assert "last-modified" not in answer.headers and "accept-ranges" not in answer.headers
    for header, value in PAGE_HEADERS:  # the app's page headers still apply (OriginGuard outside)
        assert answer.headers[header.decode()] == value.decode()
    assert "access-control-allow-origin" not in answer.headers


def test_a_browser_that_has_the_served_file_is_told_so(app, flet_own):
    """If-None-Match with the served ETag: 304, no body; with Flet's (a copy from before): the
    file whole; HEAD: its headers, no body."""
    first, = _get(app, "/main.dart.js")
    again, = _get(app, "/main.dart.js", **{"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    stale, = _get(app, "/main.dart.js", **{"if-none-match": flet_own["main.dart.js"].headers["etag"]})
    assert stale.status_code == 200 and stale.content == first.content
    whole, = _get(app, "/main.dart.js", range="bytes=0-9")
    assert whole.status_code == 200 and whole.content == first.content
    head, = _get(app, "HEAD /main.dart.js")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == first.headers["content-length"]


def test_every_other_file_is_flets_own(app, flet_own):
    """Only the two files are answered by the middleware: the others, and the same names under
    another path, are Flet's answers."""
    index, bootstrap, elsewhere, mjs = _get(app, "/", "/flutter_bootstrap.js", "/foo/main.dart.js", "/main.dart.mjs")
    assert index.status_code == 200 and b"flutter_bootstrap.js" in index.content
    assert bootstrap.content == (web_dir() / "flutter_bootstrap.js").read_bytes()
    assert elsewhere.status_code == 404
    assert mjs.content == (web_dir() / "main.dart.mjs").read_bytes()
    assert "etag" in mjs.headers and "last-modified" in mjs.headers  # Flet's validators


def test_under_a_base_path_the_files_there_are_blanked(monkeypatch):
    """FLET_WEB_APP_PATH serves the app under /NAME (Flet's ft.run reads it): the middleware
    answers there."""
    monkeypatch.setenv("FLET_WEB_APP_PATH", "table")
    app = web_app(_main, 8550, [])
    under, root = _get(app, "/table/main.dart.wasm", "/main.dart.wasm")
    assert under.status_code == 200 and LITERAL not in under.content
    assert len(under.content) == (web_dir() / "main.dart.wasm").stat().st_size
    assert root.status_code == 404


def test_a_client_without_the_literal_is_served_unchanged_with_a_warning(tmp_path: Path, caplog):
    """A client that does not hold the literal exactly once (twice, or not at all) is not patched
    by guesswork: Flet serves it as it is, and a warning says so (once)."""
    (tmp_path / "main.dart.js").write_bytes(b'var a="Working...",b="Working...";')
    (tmp_path / "main.dart.wasm").write_bytes(b"\0asm nothing to see")
    asked: list[str] = []

    async def flet(scope: Any, receive: Any, send: Any) -> None:
        asked.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"flet's"})

    middleware = BootMessage(flet, base="", folder=tmp_path)
    with caplog.at_level(logging.WARNING, logger=boot_message.__name__):
        answers = _get(middleware, "/main.dart.js", "/main.dart.js", "/main.dart.wasm")
    assert [a.content for a in answers] == [b"flet's"] * 3
    assert asked == ["/main.dart.js", "/main.dart.js", "/main.dart.wasm"]
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 2 and "main.dart.js" in warned[0].getMessage()


def test_the_middleware_reads_a_file_once(tmp_path: Path, monkeypatch):
    (tmp_path / "main.dart.js").write_bytes(b'x={startup_message:"Working..."}')

    async def flet(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the file is the middleware's to answer")

    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    middleware = BootMessage(flet, base="/t/", folder=tmp_path)
    answers = _get(middleware, "/t/main.dart.js", "/t/main.dart.js")
    assert [a.content for a in answers] == [b'x={startup_message:"          "}'] * 2
    assert reads == [tmp_path / "main.dart.js"]
