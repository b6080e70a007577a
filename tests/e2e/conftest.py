"""Browser fixtures: headless Debian chromium driven by Playwright, one browser (and one Playwright
driver) for the tests of this folder that a worker runs in a row.

Without chromium or Playwright the browser tests are skipped on a developer machine, but FAIL when
the environment variable CI is set: a CI run must never pass without having driven the browser.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.harness import CHROMIUM, CHROMIUM_ARGS, AppProcess, tab


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright (python) is not installed"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


@pytest.fixture(autouse=True)
def _no_silent_skip_in_ci(request):
    """Every test marked `browser` fails in CI when the browser cannot run, even one that would
    skip on its own (pytest.importorskip …): CI must never go green without the browser."""
    if request.node.get_closest_marker("browser") and os.environ.get("CI"):
        missing = _browser_missing()
        if missing:
            pytest.fail(f"browser tests cannot run in CI: {missing}", pytrace=False)


@pytest.fixture(scope="package")
def playwright_driver():
    """One Playwright driver for the browser tests a worker runs in a row (those of tests/e2e): it
    takes about half a second to start and as long to stop, and two cannot run at once in a
    thread, so the modules that run chromium elsewhere (in a network namespace:
    harness.chromium_in_namespace) launch it from this one."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright (python) is not installed")
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="package")
def chromium(playwright_driver):
    """The browser, reused by every test of tests/e2e a worker runs in a row: each test opens its
    tabs in contexts of their own (harness.tab), closed when it is done, so a browser shares
    nothing between tests but its processes; one launch instead of one a module."""
    browser = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def tablet(chromium):
    """A fresh tab the size of a 10-inch tablet in landscape."""
    with tab(chromium) as screen:
        yield screen


@pytest.fixture
def companion_app(tmp_path):
    """`companion --db <tmp> run --port <free>`; ``.stop()`` then ``.start()`` restarts it on the
    same database."""
    server = AppProcess(tmp_path / "companion.db", tmp_path / "app.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
