"""The history in a real browser: two games imported through the file picker (an upload), the list
filtered by status and by a name search, a past game opened and replayed step by step with a
step's "why?"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from models.i18n import Msg
from models.record import parse_record_data
from scoring.referee import replay
from tests.e2e.harness import Screen, sel
from tests.support.games import hs_designed, hs_long

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

DONE = hs_designed(["Anne", "Bruno", "Chloé"], "Anne")
GOING = hs_long(["Lou", "Marc", "Nina"], final=False)


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def pick_file(screen: Screen, ident: str, path) -> None:
    """Tap the control that opens the file picker and hand it ``path``, as a person choosing a
    file would. The tap is a real mouse click on the control (a browser opens a file picker only
    during a user's gesture), once the control has stopped moving; tried up to three times (under
    load the first tap may land while the page is still rebuilding)."""
    from playwright.sync_api import Error

    screen.scroll_top()
    for attempt in range(3):
        node = screen.wait_for(ident)
        box = None
        for _ in range(40):  # the canvas settles: the same place two frames apart
            first = node.bounding_box()
            screen.frames(2)
            box = node.bounding_box()
            if first == box and box is not None:
                break
        assert box is not None
        try:
            with screen.page.expect_file_chooser(timeout=6_000) as chosen:  # a landed click opens it at once
                screen.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        except Error:
            if attempt == 2:
                raise
            continue
        chosen.value.set_files(str(path))
        return


def test_history_import_filter_and_replay(tablet: Screen, companion_app, tmp_path):
    screen = tablet
    screen.open(companion_app.url)
    screen.click("home-history")
    screen.wait_for("history-empty")

    upload = tmp_path / "club.json"
    upload.write_text(json.dumps([DONE, GOING], ensure_ascii=False), encoding="utf-8")
    pick_file(screen, "import-file", upload)
    screen.wait_text(fr("app.history.imported_n", count=2), "notice")
    screen.wait_for("history-1")
    screen.wait_for("history-2")
    screen.wait_text(fr("app.history.count", count=2), "history-count")
    # the list first: at 1280×800 with the page at its top, both games are wholly in view, and no
    # filter is shown before the button that unfolds them
    screen.scroll_top()
    for ident in ("history-filters-toggle", "history-1", "history-2"):
        box = screen.box(ident)
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, (ident, box)
    assert not screen.exists("filter-status-finished")
    if os.environ.get("SCREENSHOTS"):
        screen.screenshot(SHOTS / "history-tablet.png")

    # filters (folded under one button, the list first): finished games only, then a search on a
    # player's name (accents and case ignored)
    screen.click("history-filters-toggle")
    screen.click("filter-status-finished")
    screen.wait_gone("history-2")
    assert screen.exists("history-1")
    screen.click("filter-status-all")
    screen.wait_for("history-2")
    screen.type_into("filter-search", "nina")
    screen.click("filter-apply")
    screen.wait_gone("history-1")
    screen.type_into("filter-search", "CHLOE")
    screen.click("filter-apply")
    screen.wait_gone("history-2")

    # the past game: its result, then step by step from the start
    screen.click("history-1")
    total = len(DONE["actions"])
    screen.wait_text(fr("app.past.step", k=total, n=total), "step-label")
    screen.wait_text(fr("app.results.winner", player="Anne"), "past-result-headline")
    screen.click("step-first")
    screen.wait_text(fr("app.past.step", k=0, n=total), "step-label")
    record = parse_record_data(DONE)
    for k in (1, 2, 3):
        screen.click("step-next")
        screen.wait_text(fr("app.past.step", k=k, n=total), "step-label")
        events = " ".join(m.render("fr") for m in replay(record, upto=k).events[-1])
        screen.wait_text(events.split(".")[0], "step-events")
    screen.click("step-prev")
    screen.wait_text(fr("app.past.step", k=2, n=total), "step-label")
    screen.click("step-why")
    prompt = replay(record, upto=2).engine.expected().prompt.render("fr")
    screen.wait_text(fr("app.past.why_next", prompt=prompt).split(":")[0], "why-step-text")
    screen.click("why-step-close")
    screen.wait_gone("why-step-text")
    screen.click("step-last")
    screen.wait_text(fr("app.past.step", k=total, n=total), "step-label")
    assert screen.page.locator(sel("step-next")).count() == 1
    # a chapter in one tap: the second auction opens with the second card revealed
    second = [i + 1 for i, a in enumerate(DONE["actions"]) if a["type"] == "reveal"][1]
    screen.click("chapter-1")
    screen.wait_text(fr("app.past.step", k=second, n=total), "step-label")
    if os.environ.get("SCREENSHOTS"):
        screen.page.mouse.move(640, 400)
        screen.page.mouse.wheel(0, 2000)  # down to the replay: its steps and chapters
        screen.screenshot(SHOTS / "past-game-chapters.png", top=False)


def test_export_in_a_browser_is_a_download_on_this_device(tablet: Screen, companion_app, tmp_path):
    """In web mode the file is handed to the browser (the device at the table), not only written
    on the machine serving the app."""
    screen = tablet
    screen.open(companion_app.url)
    screen.click("home-history")
    screen.wait_for("history-empty")
    upload = tmp_path / "two.json"
    upload.write_text(json.dumps([DONE, GOING], ensure_ascii=False), encoding="utf-8")
    pick_file(screen, "import-file", upload)
    screen.wait_for("history-2")
    with screen.page.expect_download(timeout=30_000) as got:
        screen.click("export-all")
    download = got.value
    assert download.suggested_filename.startswith("table-companion-all") and \
        download.suggested_filename.endswith(".json")
    records = json.loads(open(download.path(), encoding="utf-8").read())
    assert len(records) == 2 and {r["game"] for r in records} == {"high-society"}
    screen.wait_text(fr("app.history.downloaded", count=2, file=download.suggested_filename), "notice")
    # one game, from its page
    screen.click("history-1")
    screen.wait_for("export-one")
    with screen.page.expect_download(timeout=30_000) as got:
        screen.click("export-one")
    one = json.loads(open(got.value.path(), encoding="utf-8").read())
    assert one["players"] == DONE["players"]
