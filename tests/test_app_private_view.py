"""The private view ("hand the tablet to … / show me / hide"), one component for every game that
has one: opening it for one player at one point of the game, covering it again (forgetting the
draft and taking the frame's refusal away), its locked panel, and the two games that use it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app import probe, ui
from companion.app.games import TableContext
from companion.app.games import animalia as animalia_screen
from companion.app.games import boursicocotte as boursicocotte_screen
from companion.app.private_view import PrivateView
from models.i18n import LANGUAGES, has_text

VIEW = PrivateView("bc", "bc-pass", ("cards",), "app.bc.pass_to", "app.bc.show_me", "app.bc.private_title",
                   "app.bc.hide")


class Frame:
    """A table frame's part in the view: the draft, a refresh counter and the refusal it shows."""

    def __init__(self, prefix: str = "") -> None:
        self.refreshed = 0
        self.refusal: str | None = "BC-CAN-PAY"
        self.ctx = TableContext(lang="en", submit=lambda _: None, refresh=self.refresh, id_prefix=prefix,
                                dismiss=self.dismiss)

    def refresh(self) -> None:
        self.refreshed += 1

    def dismiss(self) -> None:
        self.refusal = None


def test_show_me_opens_the_view_for_its_token_and_sets_the_draft_it_is_given() -> None:
    frame = Frame()
    button = VIEW.show_me(frame.ctx, "Bruno", "payment|Bruno|4", cards=[])
    assert probe.idents(button) == ["bc-show-me"]
    assert probe.text_of(button) == frame.ctx.t("app.bc.show_me", player="Bruno")
    assert not VIEW.is_open(frame.ctx, "payment|Bruno|4")
    probe.tap(button, "bc-show-me")
    assert frame.ctx.draft == {"open": "payment|Bruno|4", "cards": []} and frame.refreshed == 1
    assert VIEW.is_open(frame.ctx, "payment|Bruno|4")
    assert not VIEW.is_open(frame.ctx, "payment|Bruno|5")  # a later point of the game: covered


def test_hide_forgets_the_private_draft_and_takes_the_refusal_away() -> None:
    frame = Frame()
    frame.ctx.draft.update(open="payment|Bruno|4", cards=["10-0"], bid=30)
    panel = VIEW.panel(frame.ctx, "Bruno", [])
    probe.tap(panel, "bc-hide")
    assert frame.ctx.draft == {"bid": 30}  # what is not private stays
    assert frame.refusal is None and frame.refreshed == 1


def test_the_open_view_and_the_cover_carry_the_game_identifiers_and_texts() -> None:
    frame = Frame(prefix="fix-")
    body = ui.text("the entry", ident="fix-bc-entry")
    panel = VIEW.panel(frame.ctx, "Bruno", [body])
    assert probe.idents(panel) == ["fix-bc-private", "fix-bc-private-title", "fix-bc-hide", "fix-bc-entry"]
    assert probe.text_of(panel, "fix-bc-private-title") == frame.ctx.t("app.bc.private_title", player="Bruno")
    assert probe.text_of(panel, "fix-bc-hide") == frame.ctx.t("app.bc.hide")
    cover = VIEW.cover(frame.ctx, "Bruno", "why", [VIEW.show_me(frame.ctx, "Bruno", "t")])
    assert probe.idents(cover) == ["fix-bc-cover", "fix-bc-pass", "fix-bc-show-me"]
    assert frame.ctx.t("app.bc.pass_to", player="Bruno") in probe.text_of(cover, "fix-bc-pass")


@pytest.mark.parametrize("screen, prefix, pass_ident", [(animalia_screen, "ani", "ani-pass-tablet"),
                                                        (boursicocotte_screen, "bc", "bc-pass")])
def test_animalia_and_boursicocotte_use_the_one_private_view(screen: Any, prefix: str, pass_ident: str) -> None:
    view = screen.PRIVATE
    assert isinstance(view, PrivateView)
    assert (view.prefix, view.pass_ident) == (prefix, pass_ident)
    for key in (view.pass_to, view.show_me_text, view.title, view.hide):
        assert all(has_text(key, lang) for lang in LANGUAGES), key
